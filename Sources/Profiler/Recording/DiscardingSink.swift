/// Swallows events: for warm-up passes that must run the measured code once before
/// measuring (first use of a generic type or a static allocates once per process).
public final class DiscardingSink: EventSink {
    public init() {}
    public func record(_ event: Event) throws {}
}
