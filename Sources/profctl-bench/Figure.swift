/// One benchmark figure: a value, the baseline it is measured against in the same run,
/// and the target it should meet.
struct Figure: Codable {
    let section: String
    let metric: String
    let baseline: String
    let baselineValue: Double?
    let value: Double
    let unit: String
    /// The target as text, and whether it was met (nil: no target).
    let target: String?
    let met: Bool?

    var ratio: Double? { baselineValue.flatMap { $0 == 0 ? nil : value / $0 } }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1)]
}
