/// Stands for UIControl.State.
public struct ControlState: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let normal: ControlState = []
    public static let highlighted = ControlState(rawValue: 1 << 0)
    public static let disabled = ControlState(rawValue: 1 << 1)
    public static let selected = ControlState(rawValue: 1 << 2)
}

/// Stands for UIButton: a control with per-state titles, colours and images. As in
/// UIKit, its title label and image view are built only when first laid out.
public final class Button: View {
    public private(set) var titles: [ControlState: String] = [:]
    public private(set) var titleColors: [ControlState: Color] = [:]
    public private(set) var images: [ControlState: Image] = [:]
    public private(set) var backgroundImages: [ControlState: Image] = [:]
    /// UIControl's target-action pairs.
    public private(set) var actions: [() -> Void] = []
    public var contentEdgeInsets = EdgeInsets.zero
    public var titleEdgeInsets = EdgeInsets.zero
    public var imageEdgeInsets = EdgeInsets.zero
    public var isEnabled = true
    public var isSelected = false
    public var isHighlighted = false
    public private(set) var titleLabel: Label?
    public private(set) var imageView: ImageView?

    public init(title: String, frame: Rect = .zero) {
        super.init(frame: frame)
        setTitle(title, for: .normal)
        setTitleColor(.systemBlue, for: .normal)
    }

    public func setTitle(_ title: String, for state: ControlState) { titles[state] = title }
    public func setTitleColor(_ color: Color, for state: ControlState) { titleColors[state] = color }
    public func setImage(_ image: Image, for state: ControlState) { images[state] = image }
    public func addAction(_ action: @escaping () -> Void) { actions.append(action) }

    /// What UIButton does on its first layout pass: builds the title label.
    public func layoutIfNeeded() {
        if titleLabel == nil, let title = titles[.normal] {
            let label = Label(text: title, textColor: titleColors[.normal] ?? .systemBlue)
            addSubview(label)
            titleLabel = label
        }
    }
}
