import Foundation

/// A demangled function name read for a person: what the icicles label a box with and the
/// leak check names a site by (the full name stays on hover and in the tables). The old
/// rule, "cut at the first parenthesis", turned a private type's name
/// `Yams.(Parser in _0F1A).parse() -> ...` into "Yams." and a specialization into
/// "generic specialization <"; this one reads Swift's demangled grammar instead.
package enum SiteName {
    /// "Profiler.Label.init(text: ...) -> Label" -> "Profiler.Label.init";
    /// "Yams.(Parser in _0F1A).parse() -> Yams.Node" -> "Yams.Parser.parse";
    /// "generic specialization <Swift.Int> of Foo.bar<A>(A) -> ()" -> "Foo.bar<Swift.Int>";
    /// "closure #1 (Swift.Int) -> () in Foo.bar() -> ()" -> "closure #1 in Foo.bar";
    /// "merged Foo.bar() -> ()" -> "Foo.bar (merged)"; "merged generic specialization
    /// <Catalog.ImageView> of Foo.bar() -> ()" -> "Foo.bar (merged)": Swift's function
    /// merging (symbols ending in `Tm`) keeps one body for identical specializations, named
    /// after the first, so Label's stacks run through code named for ImageView.
    package static func short(_ name: String) -> String {
        var text = Substring(name)
        var merged = false, forwarder = false, specialization: String?
        // Thunks name what they convert between, which reads as noise: say what they are.
        for thunk in ["reabstraction thunk", "thunk for ", "autoreleased return value thunk"] where text.hasPrefix(thunk) {
            return thunk.trimmingSuffix(" ")
        }
        if text.hasPrefix("protocol witness for "), let range = text.range(of: " in conformance ") {
            return "protocol witness for " + short(String(text[text.index(text.startIndex, offsetBy: 21)..<range.lowerBound]))
        }
        // Prefixes the demangler puts before the function itself.
        var stripped = true
        while stripped {
            stripped = false
            for prefix in ["merged ", "partial apply forwarder for ", "partial apply for ", "specialized ", "static ",
                           "dispatch thunk of ", "@objc ", "@nonobjc ", "(extension in "] where text.hasPrefix(prefix) {
                if prefix == "merged " { merged = true }
                if prefix.hasPrefix("partial apply") { forwarder = true }
                if prefix == "(extension in " {
                    guard let close = closing(text, from: text.startIndex, open: "(", close: ")") else { break }
                    text = text[text.index(after: close)...]
                    if text.hasPrefix(":") { text = text.dropFirst() }
                } else {
                    text = text.dropFirst(prefix.count)
                }
                stripped = true
            }
            for prefix in ["generic specialization <", "function signature specialization <"] where text.hasPrefix(prefix) {
                let open = text.index(text.startIndex, offsetBy: prefix.count - 1)
                guard let close = closing(text, from: open, open: "<", close: ">") else { break }
                if prefix.hasPrefix("generic") { specialization = String(text[open...close]) }
                text = text[text.index(after: close)...]
                if text.hasPrefix(" of ") { text = text.dropFirst(4) }
                stripped = true
            }
        }
        var result: String
        if let closure = closureHead(text) {
            result = closure.head + " in " + short(String(closure.rest))
        } else {
            result = function(privateContextsRemoved(String(text)))
            // A merged function's specialization names whichever type the compiler kept
            // (ImageView's in Label's tree): it is left out, and the name marked merged.
            if merged { specialization = nil }
            if let specialization, let open = result.firstIndex(of: "<") {
                // The generic parameters the specialization fills in, instead of <A>.
                if let close = closing(Substring(result), from: open, open: "<", close: ">") {
                    result = String(result[..<open]) + specialization + String(result[result.index(after: close)...])
                }
            } else if let specialization {
                result += specialization
            }
        }
        if forwarder { result += " (partial apply)" }
        return merged ? result + " (merged)" : result
    }

    /// Whether the compiler merged this function with others of identical code: the name
    /// is then that of one of them, possibly another component's.
    package static func isMerged(_ name: String) -> Bool {
        name.hasPrefix("merged ") || name.contains(" merged ") || name.contains("of merged ")
    }

    /// "closure #1 (Swift.Int) -> () in Foo.bar()": ("closure #1", "Foo.bar()").
    static func closureHead(_ text: Substring) -> (head: String, rest: Substring)? {
        for kind in ["closure #", "implicit closure #"] where text.hasPrefix(kind) {
            var index = text.index(text.startIndex, offsetBy: kind.count)
            while index < text.endIndex, text[index].isNumber { index = text.index(after: index) }
            let head = String(text[..<index])
            // The closure's own signature, then " in " at nesting depth zero.
            var depth = 0, cursor = index
            while cursor < text.endIndex {
                let c = text[cursor]
                if c == "(" || c == "<" || c == "[" { depth += 1 }
                if c == ")" || c == ">" && text[text.index(before: cursor)] != "-" || c == "]" { depth -= 1 }
                if depth == 0, text[cursor...].hasPrefix(" in ") {
                    return (head, text[text.index(cursor, offsetBy: 4)...])
                }
                cursor = text.index(after: cursor)
            }
            return nil
        }
        return nil
    }

    /// "(Parser in _0F1A)" -> "Parser", "(unknown context at $7f...)." -> "".
    static func privateContextsRemoved(_ text: String) -> String {
        var out = "", index = text.startIndex
        while index < text.endIndex {
            if text[index] == "(", let close = closing(Substring(text), from: index, open: "(", close: ")") {
                let inner = text[text.index(after: index)..<close]
                if let range = inner.range(of: " in _"), !inner[..<range.lowerBound].contains(" ") {
                    out += inner[..<range.lowerBound]
                    index = text.index(after: close)
                    continue
                }
                if inner.hasPrefix("unknown context at ") {
                    index = text.index(after: close)
                    if index < text.endIndex, text[index] == "." { index = text.index(after: index) }
                    continue
                }
            }
            out.append(text[index])
            index = text.index(after: index)
        }
        return out
    }

    /// The function's name without its parameters, result or type: cut at the first
    /// parenthesis or " : " at nesting depth zero (a getter's type follows " : "), and
    /// generic clauses without their constraints ("<A where A: P>" -> "<A>", "< where ...>" -> "").
    static func function(_ text: String) -> String {
        guard !text.hasPrefix("(") else { return text }
        return withoutConstraints(cut(text))
    }

    static func withoutConstraints(_ text: String) -> String {
        var out = "", index = text.startIndex
        while index < text.endIndex {
            if text[index] == "<", let close = closing(Substring(text), from: index, open: "<", close: ">") {
                let inner = text[text.index(after: index)..<close]
                if let range = inner.range(of: " where ") ?? (inner.hasPrefix("where ") ? inner.range(of: "where ") : nil) {
                    let kept = inner[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
                    if !kept.isEmpty { out += "<" + kept + ">" }
                    index = text.index(after: close)
                    continue
                }
            }
            out.append(text[index])
            index = text.index(after: index)
        }
        return out
    }

    static func cut(_ text: String) -> String {
        var depth = 0, index = text.startIndex
        while index < text.endIndex {
            let c = text[index]
            if c == "<" { depth += 1 }
            if c == ">" && depth > 0 { depth -= 1 }
            if depth == 0 && (c == "(" || text[index...].hasPrefix(" : ")) {
                return String(text[..<index])
            }
            index = text.index(after: index)
        }
        return text
    }

    /// The index of the bracket closing the one at `from`, counting nesting; nil if unbalanced.
    static func closing(_ text: Substring, from: Substring.Index, open: Character, close: Character) -> Substring.Index? {
        var depth = 0, index = from
        while index < text.endIndex {
            let c = text[index]
            if c == open { depth += 1 }
            if c == close && !(close == ">" && index > text.startIndex && text[text.index(before: index)] == "-") {
                depth -= 1
                if depth == 0 { return index }
            }
            index = text.index(after: index)
        }
        return nil
    }
}

private extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
