/// Stands for CGPoint.
public struct Point: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public static let zero = Point(x: 0, y: 0)
}

/// Stands for CGSize.
public struct Size: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public static let zero = Size(width: 0, height: 0)

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// Stands for CGRect.
public struct Rect: Sendable, Equatable {
    public var origin: Point
    public var size: Size
    public static let zero = Rect(origin: .zero, size: .zero)

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }
}

/// Stands for CATransform3D: a 4 x 4 matrix every layer carries.
public struct Transform3D: Sendable, Equatable {
    public var m11 = 1.0, m12 = 0.0, m13 = 0.0, m14 = 0.0
    public var m21 = 0.0, m22 = 1.0, m23 = 0.0, m24 = 0.0
    public var m31 = 0.0, m32 = 0.0, m33 = 1.0, m34 = 0.0
    public var m41 = 0.0, m42 = 0.0, m43 = 0.0, m44 = 1.0
    public static let identity = Transform3D()
}

/// Stands for UIEdgeInsets.
public struct EdgeInsets: Sendable, Equatable {
    public var top = 0.0, left = 0.0, bottom = 0.0, right = 0.0
    public static let zero = EdgeInsets()
}
