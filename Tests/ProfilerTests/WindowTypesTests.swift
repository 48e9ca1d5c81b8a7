import Foundation
import Testing
import ProfctlTestSupport
import ProfilerHooks
import ProfilerModel
import ProfilerPrimitives

/// Prints what went wrong to stderr (an exit test's child shows its stderr on failure) and fails it.
private func fail(_ what: String, _ window: TypedMeasured<some Any>) -> Never {
    FileHandle.standardError.write(Data("\(what): \(window.measured.allocations)\n\(window.types.map(\.description).joined(separator: "\n"))\n".utf8))
    exit(1)
}

/// Whether the types add up exactly to the window's allocations and requested bytes.
private func addsUp(_ window: TypedMeasured<some Any>) -> Bool {
    window.types.reduce(0) { $0 + $1.objects } == window.measured.allocations.allocations
        && window.types.reduce(0) { $0 + $1.bytes } == window.measured.allocations.requestedBytes
}

private func row(_ window: TypedMeasured<some Any>, _ type: AnyClass) -> ObjectTypeCounts? {
    window.types.first { $0.name == String(reflecting: type) }
}

// A window counts the whole process and turns the runtime's instrumentation flag on: each
// test runs in its own, quiet process (an exit test), as WindowWitnessTests does with heaptrack.
@Suite("Swift object types in a window")
struct WindowTypesTests {
    @Test("witness: N parents with 2 child objects each, built on 4 threads, are 3N objects of 3 named types, all live")
    func witness() async {
        await #expect(processExitsWith: .success) {
            let n = 100
            let kept = ParentsBox()
            let window = try AllocationWindow.measureTypes {
                DispatchQueue.concurrentPerform(iterations: 4) { part in
                    let parents = (0..<n / 4).map { _ in TypeWitnessParent() }
                    kept.add(parents, part: part)
                }
            }
            for type: AnyClass in [TypeWitnessParent.self, TypeWitnessLeft.self, TypeWitnessRight.self] {
                guard let r = row(window, type), r.objects == n, r.liveObjects == n, r.bytes > 0, r.liveBytes == r.bytes,
                      window.objects(of: type) == n else { fail("\(type)", window) }
            }
            guard addsUp(window) else { fail("the types do not add up", window) }
            withExtendedLifetime(kept) {}
        }
    }

    @Test("objects freed on another thread are not live; non-objects, immortal objects and strings never crash or misname")
    func freedElsewhereAndNonObjects() async {
        await #expect(processExitsWith: .success) {
            let window = try AllocationWindow.measureTypes { () -> UnsafeMutableRawPointer? in
                var parents: [TypeWitnessParent]? = (0..<20).map { _ in TypeWitnessParent() }
                let handedOver = Box(parents)
                parents = nil
                let thread = Thread { handedOver.value = nil }
                thread.start()
                while !handedOver.isNil { usleep(1000) } // the other thread dropped the last reference
                let empty: [Int] = [] // immortal storage: never allocated
                let small = "short", large = String(repeating: "long text ", count: 20)
                _ = keep((empty, small, large))
                return malloc(4096) // no object: the remainder
            }
            free(window.measured.value)
            guard let p = row(window, TypeWitnessParent.self), p.objects == 20, p.liveObjects == 0, p.liveBytes == 0,
                  let remainder = window.types.first(where: \.isRemainder), remainder.liveBytes >= 4096,
                  remainder.liveObjects >= 1, addsUp(window) else { fail("freed elsewhere", window) }
            // A window without types attributes nothing and still works.
            let plain = try AllocationWindow.measure { keep(TypeWitnessParent()) }
            guard plain.allocations.allocations >= 3 else { exit(2) }
        }
    }

    @Test("async work: child tasks' objects count on whatever threads they run")
    func asyncWork() async {
        await #expect(processExitsWith: .success) {
            let window = try await AllocationWindow.measureTypes { () async -> [TypeWitnessParent] in
                await withTaskGroup(of: [TypeWitnessParent].self) { group in
                    for _ in 0..<5 { group.addTask { (0..<10).map { _ in TypeWitnessParent() } } }
                    return await group.reduce(into: []) { $0 += $1 }
                }
            }
            guard window.objects(of: TypeWitnessParent.self) == 50, window.objects(of: TypeWitnessLeft.self) == 50,
                  row(window, TypeWitnessParent.self)?.liveObjects == 50, addsUp(window) else { fail("async", window) }
            withExtendedLifetime(window.measured.value) {}
        }
    }
}

private final class ParentsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [[TypeWitnessParent]] = []
    func add(_ parents: [TypeWitnessParent], part: Int) { lock.withLock { parts.append(parents) } }
}

private final class Box<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?
    init(_ value: T?) { stored = value }
    var value: T? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    /// Without copying (a copy would share the last reference with the other thread).
    var isNil: Bool { lock.withLock { stored == nil } }
}
