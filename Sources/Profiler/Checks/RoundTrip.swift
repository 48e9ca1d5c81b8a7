import ProfilerScenarios
import ProfilerStore

/// One (repeat, component, strategy) of a run: what its round trip left behind, read from
/// the `round_trip` view (migrations/0006_round_trip.sql, docs/leaks.md).
package struct RoundTrip: Sendable, Equatable {
    package let repeatIndex: Int
    package let component: String
    package let strategy: String
    package let instances: Int
    package let takenBytes: Int64
    package let givenBackBytes: Int64
    /// Net live bytes its events left: taken minus given back.
    package let leftBytes: Int64
    package let leftBlocks: Int64
    /// Of those, what the first instance built and the first released left (where a
    /// one-time cost per process lands), and what every other instance left.
    package let firstsLeftBytes: Int64
    package let firstsLeftBlocks: Int64
    package let othersLeftBytes: Int64
    package let othersLeftBlocks: Int64

    package init(repeatIndex: Int, component: String, strategy: String, instances: Int, takenBytes: Int64,
                givenBackBytes: Int64, leftBytes: Int64, leftBlocks: Int64, firstsLeftBytes: Int64,
                firstsLeftBlocks: Int64, othersLeftBytes: Int64, othersLeftBlocks: Int64) {
        self.repeatIndex = repeatIndex
        self.component = component
        self.strategy = strategy
        self.instances = instances
        self.takenBytes = takenBytes
        self.givenBackBytes = givenBackBytes
        self.leftBytes = leftBytes
        self.leftBlocks = leftBlocks
        self.firstsLeftBytes = firstsLeftBytes
        self.firstsLeftBlocks = firstsLeftBlocks
        self.othersLeftBytes = othersLeftBytes
        self.othersLeftBlocks = othersLeftBlocks
    }

    /// Every round trip of a run, ordered by component, strategy and repeat.
    package static func load(run runID: String, in db: any SQLRowSource) throws -> [RoundTrip] {
        let table = try db.table("""
            SELECT repeat, component, strategy, instances, taken_bytes, given_back_bytes, left_bytes, left_blocks,
                   firsts_left_bytes, firsts_left_blocks, others_left_bytes, others_left_blocks
            FROM round_trip WHERE run_id = ? ORDER BY component, strategy, repeat
            """, [.text(runID)])
        return table.rows.map { row in
            func int(_ i: Int) -> Int64 { row[i].int64 ?? 0 }
            return RoundTrip(repeatIndex: Int(int(0)), component: row[1].string ?? "", strategy: row[2].string ?? "",
                             instances: Int(int(3)), takenBytes: int(4), givenBackBytes: int(5), leftBytes: int(6),
                             leftBlocks: int(7), firstsLeftBytes: int(8), firstsLeftBlocks: int(9),
                             othersLeftBytes: int(10), othersLeftBlocks: int(11))
        }
    }

    /// What of this round trip is a leak and what is kept on purpose, under the
    /// scenario's declarations (the round-trip rule of docs/leaks.md).
    package func split(declared: [KeptBytes]) -> (retainedBytes: Int64, retainedBlocks: Int64,
                                                  intendedBytes: Int64, intendedBlocks: Int64, reason: String?) {
        let declaration = declared.first { $0.covers(component: component, strategy: strategy) }
        switch declaration?.kind {
        case nil:
            // Giving back more than was taken (a block of an earlier round freed here) is no leak.
            return leftBytes > 0 ? (leftBytes, max(0, leftBlocks), 0, 0, nil) : (0, 0, 0, 0, nil)
        case .everything:
            return (0, 0, max(0, leftBytes), max(0, leftBlocks), declaration?.reason)
        case .oneTimePerProcess:
            let retained = max(0, othersLeftBytes)
            return (retained, retained > 0 ? max(0, othersLeftBlocks) : 0,
                    max(0, firstsLeftBytes), max(0, firstsLeftBlocks), declaration?.reason)
        }
    }

    /// What counts towards growth: what no declaration covers. A strategy declared to
    /// keep everything holds what it loaded for its whole life (its contract); a one-time
    /// cost is excused on the first instance built and the first released, whose bytes
    /// a scenario may take again each round and free outside any measured region (the
    /// composite-cell template's source does): events cannot tell that from growth.
    package func growthBytes(declared: [KeptBytes]) -> Int64 {
        let declaration = declared.first { $0.covers(component: component, strategy: strategy) }
        switch declaration?.kind {
        case nil: return leftBytes
        case .everything: return 0
        case .oneTimePerProcess: return othersLeftBytes
        }
    }
}
