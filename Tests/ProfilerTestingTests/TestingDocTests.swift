import Foundation
import Testing

/// Every Swift example of docs/testing.md is a piece of Examples/MemoryLimits, which
/// scripts/test-example builds and runs: the documented code is the code that runs.
@Suite struct TestingDocTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func swiftBlocks(_ markdown: String) -> [String] {
        var blocks: [String] = [], current: [String]? = nil
        for line in markdown.components(separatedBy: "\n") {
            if current == nil, line == "```swift" { current = []; continue }
            if current != nil, line == "```" {
                blocks.append((current ?? []).joined(separator: "\n"))
                current = nil
                continue
            }
            current?.append(line)
        }
        return blocks
    }

    /// Lines without their indentation: a snippet is shown at its own depth.
    static func unindented(_ text: String) -> String {
        text.components(separatedBy: "\n").map { $0.drop(while: { $0 == " " }) }.joined(separator: "\n")
    }

    @Test func everySwiftExampleIsInTheExamplePackage() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/testing.md"), encoding: .utf8)
        let example = Self.root.appendingPathComponent("Examples/MemoryLimits")
        let sources = try ["Package.swift", "Tests/InventoryTests/InventoryTests.swift"].map {
            try String(contentsOf: example.appendingPathComponent($0), encoding: .utf8)
        }.map(Self.unindented).joined(separator: "\n")
        let blocks = Self.swiftBlocks(doc)
        #expect(blocks.count >= 7)
        for block in blocks {
            #expect(sources.contains(Self.unindented(block)), "docs/testing.md's example is not in Examples/MemoryLimits:\n\(block)")
        }
    }

    @Test func everyTraitIsDocumented() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/testing.md"), encoding: .utf8)
        for name in [".allocationLimit(", ".peakLimit(", ".retainedLimit(", ".noLeaks", ".noGrowth(", ".noMemoryLimits",
                     ".objectLimit(", ".retainLimit(", "expectAllocations", "TaskMeter.measure"] {
            #expect(doc.contains(name), "docs/testing.md does not mention \(name)")
        }
    }
}
