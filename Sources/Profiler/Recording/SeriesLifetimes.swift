import CAllocationHooks
import Foundation
import ProfilerStore
import Synchronization

/// Temporaries and size classes per series (component, strategy, event kind), summed from
/// each event's measured region as it is recorded and written once when the run finishes
/// (lifetime_rollups, size_class_rollups; migrations/0008_lifetimes.sql). Kept beside the
/// events, not in them: a stored event stays as small as it was.
final class SeriesLifetimes: @unchecked Sendable {
    private struct Key: Hashable {
        let component: String
        let strategy: String
        let kind: EventKind
    }

    /// One series' sums, in C memory the hooks add to directly (allocating nothing then).
    private final class Sums {
        let figures = UnsafeMutablePointer<profctl_lifetimes>.allocate(capacity: 1)
        var regions = 0
        init() { figures.initialize(to: profctl_lifetimes()) }
        deinit { figures.deallocate() }
    }

    /// The series so far, in the order they were first seen. A lazy container's events
    /// alternate between two series (create, realize): the two added to last are compared
    /// before the dictionary is hashed into (a lookup per event cost about 800 instructions).
    private struct State {
        var order: [Key] = []
        var sums: [Key: Sums] = [:]
        var recent = RecentPair<Key, Sums>()

        mutating func sums(for key: Key) -> Sums {
            if let known = recent.value(for: key) { return known }
            let target: Sums
            if let known = sums[key] {
                target = known
            } else {
                target = Sums()
                sums[key] = target
                order.append(key)
            }
            recent.remember(key, target)
            return target
        }
    }

    private let state = Mutex(State())

    /// Adds the figures of the calling thread's region `scopeID`, which just closed, to the
    /// series. Call it on that thread, excluded from any open region (it may allocate the
    /// first time a series is seen). A region the hooks no longer hold adds nothing.
    func add(scopeID: UInt64, kind: EventKind, component: String, strategy: String) {
        state.withLock { state in
            let target = state.sums(for: Key(component: component, strategy: strategy, kind: kind))
            if profctl_region_lifetimes_add(scopeID, target.figures) == 0 { target.regions += 1 }
        }
    }

    /// Writes one row per series and one per size class it used.
    func write(db: SQLiteConnection, runKey: Int64) throws {
        let (order, sums) = state.withLock { ($0.order, $0.sums) }
        let series = try db.prepare("""
            INSERT INTO lifetime_rollups (run_key, component, strategy, kind, regions, allocations, requested_bytes,
                                          usable_bytes, temporaries, temporary_requested_bytes)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let classes = try db.prepare("""
            INSERT INTO size_class_rollups (run_key, component, strategy, kind, size_class, allocations, requested_bytes, usable_bytes)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for key in order {
            guard let s = sums[key], s.regions > 0 else { continue }
            let f = s.figures.pointee
            let used = withUnsafeBytes(of: f.classes) { Array($0.bindMemory(to: profctl_size_class.self)) }
            var allocations: UInt64 = 0, requested: UInt64 = 0, usable: UInt64 = 0
            for (index, c) in used.enumerated() where c.allocations > 0 {
                allocations &+= c.allocations
                requested &+= c.requested_bytes
                usable &+= c.usable_bytes
                try classes.run([.integer(runKey), .text(key.component), .text(key.strategy), .text(key.kind.rawValue),
                                 .init(index), .init(Int(clamping: c.allocations)),
                                 .init(Int(clamping: c.requested_bytes)), .init(Int(clamping: c.usable_bytes))])
            }
            try series.run([.integer(runKey), .text(key.component), .text(key.strategy), .text(key.kind.rawValue),
                            .init(s.regions), .init(Int(clamping: allocations)), .init(Int(clamping: requested)),
                            .init(Int(clamping: usable)), .init(Int(clamping: f.temporaries)),
                            .init(Int(clamping: f.temporary_requested_bytes))])
        }
    }
}
