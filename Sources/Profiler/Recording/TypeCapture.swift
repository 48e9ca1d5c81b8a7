import CAllocationHooks
import Foundation
import ProfilerHooks
import ProfilerModel

/// A type's key while recording: the subject, the event kind and the type's metadata
/// (0: the remainder, blocks no object claims).
package struct TypeKey: Hashable, Sendable {
    package let component: String
    package let strategy: String
    package let kind: EventKind
    package let metadata: UInt
}

/// Swift object types captured while recording (`record --types`): the hooks log every
/// object swift_allocObject allocates in a measured region with its metadata; when a probe
/// emits an instance's event, the objects of that instance's region are folded here by
/// (component, strategy, kind, metadata), with a remainder for the region's other blocks.
/// Names are resolved once per metadata when the capture stops. One capture at a time per
/// process.
package final class TypeCapture: @unchecked Sendable {
    /// The capture in progress, if any.
    package static let shared = TypeCapture()

    private let lock = NSLock()
    // Guarded by lock.
    private var counts: [TypeKey: TypeCounts] = [:]
    private var arcWasCounting = false

    private init() {}

    /// True while types are being captured.
    package static var isCapturing: Bool { profctl_types_enabled() != 0 }

    /// Starts capturing, and forgets what an earlier capture left. Turns ARC counting on
    /// (the runtime calls its allocation hook pointer only then) and back off at ``stop()``
    /// unless it was on before. Throws ``TypeCaptureError/unavailable(_:)`` on a runtime the
    /// hooks do not know.
    package func start() throws {
        let wasCounting = ARCCounting.isEnabled
        do {
            try ARCCounting.enable()
        } catch let error as ARCCounting.Unavailable {
            throw TypeCaptureError.unavailable(error.reason)
        }
        guard profctl_types_install() == 0 else {
            if !wasCounting { ARCCounting.disable() }
            throw TypeCaptureError.unavailable(String(cString: profctl_types_refusal()))
        }
        lock.withLock {
            counts = [:]
            arcWasCounting = wasCounting
        }
        profctl_types_reset_thread()
        // The sites' address table (without stacks, unless sites are captured too) says
        // which object a later region freed: its releases carry the type (collect).
        AllocationScope.excluded { profctl_sites_track_objects(1) }
        profctl_types_enable(1)
    }

    /// Stops capturing and hands over what was captured, every type named.
    package func stop() -> CapturedTypes {
        profctl_types_enable(0)
        profctl_types_uninstall()
        profctl_types_reset_thread()
        profctl_sites_track_objects(0)
        if !SiteCapture.isCapturing { profctl_sites_reset_thread() }
        let (captured, wasCounting) = lock.withLock {
            let result = (counts, arcWasCounting)
            counts = [:]
            return result
        }
        if !wasCounting { ARCCounting.disable() }
        // Named once per metadata, after every region closed; two metadata may share a name
        // (a private type's address normalised away), and then share a row.
        var names: [UInt: String] = [0: ObjectTypeCounts.remainder]
        var named: [NamedTypeKey: TypeCounts] = [:]
        for (key, c) in captured {
            let name = names[key.metadata] ?? TypeName.resolve(metadata: key.metadata)
            names[key.metadata] = name
            named[NamedTypeKey(component: key.component, strategy: key.strategy, kind: key.kind, type: name),
                  default: TypeCounts()].add(c)
        }
        return CapturedTypes(counts: named, dropped: Int(profctl_types_dropped()))
    }

    /// Folds the objects logged on this thread since the region `scopeID` opened into the
    /// types of (component, strategy, kind), the objects of earlier regions it freed into
    /// their types' releases, and what the region allocated and freed besides them into the
    /// remainder. Called by ``Probe/emit(_:_:)`` right after the region closed, excluded
    /// from any region still open, and before ``SiteCapture/collect`` (which empties the
    /// releases this reads).
    func collect(scopeID: UInt64, component: String, strategy: String, kind: EventKind, keep: Bool = true,
                 region: Allocations) {
        defer {
            // No region left open on this thread: nothing later can need these objects, nor
            // the sites' log of its blocks (unless sites are captured: theirs to empty).
            if profctl_current_scope() == 0 {
                profctl_types_reset_thread()
                if !SiteCapture.isCapturing { profctl_sites_reset_thread() }
            }
        }
        guard keep else { return }
        var local: [UInt: TypeCounts] = [:]
        let length = Int(profctl_types_log_length())
        if length > 0, let log = profctl_types_log() {
            // The log is in time order and region ids only grow: the region's objects (its
            // own and those of regions inside it) are the run at the end with ids >= its own.
            // Walked newest first: an address seen again was freed and reused, so only its
            // newest object can still be live.
            var seen = Set<UInt>()
            var index = length - 1
            while index >= 0, log[index].scope >= scopeID {
                let block = log[index]
                var c = local[block.metadata] ?? TypeCounts()
                c.objects += 1
                c.requestedBytes += Int(block.requested)
                if seen.insert(block.address).inserted,
                   profctl_types_block_live(block.address, block.scope, block.requested) != 0 {
                    c.liveObjects += 1
                    c.liveRequestedBytes += Int(block.requested)
                }
                local[block.metadata] = c
                index -= 1
            }
        }
        // Objects of earlier regions this one freed (the sites' releases, which carry the
        // type the log above gave each object): given back, by type.
        let releases = Int(profctl_sites_release_length())
        if releases > 0, let log = profctl_sites_releases() {
            var index = releases - 1
            while index >= 0, log[index].scope >= scopeID {
                let release = log[index]
                if release.block_scope < scopeID && release.metadata != 0 {
                    local[release.metadata, default: TypeCounts()].releasedObjects += 1
                    local[release.metadata, default: TypeCounts()].releasedRequestedBytes += Int(release.requested)
                }
                index -= 1
            }
        }
        // The remainder: the region's own figures less what the objects account for, so the
        // types add up to the region exactly. Its live blocks: allocated less those its thread
        // freed while it was open (lifetimes' temporaries); its released ones: every other
        // free, so that live less released over the types is the event's allocations less
        // frees, and in bytes its net live bytes, as the round trip counts them.
        var lifetimes = profctl_lifetimes()
        let temporaries = profctl_region_lifetimes_add(scopeID, &lifetimes) == 0 ? Int(lifetimes.temporaries) : 0
        var remainder = TypeCounts(objects: region.allocations, requestedBytes: region.requestedBytes,
                                   liveObjects: max(0, region.allocations - temporaries),
                                   liveRequestedBytes: region.retainedRequestedBytes,
                                   releasedObjects: max(0, region.frees - temporaries),
                                   releasedRequestedBytes: region.releasedRequestedBytes)
        for c in local.values { remainder.subtract(c) }
        if remainder != TypeCounts() { local[0] = remainder }
        guard !local.isEmpty else { return }
        lock.withLock {
            for (metadata, c) in local {
                counts[TypeKey(component: component, strategy: strategy, kind: kind, metadata: metadata), default: TypeCounts()].add(c)
            }
        }
    }
}

/// A type's key once named.
package struct NamedTypeKey: Hashable, Sendable {
    package let component: String
    package let strategy: String
    package let kind: EventKind
    package let type: String
}

/// What a capture collected, named.
package struct CapturedTypes: Sendable {
    package let counts: [NamedTypeKey: TypeCounts]
    /// Objects that could not be logged (mmap failed): 0 in a sound run.
    package let dropped: Int
}

/// Why types could not be captured, stored or read.
package enum TypeCaptureError: Error, CustomStringConvertible, Sendable, Equatable {
    case unavailable(String)
    case noSuchRun(String)
    case noTypes(run: String)
    /// No run recorded with types (of `scenario`, when one was named).
    case noTypeRuns(path: String, scenario: String? = nil)

    package var description: String {
        switch self {
        case .unavailable(let reason):
            "Swift object types cannot be captured in this process: \(reason)"
        case .noSuchRun(let run):
            "no run \(run) in the database"
        case .noTypes(let run):
            "run \(run) was recorded without types (type capture was off), so it has no types to show"
        case .noTypeRuns(let path, let scenario):
            "\(path) holds no \(scenario.map { $0 + " " } ?? "")run recorded with types (type capture on)"
        }
    }
}
