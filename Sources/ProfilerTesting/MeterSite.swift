import CAllocationHooks
import ProfilerModel
import ProfilerRecording

/// One call stack's share of a meter: what a failing limit names as the sites that allocated
/// the test's bytes. Kept as the hooks' stack id until a limit fails; only then symbolized
/// (a process of llvm-symbolizer per module: far too slow for every passing test).
package struct MeterSite: Sendable, Equatable {
    var stackID: UInt32
    var allocations: UInt64
    var bytes: UInt64
    var liveBytes: UInt64

    /// Open meter `id`'s stacks (empty when it captures none).
    static func read(_ id: UInt64) -> [MeterSite] {
        var entries = [profctl_meter_site](repeating: profctl_meter_site(), count: Int(PROFCTL_METER_MAX_SITES) + 1)
        let n = entries.withUnsafeMutableBufferPointer { profctl_meter_sites(id, $0.baseAddress, UInt32($0.count)) }
        guard n > 0 else { return [] }
        return entries.prefix(Int(n)).map {
            MeterSite(stackID: $0.stack_id, allocations: $0.allocations, bytes: $0.requested_bytes,
                      liveBytes: $0.live_requested_bytes)
        }
    }

    /// A named site: the stacks that fold to one frame, summed.
    struct Named: Equatable {
        var frame: SiteFrame
        var allocations: UInt64 = 0
        var bytes: UInt64 = 0
        var liveBytes: UInt64 = 0
    }

    /// The frame a stack is named by: the innermost frame of the user's code under the hooks'
    /// entry point (the stack starts in the hooks: meters.c walks from its own frame), but not
    /// one that only runs the test (``isRunner(_:)``), named by its whole function as
    /// ``SiteStack/site`` names it; else the innermost frame there is.
    static func site(of stack: SiteStack) -> SiteFrame {
        var frames = stack.frames
        if let entry = frames.prefix(16).lastIndex(where: { SiteFrame.hookFunctions.contains($0.function) }) {
            frames.removeFirst(entry + 1)
        }
        let user = frames.filter(\.isUserCode)
        return (user.first { !isRunner($0) } ?? user.first)?.byWholeFunction ?? frames.first ?? .unknown
    }

    /// A frame that only runs the test: ProfilerTesting's, or the thunks Swift Testing's
    /// `@Test` macro expands into the test's module (their file is the macro expansion).
    static func isRunner(_ frame: SiteFrame) -> Bool {
        frame.function.contains("ProfilerTesting.")
            || (frame.file.split(separator: "/").last.map { $0.hasPrefix("@__swiftmacro_") } ?? false)
    }

    /// The sites, symbolized and folded, ordered by what a failure is about: live bytes when
    /// it is about what was kept, allocated bytes otherwise.
    static func named(_ sites: [MeterSite], byLiveBytes: Bool) -> [Named] {
        let stacks = SiteWriter.symbolizedStacks(Set(sites.map(\.stackID)))
        var folded: [SiteFrame: Named] = [:]
        for s in sites {
            let frame = s.stackID == 0 ? SiteFrame(module: "", function: "(other sites, or stack not captured)")
                : stacks[s.stackID].map(site) ?? .unknown
            folded[frame, default: Named(frame: frame)].allocations += s.allocations
            folded[frame, default: Named(frame: frame)].bytes += s.bytes
            folded[frame, default: Named(frame: frame)].liveBytes += s.liveBytes
        }
        return folded.values.sorted {
            let a = byLiveBytes ? ($0.liveBytes, $0.bytes) : ($0.bytes, $0.liveBytes)
            let b = byLiveBytes ? ($1.liveBytes, $1.bytes) : ($1.bytes, $1.liveBytes)
            return a != b ? a > b : $0.frame.function < $1.frame.function
        }
    }

    /// Sites a failure message names at most.
    static let shown = 5

    /// The failure message's lines naming the top sites, and the rest summed.
    static func lines(_ sites: [MeterSite], byLiveBytes: Bool) -> [String] {
        let named = named(sites, byLiveBytes: byLiveBytes).filter { byLiveBytes ? $0.liveBytes > 0 : $0.bytes > 0 }
        guard !named.isEmpty else { return [] }
        var lines = ["  top sites (\(byLiveBytes ? "by bytes still live" : "by bytes allocated")):"]
        for n in named.prefix(shown) {
            let location = n.frame.location
            lines.append("    \(n.bytes) B in \(n.allocations) allocations, \(n.liveBytes) B still live: "
                + SiteName.short(n.frame.function) + (location.isEmpty ? "" : " (\(location))"))
        }
        if named.count > shown {
            let rest = named.dropFirst(shown)
            lines.append("    \(rest.reduce(0) { $0 + $1.bytes }) B in \(rest.reduce(0) { $0 + $1.allocations }) allocations "
                + "at \(rest.count) other sites")
        }
        return lines
    }
}
