import Foundation
import ProfilerTesting
import Synchronization
import Testing

/// Limited tests that TestFiguresProcessTests (profctlTests) runs in a child process of this
/// test binary, with and without PROFCTL_TEST_DB, to read their figures back with profctl.
/// They run only when PROFCTL_TEST_FIGURES_FIXTURE is set: `tight` gives every test a limit
/// it breaks, so that its failure message prints what the trait measured; any other value
/// a limit it keeps. FIXTURE_EXTRA_BYTES makes keepsABlock keep that many bytes more (a
/// regression for `check` to find).
@Suite(.enabled(if: FixtureSettings.mode != nil), .serialized)
struct TestFiguresFixture {

    @Test(.allocationLimit(bytes: FixtureSettings.limit, allocations: 1_000))
    func keepsABlock() {
        let block = UnsafeMutableRawPointer.allocate(byteCount: 4_096 + FixtureSettings.extra, alignment: 16)
        block.storeBytes(of: 1, as: UInt8.self)
        FixtureSettings.kept.store(Int(bitPattern: block), ordering: .relaxed)
    }

    @Test(.peakLimit(bytes: FixtureSettings.limit), arguments: [100, 200, 300])
    func buildsABuffer(count: Int) {
        // Raw memory and no #expect: a generic type's metadata, or an expectation's, is made by
        // the runtime on first use and kept, in whichever test or thread needs it first
        // (docs/testing.md, "Exactness"); this fixture's figures must repeat between processes.
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: count * 8, alignment: 8)
        buffer.storeBytes(of: count, as: Int.self)
        FixtureSettings.kept.store(buffer.load(as: Int.self), ordering: .relaxed)
        buffer.deallocate()
    }

    @Test(.noLeaks, .allocationLimit(bytes: FixtureSettings.limit))
    func freesItsScratch() {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 2_048, alignment: 8)
        scratch.initializeMemory(as: UInt8.self, repeating: 0)
        scratch.deallocate()
    }

    /// Not limited, so not measured: no row of its own.
    @Test func unlimited() {
        #expect([1, 2, 3].count == 3)
    }
}

/// The fixture's settings, outside it: its traits cannot refer to the suite they are on.
/// Read together when the traits are made, before any test is measured: reading the
/// environment in a measured body would count the dictionary it builds.
private struct FixtureSettings {
    let mode: String?
    let limit: UInt64
    let extra: Int

    private init() {
        let environment = ProcessInfo.processInfo.environment
        mode = environment["PROFCTL_TEST_FIGURES_FIXTURE"]
        limit = mode == "tight" ? 1 : 1 << 20
        extra = Int(environment["FIXTURE_EXTRA_BYTES"] ?? "") ?? 0
    }

    private static let current = FixtureSettings()
    static var mode: String? { current.mode }
    static var limit: UInt64 { current.limit }
    static var extra: Int { current.extra }

    /// Where keepsABlock keeps its block: an atomic, so keeping it allocates nothing.
    static let kept = Atomic<Int>(0)
}
