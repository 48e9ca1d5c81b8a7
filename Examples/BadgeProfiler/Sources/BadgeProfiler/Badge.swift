import Profiler
import ProfilerCatalog  // the stand-in UIKit: View, Label, Rect

/// The user's own component: a notification badge with a count, a colour and a label.
final class Badge: View {
    let label: Label
    var count: Int
    var pulses = false

    init(count: Int) {
        self.count = count
        label = Label(text: count > 99 ? "99+" : String(count))
        super.init(frame: Rect(x: 0, y: 0, width: 24, height: 24))
        backgroundColor = .systemBlue
        addSubview(label)
    }
}
