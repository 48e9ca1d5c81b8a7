import ProfilerModel

/// The HTML report's size-class charts (docs/leaks.md, "Temporaries and size classes"):
/// per log2 class of the requested size, each strategy's allocations, and the usable
/// bytes malloc's rounding added on top of what was requested.
enum SizeClassChart {
    /// Both charts, or nothing for a run without size classes.
    static func render(_ points: [SizeClassPoint], strategyOrder: [String]) -> String {
        guard !points.isEmpty else { return "" }
        let classes = Array(Set(points.map(\.sizeClass))).sorted()
        let present = Set(points.map(\.strategy))
        var seen = Set<String>()
        let strategies = strategyOrder.filter { present.contains($0) && seen.insert($0).inserted } + present.subtracting(strategyOrder).sorted()
        let categories = classes.map(label)
        func series(_ value: @escaping (SizeClassPoint) -> Int) -> [SVGChart.Series] {
            strategies.map { strategy in
                SVGChart.Series(name: strategy, values: classes.map { c in
                    points.first { $0.strategy == strategy && $0.sizeClass == c }.map { Double(value($0)) }
                })
            }
        }
        let counts = SVGChart.bars(title: "Allocations per size class of the requested size", unit: "count",
                                   categories: categories, series: series(\.allocations), logScale: true)
        let wasted = SVGChart.bars(title: "Usable bytes over requested per size class (malloc's rounding)", unit: "bytes",
                                   categories: categories, series: series(\.wastedBytes))
        return counts + "\n" + wasted + "\n"
    }

    /// "16-31", "1K-2K", "512K-1M": the class's requested sizes.
    static func label(_ sizeClass: Int) -> String {
        guard sizeClass < 62 else { return "2^\(sizeClass)+" }
        let low = sizeClass == 0 ? 0 : 1 << sizeClass
        return "\(bytes(low))-\(sizeClass >= 10 ? bytes(2 << sizeClass) : bytes((2 << sizeClass) - 1))"
    }

    private static func bytes(_ n: Int) -> String {
        if n >= 1 << 30 && n % (1 << 30) == 0 { return "\(n >> 30)G" }
        if n >= 1 << 20 && n % (1 << 20) == 0 { return "\(n >> 20)M" }
        if n >= 1 << 10 && n % (1 << 10) == 0 { return "\(n >> 10)K" }
        return "\(n)"
    }
}
