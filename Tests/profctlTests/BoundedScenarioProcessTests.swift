import Foundation
import Testing

/// composite-cell's parameters are each in range at `cells: 10000, scale: 3`, but its
/// direct-draw cells would hold 11.9 GB of bitmaps at once (the run aborted by SIGABRT
/// under a 2 GiB cap): refused up front with what fits, nothing written (issue 22).
@Suite("Scenarios stay in bounded memory inside their documented ranges")
struct BoundedScenarioProcessTests {
    @Test("composite-cell refuses more direct-draw bitmap than 1 GiB, says how many cells fit, and writes nothing")
    func compositeCellBitmaps() throws {
        let folder = try TemporaryFolder()
        let refused = try ProfctlProcess.run(["record", "composite-cell", "--set", "cells=10000", "--set", "scale=3", "--quiet"],
                                             in: folder.url)
        #expect(refused.status == 64, "\(refused.stderr)")
        // 1 GiB / (375 x 3 x 88 x 3 x 4 B) = 903 cells.
        #expect(refused.stderr.contains("at most 903 with direct-draw"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("profile.sqlite").path))
        // Without direct-draw the same count is within bounds (the views it keeps are small).
        let others = try ProfctlProcess.run(["record", "composite-cell", "--set", "cells=1000", "--set", "scale=3",
                                             "--set", "reuses=1", "--strategies", "hand-built", "--quiet"], in: folder.url)
        #expect(others.status == 0, "\(others.stderr)")
        let oneCellTooBig = try ProfctlProcess.run(["record", "composite-cell", "--set", "width=4096", "--set", "height=4096",
                                                    "--set", "scale=4", "--quiet"], in: folder.url)
        #expect(oneCellTooBig.status == 64, "\(oneCellTooBig.stderr)")
        #expect(oneCellTooBig.stderr.contains("a smaller width, height or scale"), "\(oneCellTooBig.stderr)")
    }
}
