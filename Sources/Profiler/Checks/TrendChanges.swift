import ProfilerModel
import ProfilerQueries

/// A level shift in one trend series: the run where it began, with its commit, and the
/// size of the shift.
package struct TrendChange: Sendable, Equatable {
    package let series: TrendSeries
    /// Index into `series.points` of the first run at the new level.
    package let pointIndex: Int
    package let change: ChangePoint

    /// The first run at the new level.
    package var run: RunInfo { series.points[pointIndex].run }

    /// "e-divisive" for latencies, "exact" for bytes and counts.
    package var method: String { series.isLatency ? "e-divisive" : "exact" }
}

extension Trend {
    /// Where each level shift of `series` began: E-Divisive means for latencies, the first
    /// run that differs (beyond the metric's slack) for exact figures. Runs that lack the
    /// series are skipped, not counted as a level.
    package static func changes(in series: TrendSeries, parameters: ChangePointParameters = .standard) -> [TrendChange] {
        let present = series.points.indices.filter { series.points[$0].value.map(\.isFinite) ?? false }
        let values = present.compactMap { series.points[$0].value }
        let found = series.isLatency
            ? EDivisive.changePoints(in: values, parameters: parameters)
            : ExactChanges.changePoints(in: values, slack: present.map { series.points[$0].slack })
        return found.map { TrendChange(series: series, pointIndex: present[$0.index], change: $0) }
    }
}
