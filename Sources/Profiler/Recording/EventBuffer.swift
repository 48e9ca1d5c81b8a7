import Foundation
import Synchronization

/// What flows from the measuring thread to the writer, in order.
enum BufferedItem: Sendable {
    /// An event with its place in the run's order.
    case event(seq: Int64, Event)
    /// Events from here on belong to this step.
    case step(String)
    /// Take a live-bytes sample of a strategy now.
    case sample(strategy: String, component: String, repeatIndex: Int, elapsedNanoseconds: UInt64)
    /// A number the scenario observed in the current step.
    case metric(name: String, value: Double, strategy: String, repeatIndex: Int)
}

/// A bounded queue of events between the measuring thread and the writer thread.
///
/// Producers fill a chunk of up to `chunkCapacity` items under a cheap mutex and hand the
/// whole chunk to the writer's queue under the queue's condition once per chunk: a condition
/// lock and wake-up check per event cost about 900 instructions on the measuring thread.
/// A marker (step, sample, metric) and `close()` hand the partial chunk over at once, so the
/// writer sees a step's events when the step ends. A full queue makes the producer wait (it
/// never drops an event); a failure on the writer side is handed back to the producer on its
/// next call.
final class EventBuffer: @unchecked Sendable {
    /// The producers' side: the chunk being filled and the figures the progress display reads.
    private struct Filling {
        var chunk: [BufferedItem] = []
        var nextSeq: Int64 = 0
        var firstRepeat: Int?
        var severalRepeats = false
        var created = 0
        /// The latest event's component and strategy as of the last hand-over (the chunk's own
        /// events are newer).
        var handedComponent = ""
        var handedStrategy = ""
    }

    /// Items a producer collects before handing them over: large enough that the hand-over
    /// costs a few instructions per event, small beside the queue's default capacity.
    static let chunkSize = 256

    private let filling = Mutex(Filling())
    /// Set with `failure`, read without the condition's lock on every push.
    private let failed = Atomic<Bool>(false)

    // The writer's queue, guarded by `condition`: whole chunks, oldest first from `head`.
    private let condition = NSCondition()
    private var chunks: [[BufferedItem]] = []
    private var head = 0
    /// Items in `chunks[head...]`.
    private var queued = 0
    private var closed = false
    private var failure: (any Error)?
    /// Emptied chunks with their storage, for the producers' next chunks. Not capped: a
    /// chunk is only allocated when none is spare, so the chunks in existence never exceed
    /// the most that were queued, being written and being filled at one time (bounded by
    /// `capacity`); the old buffer reserved `capacity` items up front.
    private var spares: [[BufferedItem]] = []
    // Who is waiting, so that a hand-over or pop wakes the other side only when it sleeps.
    private var consumerWaiting = false
    private var producersWaiting = 0

    /// Items queued for the writer at most (a producer's chunk in progress comes on top).
    let capacity: Int
    let chunkCapacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        self.chunkCapacity = min(Self.chunkSize, self.capacity)
        filling.withLock { $0.chunk.reserveCapacity(chunkCapacity) }
    }

    /// Adds one event, waiting while the queue is full.
    func push(_ event: Event) throws {
        if failed.load(ordering: .acquiring) { throw currentFailure() }
        try filling.withLock { state in
            state.chunk.append(.event(seq: state.nextSeq, event))
            state.nextSeq += 1
            if event.kind == .create { state.created += 1 }
            if let first = state.firstRepeat {
                if first != event.repeatIndex { state.severalRepeats = true }
            } else {
                state.firstRepeat = event.repeatIndex
            }
            if state.chunk.count >= chunkCapacity { try handOver(&state) }
        }
    }

    /// Adds a step or sample marker in order with the events, and hands the chunk over.
    func push(marker: BufferedItem) throws {
        if failed.load(ordering: .acquiring) { throw currentFailure() }
        try filling.withLock { state in
            state.chunk.append(marker)
            try handOver(&state)
        }
    }

    /// Whether events of more than one repeat came through (latency rollups per repeat).
    var sawSeveralRepeats: Bool {
        filling.withLock { $0.severalRepeats }
    }

    /// Moves the producers' chunk to the writer's queue, waiting while the queue is full.
    /// Called with `filling` held, so chunks reach the queue in the order they were filled
    /// (and the progress display waits while a producer waits for room).
    private func handOver(_ state: inout Filling) throws {
        guard !state.chunk.isEmpty else { return }
        if let latest = Self.latestEvent(in: state.chunk) {
            state.handedComponent = latest.component
            state.handedStrategy = latest.strategy
        }
        var chunk: [BufferedItem] = []
        swap(&chunk, &state.chunk)
        let spare = try enqueue(chunk)
        if let spare {
            state.chunk = spare
        } else {
            state.chunk.reserveCapacity(chunkCapacity)
        }
    }

    /// Appends a chunk to the writer's queue, waiting while the queue is full; returns an
    /// emptied chunk the writer gave back, if any (allocating a fresh one cost about 13,000
    /// instructions per hand-over).
    private func enqueue(_ chunk: [BufferedItem]) throws -> [BufferedItem]? {
        condition.lock()
        defer { condition.unlock() }
        // A chunk always fits into an empty queue, whatever the capacity.
        while queued > 0 && queued + chunk.count > capacity && failure == nil {
            producersWaiting += 1
            condition.wait()
            producersWaiting -= 1
        }
        if let failure { throw failure }
        queued += chunk.count
        chunks.append(chunk)
        if consumerWaiting { condition.broadcast() }
        return spares.popLast()
    }

    /// Gives chunks the writer is done with back for reuse, emptied (their items are
    /// released here, on the writer's thread).
    func recycle(_ used: consuming [[BufferedItem]]) {
        for index in used.indices { used[index].removeAll(keepingCapacity: true) }
        condition.lock()
        defer { condition.unlock() }
        spares.append(contentsOf: used)
    }

    private static func latestEvent(in chunk: [BufferedItem]) -> Event? {
        for item in chunk.reversed() {
            if case .event(_, let event) = item { return event }
        }
        return nil
    }

    private func currentFailure() -> any Error {
        condition.lock()
        defer { condition.unlock() }
        return failure ?? RecorderError.notFinished
    }

    /// Takes whole chunks, at least one and more while they fit in `limit` items, waiting
    /// until there is one or the buffer is closed. Returns no chunk only when closed and drained.
    func popChunks(limit: Int) -> [[BufferedItem]] {
        condition.lock()
        defer { condition.unlock() }
        while head == chunks.count && !closed {
            consumerWaiting = true
            condition.wait()
            consumerWaiting = false
        }
        var taken = 0
        var end = head
        while end < chunks.count && (end == head || taken + chunks[end].count <= limit) {
            taken += chunks[end].count
            end += 1
        }
        var batch: [[BufferedItem]] = []
        batch.reserveCapacity(end - head)
        for index in head..<end {
            // Moved out, not copied: the writer then holds the only reference and can
            // empty the chunk for reuse without copying it.
            var chunk: [BufferedItem] = []
            swap(&chunk, &chunks[index])
            batch.append(chunk)
        }
        head = end
        queued -= taken
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 {
            chunks.removeFirst(head)
            head = 0
        }
        if producersWaiting > 0 { condition.broadcast() }
        return batch
    }

    /// The items of `popChunks(limit:)` in one array.
    func popBatch(limit: Int) -> [BufferedItem] {
        Array(popChunks(limit: limit).joined())
    }

    /// No more events will come: hands over the chunk in progress; the consumer drains what is left.
    func close() {
        filling.withLock { state in
            // After a writer failure the chunk is dropped: the producer has been told.
            do { try handOver(&state) } catch { state.chunk.removeAll() }
        }
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The consumer failed: producers get this error from now on.
    func fail(_ error: any Error) {
        condition.lock()
        if failure == nil { failure = error }
        failed.store(true, ordering: .releasing)
        condition.broadcast()
        condition.unlock()
    }

    /// The latest event's component and strategy, create events and all events so far.
    var progress: (component: String, strategy: String, created: Int, events: Int) {
        filling.withLock { state in
            let latest = Self.latestEvent(in: state.chunk)
            return (latest?.component ?? state.handedComponent, latest?.strategy ?? state.handedStrategy,
                    state.created, Int(state.nextSeq))
        }
    }

    /// How many events (not markers) were accepted so far.
    var accepted: Int64 {
        filling.withLock { $0.nextSeq }
    }

    var error: (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }
}
