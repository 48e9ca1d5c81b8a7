// How a figure is judged: declared per report column (ReportColumn) and carried by every
// metric `check` compares. Here, below both, so a report declaration needs nothing from Checks.

/// Which direction is better for a metric.
public enum Polarity: String, Sendable, Codable {
    case smallerIsBetter = "smaller"
    case largerIsBetter = "larger"
}

/// Whether a metric is gated against its baseline.
package enum MetricRole: String, Sendable, Codable {
    /// Measured directly (bytes, counts, latencies): a change is a regression or an improvement.
    case primary
    /// Computed from primary figures (saved bytes, savings %, break-even, hit ratio): shown
    /// next to them as context, never gated against a baseline (an absolute budget on one
    /// still applies), so a pure improvement can never fail through one.
    case derived
}
