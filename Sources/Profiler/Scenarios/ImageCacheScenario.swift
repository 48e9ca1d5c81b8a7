internal import ProfilerCatalog
import ProfilerModel

/// Seed experiment 4: the same images shown in K places, fetched by name with no cache,
/// a strong cache, a strong cache with an idle-time sweep, and a weak cache. Then every
/// placement is released, and the run loop goes idle twice.
public struct ImageCacheScenario: Scenario {
    public let name = "image-cache"
    public let summary = "the same images in K places: no cache, strong, sweeping and weak caches (seed 4)"
    /// No cache, a strong cache, a strong cache swept when idle, a weak cache.
    public enum Strategy: String, ScenarioStrategy {
        case noCache = "no-cache", strongCache = "strong-cache", sweepCache = "sweep-cache", weakCache = "weak-cache"
    }

    public let baselineStrategy = Strategy.noCache.rawValue
    public let strategies = Strategy.names
    public let steps = ["show", "release", "idle"]
    public let metrics = ["sweeps", "sweeps_skipped", "sweep_ns"]
    public let countParameter = "placements"
    public let parameters = [
        ParameterSpec("placements", "places each image is shown in", .integer(1...100_000), default: .int(7)),
        ParameterSpec("icon_side", "icon width and height in pixels (36: about 5 KB decoded)", .integer(1...4096), default: .int(36)),
        ParameterSpec("photo_side", "photo width and height in pixels (512: 1 MB decoded)", .integer(1...8192), default: .int(512)),
    ]
    public let report = ReportDeclaration(
        name: "image-cache", view: "cache_report",
        summary: "Lookups, what is live while shown, what stays after release and after the idle turn, savings against `no-cache` while shown, and the sweep's work.",
        query: """
            WITH lookups AS (
                SELECT run_key, run_id, strategy, MIN(first_seq) AS ordinal, MAX(repeats) AS repeats,
                       CAST(SUM(CASE WHEN kind = 'hit' THEN events ELSE 0 END) AS BIGINT) AS hits,
                       CAST(SUM(CASE WHEN kind = 'miss' THEN events ELSE 0 END) AS BIGINT) AS misses,
                       CAST(SUM(CASE WHEN kind = 'evict' THEN events ELSE 0 END) AS BIGINT) AS evictions
                FROM step_summary WHERE report = 'image-cache'
                GROUP BY run_key, run_id, strategy
            ),
            live AS (
                SELECT run_key, strategy,
                       MAX(CASE WHEN step = 'show' THEN live_bytes END) AS shown,
                       MAX(CASE WHEN step = 'release' THEN live_bytes END) AS after_release,
                       MAX(CASE WHEN step = 'idle' THEN live_bytes END) AS after_idle
                FROM sample_summary GROUP BY run_key, strategy
            )
            SELECT l.run_id, l.strategy,
                   l.hits / l.repeats AS hits,
                   l.misses / l.repeats AS misses,
                   round(CAST(l.hits AS DOUBLE PRECISION) / NULLIF(l.hits + l.misses, 0), 4) AS hit_ratio,
                   CAST(trunc(v.shown) AS BIGINT) AS live_bytes_while_shown,
                   CAST(trunc(v.after_release) AS BIGINT) AS retained_bytes_after_release,
                   CAST(trunc(v.after_idle) AS BIGINT) AS retained_bytes_after_idle,
                   CAST(trunc(b.shown - v.shown) AS BIGINT) AS saved_bytes,
                   round(100.0 * (b.shown - v.shown) / NULLIF(b.shown, 0), 2) AS savings_pct,
                   l.evictions / l.repeats AS evictions,
                   (SELECT value FROM metric_summary m WHERE m.run_key = l.run_key AND m.strategy = l.strategy AND m.name = 'sweeps') AS sweeps,
                   (SELECT value FROM metric_summary m WHERE m.run_key = l.run_key AND m.strategy = l.strategy AND m.name = 'sweeps_skipped') AS sweeps_skipped,
                   round((SELECT value FROM metric_summary m WHERE m.run_key = l.run_key AND m.strategy = l.strategy AND m.name = 'sweep_ns') / 1e6, 3) AS sweep_ms
            FROM lookups l
            JOIN live v ON v.run_key = l.run_key AND v.strategy = l.strategy
            LEFT JOIN live b ON b.run_key = l.run_key AND b.strategy = 'no-cache'
            ORDER BY l.run_key, l.ordinal
            """,
        columns: [
            .label("strategy", "the cache"),
            .measured("hits", .count, "lookups answered from the cache", polarity: .largerIsBetter),
            .measured("misses", .count, "lookups that decoded the image"),
            .derived("hit_ratio", .ratio, "hits / (hits + misses)"),
            .measured("live_bytes_while_shown", .bytes, "live bytes after every placement is shown"),
            .measured("retained_bytes_after_release", .bytes, "live bytes after every placement is released"),
            .measured("retained_bytes_after_idle", .bytes, "live bytes after the idle turns"),
            .derived("saved_bytes", .bytes, "`no-cache`'s live bytes while shown minus this one's"),
            .derived("savings_pct", .percent, "saved bytes as a share of `no-cache`'s"),
            .measured("evictions", .count, "images the cache let go"),
            .shown("sweeps", .count, "idle-time sweeps that ran (how they interleave varies by nature)"),
            .shown("sweeps_skipped", .count, "idle turns that found a sweep still running"),
            .shown("sweep_ms", .milliseconds, "time the sweeps took"),
        ],
        charts: [
            .perStrategy("Cache lookups", unit: "count", ["hits", "misses"]),
            .perStrategy("Live and retained bytes", unit: "bytes",
                         ["live_bytes_while_shown", "retained_bytes_after_release", "retained_bytes_after_idle"]),
        ])
    public let keptOnPurpose = [
        KeptBytes(strategy: "strong-cache", .everything, because: "a strong cache holds every image it decoded for its whole life"),
    ]

    public init() {}

    public func run(_ context: ScenarioContext) throws {
        let icon = Double(context.options.int("icon_side")), photo = Double(context.options.int("photo_side"))
        let catalog = ImageCatalog(sizes: ["icon": Size(width: icon, height: icon), "photo": Size(width: photo, height: photo)])
        for strategy in try context.strategies(Strategy.self) {
            try runStrategy(strategy, catalog, ImageCatalog(sizes: ["icon": Size(width: 1, height: 1)]), context)
            context.progress("\(name): \(strategy.rawValue)")
        }
    }

    private func makeCache(_ strategy: Strategy, _ catalog: ImageCatalog) -> any ImageCache {
        switch strategy {
        case .noCache: UncachedImages(catalog: catalog)
        case .strongCache: StrongImageCache(catalog: catalog)
        case .sweepCache: SweepingImageCache(catalog: catalog)
        case .weakCache: WeakImageCache(catalog: catalog)
        }
    }

    private func runStrategy(_ typed: Strategy, _ catalog: ImageCatalog, _ warmUpCatalog: ImageCatalog,
                             _ context: ScenarioContext) throws {
        let strategy = typed.rawValue
        // Warm-up on a throwaway cache: first use of each code path allocates once per process.
        let warmUp = makeCache(typed, warmUpCatalog)
        let warmProbe = context.discarding.probe(component: "icon", strategy: strategy)
        _ = try warmUp.image(named: "icon", probe: warmProbe)
        try warmUp.idle(probe: warmProbe)
        warmUp.waitUntilQuiet()

        let placements = context.options.int("placements")
        let cache = makeCache(typed, catalog)
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
