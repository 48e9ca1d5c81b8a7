import Foundation
import Testing
import ProfctlTestSupport
import Profiler
@testable import ProfilerCatalog
@testable import ProfilerChecks
@testable import ProfilerComparison
@testable import ProfilerHooks
@testable import ProfilerModel
@testable import ProfilerOutputs
@testable import ProfilerPrimitives
@testable import ProfilerQueries
@testable import ProfilerRecording
@testable import ProfilerScenarios
@testable import ProfilerSites
@testable import ProfilerStore
@testable import ProfilerSupport

/// Nested regions work like nested timers: an inner region's figures are its own, and the
/// outer region's include them. Every test runs on a thread of its own (see onOwnThread):
/// the figures are exact to the byte.
@Suite("Nested regions")
struct NestedRegionTests {
    /// The repro from issue 15: an inner region frees the outer region's block. It crashed
    /// release builds ("Not enough bits to represent the passed value").
    @Test("inner region frees the outer region's block (the issue's repro)")
    func innerFreesOuters() throws {
        let (outer, inner) = try twiceOnOwnThread({ () -> (Allocations, Allocations) in
            let outer = try AllocationScope.measure { () -> Measured<Void> in
                var a: [Int]? = [Int](repeating: 7, count: 1000)
                return try AllocationScope.measure { a = nil; _ = a }  // `_ = a`: written to free it, read so the compiler does not warn
            }
            return (outer.allocations, outer.value.allocations)
        })
        #expect(inner.requestedBytes == 0)
        #expect(inner.releasedRequestedBytes == 8032)
        #expect(inner.netLiveBytes == -8032)
        #expect(outer.requestedBytes == 8032)
        #expect(outer.retainedRequestedBytes == 0)
        #expect(outer.releasedRequestedBytes == 0)
        #expect(outer.netLiveBytes == 0)
    }

    @Test("inner region frees the outer's block and allocates more than it frees")
    func innerFreesOutersAndKeepsMore() throws {
        let (outer, inner) = try twiceOnOwnThread({ () -> (Allocations, Allocations) in
            let outer = try AllocationScope.measure { () -> (Measured<[Int]>, [Int]?) in
                var a: [Int]? = [Int](repeating: 7, count: 1000)
                let inner = try AllocationScope.measure { () -> [Int] in
                    a = nil
                    return keep([Int](repeating: 1, count: 2000))
                }
                return (inner, a)
            }
            return (outer.allocations, outer.value.0.allocations)
        })
        #expect(inner.retainedRequestedBytes == 16032)
        #expect(inner.releasedRequestedBytes == 8032)
        #expect(inner.netLiveBytes == 8000)
        #expect(outer.requestedBytes == 8032 + 16032)
        #expect(outer.retainedRequestedBytes == 16032)
        #expect(outer.releasedRequestedBytes == 0)
        #expect(outer.netLiveBytes == 16032)
    }

    @Test("outer region frees the inner region's block after the inner one closed")
    func outerFreesInners() throws {
        let (outer, inner) = try twiceOnOwnThread({ () -> (Allocations, Allocations) in
            let outer = try AllocationScope.measure { () -> Allocations in
                var inner = try AllocationScope.measure { keep([UInt8](repeating: 1, count: 500)) }
                let figures = inner.allocations
                inner = Measured(value: [], allocations: figures, durationNanoseconds: 0, startNanoseconds: 0, scopeID: 0)
                return figures
            }
            return (outer.allocations, outer.value)
        })
        #expect(inner.retainedRequestedBytes == 532)
        #expect(inner.netLiveBytes == 532)
        #expect(outer.requestedBytes == 532)
        #expect(outer.retainedRequestedBytes == 0)
        #expect(outer.releasedRequestedBytes == 0)
        #expect(outer.netLiveBytes == 0)
    }

    @Test("inner region allocates and keeps: the outer region includes it")
    func innerKeeps() throws {
        let (outer, inner) = try twiceOnOwnThread({ () -> (Allocations, Allocations) in
            let outer = try AllocationScope.measure { () -> (Measured<[Int]>, [Int]) in
                let first = keep([Int](repeating: 0, count: 10))
                let inner = try AllocationScope.measure { keep([Int](repeating: 0, count: 20)) }
                return (inner, first)
            }
            return (outer.allocations, outer.value.0.allocations)
        })
        #expect(inner.requestedBytes == 192 && inner.netLiveBytes == 192)
        #expect(outer.requestedBytes == 112 + 192 && outer.netLiveBytes == 112 + 192)
    }

    @Test("three levels deep: each level's own blocks and earlier ones, freed at the innermost")
    func threeLevels() throws {
        let (one, three) = try twiceOnOwnThread({ () -> (Allocations, Allocations) in
            let one = try AllocationScope.measure { () -> Allocations in
                var a: [UInt8]? = keep([UInt8](repeating: 1, count: 100))   // 132 bytes, level 1's
                let two = try AllocationScope.measure { () -> Allocations in
                    var b: [UInt8]? = keep([UInt8](repeating: 2, count: 200)) // 232 bytes, level 2's
                    let three = try AllocationScope.measure { () -> [UInt8] in
                        a = nil
                        b = nil
                        return keep([UInt8](repeating: 3, count: 300))          // 332 bytes, kept
                    }
                    _ = keep(b)
                    return three.allocations
                }
                _ = keep(a)
                return two.value
            }
            return (one.allocations, one.value)
        })
        #expect(three.requestedBytes == 332)
        #expect(three.retainedRequestedBytes == 332)
        #expect(three.releasedRequestedBytes == 132 + 232)
        #expect(three.netLiveBytes == 332 - 364)
        #expect(one.requestedBytes == 132 + 232 + 332)
        #expect(one.retainedRequestedBytes == 0) // the 332 bytes died with level 2's closure value
        #expect(one.releasedRequestedBytes == 0)
    }

    @Test("three levels: the middle level releases the outer's block and not its own")
    func threeLevelsMiddle() throws {
        let (one, two, three) = try twiceOnOwnThread({ () -> (Allocations, Allocations, Allocations) in
            var kept: [UInt8]?
            let one = try AllocationScope.measure { () -> (Allocations, Allocations) in
                var a: [UInt8]? = keep([UInt8](repeating: 1, count: 100))       // 132, level 1's
                let two = try AllocationScope.measure { () -> Allocations in
                    var b: [UInt8]? = keep([UInt8](repeating: 2, count: 200))   // 232, level 2's
                    let three = try AllocationScope.measure {
                        a = nil
                        b = nil
                        _ = (a, b)  // written to free them, read so the compiler does not warn
                        kept = keep([UInt8](repeating: 3, count: 300))          // 332, level 3's, outlives all
                    }
                    return three.allocations
                }
                return (two.allocations, two.value)
            }
            _ = keep(kept)
            return (one.allocations, one.value.0, one.value.1)
        })
        #expect(three.releasedRequestedBytes == 364 && three.retainedRequestedBytes == 332)
        #expect(two.requestedBytes == 232 + 332)
        #expect(two.retainedRequestedBytes == 332)
        #expect(two.releasedRequestedBytes == 132)
        #expect(two.netLiveBytes == 200)
        #expect(one.requestedBytes == 132 + 232 + 332)
        #expect(one.retainedRequestedBytes == 332)
        #expect(one.releasedRequestedBytes == 0)
        #expect(one.netLiveBytes == 332)
    }

    @Test("a block freed on another thread while both regions are open is retained by neither")
    func freedElsewhereWhileBothOpen() throws {
        let (outer, inner) = try twiceOnOwnThread({ () -> (Allocations, Allocations) in
            let outerBlock = AddressBox(), innerBlock = AddressBox()
            let go = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
            let other = Thread {
                go.wait()
                free(UnsafeMutableRawPointer(bitPattern: outerBlock.value))
                free(UnsafeMutableRawPointer(bitPattern: innerBlock.value))
                done.signal()
            }
            other.start()
            let outer = try AllocationScope.measure { () -> Allocations in
                outerBlock.value = UInt(bitPattern: malloc(300))
                return try AllocationScope.measure {
                    innerBlock.value = UInt(bitPattern: malloc(700))
                    go.signal()
                    done.wait()
                }.allocations
            }
            return (outer.allocations, outer.value)
        })
        #expect(inner.requestedBytes == 700)
        #expect(inner.retainedRequestedBytes == 0)
        #expect(inner.releasedRequestedBytes == 0)
        #expect(outer.requestedBytes == 1000)
        #expect(outer.retainedRequestedBytes == 0)
        #expect(outer.releasedRequestedBytes == 0)
    }

    @Test("no sequence of nested allocations and frees makes a figure trap or go negative where it cannot")
    func randomSequences() throws {
        try onOwnThread {
            var generator = SeededRandom(seed: 15)
            for _ in 0..<200 {
                var blocks: [UnsafeMutableRawPointer] = []
                func step(_ depth: Int) throws -> Allocations {
                    try AllocationScope.measure {
                        for _ in 0..<Int(generator.next() % 6) {
                            switch generator.next() % 4 {
                            case 0, 1: if let p = malloc(Int(generator.next() % 4000) + 1) { blocks.append(p) }
                            case 2: if !blocks.isEmpty { free(blocks.remove(at: Int(generator.next() % UInt64(blocks.count)))) }
                            default: if depth < 4 { _ = try step(depth + 1) }
                            }
                        }
                    }.allocations
                }
                let a = try step(0)
                #expect(a.retainedRequestedBytes >= 0 && a.retainedRequestedBytes <= a.requestedBytes)
                #expect(a.releasedRequestedBytes >= 0)
                for block in blocks { free(block) }
            }
        }
    }

    /// In a region an allocation is counted once, in the region's size classes, and folded
    /// into the thread's counters when a region opens or closes (docs/hooks.md, "Counting in a
    /// region"). An inner region opened inside an exclusion folds the outer region's earlier
    /// allocations then: they were made before the exclusion and must not count as excluded.
    @Test("an inner region opened inside an exclusion leaves the outer region its allocations")
    func innerRegionInsideExclusion() throws {
        let outer = try twiceOnOwnThread { () -> Allocations in
            let m = try AllocationScope.measure { () -> (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) in
                let a = malloc(100), b = malloc(300)
                AllocationScope.excluded { _ = try? AllocationScope.measure { free(malloc(50)) } }
                return (a, b)
            }
            free(m.value.0)
            free(m.value.1)
            return m.allocations
        }
        #expect(outer.allocations == 2)
        #expect(outer.requestedBytes == 400)
        #expect(outer.retainedRequestedBytes == 400)
    }

    /// The region's own allocations and frees are counted in its size classes and
    /// temporaries only until it closes (docs/hooks.md, "Counting in a region"): the totals
    /// add what is not folded in yet.
    @Test("the totals count a region's allocations and frees while it is still open, and once after")
    func totalsWhileOpen() throws {
        let (region, before, during, after) = try twiceOnOwnThread {
            () -> (Allocations, AllocationTotals, AllocationTotals, AllocationTotals) in
            let before = AllocationHooks.totals
            var during = before
            let m = try AllocationScope.measure {
                for _ in 0..<100 { free(malloc(1000)) }
                during = AllocationHooks.totals
            }
            return (m.allocations, before, during, AllocationHooks.totals)
        }
        #expect(region.allocations == 100)
        #expect(region.frees == 100)
        #expect(region.requestedBytes == 100_000)
        #expect(region.untrackedFreedUsableBytes == 0)
        // Other tests allocate at the same time: lower bounds only.
        #expect(during.allocations >= before.allocations + 100)
        #expect(during.requestedBytes >= before.requestedBytes + 100_000)
        #expect(during.frees >= before.frees + 100)
        #expect(during.freedUsableBytes >= before.freedUsableBytes + 100_000)
        #expect(after.allocations >= during.allocations)
        #expect(after.frees >= during.frees)
    }

    /// free's fast path reads a block's usable size as a heap chunk's: an mmapped block (glibc
    /// maps blocks of 128 KiB and more) never matches its entry there and takes the general
    /// way, which must credit it exactly.
    @Test("a large (mmapped) block allocated and freed in a region is its own, freed, to the byte")
    func mmappedBlockInRegion() throws {
        let m = try twiceOnOwnThread { () -> Allocations in
            try AllocationScope.measure {
                free(malloc(1_000_000))
                free(malloc(100))
            }.allocations
        }
        #expect(m.allocations == 2)
        #expect(m.frees == 2)
        #expect(m.requestedBytes == 1_000_100)
        #expect(m.retainedRequestedBytes == 0)
        #expect(m.releasedRequestedBytes == 0)
        #expect(m.untrackedFreedUsableBytes == 0)
        #expect(m.peakRequestedBytes == 1_000_000)
    }

    @Test("more regions open than the hooks keep is an error, not a crash")
    func tooDeep() throws {
        let thrown = try onOwnThread { () throws -> Bool in
            func open(_ depth: Int) throws {
                _ = try AllocationScope.measure { try open(depth + 1) }
            }
            do { try open(0) } catch AllocationScopeError.tooDeeplyNested { return true }
            return false
        }
        #expect(thrown)
        #expect(AllocationHooks.currentScope == 0)
    }
}

/// Runs `body` twice on a thread of its own and returns the second result: the first use
/// of a generic type (here each nesting's Measured<...>) allocates its metadata once per
/// process, inside whichever region first asks for it.
private func twiceOnOwnThread<T>(_ body: @escaping @Sendable () throws -> T) throws -> T {
    _ = try onOwnThread(body)
    return try onOwnThread(body)
}

private final class AddressBox: @unchecked Sendable {
    var value: UInt = 0
}
