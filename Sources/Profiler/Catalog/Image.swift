/// Stands for UIImage: decoded pixels (a CGImage's bitmap) plus how to draw them.
/// The pixel buffer is real memory: width x height x 4 bytes x scale squared.
public final class Image: Sendable {
    public let name: String
    public let size: Size
    public let scale: Double
    public let pixels: [UInt8]
    /// Called with the name when the last reference goes: how a weak cache learns that an
    /// entry is dead without polling.
    private let onRelease: (@Sendable (String) -> Void)?

    public init(name: String, size: Size, scale: Double = 1, onRelease: (@Sendable (String) -> Void)? = nil) {
        self.name = name
        self.size = size
        self.scale = scale
        self.onRelease = onRelease
        let byteCount = Int(size.width * scale) * Int(size.height * scale) * 4
        self.pixels = [UInt8](repeating: 0, count: byteCount)
    }

    deinit { onRelease?(name) }

    public var byteCount: Int { pixels.count }
}

extension Image {
    /// A shared 32 x 32 point icon at scale 2, as an asset catalogue would hand out.
    public static let sampleIcon = Image(name: "icon", size: Size(width: 32, height: 32), scale: 2)
}
