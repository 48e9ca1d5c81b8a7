import Foundation

/// One chart axis: round ticks (steps of 1, 2 or 5 times a power of ten; powers of ten
/// on a log axis, with 2 and 5 between them when it spans few decades), one unit for
/// every label of the axis (binary prefixes for bytes, KiB and MiB; SI prefixes for
/// nanoseconds), integers for counts. Every chart of the HTML pages labels its values
/// through this type, so a tick, a bar's tooltip and an icicle's title say a figure the
/// same way.
package struct AxisScale: Sendable {
    /// What the axis counts, from a chart declaration's unit ("bytes", "count", "%", "ns").
    package enum Quantity: Sendable, Equatable {
        case bytes, count, nanoseconds, other(String)

        package init(unit: String) {
            switch unit.lowercased() {
            case "bytes", "byte", "b": self = .bytes
            case "count", "counts", "allocations", "instances": self = .count
            case "ns", "nanoseconds": self = .nanoseconds
            default: self = .other(unit)
            }
        }
    }

    package let quantity: Quantity
    package let logarithmic: Bool
    /// The axis ends, in the quantity's own unit (bytes, counts, ns).
    package let low: Double
    package let high: Double
    /// Tick values, in the quantity's own unit, from low to high.
    package let ticks: [Double]
    /// The display unit's size in the quantity's unit (1024 for KiB) and its name.
    package let divisor: Double
    package let unitName: String
    private let decimals: Int

    /// An axis holding `values` (and zero, on a linear axis), with about `targetTicks` ticks.
    package init(unit: String, values: [Double], logarithmic: Bool = false, targetTicks: Int = 5) {
        quantity = Quantity(unit: unit)
        self.logarithmic = logarithmic
        let finite = values.filter(\.isFinite)
        if logarithmic {
            let positive = finite.filter { $0 > 0 }
            let smallest = positive.min() ?? 1, largest = max(positive.max() ?? 10, smallest)
            // The largest prefix not above the smallest value, so every tick is >= 1 of it.
            let (size, name) = Self.prefix(for: smallest, quantity)
            (divisor, unitName) = (size, name)
            let lowExponent = floor(log10(smallest / size)), highExponent = max(ceil(log10(largest / size)), lowExponent + 1)
            low = pow(10, lowExponent) * size
            high = pow(10, highExponent) * size
            var marks: [Double] = []
            let decades = Int(highExponent - lowExponent)
            for exponent in Int(lowExponent)...Int(highExponent) {
                let power = pow(10, Double(exponent))
                marks.append(power)
                if decades <= 2 && exponent < Int(highExponent) { marks += [2 * power, 5 * power] }
            }
            ticks = marks.map { $0 * size }
            decimals = max(0, Int(-lowExponent))
        } else {
            let top = max(finite.max() ?? 0, 0), bottom = min(finite.min() ?? 0, 0)
            let (size, name) = Self.prefix(for: max(top, -bottom), quantity)
            (divisor, unitName) = (size, name)
            let span = (top - bottom) / size
            // Of the round steps near span / (ticks - 1), the one whose tick count comes
            // closest to the target (the larger step on a tie): 912 B gets 0, 200, ... 1,000.
            let base = Self.roundStep(span / Double(max(targetTicks - 1, 1)))
            let candidates = [base / 2.5, base / 2, base, base * 2, base * 2.5].map { Self.roundStep($0 * 0.999) }
            func count(_ step: Double) -> Int { Int(ceil(top / size / step) - floor(bottom / size / step)) + 1 }
            // On a tie, the tighter axis (less empty room above the largest value), then the larger step.
            func reach(_ step: Double) -> Double { ceil(top / size / step) * step - floor(bottom / size / step) * step }
            var step = candidates.min { a, b in
                let (da, db) = (abs(count(a) - targetTicks), abs(count(b) - targetTicks))
                if da != db { return da < db }
                return reach(a) != reach(b) ? reach(a) < reach(b) : a > b
            } ?? base
            if quantity == .count || quantity == .bytes && size == 1 { step = max(step, 1) }
            let first = floor(bottom / size / step), last = max(ceil(top / size / step), first + 1)
            ticks = (Int(first)...Int(last)).map { Double($0) * step * size }
            low = first * step * size
            high = last * step * size
            decimals = max(0, Int(-floor(log10(step) + 1e-9)))
        }
    }

    /// 1, 2 or 5 times a power of ten: the smallest such at least `raw`.
    package static func roundStep(_ raw: Double) -> Double {
        guard raw.isFinite, raw > 0 else { return 1 }
        let power = pow(10, floor(log10(raw)))
        for factor in [1.0, 2, 5, 10] where factor * power >= raw * (1 - 1e-9) { return factor * power }
        return 10 * power
    }

    /// The display unit for an axis whose values reach `magnitude`.
    static func prefix(for magnitude: Double, _ quantity: Quantity) -> (Double, String) {
        switch quantity {
        case .bytes:
            for (size, name) in [(1024.0 * 1024 * 1024, "GiB"), (1024.0 * 1024, "MiB"), (1024.0, "KiB")] where magnitude >= size {
                return (size, name)
            }
            return (1, "B")
        case .nanoseconds:
            for (size, name) in [(1e9, "s"), (1e6, "ms"), (1e3, "µs")] where magnitude >= size { return (size, name) }
            return (1, "ns")
        case .count: return (1, "")
        case .other(let unit): return (1, unit)
        }
    }

    /// Where `value` sits along the axis: 0 at `low`, 1 at `high`.
    package func fraction(_ value: Double) -> Double {
        if logarithmic {
            let clamped = min(max(value, low), high)
            return (log10(clamped) - log10(low)) / (log10(high) - log10(low))
        }
        return high == low ? 0 : (value - low) / (high - low)
    }

    /// A tick's label: the number in the axis's unit, with the unit ("200 KiB", "5,000", "20 %").
    package func label(_ tick: Double) -> String {
        if tick == 0 { return "0" }
        let number = Self.grouped(tick / divisor, decimals: decimals)
        return unitName.isEmpty ? number : "\(number) \(unitName)"
    }

    /// A value exactly, for a tooltip: "912,000 B (890.6 KiB)", "14", "3.5 %".
    package static func exact(_ value: Double, unit: String) -> String {
        let quantity = Quantity(unit: unit)
        switch quantity {
        case .bytes:
            let plain = grouped(value, decimals: value.rounded() == value ? 0 : 1) + " B"
            let (divisor, name) = prefix(for: abs(value), quantity)
            return divisor == 1 ? plain : plain + " (" + grouped(value / divisor, decimals: 1) + " \(name))"
        case .count:
            return grouped(value, decimals: value.rounded() == value ? 0 : 2)
        case .nanoseconds:
            let (divisor, name) = prefix(for: abs(value), quantity)
            return grouped(value / divisor, decimals: divisor == 1 ? 0 : 2) + " \(name)"
        case .other(let name):
            let number = grouped(value, decimals: value.rounded() == value ? 0 : 2)
            return name.isEmpty ? number : "\(number) \(name)"
        }
    }

    /// Bytes in the largest binary unit they reach, one decimal: "890.6 KiB", "48 B".
    package static func bytes(_ value: Int) -> String {
        let (divisor, name) = prefix(for: Double(abs(value)), .bytes)
        return divisor == 1 ? "\(value) B" : grouped(Double(value) / divisor, decimals: 1) + " \(name)"
    }

    /// "12,345.6": thousands grouped with commas, a fixed number of decimals.
    package static func grouped(_ value: Double, decimals: Int) -> String {
        let text = String(format: "%.\(decimals)f", abs(value) < 1e-12 ? 0 : value)
        let negative = text.hasPrefix("-")
        let digits = negative ? String(text.dropFirst()) : text
        let parts = digits.split(separator: ".", maxSplits: 1)
        var integer = String(parts.first ?? "0")
        var groups: [String] = []
        while integer.count > 3 {
            groups.insert(String(integer.suffix(3)), at: 0)
            integer = String(integer.dropLast(3))
        }
        groups.insert(integer, at: 0)
        let whole = groups.joined(separator: ",")
        return (negative ? "-" : "") + whole + (parts.count > 1 ? "." + parts[1] : "")
    }
}
