#if canImport(Glibc)
import Glibc
#endif
import Testing
import ProfilerTesting

/// The meters' promise under Swift Testing's parallel execution: a measured task's figure is
/// its own. Fifty measured workloads (sync, async with suspensions, task groups, async let,
/// detached work) run at once beside tasks that allocate heavily, ten times; each figure
/// must equal the one it has measured alone.
///
/// Serialized: while the object-and-retain proof runs, every retain in the process takes the
/// hooks' path (the runtime's flag is set), which widens the window in which an `async let`
/// child is torn down after its parent resumed: once in 4 runs beside it, the fifty-task
/// proof saw such a child's 2,760 B still live when its meter closed.
@Suite(.serialized) struct ParallelExactnessTests {
    /// Blocks of the given sizes, kept until `free`: each malloc's pointer escapes into a
    /// global sink, so the optimizer cannot drop the pair.
    static func allocate(_ sizes: [Int]) -> [Int] {
        sizes.map { size in
            let p = malloc(size)
            if let p { memset(p, 1, size) }
            return Int(bitPattern: p)
        }
    }

    static func release(_ blocks: [Int]) {
        for b in blocks { free(UnsafeMutableRawPointer(bitPattern: b)) }
    }

    /// Workload `i`: five kinds, sizes varying with i.
    @Sendable static func workload(_ i: Int) async {
        let base = 64 + 16 * i
        switch i % 5 {
        case 0: // sync: allocate, free half, keep nothing
            let kept = allocate([base, base * 2, base * 3])
            release(allocate([base * 4]))
            release(kept)
        case 1: // async: suspensions between allocations, so it resumes on other threads
            var kept = allocate([base])
            for _ in 0..<5 {
                await Task.yield()
                kept += allocate([base * 2])
            }
            release(kept)
        case 2: // a task group: four children allocate on their own threads
            await withTaskGroup(of: Void.self) { group in
                for k in 1...4 {
                    group.addTask { release(allocate([base * k, 32])) }
                }
            }
        case 3: // async let
            async let a: Void = release(allocate([base, base]))
            async let b: Void = release(allocate([base * 3]))
            _ = await (a, b)
        default: // detached work: not counted (no task-local values), its task object is
            let t = Task.detached { release(allocate([base * 100])) }
            await t.value
            release(allocate([base]))
        }
    }

    /// Allocation-heavy work nobody measures.
    @Sendable static func noise(_ seed: Int) async {
        for round in 0..<200 {
            var d: [String: [Int]] = [:]
            for k in 0..<20 { d["key \(seed) \(round) \(k)"] = Array(repeating: k, count: 8 + k) }
            release(allocate([48 + seed, 4096]))
            if round % 10 == 0 { await Task.yield() }
            #expect(d.count == 20)
        }
    }

    struct Key: Hashable { let allocations, bytes, retained, peak: UInt64 }

    /// The figures compared: peak only where the work is sequential (children's frees
    /// interleave with their siblings' allocations in an order the scheduler picks).
    static func key(_ f: AllocationFigures, _ i: Int) -> Key {
        Key(allocations: f.allocations, bytes: f.bytes, retained: f.retainedBytes,
            peak: [2, 3].contains(i % 5) ? 0 : f.peakBytes)
    }

    @Test func fiftyMeasuredTasksBesideNoiseMatchTheirFiguresAlone() async throws {
        let count = 50
        // No warm-up: the first use of a type, a conformance or a global is the runtime's
        // cache, left out of every figure (docs/testing.md, "Exactness"), so a figure measured
        // first, alone, is already the one every later run must give.
        var alone: [Key] = []
        for i in 0..<count {
            let (_, f) = try await TaskMeter.measure { await Self.workload(i) }
            alone.append(Self.key(f, i))
        }
        #expect(alone.allSatisfy { $0.allocations > 0 && $0.retained == 0 }, "\(alone)")
        for run in 1...10 {
            let together = try await withThrowingTaskGroup(of: (Int, Key)?.self) { group in
                for n in 0..<8 { group.addTask { await Self.noise(n); return nil } }
                for i in 0..<count {
                    group.addTask {
                        let (_, f) = try await TaskMeter.measure { await Self.workload(i) }
                        return (i, Self.key(f, i))
                    }
                }
                var figures = [Key?](repeating: nil, count: count)
                for try await result in group { if let (i, k) = result { figures[i] = k } }
                return figures
            }
            for i in 0..<count {
                #expect(together[i] == alone[i], "run \(run), workload \(i) (kind \(i % 5))")
            }
        }
    }

    /// Objects of a class, and retains, for the object and retain limits: four kinds of work
    /// (sync, async with suspensions, a task group, async let), each making `1 + i % 4`
    /// Widgets and passing them around.
    @Sendable static func objectWork(_ i: Int) async {
        let n = 1 + i % 4
        func make() -> [Widget] { (0..<n).map { _ in Widget() } }
        switch i % 4 {
        case 0:
            let widgets = make()
            let copies = widgets + widgets
            #expect(copies.count == 2 * n)
        case 1:
            var widgets = make()
            for _ in 0..<3 {
                await Task.yield()
                widgets.append(Widget())
            }
            #expect(widgets.count == n + 3)
        case 2:
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<n { group.addTask { Widget().payload.count } }
                for await count in group { #expect(count == 4) }
            }
        default:
            async let a = make().count
            async let b = make().count
            let total = await a + b
            #expect(total == 2 * n)
        }
    }

    /// Widgets and retains, for the limits on them, and every type's objects, for the types a
    /// failure names (docs/testing.md, "Exactness").
    struct ObjectKey: Hashable { let widgets, retains: UInt64; let types: [String: UInt64] }

    static func objectKey(_ f: AllocationFigures) -> ObjectKey {
        ObjectKey(widgets: UInt64(f.objectTypes.first { $0.name == "ProfilerTestingTests.Widget" }?.objects ?? 0), retains: f.retains,
                  types: Dictionary(f.objectTypes.map { ($0.name, UInt64($0.objects)) }, uniquingKeysWith: +))
    }

    static func measureObjects(_ i: Int) async throws -> ObjectKey {
        let (_, f, _) = try await TaskMeter.measureOrReport(capturing: [.types, .arc], { await Self.objectWork(i) },
                                                            unmeasurable: { Issue.record("\($0)") })
        return objectKey(try #require(f))
    }

    @Test func objectAndRetainCountsBesideNoiseMatchTheirCountsAlone() async throws {
        let count = 40
        var alone: [ObjectKey] = []
        for i in 0..<count { alone.append(try await Self.measureObjects(i)) }
        for i in 0..<count { #expect(alone[i].widgets == UInt64(i % 4 == 1 ? 1 + i % 4 + 3 : i % 4 == 3 ? 2 * (1 + i % 4) : 1 + i % 4)) }
        for run in 1...10 {
            let together = try await withThrowingTaskGroup(of: (Int, ObjectKey)?.self) { group in
                for n in 0..<8 { group.addTask { await Self.noise(n); return nil } }
                for i in 0..<count { group.addTask { (i, try await Self.measureObjects(i)) } }
                var keys = [ObjectKey?](repeating: nil, count: count)
                for try await result in group { if let (i, k) = result { keys[i] = k } }
                return keys
            }
            for i in 0..<count {
                #expect(together[i] == alone[i], "run \(run), workload \(i) (kind \(i % 4))")
            }
        }
    }
}
