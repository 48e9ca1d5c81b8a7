import Testing
import ProfilerTesting

/// An async body runs in a child task whose own blocks (its task allocator's slabs) are freed
/// when the task object is, on the child's thread, after it handed its result to the waiting
/// parent. Before the meter waited for that free, a parent resumed on another thread closed
/// the meter first now and then, and the slabs counted as kept: `.noLeaks` on a test that
/// freed everything failed with "leaked: 2032 B in 2 blocks" (CI, once; about 1 fixture run
/// in 10 under load). Many bodies measured at once make that race common: on the code before
/// the fix, this test saw such bodies in most runs (the count is in its commit message).
@Suite struct BodyTaskTeardownTests {
    /// Async frames live in the task's allocator: a recursion this deep outgrows the room in
    /// the task object and makes the allocator malloc slabs, inside the meter.
    static func nested(_ depth: Int) async -> Int {
        if depth == 0 {
            await Task.yield()
            return 0
        }
        return await nested(depth - 1) + 1
    }

    @Test func aBodyTasksOwnBlocksAreFreedBeforeItsMeterCloses() async throws {
        var measured = 0, kept: [AllocationFigures] = []
        for _ in 0..<60 {
            let figures = try await withThrowingTaskGroup(of: AllocationFigures.self) { group in
                for _ in 0..<16 {
                    group.addTask { try await TaskMeter.measure { await Self.nested(60) }.1 }
                }
                var all: [AllocationFigures] = []
                for try await f in group { all.append(f) }
                return all
            }
            measured += figures.count
            kept += figures.filter { $0.retainedBytes != 0 }
        }
        #expect(measured == 960)
        #expect(kept.isEmpty, "\(kept.count) of \(measured) bodies kept their task's blocks: \(kept.prefix(3))")
    }

    @Test func theSlabsAreCountedWhileTheBodyRuns() async throws {
        let (depth, f) = try await TaskMeter.measure { await Self.nested(60) }
        #expect(depth == 60)
        // The slabs are the body task's work: counted as allocated, and freed by the end.
        #expect(f.allocations > 0 && f.bytes >= 1_000, "\(f)")
        #expect(f.retainedBytes == 0, "\(f)")
    }
}

/// The body's own child tasks: a task group's children are freed after the group hands the
/// body their results, on their threads, so the meter waits for their task objects too.
@Suite struct ChildTaskTeardownTests {
    @Test func aTaskGroupsChildrenAreFreedBeforeTheMeterCloses() async throws {
        var measured = 0, kept: [AllocationFigures] = []
        for _ in 0..<30 {
            let figures = try await withThrowingTaskGroup(of: AllocationFigures.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await TaskMeter.measure {
                            await withTaskGroup(of: Int.self) { children in
                                for k in 1...4 { children.addTask { await BodyTaskTeardownTests.nested(10 * k) } }
                                return await children.reduce(0, +)
                            }
                        }.1
                    }
                }
                var all: [AllocationFigures] = []
                for try await f in group { all.append(f) }
                return all
            }
            measured += figures.count
            // What may stay is the pool's bookkeeping when a child had it start a worker
            // thread (blocks of 64 B and less, kept while the thread lives; 288 B in 7 blocks
            // seen under a load of 28; docs/testing.md), never a child's slab (1,016 B).
            kept += figures.filter { $0.retainedBytes >= ChildTaskTeardownTests.slab }
        }
        #expect(measured == 480)
        #expect(kept.isEmpty, "\(kept.count) of \(measured) bodies kept a child task's blocks: \(kept.prefix(3))")
    }

    /// A task allocator's slab, in debug builds: more than a worker thread's start leaves.
    static let slab: UInt64 = 1_016
}
