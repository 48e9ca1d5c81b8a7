import Foundation
import Testing


/// Schema version 24: the views whose `requested_bytes` is gross carry it as
/// `allocated_bytes` too (docs/schema.md's contract notes), the same figure in every row.
@Suite("allocated_bytes beside the deprecated requested_bytes")
struct AllocatedBytesColumnTests {
    @Test("site_summary, types and size_classes: allocated_bytes is their last column and equals requested_bytes")
    func sameFigureUnderTheNewName() throws {
        let folder = try TemporaryFolder()
        let record = try ProfctlProcess.run(["record", "lazy-container", "--instances", "3", "--sites", "--types", "--quiet",
                                             "--db", "p.sqlite"], in: folder.url)
        #expect(record.status == 0, "\(record.stderr)")
        for view in ["site_summary", "types", "size_classes"] {
            let all = try ProfctlProcess.run(["query", "SELECT * FROM \(view) LIMIT 1", "--format", "csv", "--db", "p.sqlite"], in: folder.url)
            let header = all.stdout.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            #expect(all.status == 0 && header.split(separator: ",").last == "allocated_bytes", "\(view): \(all.stdout) \(all.stderr)")
            let rows = try ProfctlProcess.run(["query", "SELECT count(*), sum(allocated_bytes != requested_bytes), sum(allocated_bytes) > 0 FROM \(view)",
                                               "--format", "csv", "--db", "p.sqlite"], in: folder.url)
            let fields = rows.stdout.split(whereSeparator: \.isNewline).last.map { $0.split(separator: ",").map(String.init) } ?? []
            #expect(fields.count == 3 && fields[0] != "0" && fields[1] == "0" && fields[2] == "1", "\(view): \(rows.stdout) \(rows.stderr)")
        }
    }
}
