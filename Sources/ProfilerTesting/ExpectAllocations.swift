import Testing

/// Runs `body` in a ``TaskMeter`` and records an issue for each figure over its limit, the
/// expression form of the traits for one block inside a test:
///
///     let data = try expectAllocations(bytes: 4_096, allocations: 12) { encode(value) }
///
/// Returns the body's value; throws only what the body throws. A block that cannot be
/// measured runs unmeasured and records an issue (a limit never passes unmeasured).
@discardableResult
public func expectAllocations<T>(
    bytes: UInt64? = nil, allocations: UInt64? = nil, peakBytes: UInt64? = nil, retainedBytes: UInt64? = nil,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) throws -> T {
    let limits = MemoryLimits(bytes: bytes, allocations: allocations, peakBytes: peakBytes, retainedBytes: retainedBytes)
    let (value, figures, sites) = try TaskMeter.measureOrReport(capturing: limits.capture, body) { error in
        Issue.record(Comment(rawValue: "block: \(error)"), sourceLocation: sourceLocation)
    }
    if let figures { record(limits, figures, sites, sourceLocation) }
    return value
}

/// The async form: the block may suspend and start child tasks; it runs in a child task of
/// its own (``TaskMeter/measure(_:)-async``).
@discardableResult
public func expectAllocations<T: Sendable>(
    bytes: UInt64? = nil, allocations: UInt64? = nil, peakBytes: UInt64? = nil, retainedBytes: UInt64? = nil,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let limits = MemoryLimits(bytes: bytes, allocations: allocations, peakBytes: peakBytes, retainedBytes: retainedBytes)
    let (value, figures, sites) = try await TaskMeter.measureOrReport(capturing: limits.capture, body) { error in
        Issue.record(Comment(rawValue: "block: \(error)"), sourceLocation: sourceLocation)
    }
    if let figures { record(limits, figures, sites, sourceLocation) }
    return value
}

private func record(_ limits: MemoryLimits, _ figures: AllocationFigures, _ sites: [MeterSite],
                    _ sourceLocation: SourceLocation) {
    // The message is built unmetered: the block may sit inside a limited test.
    let message = withoutMetering { () -> String? in
        let violations = limits.violations(of: figures)
        return violations.isEmpty ? nil : limitMessage("block", violations: violations, figures: figures, limits: limits,
                                                       sites: sites)
    }
    if let message { Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation) }
}
