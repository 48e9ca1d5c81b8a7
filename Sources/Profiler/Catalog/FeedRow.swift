/// A feed row's identity and top-level state: what a lazy list keeps for every row it
/// has created (in SwiftUI, the row view's own @State).
public final class FeedRow {
    public let item: Int
    public var isFavorite = false
    public init(item: Int) { self.item = item }
}

/// Nested state inside a row's body (a child view's @State): lost whenever the body is
/// dropped and evaluated again.
public final class ExpansionState {
    public var isExpanded = false
}

/// A row's evaluated body: a title, a thumbnail, and a child with state of its own.
/// `wrapped` adds the layout container (a VStack) that keeps a conditional row lazy.
public final class FeedRowBody {
    public let container: View?
    public let title: Label
    public let thumbnail: ImageView
    public let expansion = ExpansionState()

    public init(row: FeedRow, wrapped: Bool) {
        container = wrapped ? View() : nil
        title = Label(text: "Item")
        thumbnail = ImageView(image: Image.sampleIcon)
    }
}
