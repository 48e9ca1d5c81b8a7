import Foundation
import Yams

/// Reads profctl's own small YAML files (scenario files, budgets files) with work bounded
/// by the file's size, whatever the file holds:
///
/// - at most `maxBytes` (1 MiB) are read; a larger file is refused before it is parsed;
/// - the bytes must be UTF-8 text without control characters (tab, newline and carriage
///   return aside); the first offending byte is reported by line and column;
/// - anchors (`&name`) and aliases (`*name`) are refused before Yams composes the
///   document: an alias shares a node, so a few nested ones used as a mapping key make
///   Yams' duplicate-key check hash a tree that grows nine times per level;
/// - at most `maxEntries` (5,000) keys and list items, counted before Yams composes;
/// - libyaml's own limit of 1000 nesting levels stops deep structures.
///
/// Without aliases the node tree is at most twice the entries counted, so composing it
/// and reading it is bounded whatever the file holds. Every refusal is a
/// `ScenarioFileError` with the file, line and column.
package enum BoundedYAML {
    /// The largest file read. Scenario and budgets files are a few hundred bytes.
    package static let maxBytes = 1 << 20
    /// The longest piece of a user's text quoted back in a message.
    package static let excerptLength = 40
    /// The most keys and list items a file may hold: a budgets file of 800 budgets has
    /// about 5,000. Composing that many takes Yams a fraction of a second (it matches
    /// regular expressions on every key it hashes); 1 MiB of keys would take seconds.
    package static let maxEntries = 5_000
    /// The longest word (a name, strategy, metric) a file may hold.
    package static let maxWordLength = 64

    /// Reads and composes the file at `path`; nil for a document with no content.
    /// `what` names the kind of file in messages ("scenario file", "budgets file").
    package static func load(path: String, what: String) throws -> Node? {
        try compose(read(path: path, what: what), path: path)
    }

    /// At most `maxBytes + 1` bytes of the file: enough to tell it is too large, without
    /// reading a huge file (or an endless pipe) whole.
    package static func read(path: String, what: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ScenarioFileError(path: path, line: 0, column: 0, message: "cannot read the \(what): no such file")
        }
        guard !isDirectory.boolValue else {
            throw ScenarioFileError(path: path, line: 0, column: 0, message: "cannot read the \(what): it is a directory")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ScenarioFileError(path: path, line: 0, column: 0, message: "cannot read the \(what): permission denied or not a readable file")
        }
        defer { try? handle.close() }
        do {
            return try handle.read(upToCount: maxBytes + 1) ?? Data()
        } catch {
            throw ScenarioFileError(path: path, line: 0, column: 0, message: "cannot read the \(what): \(error.localizedDescription)")
        }
    }

    /// Checks the bytes, then composes them.
    package static func compose(_ data: Data, path: String) throws -> Node? {
        let bytes = [UInt8](data)
        if bytes.count > maxBytes {
            let (line, column) = position(ofByte: maxBytes, in: bytes)
            throw ScenarioFileError(path: path, line: line, column: column,
                                    message: "the file is larger than \(maxBytes / 1024 / 1024) MiB; profctl's YAML files are at most that")
        }
        try checkText(bytes, path: path)
        try checkStructure(bytes, path: path)
        // Valid UTF-8 was just checked, so decoding cannot replace anything. A byte order
        // mark at the start (some editors write one) is dropped: libyaml reads it from bytes,
        // but in a Swift string it stood before the document and was refused.
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let text = String(decoding: bytes.starts(with: bom) ? bytes.dropFirst(bom.count) : bytes[...], as: UTF8.self)
        do {
            return try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Self.error(from: error, text: text, path: path)
        } catch {
            throw ScenarioFileError(path: path, line: 1, column: 1, message: "YAML: \(excerpt(String(describing: error)))")
        }
    }

    /// Refuses invalid UTF-8 and the characters libyaml refuses (control characters,
    /// surrogates, U+FFFE and U+FFFF, a byte order mark past the start), at their position.
    package static func checkText(_ bytes: [UInt8], path: String) throws {
        try bytes.withUnsafeBufferPointer { try checkText($0, path: path) }
    }

    package static func checkText(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws {
        var index = 0, line = 1, column = 1
        while index < bytes.count {
            if bytes[index] >= 0x20, bytes[index] < 0x7F {
                // Printable ASCII, nearly every byte: the fast path.
                index += 1
                column += 1
                continue
            }
            guard let (scalar, width) = decodeScalar(bytes, at: index) else {
                throw ScenarioFileError(path: path, line: line, column: column,
                                        message: "byte 0x\(String(bytes[index], radix: 16, uppercase: true)) is not valid UTF-8; save the file as UTF-8 text")
            }
            if !isAllowed(scalar, atStart: index == 0) {
                throw ScenarioFileError(path: path, line: line, column: column,
                                        message: "control character U+\(String(format: "%04X", scalar)) is not allowed in a YAML file; remove it")
            }
            if scalar == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += width
        }
    }

    /// YAML's printable set (YAML 1.1, section 5.1, as libyaml applies it).
    package static func isAllowed(_ scalar: UInt32, atStart: Bool) -> Bool {
        switch scalar {
        case 0x09, 0x0A, 0x0D, 0x20...0x7E, 0x85, 0xA0...0xD7FF, 0xE000...0xFEFE, 0xFF00...0xFFFD, 0x10000...0x10FFFF: true
        case 0xFEFF: atStart
        default: false
        }
    }

    /// One well-formed UTF-8 sequence (Unicode 15, table 3-7) at `index`: the scalar and its length.
    package static func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int)? {
        let first = bytes[index]
        if first < 0x80 { return (UInt32(first), 1) }
        let length: Int, secondRange: ClosedRange<UInt8>
        switch first {
        case 0xC2...0xDF: (length, secondRange) = (2, 0x80...0xBF)
        case 0xE0: (length, secondRange) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, secondRange) = (3, 0x80...0xBF)
        case 0xED: (length, secondRange) = (3, 0x80...0x9F)
        case 0xF0: (length, secondRange) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, secondRange) = (4, 0x80...0xBF)
        case 0xF4: (length, secondRange) = (4, 0x80...0x8F)
        default: return nil
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else { return nil }
        var scalar = UInt32(first) & (0xFF >> (length + 1))
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard (0x80...0xBF).contains(byte) else { return nil }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        return (scalar, length)
    }

    /// Refuses `&` and `*` wherever YAML could read them as an anchor or an alias, and a
    /// document with more than `maxEntries` keys and list items.
    ///
    /// Rather than tokenizing YAML, it refuses every `&` and `*` outside comments, and it
    /// takes only the safe kind of comment: a `#` after a blank (or at the start of a line)
    /// on a line with no quote character at all. Such a `#` is either a comment, or inside
    /// a quoted or block scalar that the line cannot close, so the rest of the line can
    /// never hold an alias. The price is refusing `&` or `*` inside a quoted value, which
    /// no profctl file needs.
    ///
    /// Entries are counted the same way, from the marks that start them: every `:`, `,`,
    /// `?`, `[` and `{`, and every `-` followed by a blank. Each such mark adds at most two
    /// nodes, so the count bounds the tree Yams builds; marks inside quoted values count
    /// too, which only errs on the safe side.
    package static func checkStructure(_ bytes: [UInt8], path: String) throws {
        let newline = UInt8(ascii: "\n"), hash = UInt8(ascii: "#"), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
        let quotes: (UInt8, UInt8) = (UInt8(ascii: "'"), UInt8(ascii: "\""))
        let indicators: (UInt8, UInt8) = (UInt8(ascii: "&"), UInt8(ascii: "*"))
        let dash = UInt8(ascii: "-")
        var isEntryMark = [Bool](repeating: false, count: 256)
        for mark in ":,?[{" { isEntryMark[Int(mark.asciiValue ?? 0)] = true }
        enum Finding { case indicator, tooManyEntries }
        // Raw pointers: this runs over up to 1 MiB, and debug builds check every subscript.
        let found: (Finding, line: Int, offset: Int, lineStart: Int)? = bytes.withUnsafeBufferPointer { buffer in
            var lineStart = 0, line = 1, entries = 0
            while lineStart < buffer.count {
                var lineEnd = lineStart, hasQuote = false
                while lineEnd < buffer.count, buffer[lineEnd] != newline {
                    if buffer[lineEnd] == quotes.0 || buffer[lineEnd] == quotes.1 { hasQuote = true }
                    lineEnd += 1
                }
                var previous = space
                for index in lineStart..<lineEnd {
                    let byte = buffer[index]
                    if byte == hash, !hasQuote, previous == space || previous == tab { break }
                    if byte == indicators.0 || byte == indicators.1 { return (.indicator, line, index, lineStart) }
                    if isEntryMark[Int(byte)]
                        || (byte == dash && (index + 1 == lineEnd || buffer[index + 1] == space || buffer[index + 1] == tab)) {
                        entries += 1
                        if entries > maxEntries { return (.tooManyEntries, line, index, lineStart) }
                    }
                    previous = byte
                }
                lineStart = lineEnd + 1
                line += 1
            }
            return nil
        }
        guard let found else { return }
        let column = String(decoding: bytes[found.lineStart..<found.offset], as: UTF8.self).unicodeScalars.count + 1
        switch found.0 {
        case .indicator:
            throw ScenarioFileError(path: path, line: found.line, column: column,
                                    message: "'\(Character(UnicodeScalar(bytes[found.offset])))' is not allowed: profctl's YAML files take no anchors (&) or aliases (*); write each value out")
        case .tooManyEntries:
            throw ScenarioFileError(path: path, line: found.line, column: column,
                                    message: "more than \(maxEntries) keys and list items; profctl's YAML files hold at most that many")
        }
    }

    /// Line and column (both from 1, columns in Unicode scalars) of the byte at `offset`.
    package static func position(ofByte offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let before = bytes[..<min(offset, bytes.count)]
        let lineStart = (before.lastIndex(of: 0x0A).map { $0 + 1 }) ?? 0
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let column = String(decoding: bytes[lineStart..<before.endIndex], as: UTF8.self).unicodeScalars.count + 1
        return (line, column)
    }

    /// Where libyaml found a problem, in the same form as every other mistake.
    package static func error(from error: YamlError, text: String, path: String) -> ScenarioFileError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return ScenarioFileError(path: path, line: mark.line, column: mark.column, message: "YAML syntax: \(excerpt(problem))")
        case .reader(let problem, let offset, _, _):
            // Yams gives the offset in characters.
            let index = offset.flatMap { text.index(text.startIndex, offsetBy: $0, limitedBy: text.endIndex) }
            let (line, column) = index.map { position(ofByte: text.utf8.distance(from: text.utf8.startIndex, to: $0), in: Array(text.utf8)) } ?? (1, 1)
            return ScenarioFileError(path: path, line: line, column: column, message: "YAML: \(excerpt(problem))")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return ScenarioFileError(path: path, line: context.mark.line, column: context.mark.column,
                                     message: "\(duplicates.sorted().map { "'\(excerpt($0))'" }.joined(separator: ", ")) appears twice in this mapping")
        default:
            return ScenarioFileError(path: path, line: 1, column: 1, message: "YAML: \(excerpt(String(describing: error)))")
        }
    }

    /// At most `excerptLength` characters of a user's text, with control characters
    /// escaped, and how long it really was when cut.
    package static func excerpt(_ text: String) -> String {
        func escaped(_ part: Substring) -> String {
            part.unicodeScalars.map { scalar in
                scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                    ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
            }.joined()
        }
        guard text.count > excerptLength else { return escaped(text[...]) }
        return escaped(text.prefix(excerptLength)) + "… (\(text.count) characters)"
    }
}
