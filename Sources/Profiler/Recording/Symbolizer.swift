import CAllocationHooks
import Foundation
import Glibc
import ProfilerModel
import ProfilerSupport
#if canImport(Glibc)
#endif

@_silgen_name("swift_demangle")
private func swiftDemangle(_ mangled: UnsafePointer<CChar>?, _ length: Int, _ output: UnsafeMutablePointer<CChar>?,
                           _ outputSize: UnsafeMutablePointer<Int>?, _ flags: UInt32) -> UnsafeMutablePointer<CChar>?

/// Turns this process's return addresses into frames, once per address: `dladdr` for the
/// module and exported symbols, `llvm-symbolizer` (when installed) for file:line and for
/// functions the dynamic symbol table does not list, and the Swift runtime's demangler.
struct Symbolizer {
    private var cache: [UInt: SiteFrame] = [:]

    /// A Swift (or C++) symbol demangled; other names as they are.
    static func demangle(_ name: String) -> String {
        guard name.hasPrefix("$s") || name.hasPrefix("_$s") || name.hasPrefix("$S") || name.hasPrefix("_T") else { return name }
        return name.withCString { pointer in
            guard let result = swiftDemangle(pointer, strlen(pointer), nil, nil, 0) else { return name }
            defer { free(result) }
            return String(cString: result)
        }
    }

    /// Symbolizes every address at once (one llvm-symbolizer process per module).
    mutating func symbolize(_ addresses: Set<UInt>) {
        var byModule: [String: [(address: UInt, offset: UInt)]] = [:]
        for address in addresses where cache[address] == nil {
            var modulePointer: UnsafePointer<CChar>?
            var symbolPointer: UnsafePointer<CChar>?
            var base: UInt = 0
            // A return address points after the call: look up the call itself.
            guard profctl_sites_describe(address &- 1, &modulePointer, &base, &symbolPointer) != 0 else {
                cache[address] = SiteFrame(module: "", function: "0x" + String(address, radix: 16))
                continue
            }
            let module = Self.resolvedModule(modulePointer.map { String(cString: $0) } ?? "")
            let offset = address &- base
            var function = "0x" + String(offset, radix: 16)
            if let name = symbolPointer { function = Self.demangle(String(cString: name)) }
            cache[address] = SiteFrame(module: module, function: function)
            if !module.isEmpty { byModule[module, default: []].append((address, offset)) }
        }
        guard let tool = Self.llvmSymbolizer else { return }
        for (module, entries) in byModule {
            guard let answers = Self.run(tool, module: module, offsets: entries.map { $0.offset &- 1 }),
                  answers.count == entries.count else { continue }
            for (entry, answer) in zip(entries, answers) {
                guard var frame = cache[entry.address] else { continue }
                if frame.function.hasPrefix("0x"), let name = answer.function { frame.function = Self.demangle(name) }
                if let file = answer.file { frame.file = file; frame.line = answer.line }
                cache[entry.address] = frame
            }
        }
    }

    /// glibc's dladdr names the main program by its argv[0]: a bare `profctl` when it was
    /// run from PATH, which llvm-symbolizer cannot open (every site folded into
    /// swift_slowAlloc). The main program is named by /proc/self/exe instead, as a library
    /// is by its full path.
    static func resolvedModule(_ module: String) -> String {
        guard let argument = CommandLine.unsafeArgv[0].map({ String(cString: $0) }), module == argument,
              let executable = mainExecutable else { return module }
        return executable
    }

    /// This process's executable, symbolic links resolved.
    static let mainExecutable: String? = {
        guard let resolved = realpath("/proc/self/exe", nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }()

    func frame(_ address: UInt) -> SiteFrame {
        cache[address] ?? SiteFrame(module: "", function: "0x" + String(address, radix: 16))
    }

    /// llvm-symbolizer on PATH, if any.
    static let llvmSymbolizer: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/llvm-symbolizer"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    struct Answer: Equatable {
        var function: String?
        var file: String?
        var line: Int
    }

    /// One answer per offset: llvm-symbolizer prints a function and its file:line:column per
    /// inlined frame, innermost first, then a blank line. The answer is the outermost pair:
    /// the function the symbol table names the address by, and its own line (the call into
    /// what was inlined). With `--no-inlines` it printed the outer function with the
    /// innermost line, so a frame was placed in the file of code inlined into it.
    private static func run(_ tool: String, module: String, offsets: [UInt]) -> [Answer]? {
        let text = offsets.map { "0x" + String($0, radix: 16) }.joined(separator: "\n") + "\n"
        guard let outcome = ChildProcess.run(tool, ["--obj=\(module)", "--inlines", "--functions=linkage", "--no-demangle"],
                                             input: Array(text.utf8)),
              outcome.succeeded else { return nil }
        return answers(String(decoding: outcome.output, as: UTF8.self))
    }

    /// llvm-symbolizer's output read: one answer per blank-line separated block.
    static func answers(_ text: String) -> [Answer] {
        var answers: [Answer] = []
        let blocks = text.components(separatedBy: "\n\n")
        for block in blocks {
            let lines = block.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            guard lines.count >= 2 else { continue }
            let outer = lines.count - 2 - lines.count % 2
            let function = lines[outer] == "??" ? nil : lines[outer]
            let location = lines[outer + 1].split(separator: ":").map(String.init)
            var file: String?
            var line = 0
            if location.count >= 2, location[0] != "??" {
                file = location[0]
                line = Int(location[1]) ?? 0
            }
            answers.append(Answer(function: function, file: file, line: line))
        }
        return answers
    }
}
