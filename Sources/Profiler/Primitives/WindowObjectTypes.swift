import CAllocationHooks
import ProfilerHooks
import ProfilerModel
import ProfilerRecording

/// A window's figures and its Swift objects per type, most bytes first, the remainder last.
public struct TypedMeasured<Value> {
    public let measured: Measured<Value>
    public let types: [ObjectTypeCounts]

    /// The objects of the type named `name` (0 when the window made none).
    public func objects(named name: String) -> Int { types.first { $0.name == name }?.objects ?? 0 }

    /// The objects of class `type`.
    public func objects<T: AnyObject>(of type: T.Type) -> Int { objects(named: String(reflecting: type)) }
}

extension TypedMeasured: Sendable where Value: Sendable {}

extension AllocationWindow {
    /// ``measure(_:)``, with the window's Swift objects attributed to their types, on every
    /// thread it counts:
    ///
    ///     let decoded = try AllocationWindow.measureTypes { try JSONDecoder().decode(Order.self, from: data) }
    ///     for type in decoded.types { print(type) }
    ///
    /// Opt-in: while such a window is open every object allocation of the process calls the
    /// hooks (and retains and releases are counted, ``Allocations/retains``); outside one,
    /// nothing changes on any path. Names are resolved once per type after the window
    /// closes. Throws ``AllocationScopeError`` as ``measure(_:)`` does, and
    /// ``ARCCounting/Unavailable`` on a Swift runtime the hooks do not know.
    public static func measureTypes<T>(_ body: () throws -> T) throws -> TypedMeasured<T> {
        var capture = try TypeWindow.open()
        let start = AllocationScope.monotonicNanoseconds()
        let value: T
        do {
            value = try body()
        } catch {
            _ = capture.close()
            throw error
        }
        return capture.finish(value, start: start)
    }

    /// The same for async work, across suspensions and on whatever threads run it.
    public static func measureTypes<T>(_ body: () async throws -> T) async throws -> TypedMeasured<T> {
        var capture = try TypeWindow.open()
        let start = AllocationScope.monotonicNanoseconds()
        let value: T
        do {
            value = try await body()
        } catch {
            _ = capture.close()
            throw error
        }
        return capture.finish(value, start: start)
    }
}

/// An open window capturing types: the runtime's instrumentation flag on (the runtime calls
/// its allocation hook pointer only then), the hooks' window adapter in the pointer.
private struct TypeWindow {
    var window: profctl_window
    let arcWasCounting: Bool

    /// Types the hooks fold per window; more are summed in one row.
    static let capacity = 4096

    static func open() throws -> TypeWindow {
        let wasCounting = ARCCounting.isEnabled
        try ARCCounting.enable()
        let window: profctl_window
        do {
            window = try AllocationWindow.open()
        } catch {
            if !wasCounting { ARCCounting.disable() }
            throw error
        }
        var capture = TypeWindow(window: window, arcWasCounting: wasCounting)
        guard profctl_types_window_begin() == 0 else {
            let reason = String(cString: profctl_types_refusal())
            _ = capture.close()
            throw ARCCounting.Unavailable(reason: reason)
        }
        return capture
    }

    /// Closes the window after `body` returned `value`: its figures and types.
    mutating func finish<T>(_ value: T, start: UInt64) -> TypedMeasured<T> {
        let end = AllocationScope.monotonicNanoseconds()
        let (allocations, types) = close()
        return TypedMeasured(measured: .window(value, allocations: allocations, start: start, end: end, epoch: window.epoch),
                             types: types)
    }

    /// Closes the window, then folds and names its objects (names allocate: after the close).
    mutating func close() -> (Allocations, [ObjectTypeCounts]) {
        profctl_types_window_end()
        let allocations = AllocationWindow.close(&window)
        if !arcWasCounting { ARCCounting.disable() }
        var entries = [profctl_type_figures](repeating: profctl_type_figures(), count: Self.capacity)
        var live = profctl_type_figures()
        let n = entries.withUnsafeMutableBufferPointer {
            profctl_types_window_collect(window.epoch, $0.baseAddress, UInt32($0.count), &live)
        }
        var types = ObjectTypeCounts.named(entries.prefix(max(0, Int(n))).map {
            (metadata: UInt($0.metadata), objects: Int($0.objects), bytes: Int($0.requested_bytes),
             liveObjects: Int($0.live_objects), liveBytes: Int($0.live_requested_bytes))
        }, other: UInt(PROFCTL_TYPES_OTHER))
        // The remainder: the window's own figures less the objects', so the rows add up to it.
        if let remainder = ObjectTypeCounts.remainder(
            after: types, allocations: allocations.allocations, bytes: allocations.requestedBytes,
            liveBlocks: Int(live.live_objects), liveBytes: Int(live.live_requested_bytes)) {
            types.append(remainder)
        }
        return (allocations, types)
    }
}
