import Foundation
import Testing

/// The hooks' C files call one another in one direction (docs/hooks.md, "The files"): read
/// from the object files this build made (`nm`), so a call that goes back up a layer, or
/// a new file without a place in the order, fails here.
@Suite("The hooks' files")
struct HookFilesTests {
    /// Each file's layer: a file may call functions of files in lower layers (higher
    /// numbers) only. A concern the malloc family calls into is a leaf beside sites.c; one
    /// with entry points of its own (swift_runtime.c) sits beside accounting.c.
    static let layers: [String: Int] = [
        // meter_scopes.c opens meters, and for those that count objects or retains switches the
        // runtime's hooks (swift_runtime.c, types.c) on: an entry point above them.
        "platform_glibc.c": 0, "meter_scopes.c": 0,
        "accounting.c": 1, "regions.c": 1, "windows.c": 1, "swift_runtime.c": 1, "types.c": 1,
        "registry.c": 2, "tracked_table.c": 2, "modes.c": 2, "fork.c": 2, "peaks.c": 2,
        "lifetimes.c": 3, "meters.c": 3,
        // Below meters.c, which asks it whether an allocation is a runtime cache's.
        "runtime_caches.c": 4,
        // Below meters.c, which names a capturing meter's sites with its stacks, and
        // runtime_caches.c, which walks the stack with it.
        "sites.c": 5,
    ]

    @Test("calls between the hooks' files go one way, down the layers")
    func oneDirection() throws {
        let build = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("CAllocationHooks.build")
        let objects = try FileManager.default.contentsOfDirectory(atPath: build.path).filter { $0.hasSuffix(".c.o") }
        let sources = try FileManager.default.contentsOfDirectory(atPath: LayeringTests.root.appendingPathComponent("Sources/CAllocationHooks").path)
            .filter { $0.hasSuffix(".c") }
        for source in sources {
            #expect(Self.layers[source] != nil, "\(source) has no layer: give it one in HookFilesTests.layers (and docs/hooks.md)")
        }
        // Functions each object defines, and the symbols it uses from elsewhere.
        var definedBy: [String: String] = [:], used: [String: [String]] = [:]
        for object in objects where sources.contains(String(object.dropLast(2))) {
            let file = String(object.dropLast(2))
            let result = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/env"),
                                                ["nm", build.appendingPathComponent(object).path], in: build)
            try #require(result.status == 0, "nm \(object): \(result.stderr)")
            for line in result.stdout.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard let name = fields.last.map(String.init), fields.count >= 2 else { continue }
                let kind = fields[fields.count - 2]
                if kind == "T" { definedBy[name] = file }
                if kind == "U" { used[file, default: []].append(name) }
            }
        }
        try #require(definedBy.count > 20, "read too few functions from \(build.path): \(definedBy.count)")
        for (file, names) in used {
            for name in names {
                guard let callee = definedBy[name], callee != file,
                      let from = Self.layers[file], let to = Self.layers[callee] else { continue }
                #expect(to > from, "\(file) calls \(name) in \(callee), which is not in a lower layer")
            }
        }
    }
}
