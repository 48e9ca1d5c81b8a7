/// Names a Swift type from the metadata swift_allocObject received: demangled,
/// module-qualified, generic arguments kept (`Swift._ContiguousArrayStorage<Swift.Int>`).
/// Heap objects that are no type of the program are named by the kind of storage the
/// runtime says they are: closure contexts, boxes (with the boxed type), error boxes,
/// tasks. Only ever called with metadata the runtime handed over (never with a word read
/// from a block), after the region closed: the first name of a type costs microseconds and
/// allocates.
package enum TypeName {
    /// The runtime's metadata kinds of heap objects (swift/ABI/MetadataKind.def).
    private static let classKind: UInt = 0
    private static let lastEnumeratedKind: UInt = 0x7FF
    private static let closureContextKind: UInt = 0x400
    private static let genericBoxKind: UInt = 0x500
    private static let errorBoxKind: UInt = 0x501
    private static let taskKind: UInt = 0x502
    private static let jobKind: UInt = 0x503

    package static func resolve(metadata: UInt) -> String {
        guard let pointer = UnsafeRawPointer(bitPattern: metadata) else { return "(object without metadata)" }
        let kind = pointer.load(as: UInt.self)
        switch kind {
        case classKind, (lastEnumeratedKind + 1)...:
            return typeName(pointer)
        case closureContextKind:
            // Closure contexts and boxes of a fixed-layout type share this kind; only the
            // capture descriptor tells them apart, which is not decoded.
            return "(closure context or box)"
        case genericBoxKind:
            // GenericBoxHeapMetadata: kind, a 32-bit offset (padded), then the boxed type.
            let boxed = pointer.load(fromByteOffset: 16, as: UInt.self)
            guard let boxedType = UnsafeRawPointer(bitPattern: boxed) else { return "(box)" }
            return "(box of \(typeName(boxedType)))"
        case errorBoxKind:
            return "(error box)"
        case taskKind:
            return "(async task)"
        case jobKind:
            return "(job)"
        default:
            return "(heap object of metadata kind 0x" + String(kind, radix: 16) + ")"
        }
    }

    private static func typeName(_ metadata: UnsafeRawPointer) -> String {
        normalized(_typeName(unsafeBitCast(metadata, to: Any.Type.self), qualified: true))
    }

    /// Private types' names carry the address of their context, which changes from run to
    /// run: `(unknown context at $7f12...)` becomes `(unknown context)`.
    static func normalized(_ name: String) -> String {
        var result = ""
        var rest = Substring(name)
        while let start = rest.range(of: "(unknown context at $") {
            result += rest[..<start.lowerBound]
            result += "(unknown context)"
            guard let close = rest[start.upperBound...].firstIndex(of: ")") else { return result }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
