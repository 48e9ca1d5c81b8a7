import ProfilerModel
import ProfilerRecording

/// Known ARC traffic, to calibrate the retain and release counts against (docs/hooks.md,
/// "ARC traffic"): a class reference passed into a non-inlined function that stores it,
/// `calls` times; a closure that captures a reference; a copy-on-write copy of an array of
/// `elements` references. Each instance is one such piece of work, measured in its own
/// region (its `create` event) and released again (its `release` event), so the savings
/// report's `retains_per_instance` and `releases_per_instance` are the calibration's
/// figures, the same in every run of one build, which `check` asserts exactly.
package struct ARCCalibrationScenario: Scenario {
    package let name = "arc-calibration"
    package let summary = "known retains and releases: a reference passed N times, a closure capture, a copy-on-write copy"
    /// One strategy: the work is the component.
    package enum Strategy: String, ScenarioStrategy {
        case counted
    }

    /// The pieces of work, each a component of the report.
    enum Work: String, CaseIterable {
        case passReference = "pass-reference", closureCapture = "closure-capture", cowCopy = "cow-copy"
    }

    package let baselineStrategy = Strategy.counted.rawValue
    package let strategies = Strategy.names
    package let steps = ["build", "release"]
    package let countParameter = "instances"
    package let parameters = [
        ParameterSpec("instances", "pieces of work of each kind", .integer(1...1_000_000), default: .int(100)),
        ParameterSpec("calls", "pass-reference: calls that store the reference, per instance", .integer(1...10_000), default: .int(10)),
        ParameterSpec("elements", "cow-copy: references in the array copied, per instance", .integer(1...10_000), default: .int(8)),
    ]

    package init() {}

    package func run(_ context: ScenarioContext) throws {
        let count = context.options.int("instances")
        let calls = context.options.int("calls"), elements = context.options.int("elements")
        let node = CalibrationNode()
        let array = (0..<elements).map { _ in CalibrationNode() }
        for strategy in try context.strategies(Strategy.self) {
            for work in Work.allCases {
                // Warm-up: the first use of each type and code path allocates once per process.
                try run(work, 1, node: node, array: array, calls: calls, strategy: strategy.rawValue, context.discarding)
                try run(work, count, node: node, array: array, calls: calls, strategy: strategy.rawValue, context)
                context.progress("\(name): \(work.rawValue)")
            }
        }
        withExtendedLifetime((node, array)) {}
    }

    private func run(_ work: Work, _ count: Int, node: CalibrationNode, array: [CalibrationNode], calls: Int, strategy: String,
                     _ context: ScenarioContext) throws {
        var held: [AnyObject] = []
        held.reserveCapacity(count)
        func probe(_ i: Int) -> Probe { context.probe(component: work.rawValue, strategy: strategy).instance(i) }
        try context.step("build", strategy: strategy, component: work.rawValue) {
            for i in 0..<count {
                held.append(try probe(i).measure(.create) { () -> AnyObject in
                    switch work {
                    case .passReference:
                        let slot = ReferenceSlot()
                        for _ in 0..<calls { store(node, in: slot) }
                        return slot
                    case .closureCapture:
                        return ClosureHolder { node.value }
                    case .cowCopy:
                        var copy = array
                        copy.append(node)
                        return ArrayHolder(copy)
                    }
                })
            }
        }
        try context.step("release", strategy: strategy, component: work.rawValue) {
            for i in (0..<count).reversed() {
                try probe(i).measure(.release) { _ = held.removeLast() }
            }
        }
    }
}

/// The class whose references the calibration passes, captures and copies.
final class CalibrationNode {
    var value = 0
}

/// Holds the last reference stored: each store retains the new one and releases the old.
final class ReferenceSlot {
    var held: CalibrationNode?
}

/// Not inlined, so each call is a call that passes the reference (+0, guaranteed) and the
/// store retains it.
@inline(never)
func store(_ node: CalibrationNode, in slot: ReferenceSlot) {
    slot.held = node
}

/// A closure that captured a reference (one context, one retain of what it captured).
final class ClosureHolder {
    let read: () -> Int
    init(_ read: @escaping () -> Int) { self.read = read }
}

/// A copy-on-write copy of an array of references, kept.
final class ArrayHolder {
    let items: [CalibrationNode]
    init(_ items: [CalibrationNode]) { self.items = items }
}
