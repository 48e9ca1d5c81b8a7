import Foundation

/// Workloads that fan out to other threads, for `hook-witness`: measured in a process-wide
/// window while heaptrack records the same allocations, so the two can be compared.
public enum Workload: String, CaseIterable, Sendable {
    /// `DispatchQueue.concurrentPerform` over 64 iterations.
    case concurrentPerform = "concurrent-perform"
    /// Three `async let` children.
    case asyncLet = "async-let"
    /// A task group of 8 children.
    case taskGroup = "task-group"
    /// A detached task, awaited.
    case detachedTask = "detached-task"

    /// Runs the workload; what it returns is kept alive by the caller until exit, so what
    /// a window retains is what heaptrack finds still live.
    public func run() async -> [[String: [Int]]] {
        switch self {
        case .concurrentPerform:
            let count = 64
            let results = ResultSlots(count: count)
            DispatchQueue.concurrentPerform(iterations: count) { i in results.store(item(i), at: i) }
            return results.collect()
        case .asyncLet:
            async let a = item(1)
            async let b = item(2)
            async let c = item(3)
            return await [a, b, c]
        case .taskGroup:
            return await withTaskGroup(of: [String: [Int]].self) { group in
                for i in 0..<8 { group.addTask { item(i) } }
                var all: [[String: [Int]]] = []
                for await one in group { all.append(one) }
                return all
            }
        case .detachedTask:
            let task = Task.detached { item(42) }
            return [await task.value]
        }
    }
}

/// One unit of work: dictionaries, arrays that grow, a string built and dropped.
@inline(never)
public func item(_ i: Int) -> [String: [Int]] {
    var table: [String: [Int]] = [:]
    for k in 0..<8 {
        var values: [Int] = []
        for v in 0..<(k * 10 + i % 7) { values.append(v &* i) }
        table["key-\(k)"] = values
    }
    let summary = table.keys.sorted().joined(separator: ",")
    table["length"] = [summary.utf8.count]
    return table
}

/// One slot per iteration, written by whichever thread runs it.
final class ResultSlots: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<[String: [Int]]>
    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: [:])
    }
    func store(_ value: [String: [Int]], at index: Int) { slots[index] = value }
    func collect() -> [[String: [Int]]] {
        let all = Array(slots)
        slots.deinitialize()
        slots.deallocate()
        return all
    }
}
