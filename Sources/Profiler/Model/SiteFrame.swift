/// One symbolized frame of an allocation's call stack.
package struct SiteFrame: Hashable, Sendable {
    /// The executable or library's path.
    package var module: String
    /// The demangled function; "0x..." (offset in the module) when nothing names it.
    package var function: String
    /// Source file and line, where debug information gave them ("" and 0 otherwise).
    package var file: String
    package var line: Int

    package init(module: String, function: String, file: String = "", line: Int = 0) {
        self.module = module
        self.function = function
        self.file = file
        self.line = line
    }

    /// The frame of a block whose stack was not captured.
    package static let unknown = SiteFrame(module: "", function: "(stack not captured)")
    /// The site of frees of blocks allocated before measuring began (their stacks were never captured).
    package static let untracked = SiteFrame(module: "", function: "(freed, allocated before measuring)")

    /// The hooks' own entry points: frames of these are dropped from the inner end of a stack.
    package static let hookFunctions: Set<String> = [
        "malloc", "free", "calloc", "realloc", "reallocarray", "posix_memalign", "aligned_alloc",
        "memalign", "valloc", "pvalloc",
    ]

    /// The folding rule (docs/hooks.md, "Sites"): a frame of the user's code is one in a
    /// module that is not the system's or the Swift toolchain's, in a function that is not
    /// the standard library's (nor a specialization of it) or the runtime's. An async
    /// function's part is judged by the function it is part of (``wholeFunction``).
    package var isUserCode: Bool {
        let function = wholeFunction
        if Self.isSystemModule(module) || function.hasPrefix("0x") || function.hasPrefix("(") && self != .unknown && self != .untracked { return false }
        if function.hasPrefix("Swift.") || function.contains(" of Swift.") || function.hasPrefix("swift_")
            || function.hasPrefix("__swift") || function.hasPrefix("(extension in Swift)") { return false }
        if Self.hookFunctions.contains(function) || function.hasPrefix("profctl_") { return false }
        return true
    }

    /// The function this frame runs code of. The demangler names each part of an async
    /// function that runs between two suspension points after the function, in parentheses
    /// first: "(1) suspend resume partial function for closure #1 in Foo.bar() async -> ()",
    /// "(2) await resume partial function for Foo.bar() async -> ()". Such a part is the
    /// function's ("closure #1 in Foo.bar() async -> ()"), not one of the folding rule's
    /// markers, which are in parentheses too. Any other frame's is its own ``function``.
    package var wholeFunction: String {
        guard function.hasPrefix("(") else { return function }
        let number = function.dropFirst().prefix(while: \.isNumber)
        guard !number.isEmpty else { return function }
        let rest = function.dropFirst(1 + number.count)
        for part in [") suspend resume partial function for ", ") await resume partial function for "] where rest.hasPrefix(part) {
            return String(rest.dropFirst(part.count))
        }
        return function
    }

    /// This frame named by ``wholeFunction``: what sites, call trees and pprof name it by, so
    /// an async function's parts read, and add up, as the one function they are.
    package var byWholeFunction: SiteFrame {
        SiteFrame(module: module, function: wholeFunction, file: file, line: line)
    }

    package static func isSystemModule(_ path: String) -> Bool {
        if path.isEmpty { return false }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if path.hasPrefix("/lib/") || path.hasPrefix("/lib64/") || path.hasPrefix("/usr/lib") { return true }
        for prefix in ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime", "libc.", "libc-",
                       "libstdc++", "libm.", "ld-linux", "libgcc", "libsqlite3", "libicu", "libXCTest", "libTesting"] where name.hasPrefix(prefix) {
            return true
        }
        return false
    }
}

/// A stored call stack: frames innermost first, and the frame the folding rule names it by.
package struct SiteStack: Hashable, Sendable {
    package var frames: [SiteFrame]

    package init(frames: [SiteFrame]) { self.frames = frames }

    /// The innermost frame of the user's code, named by its whole function; else the
    /// innermost frame.
    package var site: SiteFrame {
        frames.first(where: \.isUserCode)?.byWholeFunction ?? frames.first ?? .unknown
    }
}

extension SiteFrame {
    /// The name of the node a stack cut at the capture depth (`record --site-depth`) starts
    /// under: its outer frames, the measured region's among them, were not captured, so its
    /// path starts mid-tree.
    package static let cutMarker = "(stack cut at the capture depth; outer frames not captured)"

    /// The user's frames of a stack inside the measured region, outermost first (what lies
    /// outside it, the runner and main, is the same for every site); the site alone if none.
    /// A stack without the region's frame was cut by the capture depth: its path starts
    /// with ``cutMarker`` instead of passing for the outermost frames.
    package static func userPath(_ frames: [SiteFrame], site: String) -> [String] {
        userFrames(frames, site: site).map(\.function)
    }

    /// ``userPath(_:site:)`` as frames, with their locations, each named by its whole function.
    package static func userFrames(_ frames: [SiteFrame], site: String) -> [SiteFrame] {
        var inside = frames
        let cut = frames.firstIndex(where: { $0.function.contains(" ProfilerHooks.AllocationScope.measure") })
        if let cut { inside = Array(frames[..<cut]) }
        var path = Array(inside.filter(\.isUserCode).reversed().map(\.byWholeFunction))
        if path.isEmpty { path = [frames.first(where: { $0.function == site }) ?? SiteFrame(module: "", function: site)] }
        let captured = !(frames.isEmpty || frames == [.unknown] || frames == [.untracked])
        if cut == nil && captured { path.insert(SiteFrame(module: "", function: cutMarker), at: 0) }
        return path
    }

    /// "File.swift:12", "File.swift" where only the file is known, "" where nothing is, or
    /// where what the debug information gave is no source file: `<compiler-generated>`,
    /// `<stdin>` (code the compiler made up, or read from a pipe), or a non-Swift file with
    /// no line (llvm-symbolizer's nearest unit, e.g. crtstuff.c for a stdlib function).
    package static func location(file: String, line: Int) -> String {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        if name.isEmpty || name.hasPrefix("<") { return "" }
        if line > 0 { return "\(name):\(line)" }
        return name.hasSuffix(".swift") ? name : ""
    }

    /// This frame's ``location(file:line:)``.
    package var location: String { Self.location(file: file, line: line) }
}
