import CAllocationHooks
import Foundation
import ProfilerHooks
import ProfilerModel

/// A site's key while recording: the subject, the event kind and the hooks' stack id.
package struct SiteKey: Hashable, Sendable {
    package let component: String
    package let strategy: String
    package let kind: EventKind
    /// The hooks' id of the stack (process-wide, this process only); 0: not captured.
    package let stackID: UInt32
}

/// Allocation sites captured while recording (`record --sites`): the hooks log every block
/// allocated in a measured region with its call stack; when a probe emits an instance's
/// event, the blocks of that instance's region are folded here by (component, strategy,
/// kind, stack). One capture at a time per process.
package final class SiteCapture: @unchecked Sendable {
    /// The capture in progress, if any.
    package static let shared = SiteCapture()

    /// Frames captured per stack unless told otherwise.
    package static let defaultDepth = 32
    /// The hooks' limit.
    package static let maximumDepth = Int(PROFCTL_SITES_MAX_DEPTH)

    private let lock = NSLock()
    // Guarded by lock.
    private var counts: [SiteKey: SiteCounts] = [:]
    private var depth = 0

    private init() {}

    /// The site of frees of blocks allocated before any region tracked them: no stack is known.
    static let untrackedStackID = UInt32.max

    /// True while sites are being captured.
    package static var isCapturing: Bool { profctl_sites_enabled() != 0 }

    /// Starts capturing, `depth` frames per stack (1...maximumDepth), and forgets what an
    /// earlier capture left.
    package func start(depth: Int) throws {
        guard (1...Self.maximumDepth).contains(depth) else { throw SiteError.badDepth(depth) }
        lock.withLock {
            counts = [:]
            self.depth = depth
        }
        AllocationScope.excluded { profctl_sites_prepare_thread() }
        profctl_sites_enable(Int32(depth))
    }

    /// Stops capturing and hands over what was captured.
    package func stop() -> CapturedSites {
        profctl_sites_enable(0)
        profctl_sites_reset_thread()
        return lock.withLock {
            let result = CapturedSites(counts: counts, depth: depth, dropped: Int(profctl_sites_dropped()))
            counts = [:]
            return result
        }
    }

    /// Folds the blocks logged on this thread since the region `scopeID` opened into the
    /// sites of (component, strategy, kind). Called by ``Probe/emit(_:_:)`` right after the
    /// region closed, excluded from any region still open.
    /// `untrackedFreedUsable`: usable bytes of blocks no region ever tracked (allocated before
    /// measuring began) that the region freed; the report subtracts them from its usable
    /// bytes, so they go to a site of their own, ``untrackedStackID``.
    func collect(scopeID: UInt64, component: String, strategy: String, kind: EventKind, keep: Bool = true,
                 untrackedFreedUsable: Int = 0) {
        let length = keep ? Int(profctl_sites_log_length()) : 0
        var local: [UInt32: SiteCounts] = [:]
        if length > 0, let log = profctl_sites_log() {
            // The log is in time order and region ids only grow: the region's blocks (its
            // own and those of regions inside it) are the run at the end with ids >= its own.
            let stamp = profctl_sites_last_stamp()
            var index = length - 1
            while index >= 0, log[index].scope >= scopeID {
                let block = log[index]
                var c = local[block.stack_id] ?? SiteCounts()
                c.allocations += 1
                c.requestedBytes += Int(block.requested)
                c.usableBytes += Int(block.usable)
                // Freed after the region closed (a temporary released on the way out, another
                // thread): live, as the hooks saw it.
                if block.freed != 0 && block.freed < stamp {
                    c.frees += 1
                } else {
                    c.liveRequestedBytes += Int(block.requested)
                    c.liveUsableBytes += Int(block.usable)
                }
                local[block.stack_id] = c
                index -= 1
            }
        }
        // Blocks allocated before the region opened and freed while it was open: what it
        // released, taken from the sites that allocated them.
        let releases = keep ? Int(profctl_sites_release_length()) : 0
        if releases > 0, let log = profctl_sites_releases() {
            var index = releases - 1
            while index >= 0, log[index].scope >= scopeID {
                let release = log[index]
                if release.block_scope < scopeID {
                    var c = local[release.stack_id] ?? SiteCounts()
                    c.frees += 1
                    c.liveRequestedBytes -= Int(release.requested)
                    c.liveUsableBytes -= Int(release.usable)
                    local[release.stack_id] = c
                }
                index -= 1
            }
        }
        if keep && untrackedFreedUsable != 0 {
            local[Self.untrackedStackID, default: SiteCounts()].liveUsableBytes -= untrackedFreedUsable
        }
        // No region left open on this thread: nothing later can need these blocks.
        if profctl_current_scope() == 0 { profctl_sites_reset_thread() }
        guard !local.isEmpty else { return }
        lock.withLock {
            for (stack, c) in local {
                counts[SiteKey(component: component, strategy: strategy, kind: kind, stackID: stack), default: SiteCounts()].add(c)
            }
        }
    }
}

/// What a capture collected, before symbolizing.
package struct CapturedSites: Sendable {
    package let counts: [SiteKey: SiteCounts]
    package let depth: Int
    /// Blocks whose stack could not be stored (the hooks' stack table full): 0 in a sound run.
    package let dropped: Int
}

/// Why sites could not be captured, stored or read.
public enum SiteError: Error, CustomStringConvertible, Sendable, Equatable {
    case badDepth(Int)
    case noSuchRun(String)
    case noSites(run: String)
    /// No run recorded with sites (of `scenario`, when one was named).
    case noSiteRuns(path: String, scenario: String? = nil)

    public var description: String {
        switch self {
        case .badDepth(let d):
            "the site depth must be between 1 and \(SiteCapture.maximumDepth) frames (got \(d))"
        case .noSuchRun(let run):
            "no run \(run) in the database"
        case .noSites(let run):
            "run \(run) was recorded without allocation sites (site capture was off)"
        case .noSiteRuns(let path, let scenario):
            "\(path) holds no \(scenario.map { $0 + " " } ?? "")run recorded with allocation sites (site capture on)"
        }
    }
}
