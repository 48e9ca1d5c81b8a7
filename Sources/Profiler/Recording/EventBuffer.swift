import Foundation

/// What flows from the measuring thread to the writer, in order.
enum BufferedItem: Sendable {
    /// An event with its place in the run's order.
    case event(seq: Int64, Event)
    /// Events from here on belong to this step.
    case step(String)
    /// Take a live-bytes sample of a strategy now.
    case sample(strategy: String, repeatIndex: Int, elapsedNanoseconds: UInt64)
    /// A number the scenario observed in the current step.
    case metric(name: String, value: Double, strategy: String, repeatIndex: Int)
}

/// A bounded queue of events between the measuring thread and the writer thread.
/// A full buffer makes the producer wait (it never drops an event); a failure on the
/// writer side is handed back to the producer on its next call.
final class EventBuffer: @unchecked Sendable {
    // All stored state is guarded by `condition`.
    private let condition = NSCondition()
    private var items: [BufferedItem] = []
    private var nextSeq: Int64 = 0
    private var firstRepeat: Int?
    private var severalRepeats = false
    private var head = 0
    private var closed = false
    private var failure: (any Error)?
    // Who is waiting, so that a push or pop wakes the other side only when it sleeps:
    // a broadcast per event would cost a system call per event.
    private var lastComponent = ""
    private var lastStrategy = ""
    private var created = 0
    private var consumerWaiting = false
    private var producersWaiting = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        items.reserveCapacity(self.capacity)
    }

    /// Adds one event, waiting while the buffer is full.
    func push(_ event: Event) throws {
        try push { seq in .event(seq: seq, event) }
    }

    /// Whether events of more than one repeat came through (latency rollups per repeat).
    var sawSeveralRepeats: Bool {
        condition.lock()
        defer { condition.unlock() }
        return severalRepeats
    }

    /// Adds a step or sample marker in order with the events.
    func push(marker: BufferedItem) throws {
        try push { _ in marker }
    }

    private func push(_ make: (Int64) -> BufferedItem) throws {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head >= capacity && failure == nil {
            producersWaiting += 1
            condition.wait()
            producersWaiting -= 1
        }
        if let failure { throw failure }
        if head > 0 && items.count == items.capacity {
            items.removeFirst(head)
            head = 0
        }
        let item = make(nextSeq)
        if case .event(_, let event) = item {
            nextSeq += 1
            // For the progress bar: short strings are stored inline, so this copies, never allocates.
            lastComponent = event.component
            lastStrategy = event.strategy
            if event.kind == .create { created += 1 }
            if firstRepeat == nil { firstRepeat = event.repeatIndex }
            else if firstRepeat != event.repeatIndex { severalRepeats = true }
        }
        items.append(item)
        if consumerWaiting { condition.broadcast() }
    }

    /// Takes up to `limit` events, waiting until there is at least one or the buffer is
    /// closed. Returns an empty batch only when closed and drained.
    func popBatch(limit: Int) -> [BufferedItem] {
        condition.lock()
        defer { condition.unlock() }
        while items.count == head && !closed {
            consumerWaiting = true
            condition.wait()
            consumerWaiting = false
        }
        let end = min(items.count, head + limit)
        let batch = Array(items[head..<end])
        head = end
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        if producersWaiting > 0 { condition.broadcast() }
        return batch
    }

    /// No more events will come; the consumer drains what is left.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The consumer failed: producers get this error from now on.
    func fail(_ error: any Error) {
        condition.lock()
        if failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    /// The latest event's component and strategy, create events and all events so far.
    var progress: (component: String, strategy: String, created: Int, events: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (lastComponent, lastStrategy, created, Int(nextSeq))
    }

    /// How many events (not markers) were accepted so far.
    var accepted: Int64 {
        condition.lock()
        defer { condition.unlock() }
        return nextSeq
    }

    var error: (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }
}
