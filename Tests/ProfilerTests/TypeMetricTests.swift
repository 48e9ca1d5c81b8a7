import Foundation
import Testing
import ProfilerChecks
import ProfilerModel
import ProfilerSupport

/// Objects per type as check metrics (docs/ci.md, "Objects per type"): their names, how
/// budgets and tolerances reach them, and how a type one side lacks compares.
@Suite("Type metrics")
struct TypeMetricTests {
    let label = TypeMetricName(type: "ProfilerCatalog.Label").name
    let generic = TypeMetricName(type: "Swift._ContiguousArrayStorage<[Swift.Int]>").name

    func key(_ name: String, component: String = "Label", strategy: String = "eager") -> MetricKey {
        MetricKey(scenario: "lazy-container", component: component, strategy: strategy, name: name)
    }

    @Test("a type's metric name reads back its type, brackets in generic arguments too; other names are no type's")
    func names() {
        #expect(label == "objects_per_instance[ProfilerCatalog.Label]")
        #expect(TypeMetricName(generic)?.type == "Swift._ContiguousArrayStorage<[Swift.Int]>")
        #expect(TypeMetricName("objects_per_instance") == nil && TypeMetricName("objects_per_instance[]") == nil)
        #expect(TypeMetricName("bytes_per_instance") == nil)
        #expect(TypeMetricName.isTypeMetric("objects_per_instance") && TypeMetricName.isTypeMetric(label))
    }

    @Test("a budget on objects_per_instance limits one type with `type:`, every type without; `type:` needs that metric")
    func budgets() throws {
        let one = try Budget.parse("""
            budgets:
              - scenario: lazy-container
                metric: objects_per_instance
                type: ProfilerCatalog.Label
                max: 1
              - scenario: lazy-container
                metric: objects_per_instance
                max: 3
            """, path: "b.yaml")
        #expect(one[0].matches(key(label)) && !one[0].matches(key(generic)))
        #expect(one[1].matches(key(label)) && one[1].matches(key(generic)) && !one[1].matches(key("bytes_per_instance")))
        #expect(throws: ScenarioFileError.self) {
            _ = try Budget.parse("budgets:\n  - scenario: lazy-container\n    metric: bytes_per_instance\n    type: ProfilerCatalog.Label\n    max: 1\n",
                                 path: "b.yaml")
        }
    }

    @Test("--tolerance objects_per_instance=N applies to every type; a type's own name wins")
    func tolerances() {
        var tolerances = Tolerances()
        tolerances.byMetric["objects_per_instance"] = Tolerance(absolute: 2)
        #expect(tolerances.tolerance(for: key(label)) == Tolerance(absolute: 2))
        tolerances.byMetric[label] = Tolerance(absolute: 1)
        #expect(tolerances.tolerance(for: key(label)) == Tolerance(absolute: 1))
        #expect(tolerances.tolerance(for: key("bytes_per_instance")) == Tolerance())
    }

    @Test("a type one run lacks counts 0 objects there, within the components and strategies both measured")
    func completed() {
        let bytes = Metric(key: key("bytes_per_instance"), value: 800, polarity: .smallerIsBetter)
        let lazyBytes = Metric(key: key("bytes_per_instance", strategy: "lazy"), value: 48, polarity: .smallerIsBetter)
        let grown = Metric(key: key(label), value: 1, polarity: .smallerIsBetter)
        // Only the baseline measured the lazy strategy: its type stays missing, not 0.
        let lazyType = Metric(key: key(generic, strategy: "lazy"), value: 1, polarity: .smallerIsBetter)
        let (current, baselines) = TypeMetric.complete(current: [bytes, grown], baselines: [[bytes, lazyBytes, lazyType]])
        #expect(current.count == 2)
        #expect(baselines[0].contains { $0.key == key(label) && $0.value == 0 })
        let verdicts = TypeMetric.explain(CheckEngine.compare(current: current, baselines: baselines))
        let appeared = verdicts.first { $0.key == key(label) }
        #expect(appeared?.status == .regression && appeared?.note.hasPrefix("+1 ProfilerCatalog.Label per instance") == true)
        #expect(verdicts.first { $0.key == key(generic, strategy: "lazy") }?.status == .missing)
    }
}
