import Foundation
import ProfilerHooks
import ProfilerRecording

/// Where images come from when no cache has them: decoding a named asset into pixels.
public struct ImageCatalog: Sendable {
    /// Pixel sizes by name.
    public let sizes: [String: Size]

    public init(sizes: [String: Size]) { self.sizes = sizes }

    /// Decodes a new image: a fresh pixel buffer every time, as loading from a file does.
    public func decode(_ name: String, onRelease: (@Sendable (String) -> Void)? = nil) throws -> Image {
        guard let size = sizes[name] else {
            throw UnknownImageError(name: name, known: sizes.keys.sorted())
        }
        return Image(name: name, size: size, onRelease: onRelease)
    }
}

/// Gets an image by name. Every lookup emits `hit` or `miss` with the bytes it cost;
/// caches that drop entries emit `evict`.
public protocol ImageCache: AnyObject, Sendable {
    func image(named name: String, probe: Probe) throws -> Image
    /// The run loop went idle: a chance for background housekeeping.
    func idle(probe: Probe) throws
    /// Waits for housekeeping started by `idle` to finish.
    func waitUntilQuiet()
}

extension ImageCache {
    public func idle(probe: Probe) throws {}
    public func waitUntilQuiet() {}

    /// Measures a lookup and emits `hit` or `miss` by what `lookUp` reports.
    func measuredLookup(_ probe: Probe, _ lookUp: () throws -> (Image, hit: Bool)) throws -> Image {
        let measured = try AllocationScope.measure(lookUp)
        try probe.emit(measured.value.hit ? .hit : .miss, measured)
        return measured.value.0
    }
}

/// Loads from the catalog every time: nothing shared, nothing kept. Right for big,
/// rarely shown images.
public final class UncachedImages: ImageCache {
    let catalog: ImageCatalog
    public init(catalog: ImageCatalog) { self.catalog = catalog }

    public func image(named name: String, probe: Probe) throws -> Image {
        try measuredLookup(probe) { (try catalog.decode(name), false) }
    }
}

/// A process-wide name -> image dictionary: one image shared by every user, and never
/// freed for the life of the cache.
public final class StrongImageCache: ImageCache, @unchecked Sendable {
    let catalog: ImageCatalog
    // Guarded by lock.
    var entries: [String: Image] = [:]
    let lock = NSLock()

    public init(catalog: ImageCatalog) {
        self.catalog = catalog
        // The table has room for every name up front and keeps it: it is the cache's own
        // cost, so no image's miss is charged for it and no image's release gives it back.
        entries.reserveCapacity(catalog.sizes.count)
    }

    public func image(named name: String, probe: Probe) throws -> Image {
        try measuredLookup(probe) {
            try lock.withLock {
                if let cached = entries[name] { return (cached, true) }
                let image = try catalog.decode(name)
                entries[name] = image
                return (image, false)
            }
        }
    }
}

/// The strong cache plus a sweep that drops entries only the cache still holds. The
/// sweep runs on a background queue when the run loop goes idle, and is skipped while
/// the previous one is still running; it walks every entry, so it costs more the bigger
/// the cache.
public final class SweepingImageCache: ImageCache, @unchecked Sendable {
    let strong: StrongImageCache
    let queue = DispatchQueue(label: "profctl.sweep")
    let group = DispatchGroup()
    // Guarded by stateLock (not the entries' lock: a sweep waiting for the entries must
    // not stop the next idle turn from seeing that it runs).
    private let stateLock = NSLock()
    private var sweeping = false
    private(set) var sweeps = 0
    private(set) var skipped = 0
    private(set) var sweepNanoseconds: UInt64 = 0

    public init(catalog: ImageCatalog) { strong = StrongImageCache(catalog: catalog) }

    public func image(named name: String, probe: Probe) throws -> Image {
        try strong.image(named: name, probe: probe)
    }

    public func idle(probe: Probe) throws {
        let start = stateLock.withLock { () -> Bool in
            if sweeping { skipped += 1; return false }
            sweeping = true
            return true
        }
        guard start else { return }
        group.enter()
        queue.async { [self] in
            defer { group.leave() }
            let began = AllocationScope.monotonicNanoseconds()
            try? sweep(probe: probe)
            stateLock.withLock {
                sweepNanoseconds += AllocationScope.monotonicNanoseconds() - began
                sweeps += 1
                sweeping = false
            }
        }
    }

    public func waitUntilQuiet() { group.wait() }

    /// Drops every entry nobody but the cache holds, one `evict` event each.
    func sweep(probe: Probe) throws {
        let names = strong.lock.withLock { Array(strong.entries.keys) }
        for (index, name) in names.enumerated() {
            try probe.component(name).instance(index).measureIf(.evict) {
                strong.lock.withLock { () -> Bool in
                    guard var image = strong.entries.removeValue(forKey: name) else { return false }
                    guard isKnownUniquelyReferenced(&image) else {
                        strong.entries[name] = image
                        return false
                    }
                    return true
                }
            }
        }
    }

    /// Sweep statistics so far: sweeps run, sweeps skipped, nanoseconds spent sweeping.
    public var statistics: (sweeps: Int, skipped: Int, nanoseconds: UInt64) {
        stateLock.withLock { (sweeps, skipped, sweepNanoseconds) }
    }
}

/// A dictionary of weak references: shared while anyone uses an image, gone (entry and
/// all) when the last user lets go.
public final class WeakImageCache: ImageCache, @unchecked Sendable {
    struct WeakImage { weak var image: Image? }

    let catalog: ImageCatalog
    // Guarded by lock.
    var entries: [String: WeakImage] = [:]
    let lock = NSLock()
    /// Made once, so images share it: a closure per image would cost a context each.
    private var releaseHandler: (@Sendable (String) -> Void)?

    public init(catalog: ImageCatalog) {
        self.catalog = catalog
        // Room for every name up front, kept when entries go: the table is the cache's own
        // cost, charged to no image's miss and given back by no image's release.
        entries.reserveCapacity(catalog.sizes.count)
        releaseHandler = { [weak self] name in self?.drop(name) }
    }

    public func image(named name: String, probe: Probe) throws -> Image {
        try measuredLookup(probe) {
            try lock.withLock {
                if let alive = entries[name]?.image { return (alive, true) }
                let image = try catalog.decode(name, onRelease: releaseHandler)
                entries[name] = WeakImage(image: image)
                return (image, false)
            }
        }
    }

    /// The image's last user let go: forget the entry (the table keeps its room).
    private func drop(_ name: String) {
        lock.withLock {
            if entries[name]?.image == nil { entries[name] = nil }
        }
    }
}

extension Probe {
    /// Measures `body` and emits the event only when it returns true.
    func measureIf(_ kind: EventKind, _ body: () throws -> Bool) throws {
        let measured = try AllocationScope.measure(body)
        if measured.value { try emit(kind, measured) }
    }
}

/// An image the catalog has no size for (the image-cache scenario asks only for the ones it declares).
public struct UnknownImageError: Error, CustomStringConvertible, Equatable, Sendable {
    public let name: String
    public let known: [String]

    public var description: String { "no image named '\(name)'; known: \(known.joined(separator: ", "))" }
}
