/// Stands for UIColor: a reference type in UIKit. The system colours are shared
/// instances, as UIKit's are, so a component that uses the defaults pays nothing for them.
public final class Color: @unchecked Sendable {
    public let red: Double
    public let green: Double
    public let blue: Double
    public let alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let systemBlue = Color(red: 0, green: 0.478, blue: 1)
    public static let secondaryLabel = Color(red: 0.235, green: 0.235, blue: 0.263, alpha: 0.6)
}

/// Stands for UIFont. The system font is shared, as UIKit's is.
public final class Font: @unchecked Sendable {
    public let familyName: String
    public let pointSize: Double
    public let weight: Double

    public init(familyName: String, pointSize: Double, weight: Double = 0) {
        self.familyName = familyName
        self.pointSize = pointSize
        self.weight = weight
    }

    public static let system = Font(familyName: ".SFUI-Regular", pointSize: 17)
}
