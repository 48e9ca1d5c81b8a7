import Foundation
import ProfilerModel

/// Writes sites as a gzipped profile.proto (github.com/google/pprof, proto/profile.proto),
/// which `go tool pprof` and speedscope read. Sample types, in this order: alloc_space
/// (first and the default, so `go tool pprof -top` answers "where were bytes allocated"),
/// inuse_space (bytes still live when their instance's measurement ended; a release
/// step's frees count against them, so a round trip nets to 0), alloc_objects,
/// inuse_objects. One sample per (run, component, strategy, kind, stack) with those as
/// labels. Hand-written encoder: the few messages below, no generated code.
package enum Pprof {
    /// The profile of the given runs' sites (SiteQuery.sites reads them).
    package static func export(_ runs: [RunSites]) -> [UInt8] {
        var profile = ProfileBuilder()
        for run in runs {
            for row in run.rows {
                let frames = run.stacks[row.stackID]?.frames ?? [.unknown]
                let c = row.counts
                profile.sample(frames: frames,
                               values: sampleTypes.map { $0.value(c) },
                               labels: [("run", run.runID), ("component", row.component), ("strategy", row.strategy), ("kind", row.kind)])
            }
        }
        return Gzip.wrap(profile.encoded(types: sampleTypes.map { ($0.name, $0.unit) }, defaultType: sampleTypes[0].name))
    }

    /// A sample type: its name and unit as pprof shows them, and its value from a site's counts.
    struct SampleType: Sendable {
        let name: String
        let unit: String
        let value: @Sendable (SiteCounts) -> Int64
    }

    /// The first is the default view. Allocated before in-use: a site's in-use figures of
    /// a create step and the frees of its release step sum to 0 once everything is
    /// released, which is right for "what is left" and useless as the first answer.
    static let sampleTypes: [SampleType] = [
        SampleType(name: "alloc_space", unit: "bytes") { Int64($0.requestedBytes) },
        SampleType(name: "inuse_space", unit: "bytes") { Int64($0.liveRequestedBytes) },
        SampleType(name: "alloc_objects", unit: "count") { Int64($0.allocations) },
        SampleType(name: "inuse_objects", unit: "count") { Int64($0.allocations - $0.frees) },
    ]
}

/// profile.proto's messages, encoded as they are built.
struct ProfileBuilder {
    private var strings: [String] = [""]
    private var stringIndex: [String: Int64] = ["": 0]
    private var functions: [String: UInt64] = [:]        // name + file -> id
    private var locations: [SiteFrame: UInt64] = [:]
    private var functionMessages = ProtoWriter()
    private var locationMessages = ProtoWriter()
    private var sampleMessages = ProtoWriter()

    mutating func string(_ s: String) -> Int64 {
        if let i = stringIndex[s] { return i }
        let i = Int64(strings.count)
        strings.append(s)
        stringIndex[s] = i
        return i
    }

    mutating func location(_ frame: SiteFrame) -> UInt64 {
        if let id = locations[frame] { return id }
        let functionKey = frame.function + "\u{0}" + frame.file
        let functionID: UInt64
        if let id = functions[functionKey] {
            functionID = id
        } else {
            functionID = UInt64(functions.count + 1)
            functions[functionKey] = functionID
            var f = ProtoWriter()
            f.uint(1, functionID)
            f.int(2, string(frame.function))
            f.int(3, string(frame.function))
            f.int(4, string(frame.file.isEmpty ? frame.module : frame.file))
            functionMessages.message(5, f)
        }
        let id = UInt64(locations.count + 1)
        locations[frame] = id
        var line = ProtoWriter()
        line.uint(1, functionID)
        line.int(2, Int64(frame.line))
        var l = ProtoWriter()
        l.uint(1, id)
        l.message(4, line)
        locationMessages.message(4, l)
        return id
    }

    mutating func sample(frames: [SiteFrame], values: [Int64], labels: [(String, String)]) {
        var s = ProtoWriter()
        // An async function's parts as the one function they are, told apart by line.
        s.packedUInts(1, frames.map { location($0.byWholeFunction) })
        s.packedInts(2, values)
        for (key, value) in labels {
            var label = ProtoWriter()
            label.int(1, string(key))
            label.int(2, string(value))
            s.message(3, label)
        }
        sampleMessages.message(2, s)
    }

    mutating func encoded(types: [(String, String)], defaultType: String) -> [UInt8] {
        var p = ProtoWriter()
        for (type, unit) in types {
            var v = ProtoWriter()
            v.int(1, string(type))
            v.int(2, string(unit))
            p.message(1, v)
        }
        p.append(sampleMessages)
        p.append(locationMessages)
        p.append(functionMessages)
        var period = ProtoWriter()
        period.int(1, string("space"))
        period.int(2, string("bytes"))
        let defaultIndex = string(defaultType)
        for s in strings { p.bytes(6, Array(s.utf8)) }
        p.message(11, period)
        p.int(12, 1)
        p.int(14, defaultIndex)
        return p.buffer
    }
}

/// Protocol-buffer wire format: varints, length-delimited fields.
struct ProtoWriter {
    var buffer: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            buffer.append(UInt8(v & 0x7f) | 0x80)
            v >>= 7
        }
        buffer.append(UInt8(v))
    }

    mutating func key(_ field: Int, _ wireType: UInt64) { varint(UInt64(field) << 3 | wireType) }
    mutating func uint(_ field: Int, _ value: UInt64) { key(field, 0); varint(value) }
    mutating func int(_ field: Int, _ value: Int64) { key(field, 0); varint(UInt64(bitPattern: value)) }

    mutating func bytes(_ field: Int, _ data: [UInt8]) {
        key(field, 2)
        varint(UInt64(data.count))
        buffer += data
    }

    mutating func message(_ field: Int, _ message: ProtoWriter) { bytes(field, message.buffer) }
    mutating func append(_ other: ProtoWriter) { buffer += other.buffer }

    mutating func packedUInts(_ field: Int, _ values: [UInt64]) {
        var inner = ProtoWriter()
        for v in values { inner.varint(v) }
        bytes(field, inner.buffer)
    }

    mutating func packedInts(_ field: Int, _ values: [Int64]) { packedUInts(field, values.map { UInt64(bitPattern: $0) }) }
}

/// A gzip member (RFC 1952) of stored deflate blocks: valid for every reader, no zlib needed.
enum Gzip {
    static func wrap(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let last = offset + count == data.count
            out.append(last ? 1 : 0)
            out += [UInt8(count & 0xff), UInt8(count >> 8), UInt8(~count & 0xff), UInt8((~count >> 8) & 0xff)]
            out += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        for value in [crc32(data), UInt32(truncatingIfNeeded: data.count)] {
            out += [UInt8(value & 0xff), UInt8((value >> 8) & 0xff), UInt8((value >> 16) & 0xff), UInt8(value >> 24)]
        }
        return out
    }

    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in data { c = table[Int((c ^ UInt32(byte)) & 0xff)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
