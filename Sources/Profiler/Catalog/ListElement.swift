/// The state storage a declarative framework keeps per element (@State): which item it
/// was made for, and a counter the user changed.
public final class ElementState {
    public let madeForItem: Int
    public var taps = 0
    public init(madeForItem: Int) { self.madeForItem = madeForItem }
}

/// One element of a declarative list: its storage, the item it shows now, and a
/// modifier value (an opacity, a colour) that can change without a new identity.
public final class ListElement {
    public let state: ElementState
    public var item: Int
    public var modifier = 0
    public let body: Label

    public init(item: Int, title: String) {
        state = ElementState(madeForItem: item)
        self.item = item
        body = Label(text: title)
    }
}
