import CAllocationHooks
import ProfilerModel
import ProfilerStore

/// Stores a run's captured sites: symbolizes every stack once, then writes frames and
/// stacks (each stored once per database) and the run's sites, in one transaction.
package enum SiteWriter {
    /// Writes `captured` for the run `runID` of the database at `path`.
    package static func write(_ captured: CapturedSites, runID: String, database path: String) throws {
        let db = try ProfileStore.openForWriting(path: path)
        guard let runKey = try db.scalar("SELECT run_key FROM runs WHERE run_id = ?", [.text(runID)])?.int64 else {
            throw SiteError.noSuchRun(runID)
        }
        let stacks = symbolizedStacks(Set(captured.counts.keys.map(\.stackID)))
        // Stacks the hooks told apart may be one once symbolized (two calls on one line).
        struct RowKey: Hashable { let component: String; let strategy: String; let kind: EventKind; let stack: SiteStack }
        var rows: [RowKey: SiteCounts] = [:]
        for (key, counts) in captured.counts {
            let stack = stacks[key.stackID] ?? SiteStack(frames: [.unknown])
            rows[RowKey(component: key.component, strategy: key.strategy, kind: key.kind, stack: stack), default: SiteCounts()].add(counts)
        }
        try db.transaction {
            let store = try Interner(db: db)
            let insert = try db.prepare("""
                INSERT INTO sites (run_key, subject_id, kind_id, stack_id, allocations, frees, requested_bytes, usable_bytes,
                                   live_requested_bytes, live_usable_bytes)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for (key, c) in rows {
                let subject = try store.subject(component: key.component, strategy: key.strategy)
                let stack = try store.stack(key.stack)
                try insert.run([.integer(runKey), .integer(subject), .integer(key.kind.code), .integer(stack),
                                .init(c.allocations), .init(c.frees), .init(c.requestedBytes), .init(c.usableBytes),
                                .init(c.liveRequestedBytes), .init(c.liveUsableBytes)])
            }
            try db.run("INSERT INTO site_runs (run_key, depth, stacks, dropped) VALUES (?, ?, ?, ?)",
                       [.integer(runKey), .init(captured.depth), .init(Set(rows.keys.map(\.stack)).count), .init(captured.dropped)])
        }
    }

    /// The hooks' stacks as frames, innermost first, the hooks' own frames dropped.
    package static func symbolizedStacks(_ ids: Set<UInt32>) -> [UInt32: SiteStack] {
        var raw: [UInt32: [UInt]] = [:]
        var buffer = [UInt](repeating: 0, count: SiteCapture.maximumDepth)
        for id in ids where id != 0 && id != SiteCapture.untrackedStackID {
            let depth = buffer.withUnsafeMutableBufferPointer { b in
                Int(profctl_sites_stack(id, b.baseAddress, UInt32(b.count)))
            }
            raw[id] = Array(buffer.prefix(min(depth, buffer.count)))
        }
        var symbolizer = Symbolizer()
        symbolizer.symbolize(Set(raw.values.flatMap { $0 }))
        var result: [UInt32: SiteStack] = [:]
        for (id, addresses) in raw {
            var frames = addresses.map(symbolizer.frame)
            while let first = frames.first, SiteFrame.hookFunctions.contains(first.function), frames.count > 1 { frames.removeFirst() }
            result[id] = SiteStack(frames: frames.isEmpty ? [.unknown] : frames)
        }
        if ids.contains(SiteCapture.untrackedStackID) { result[SiteCapture.untrackedStackID] = SiteStack(frames: [.untracked]) }
        return result
    }

    /// Finds or inserts subjects, frames and stacks, remembering ids within one write.
    private final class Interner {
        let db: SQLiteConnection
        var frames: [SiteFrame: Int64] = [:]
        var stacks: [SiteStack: Int64] = [:]
        let insertFrame, findFrame, insertStack, findStack, insertStackFrame: Statement

        init(db: SQLiteConnection) throws {
            self.db = db
            insertFrame = try db.prepare("INSERT OR IGNORE INTO site_frames (module, function, file, line) VALUES (?, ?, ?, ?)")
            findFrame = try db.prepare("SELECT frame_id FROM site_frames WHERE module = ? AND function = ? AND file = ? AND line = ?")
            insertStack = try db.prepare("INSERT OR IGNORE INTO site_stacks (frames, depth, site_frame_id) VALUES (?, ?, ?)")
            findStack = try db.prepare("SELECT stack_id FROM site_stacks WHERE frames = ?")
            insertStackFrame = try db.prepare("INSERT OR IGNORE INTO site_stack_frames (stack_id, position, frame_id) VALUES (?, ?, ?)")
        }

        func subject(component: String, strategy: String) throws -> Int64 {
            try db.run("INSERT OR IGNORE INTO subjects (component, strategy) VALUES (?, ?)", [.text(component), .text(strategy)])
            guard let id = try db.scalar("SELECT subject_id FROM subjects WHERE component = ? AND strategy = ?",
                                         [.text(component), .text(strategy)])?.int64 else {
                throw SQLiteError(code: 1, message: "the subject \(component)/\(strategy) could not be read back")
            }
            return id
        }

        func frame(_ f: SiteFrame) throws -> Int64 {
            if let id = frames[f] { return id }
            let values: [SQLValue] = [.text(f.module), .text(f.function), .text(f.file), .init(f.line)]
            try insertFrame.run(values)
            guard let id = try findFrame.rows(values).first?.first?.int64 else {
                throw SQLiteError(code: 1, message: "the frame \(f.function) could not be read back")
            }
            frames[f] = id
            return id
        }

        func stack(_ s: SiteStack) throws -> Int64 {
            if let id = stacks[s] { return id }
            let ids = try s.frames.map(frame)
            let key = ids.map(String.init).joined(separator: ",")
            try insertStack.run([.text(key), .init(ids.count), .integer(try frame(s.site))])
            guard let id = try findStack.rows([.text(key)]).first?.first?.int64 else {
                throw SQLiteError(code: 1, message: "a stack could not be read back")
            }
            for (position, frameID) in ids.enumerated() {
                try insertStackFrame.run([.integer(id), .init(position), .integer(frameID)])
            }
            stacks[s] = id
            return id
        }
    }
}
