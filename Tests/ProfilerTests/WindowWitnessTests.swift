import Foundation
import Testing
import Profiler
import ProfilerCatalog
import ProfilerChecks
import ProfilerComparison
import ProfilerHooks
import ProfilerModel
import ProfilerOutputs
import ProfilerPrimitives
import ProfilerQueries
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerStore
import ProfilerSupport

/// A process-wide window against heaptrack on the same run: hook-witness measures a
/// workload in an AllocationWindow with the hooks chained to heaptrack's malloc
/// (PROFCTL_HOOKS_CHAIN=1), between two marker allocations. heaptrack leaves malloc's
/// behaviour alone (unlike valgrind's tools, under which Swift's collections grow
/// differently), so the two must agree to the allocation and the byte.
@Suite("Windows against heaptrack", .serialized)
struct WindowWitnessTests {
    static let heaptrack = HeaptrackRun.installed

    @Test("a window's figures equal heaptrack's", .enabled(if: heaptrack, HeaptrackRun.missingMessage),
          arguments: ["concurrent-perform", "async-let", "task-group", "detached-task"])
    func windowEqualsHeaptrack(_ workload: String) throws {
        let folder = try TemporaryFolder()
        let (hooked, traced) = try HeaptrackRun.trace(HeaptrackRun.built("hook-witness"), [workload], in: folder.url)
        let fields = hooked.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(fields.count == 4, "hook-witness printed \(hooked)")
        #expect(fields[0] == traced.allocations, "allocations: window \(fields[0]), heaptrack \(traced.allocations)")
        #expect(fields[1] == traced.requestedBytes, "requested bytes: window \(fields[1]), heaptrack \(traced.requestedBytes)")
        #expect(fields[2] == traced.netLiveBytes, "net live bytes: window \(fields[2]), heaptrack \(traced.netLiveBytes)")
        #expect(fields[0] > 8, "the workload allocated next to nothing: \(hooked)")
    }
}

/// Runs heaptrack and reads its data file.
enum HeaptrackRun {
    static let missingMessage: Comment =
        "heaptrack is NOT installed (apt-get install heaptrack): the window was NOT checked against it"

    static var installed: Bool {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        let found = paths.contains { FileManager.default.isExecutableFile(atPath: "\($0)/heaptrack") }
        if !found { FileHandle.standardError.write(Data("WARNING: \(missingMessage)\n".utf8)) }
        return found
    }

    /// An executable of this package, built next to the test bundle.
    static func built(_ name: String) -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    }

    /// What heaptrack recorded between the witness markers.
    /// `throughAllocObject`: those allocations whose stack passes through swift_allocObject.
    struct Figures { var allocations = 0, requestedBytes = 0, netLiveBytes = 0, throughAllocObject = 0 }

    static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], in folder: URL) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.currentDirectoryURL = folder
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw HeaptrackError("\(executable.lastPathComponent) \(arguments) exited with status \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs the executable under heaptrack with the hooks chained to it: what it printed,
    /// and what heaptrack recorded between the markers.
    static func trace(_ executable: URL, _ arguments: [String], in folder: URL) throws -> (String, Figures) {
        let output = folder.appendingPathComponent("trace").path
        let printed = try run(URL(fileURLWithPath: "/usr/bin/env"), ["heaptrack", "-o", output, executable.path] + arguments,
                              environment: ["PROFCTL_HOOKS_CHAIN": "1"], in: folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("trace") }
        guard let file = files.first else { throw HeaptrackError("heaptrack wrote no data file in \(folder.path)") }
        let decompressor = file.hasSuffix(".zst") ? "zstd" : "gzip"
        let text = try run(URL(fileURLWithPath: "/usr/bin/env"), [decompressor, "-dc", folder.appendingPathComponent(file).path], in: folder)
        // heaptrack prints its own lines around the program's; the figures are the line of four numbers.
        let line = printed.split(separator: "\n").last { $0.split(separator: " ").count == 4 && $0.split(separator: " ").allSatisfy { Int($0) != nil } }
        return (line.map(String.init) ?? printed, try parse(text))
    }

    /// heaptrack's data file: `a SIZE TRACE` defines allocation info (numbered from 0, hex),
    /// `+ INFO` is an allocation and `- INFO` a free of a block with that info, in the order
    /// they happened on all threads. Sums everything between the two markers.
    /// `s LEN TEXT` is a string (numbered from 1), `i IP MODULE [FUNCTION FILE LINE]...` an
    /// instruction pointer with its frames, inlined ones included (numbered from 1), and
    /// `t IP PARENT` a stack (numbered from 1, 0 the root): an allocation passes through
    /// swift_allocObject when a frame of its stack is swift_allocObject or the runtime's
    /// implementation behind it, _swift_allocObject_ (swift_allocObject reaches it by a tail
    /// jump through the hook pointer while the instrumentation flag is set, and leaves no frame).
    static func parse(_ text: String) throws -> Figures {
        var sizes: [Int] = [], allocObjectSizes: [Bool] = []
        var strings: [Substring] = [""], ipAllocObject: [Bool] = [false], traceAllocObject: [Bool] = [false]
        var figures = Figures()
        var inside = false, sawBegin = false, sawEnd = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let kind = line.first else { continue }
            let fields = line.split(separator: " ")
            switch kind {
            case "s":
                strings.append(fields.count >= 3 ? line[fields[2].startIndex...] : "")
            case "i":
                var through = false
                var index = 3
                while index < fields.count {
                    if let name = Int(fields[index], radix: 16), name < strings.count, strings[name].hasSuffix("swift_allocObject") || strings[name].hasSuffix("swift_allocObject_") { through = true }
                    index += 3
                }
                ipAllocObject.append(through)
            case "t":
                guard fields.count >= 3, let ip = Int(fields[1], radix: 16), let parent = Int(fields[2], radix: 16),
                      ip < ipAllocObject.count, parent < traceAllocObject.count else { throw HeaptrackError("bad line: \(line)") }
                traceAllocObject.append(ipAllocObject[ip] || traceAllocObject[parent])
            case "a":
                guard fields.count >= 2, let size = Int(fields[1], radix: 16) else { throw HeaptrackError("bad line: \(line)") }
                sizes.append(size)
                let trace = fields.count >= 3 ? Int(fields[2], radix: 16) ?? 0 : 0
                allocObjectSizes.append(trace < traceAllocObject.count && traceAllocObject[trace])
            case "+", "-":
                guard fields.count >= 2, let info = Int(fields[1], radix: 16), info < sizes.count else { throw HeaptrackError("bad line: \(line)") }
                let size = sizes[info]
                // The last pair of markers: the warm-up's window is marked too.
                if kind == "+" && size == 1_234_567 { sawBegin = true; inside = true; figures = Figures(); continue }
                if kind == "+" && size == 7_654_321 && inside { sawEnd = true; inside = false; continue }
                guard inside, size != 1_234_567, size != 7_654_321 else { continue }
                if kind == "+" {
                    if allocObjectSizes[info] { figures.throughAllocObject += 1 }
                    figures.allocations += 1
                    figures.requestedBytes += size
                    figures.netLiveBytes += size
                } else {
                    figures.netLiveBytes -= size
                }
            default:
                continue
            }
        }
        guard sawBegin, sawEnd else { throw HeaptrackError("the witness markers are not in heaptrack's data (begin \(sawBegin), end \(sawEnd))") }
        return figures
    }
}

struct HeaptrackError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

