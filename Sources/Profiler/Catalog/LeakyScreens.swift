/// Screens that leak the way Swift code really does, each with its fixed twin. They are
/// built by `SwiftLeaksScenario`; the leak verdicts (docs/leaks.md) must catch every
/// leaking form and pass every fixed one.

/// A screen that refreshes a label on every tick of a timer-like callback it stores.
/// Leaking form: the stored closure captures `self` strongly, so the screen holds the
/// closure and the closure holds the screen: a retain cycle nothing ever breaks.
/// Fixed form: the closure captures `[weak self]`.
package final class TickerScreen {
    package let label = Label(text: "00:00")
    private(set) var ticks = 0
    /// Called on every tick; stored, as a timer's or a publisher's handler is.
    private(set) var onTick: (() -> Void)?

    package init(weakSelf: Bool) {
        if weakSelf {
            onTick = { [weak self] in self?.tick() }
        } else {
            onTick = { self.tick() }
        }
        onTick?()
    }

    private func tick() {
        ticks += 1
    }
}

/// What a downloader tells the screen that started it.
package protocol DownloadDelegate: AnyObject {
    func downloadFinished(bytes: Int)
}

/// A downloader that keeps its delegate strongly: the screen owns the downloader and the
/// downloader owns the screen (the leaking form).
package final class StrongDelegateDownloader {
    package var delegate: (any DownloadDelegate)?
    package var buffer = [UInt8](repeating: 0, count: 256)

    package func finish() { delegate?.downloadFinished(bytes: buffer.count) }
}

/// The same downloader with the delegate held weakly, as UIKit's are (the fixed form).
package final class WeakDelegateDownloader {
    weak var delegate: (any DownloadDelegate)?
    package var buffer = [UInt8](repeating: 0, count: 256)

    package func finish() { delegate?.downloadFinished(bytes: buffer.count) }
}

/// A screen that starts a download and shows its size. `strongDelegate` picks which
/// downloader it owns.
package final class DownloadScreen: DownloadDelegate {
    package let label = Label(text: "downloading")
    private var strongDownloader: StrongDelegateDownloader?
    private var weakDownloader: WeakDelegateDownloader?
    private(set) var received = 0

    package init(strongDelegate: Bool) {
        if strongDelegate {
            let downloader = StrongDelegateDownloader()
            strongDownloader = downloader
            downloader.delegate = self
            downloader.finish()
        } else {
            let downloader = WeakDelegateDownloader()
            weakDownloader = downloader
            downloader.delegate = self
            downloader.finish()
        }
    }

    package func downloadFinished(bytes: Int) { received += bytes }
}

/// A long-lived list of observers (a notification centre, a settings store): each entry
/// is a handler. It outlives the screens that register with it.
package final class ObserverHub {
    /// One registration: a node of a doubly linked list, so removal is O(1) and the list
    /// never reallocates a buffer (which would move bytes between screens' figures).
    package final class Observation {
        let handler: () -> Void
        fileprivate var next: Observation?
        fileprivate unowned(unsafe) var previous: Observation?
        fileprivate var linked = true

        init(_ handler: @escaping () -> Void) { self.handler = handler }
    }

    private var head: Observation?
    package private(set) var count = 0

    package init() {}

    /// Registers a handler; the returned observation removes it again.
    package func observe(_ handler: @escaping () -> Void) -> Observation {
        let observation = Observation(handler)
        observation.next = head
        head?.previous = observation
        head = observation
        count += 1
        return observation
    }

    package func remove(_ observation: Observation) {
        guard observation.linked else { return }
        observation.linked = false
        if let previous = observation.previous { previous.next = observation.next } else { head = observation.next }
        observation.next?.previous = observation.previous
        observation.next = nil
        observation.previous = nil
        count -= 1
    }

    /// Calls every handler, as posting a notification does.
    package func post() {
        var node = head
        while let current = node {
            current.handler()
            node = current.next
        }
    }

    /// Unlinks the whole list iteratively (a long chain released recursively could
    /// exhaust the stack).
    deinit {
        while let node = head { remove(node) }
    }
}

/// A screen that listens to a hub for theme changes. Leaking form: it registers and never
/// removes its observation, so the hub's list keeps every dead screen's entry (the
/// handler's context and the screen's weak-reference side table) for the hub's life.
/// Fixed form: it removes its observation when it goes away (the list is pruned).
package final class ThemedScreen {
    package let label = Label(text: "Settings")
    private(set) var refreshes = 0
    private let hub: ObserverHub
    private var observation: ObserverHub.Observation?
    private let prunes: Bool

    package init(hub: ObserverHub, prunes: Bool) {
        self.hub = hub
        self.prunes = prunes
        observation = hub.observe { [weak self] in self?.refresh() }
    }

    private func refresh() { refreshes += 1 }

    deinit {
        if prunes, let observation { hub.remove(observation) }
    }
}
