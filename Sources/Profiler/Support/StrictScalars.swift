import Yams

/// How profctl's YAML files read numbers and words: strictly, so that a value means what
/// it looks like. Yams follows YAML 1.1 when asked for a number: `1:30` is 90 (base 60),
/// `010` is 8, `0x1F` is 31, `1_000` is 1000, and a quoted `"2"` or a `!!str 2` (text, by
/// the file's own words) is 2 all the same. Here a number is a plain, untagged decimal;
/// anything else is refused with the reason.
package enum StrictScalars {
    /// A whole number written as plain decimal digits, with an optional minus sign.
    package static func integer(_ scalar: Node.Scalar) -> Int? {
        guard isPlainUntagged(scalar), isDecimal(scalar.string, fraction: false) else { return nil }
        return Int(scalar.string)
    }

    /// A finite decimal number: digits, an optional fraction and exponent.
    package static func number(_ scalar: Node.Scalar) -> Double? {
        guard isPlainUntagged(scalar), isDecimal(scalar.string, fraction: true),
              let value = Double(scalar.string), value.isFinite else { return nil }
        return value
    }

    /// Why a scalar that looks like a number was not read as one, for the message; empty
    /// when there is nothing more to say than "must be a number".
    package static func hint(_ scalar: Node.Scalar?) -> String {
        guard let scalar else { return "" }
        if scalar.tag.rawValue != Tag.Name.implicit.rawValue { return " (an explicit tag such as !!str makes it something else; write the bare number)" }
        if scalar.style != .plain && scalar.style != .any { return " (a quoted value is text; write the bare number)" }
        let text = scalar.string
        if text.contains(":") { return " (YAML 1.1's base-60 numbers like 1:30 are not read; write the decimal value)" }
        if text.hasPrefix("0x") || text.hasPrefix("0o") || text.hasPrefix("0b") || text.contains("_") {
            return " (write it in plain decimal digits)"
        }
        if text.hasPrefix("+") { return " (no + sign: write the bare number)" }
        let unsigned = text.drop(while: { $0 == "-" || $0 == "+" })
        if unsigned.first == "0", unsigned.dropFirst().first?.isASCIIDigit == true {
            return " (no leading zeros: YAML 1.1 reads 010 as octal)"
        }
        return ""
    }

    /// Why `text` cannot be a word (a name, a strategy, a metric), or nil when it can.
    package static func wordProblem(_ text: String, _ what: String) -> String? {
        if text.count > BoundedYAML.maxWordLength {
            return "\(what) '\(BoundedYAML.excerpt(text))' is too long: a word here has at most \(BoundedYAML.maxWordLength) characters"
        }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "\(what) '\(BoundedYAML.excerpt(text))' holds a control character"
        }
        return nil
    }

    package static func isPlainUntagged(_ scalar: Node.Scalar) -> Bool {
        scalar.tag.rawValue == Tag.Name.implicit.rawValue && (scalar.style == .plain || scalar.style == .any)
    }

    /// `-?digits` (no `+`: the docs promise plain decimals), then, when `fraction`, an optional `.digits` and `e[-+]?digits`.
    /// No leading zeros before more digits (YAML 1.1 reads those as octal).
    package static func isDecimal(_ text: String, fraction: Bool) -> Bool {
        var rest = Substring(text)
        if rest.first == "-" { rest = rest.dropFirst() }
        let whole = rest.prefix(while: \.isASCIIDigit)
        rest = rest.dropFirst(whole.count)
        if whole.count > 1, whole.first == "0" { return false }
        guard fraction else { return !whole.isEmpty && rest.isEmpty }
        var digits = whole.count
        if rest.first == "." {
            let part = rest.dropFirst().prefix(while: \.isASCIIDigit)
            digits += part.count
            rest = rest.dropFirst(1 + part.count)
        }
        guard digits > 0 else { return false }
        if rest.first == "e" || rest.first == "E" {
            rest = rest.dropFirst()
            if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
            let exponent = rest.prefix(while: \.isASCIIDigit)
            guard !exponent.isEmpty else { return false }
            rest = rest.dropFirst(exponent.count)
        }
        return rest.isEmpty
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
