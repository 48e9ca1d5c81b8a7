import Synchronization
import Testing

/// A Swift Testing trait that measures each test's allocations with a ``TaskMeter`` and
/// records an issue when a figure is over its limit:
///
///     @Test(.allocationLimit(bytes: 4_096, allocations: 12)) func parse() { ... }
///     @Test(.noLeaks) func roundTrip() { ... }
///     @Suite(.allocationLimit(bytes: 65_536)) struct Decoding { ... }   // a default for each test
///
/// On a suite it applies to every test in it (and nested suites); a test's own limit on a
/// figure replaces the suite's on that figure, and ``noMemoryLimits`` drops them all.
public struct MemoryLimitTrait: TestTrait, SuiteTrait, TestScoping {
    public let limits: MemoryLimits
    /// Drops the limits of the traits before it (``noMemoryLimits``).
    let resets: Bool
    /// Where the trait was written; nil for the static ones (`.noLeaks`), which have no call
    /// site of their own: the test's location stands in.
    let sourceLocation: SourceLocation?
    /// Tells apart two equal traits on one test: only the last applied runs the measurement.
    let token: Int

    init(_ limits: MemoryLimits, resets: Bool = false, sourceLocation: SourceLocation?) {
        self.limits = limits
        self.resets = resets
        self.sourceLocation = sourceLocation
        self.token = nextToken.add(1, ordering: .relaxed).newValue
    }

    public var isRecursive: Bool { true }

    /// The limits in force for a test: its suites' outermost first, then its own, each
    /// replacing the figures it sets (Swift Testing lists a test's traits in that order).
    static func effective(_ traits: [MemoryLimitTrait]) -> MemoryLimits {
        traits.reduce(MemoryLimits()) { $1.resets ? MemoryLimits() : $0.overridden(by: $1.limits) }
    }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> MemoryLimitTrait? {
        // Each test case is measured on its own; a suite is not measured as a whole.
        guard !test.isSuite, testCase != nil else { return nil }
        let mine = test.traits.compactMap { $0 as? MemoryLimitTrait }
        return mine.last?.token == token ? self : nil
    }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        let applied = test.traits.compactMap { $0 as? MemoryLimitTrait }
        let limits = Self.effective(applied)
        if limits.isEmpty { return try await function() }
        let location = applied.last(where: { !$0.limits.isEmpty && $0.sourceLocation != nil })?.sourceLocation
            ?? test.sourceLocation
        // The body runs in a child task that ends before checkLimits returns: it does not escape.
        try await withoutActuallyEscaping(function) { body in
            try await checkLimits(limits, what: test.displayName ?? test.name, sourceLocation: location, body)
        }
    }
}

private let nextToken = Atomic<Int>(0)

/// Measures `body` (run `limits.growthRounds` times, or once) and records an issue at
/// `sourceLocation` for each figure over its limit, or when it cannot be measured: a limit
/// never passes unmeasured.
func checkLimits(_ limits: MemoryLimits, what: String, sourceLocation: SourceLocation,
                 _ body: @escaping @Sendable () async throws -> Void) async throws {
    let rounds = max(limits.growthRounds ?? 1, 1)
    // Allocated outside the meter: storing a reading after each round allocates nothing.
    let lives = RoundReadings(rounds)
    defer { lives.buffer.deallocate() }
    let (_, measured, sites) = try await TaskMeter.measureOrReport(capturing: limits.capture, {
        for round in 0..<rounds {
            try await body()
            lives.buffer[round] = TaskMeter.sofar?.retainedBytes ?? 0
        }
    }, unmeasurable: { error in
        Issue.record(Comment(rawValue: "\(what): \(error)"), sourceLocation: sourceLocation)
    })
    guard let figures = measured else { return }
    TestFiguresDatabase.record(figures, limits: limits, sourceLocation: sourceLocation)
    let violations = limits.violations(of: figures, liveAfterRounds: limits.growthRounds == nil ? [] : Array(lives.buffer))
    if !violations.isEmpty {
        Issue.record(Comment(rawValue: limitMessage(what, violations: violations, figures: figures, limits: limits,
                                                    sites: sites)),
                     sourceLocation: sourceLocation)
    }
}

/// The live bytes after each round, written by the measured child task and read after it
/// has ended (the task group's completion orders the two).
private struct RoundReadings: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<UInt64>
    init(_ rounds: Int) {
        buffer = .allocate(capacity: rounds)
        buffer.initialize(repeating: 0)
    }
}

extension Trait where Self == MemoryLimitTrait {
    /// Limits the requested bytes a test allocates in all (freed or not), its number of
    /// allocations, and its peak of live bytes; nil leaves that figure unlimited.
    public static func allocationLimit(bytes: UInt64? = nil, allocations: UInt64? = nil, peakBytes: UInt64? = nil,
                                       sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        MemoryLimitTrait(MemoryLimits(bytes: bytes, allocations: allocations, peakBytes: peakBytes),
                         sourceLocation: sourceLocation)
    }

    /// Limits the peak of the test's own live bytes (allocated less freed, at the highest point).
    public static func peakLimit(bytes: UInt64, sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        MemoryLimitTrait(MemoryLimits(peakBytes: bytes), sourceLocation: sourceLocation)
    }

    /// Limits the test's own bytes still live when it ends.
    public static func retainedLimit(bytes: UInt64, sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        MemoryLimitTrait(MemoryLimits(retainedBytes: bytes), sourceLocation: sourceLocation)
    }

    /// Every block the test allocates is freed by the time it ends.
    public static var noLeaks: Self { MemoryLimitTrait(MemoryLimits(retainedBytes: 0), sourceLocation: nil) }

    /// Runs the test `rounds` times (at least 2) in one measurement; fails when its live
    /// bytes after the last round exceed those after the first: a cache filled in the first
    /// round passes, a leak in every round fails.
    public static func noGrowth(rounds: Int = 5, sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        MemoryLimitTrait(MemoryLimits(growthRounds: max(rounds, 2)), sourceLocation: sourceLocation)
    }

    /// Limits the objects of class `type` the test allocates (freed or not), counted where the
    /// Swift runtime allocates them (swift_allocObject): objects the compiler keeps on the
    /// stack are not allocations and do not count. A limit on another class adds to this one.
    public static func objectLimit<T: AnyObject>(_ type: T.Type, count: UInt64,
                                                 sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        MemoryLimitTrait(MemoryLimits(objects: [ObjectLimit(type, count: count)]), sourceLocation: sourceLocation)
    }

    /// Limits the Swift retains (ARC's reference-count increments, a retain of n counting n)
    /// the test's task and its structured children make: not retained bytes, which
    /// ``retainedLimit(bytes:sourceLocation:)`` limits.
    public static func retainLimit(count: UInt64, sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        MemoryLimitTrait(MemoryLimits(retains: count), sourceLocation: sourceLocation)
    }

    /// Drops the limits a suite set, for this test (or a nested suite).
    public static var noMemoryLimits: Self {
        MemoryLimitTrait(MemoryLimits(), resets: true, sourceLocation: nil)
    }
}
