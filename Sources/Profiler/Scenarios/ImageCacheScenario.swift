internal import ProfilerCatalog
import ProfilerModel
import ProfilerRecording
import ProfilerQueries

/// Seed experiment 4: the same images shown in K places, fetched by name with no cache,
/// a strong cache, a strong cache with an idle-time sweep, and a weak cache. Then every
/// placement is released, and the run loop goes idle twice. With `requests` set, a longer
/// trace instead: Zipf-distributed lookups over `images` images of varied sizes, each
/// shown until `window` later lookups have been, with idle turns in between (the trace
/// `profctl whatif` replays at other sizes and policies).
package struct ImageCacheScenario: Scenario, CacheTraceScenario {
    package let name = "image-cache"
    package let summary = "the same images in K places: no cache, strong, sweeping and weak caches (seed 4)"
    /// No cache, a strong cache, a strong cache swept when idle, a weak cache.
    package enum Strategy: String, ScenarioStrategy {
        case noCache = "no-cache", strongCache = "strong-cache", sweepCache = "sweep-cache", weakCache = "weak-cache"
    }

    package let baselineStrategy = Strategy.noCache.rawValue
    package let strategies = Strategy.names
    package let steps = ["show", "release", "idle"]
    package let metrics = ["sweeps", "sweeps_skipped", "sweep_ns"]
    package let countParameter = "placements"
    package let parameters = [
        ParameterSpec("placements", "places each image is shown in", .integer(1...100_000), default: .int(7)),
        ParameterSpec("icon_side", "icon width and height in pixels (36: about 5 KB decoded)", .integer(1...4096), default: .int(36)),
        ParameterSpec("photo_side", "photo width and height in pixels (512: 1 MB decoded)", .integer(1...8192), default: .int(512)),
        ParameterSpec("requests", "lookups of a Zipf trace over `images` images (0: the seed experiment's placements)",
                      .integer(0...10_000_000), default: .int(0)),
        ParameterSpec("images", "distinct images of the Zipf trace, sides from icon_side to photo_side", .integer(1...1_000_000), default: .int(200)),
        ParameterSpec("zipf_skew", "the Zipf exponent in hundredths (90: s = 0.9; 0: uniform)", .integer(0...300), default: .int(90)),
        ParameterSpec("seed", "seed of the Zipf trace's lookups and image sizes", .integer(0...Int(Int32.max)), default: .int(1)),
        ParameterSpec("window", "lookups shown at once in the Zipf trace: each is released once this many more are shown",
                      .integer(1...100_000), default: .int(20)),
        ParameterSpec("idle_every", "an idle turn after every this many lookups of the Zipf trace (0: only at the end)",
                      .integer(0...10_000_000), default: .int(1000)),
    ]
    /// What each strategy is, replayed: `profctl whatif --check-replay` reproduces the run with these.
    package let cachePolicies: [String: CachePolicy] = [
        Strategy.noCache.rawValue: .none, Strategy.strongCache.rawValue: .unbounded,
        Strategy.sweepCache.rawValue: .sweep, Strategy.weakCache.rawValue: .weak,
    ]
    package let report = ReportDeclaration(
        name: "image-cache", view: "cache_report",
        summary: "Lookups, what is live while shown, what stays after release and after the idle turn, savings against `no-cache` while shown, and the sweep's work.",
        query: """
            WITH lookups AS (
                SELECT run_key, run_id, strategy, MIN(first_seq) AS ordinal, MAX(repeats) AS repeats,
                       CAST(SUM(CASE WHEN kind = 'hit' THEN events ELSE 0 END) AS BIGINT) AS hits,
                       CAST(SUM(CASE WHEN kind = 'miss' THEN events ELSE 0 END) AS BIGINT) AS misses,
                       CAST(SUM(CASE WHEN kind = 'evict' THEN events ELSE 0 END) AS BIGINT) AS evictions,
                       CAST(SUM(CASE WHEN kind = 'hit' THEN retains END) AS BIGINT) AS hit_retains,
                       CAST(SUM(CASE WHEN kind = 'hit' THEN releases END) AS BIGINT) AS hit_releases
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
                   round((SELECT value FROM metric_summary m WHERE m.run_key = l.run_key AND m.strategy = l.strategy AND m.name = 'sweep_ns') / 1e6, 3) AS sweep_ms,
                   round(CAST(l.hit_retains AS DOUBLE PRECISION) / NULLIF(l.hits, 0), 2) AS retains_per_hit,
                   round(CAST(l.hit_releases AS DOUBLE PRECISION) / NULLIF(l.hits, 0), 2) AS releases_per_hit
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
            // Shown, not gated: a run's first hits make a few one-time retains (6.5 per hit in
            // one run of one repeat, 6 in the next), so per hit they vary between identical runs.
            .shown("retains_per_hit", .count, "Swift retains a hit made; NULL: not counted (or no hits); varies a little by nature"),
            .shown("releases_per_hit", .count, "Swift releases a hit made; NULL: not counted (or no hits); varies a little by nature"),
        ],
        charts: [
            .perStrategy("Cache lookups", unit: "count", ["hits", "misses"]),
            .perStrategy("Live and retained bytes", unit: "bytes",
                         ["live_bytes_while_shown", "retained_bytes_after_release", "retained_bytes_after_idle"]),
        ])
    package let keptOnPurpose = [
        KeptBytes(strategy: "strong-cache", .everything, because: "a strong cache holds every image it decoded for its whole life"),
    ]

    package init() {}

    package func run(_ context: ScenarioContext) throws {
        let icon = context.options.int("icon_side"), photo = context.options.int("photo_side")
        let warmUpCatalog = ImageCatalog(sizes: ["icon": Size(width: 1, height: 1)])
        if context.options.int("requests") > 0 {
            let trace = ZipfImageTrace(context, iconSide: icon, photoSide: photo)
            for strategy in try context.strategies(Strategy.self) {
                try runZipf(strategy, trace, warmUpCatalog, context)
                context.progress("\(name): \(strategy.rawValue)")
            }
            return
        }
        let catalog = ImageCatalog(sizes: ["icon": Size(width: Double(icon), height: Double(icon)),
                                           "photo": Size(width: Double(photo), height: Double(photo))])
        for strategy in try context.strategies(Strategy.self) {
            try runStrategy(strategy, catalog, warmUpCatalog, context)
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

    /// Warm-up on a throwaway cache: first use of each code path allocates once per process.
    private func warmUp(_ typed: Strategy, _ warmUpCatalog: ImageCatalog, _ context: ScenarioContext) throws {
        let warmUp = makeCache(typed, warmUpCatalog)
        let warmProbe = context.discarding.probe(component: "icon", strategy: typed.rawValue)
        _ = try warmUp.image(named: "icon", probe: warmProbe)
        try idle(warmUp, probe: warmProbe)
        warmUp.waitUntilQuiet()
    }

    /// An idle turn, marked in the trace first (an `idle` event) so a replay sweeps where the
    /// run did; the sweep itself runs on the cache's queue.
    private func idle(_ cache: any ImageCache, probe: Probe) throws {
        try probe.measure(.idle) {}
        try cache.idle(probe: probe)
    }

    private func runStrategy(_ typed: Strategy, _ catalog: ImageCatalog, _ warmUpCatalog: ImageCatalog,
                             _ context: ScenarioContext) throws {
        let strategy = typed.rawValue
        try warmUp(typed, warmUpCatalog, context)

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
            try idle(cache, probe: probe)
            try idle(cache, probe: probe)
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

    /// The Zipf trace: lookups in chunks of `idle_every` (a "show" step each, then an idle
    /// turn, waited for so the trace's order is the same every run), each lookup's image
    /// held until `window` more are shown; then every image still shown is released and
    /// the run loop goes idle once more.
    private func runZipf(_ typed: Strategy, _ trace: ZipfImageTrace, _ warmUpCatalog: ImageCatalog,
                         _ context: ScenarioContext) throws {
        let strategy = typed.rawValue
        try warmUp(typed, warmUpCatalog, context)
        let cache = makeCache(typed, trace.catalog)
        let window = context.options.int("window")
        var shown: [(name: String, image: Image?)] = []
        shown.reserveCapacity(trace.lookups.count)
        var released = 0
        func release(upTo end: Int) throws {
            while released < end {
                let index = released
                try context.probe(component: shown[index].name, strategy: strategy).instance(index).measure(.release) {
                    shown[index].image = nil
                }
                released += 1
            }
        }
        let chunk = trace.idleEvery > 0 ? trace.idleEvery : trace.lookups.count
        var next = 0
        while next < trace.lookups.count {
            let end = min(next + chunk, trace.lookups.count)
            try context.step("show", strategy: strategy) {
                for index in next..<end {
                    let name = trace.names[trace.lookups[index]]
                    let probe = context.probe(component: name, strategy: strategy).instance(index)
                    shown.append((name, try cache.image(named: name, probe: probe)))
                    try release(upTo: shown.count - window)
                }
            }
            next = end
            if next < trace.lookups.count {
                try context.step("idle", strategy: strategy) {
                    try idle(cache, probe: context.probe(component: "cache", strategy: strategy))
                    cache.waitUntilQuiet()
                }
            }
        }
        try context.step("release", strategy: strategy) { try release(upTo: shown.count) }
        try context.step("idle", strategy: strategy) {
            try idle(cache, probe: context.probe(component: "cache", strategy: strategy))
            cache.waitUntilQuiet()
            if let sweeping = cache as? SweepingImageCache {
                let stats = sweeping.statistics
                try context.metric("sweeps", Double(stats.sweeps), strategy: strategy)
                try context.metric("sweeps_skipped", Double(stats.skipped), strategy: strategy)
                try context.metric("sweep_ns", Double(stats.nanoseconds), strategy: strategy)
            }
        }
    }
}

/// The Zipf trace's images (names and sizes) and its lookups, made once from the seed so
/// every strategy sees the same requests.
struct ZipfImageTrace {
    let names: [String]
    let catalog: ImageCatalog
    let lookups: [Int]
    let idleEvery: Int

    init(_ context: ScenarioContext, iconSide: Int, photoSide: Int) {
        let images = context.options.int("images")
        var draws = ZipfDraws(count: images, exponent: Double(context.options.int("zipf_skew")) / 100,
                              seed: UInt64(context.options.int("seed")))
        // Short names: small strings, so a name costs no allocation of its own.
        names = (0..<images).map { "img\($0)" }
        let low = min(iconSide, photoSide), high = max(iconSide, photoSide)
        var sizes: [String: Size] = [:]
        for name in names {
            let side = Double(low + draws.below(high - low + 1))
            sizes[name] = Size(width: side, height: side)
        }
        catalog = ImageCatalog(sizes: sizes)
        lookups = (0..<context.options.int("requests")).map { _ in draws.next() }
        idleEvery = context.options.int("idle_every")
    }
}
