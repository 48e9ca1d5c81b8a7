/// Seed experiment 4: the same images shown in K places, fetched by name with no cache,
/// a strong cache, a strong cache with an idle-time sweep, and a weak cache. Then every
/// placement is released, and the run loop goes idle twice.
public struct ImageCacheScenario: Scenario {
    public let name = "image-cache"
    public let summary = "the same images in K places: no cache, strong, sweeping and weak caches (seed 4)"
    public let baselineStrategy = "no-cache"
    public let strategies = ["no-cache", "strong-cache", "sweep-cache", "weak-cache"]
    public let countParameter = "placements"
    public let parameters = [
        ParameterSpec("placements", "places each image is shown in", .integer(1...100_000), default: .int(7)),
        ParameterSpec("icon_side", "icon width and height in pixels (36: about 5 KB decoded)", .integer(1...4096), default: .int(36)),
        ParameterSpec("photo_side", "photo width and height in pixels (512: 1 MB decoded)", .integer(1...8192), default: .int(512)),
    ]
    public let report = ReportKind.imageCache
    public let keptOnPurpose = [
        KeptBytes(strategy: "strong-cache", .everything, because: "a strong cache holds every image it decoded for its whole life"),
    ]

    public init() {}

    public func run(_ context: ScenarioContext) throws {
        let icon = Double(context.options.int("icon_side")), photo = Double(context.options.int("photo_side"))
        let catalog = ImageCatalog(sizes: ["icon": Size(width: icon, height: icon), "photo": Size(width: photo, height: photo)])
        for strategy in context.strategies {
            try runStrategy(strategy, catalog, ImageCatalog(sizes: ["icon": Size(width: 1, height: 1)]), context)
            context.progress("\(name): \(strategy)")
        }
    }

    private func makeCache(_ strategy: String, _ catalog: ImageCatalog) -> any ImageCache {
        switch strategy {
        case "strong-cache": StrongImageCache(catalog: catalog)
        case "sweep-cache": SweepingImageCache(catalog: catalog)
        case "weak-cache": WeakImageCache(catalog: catalog)
        default: UncachedImages(catalog: catalog)
        }
    }

    private func runStrategy(_ strategy: String, _ catalog: ImageCatalog, _ warmUpCatalog: ImageCatalog,
                             _ context: ScenarioContext) throws {
        // Warm-up on a throwaway cache: first use of each code path allocates once per process.
        let warmUp = makeCache(strategy, warmUpCatalog)
        let warmProbe = context.discarding.probe(component: "icon", strategy: strategy)
        _ = try warmUp.image(named: "icon", probe: warmProbe)
        try warmUp.idle(probe: warmProbe)
        warmUp.waitUntilQuiet()

        let placements = context.options.int("placements")
        let cache = makeCache(strategy, catalog)
        var shown: [Image?] = []
        shown.reserveCapacity(2 * placements)
        try context.step("show", strategy: strategy) {
            for place in 0..<placements {
                for name in ["icon", "photo"] {
                    let probe = context.probe(component: name, strategy: strategy).instance(place)
                    shown.append(try cache.image(named: name, probe: probe))
                }
            }
        }
        try context.step("release", strategy: strategy) {
            for index in shown.indices {
                let name = index % 2 == 0 ? "icon" : "photo"
                try context.probe(component: name, strategy: strategy).instance(index / 2).measure(.release) {
                    shown[index] = nil
                }
            }
        }
        try context.step("idle", strategy: strategy) {
            // Two idle turns back to back: the second finds the first sweep still running.
            let probe = context.probe(component: "cache", strategy: strategy)
            try cache.idle(probe: probe)
            try cache.idle(probe: probe)
            cache.waitUntilQuiet()
            if let sweeping = cache as? SweepingImageCache {
                let stats = sweeping.statistics
                try context.metric("sweeps", Double(stats.sweeps), strategy: strategy)
                try context.metric("sweeps_skipped", Double(stats.skipped), strategy: strategy)
                try context.metric("sweep_ns", Double(stats.nanoseconds), strategy: strategy)
            }
        }
        _ = cache
    }
}
