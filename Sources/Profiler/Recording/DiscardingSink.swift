/// Swallows events: for warm-up passes that must run the measured code once before
/// measuring (first use of a generic type or a static allocates once per process).
package final class DiscardingSink: EventSink {
    package init() {}
    package func record(_ event: Event) throws {}
}
