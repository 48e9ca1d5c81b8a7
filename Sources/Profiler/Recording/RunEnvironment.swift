import Foundation
import ProfilerHooks
import ProfilerModel
import ProfilerSupport

/// Where and with what a run was recorded: stored with every run so a comparison can
/// tell like from unlike.
package struct RunEnvironment: Sendable, Equatable, Codable {
    package var host: String
    package var os: String
    package var arch: String
    package var swiftVersion: String
    package var buildConfiguration: String
    package var toolVersion: String
    package var gitCommit: String?
    package var ci: CIContext
    /// How the run's retains and releases are counted (`ARCCounting.method`), or
    /// `ARCCounting.unavailableMethod` where this runtime refused; nil: not counted (events
    /// store NULL). `check` compares only runs counted the same way.
    package var arcCounting: String?
    /// The Swift runtime the retains and releases were counted on (`6.3.1 x86_64`).
    package var arcToolchain: String?

    package init(host: String, os: String, arch: String, swiftVersion: String, buildConfiguration: String,
                toolVersion: String, gitCommit: String?, ci: CIContext, arcCounting: String? = nil, arcToolchain: String? = nil) {
        self.host = host
        self.os = os
        self.arch = arch
        self.swiftVersion = swiftVersion
        self.buildConfiguration = buildConfiguration
        self.toolVersion = toolVersion
        self.gitCommit = gitCommit
        self.ci = ci
        self.arcCounting = arcCounting
        self.arcToolchain = arcToolchain
    }

    /// Reads this process's environment. `git rev-parse HEAD` runs only when neither
    /// GIT_COMMIT nor GITHUB_SHA is set. With `countARC`, ARC counting is turned on for the
    /// whole process where the runtime allows it (docs/hooks.md, "ARC traffic"), so the runs
    /// recorded with this environment count their retains and releases.
    package static func current(environment: [String: String] = ProcessInfo.processInfo.environment,
                               directory: String = FileManager.default.currentDirectoryPath,
                               countARC: Bool = true) -> RunEnvironment {
        let arch = machine()
        return RunEnvironment(
            host: ProcessInfo.processInfo.hostName,
            os: operatingSystem(),
            arch: arch,
            swiftVersion: compilerVersion,
            buildConfiguration: buildConfiguration,
            toolVersion: ProfilerVersion.current,
            gitCommit: gitCommit(environment: environment, directory: directory),
            ci: CIContext.detect(environment: environment, directory: directory),
            arcCounting: countARC ? ARCCounting.enableWhereAvailable() : nil,
            arcToolchain: countARC ? "\(compilerVersion) \(arch)" : nil)
    }

    /// Whether events recorded with this environment carry retains and releases: counting
    /// was on when the environment was read, and still is.
    package var countsARC: Bool { arcCounting == ARCCounting.method && ARCCounting.isEnabled }

    package static var buildConfiguration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    /// The compiler that built this binary, to the patch version (6.3.1; a .0 release as
    /// 6.3.0): a patch release changes the code the compiler emits, and with it what a run
    /// allocates. `#if compiler` takes only literal versions, so each release is one line,
    /// and a patch past the ones listed reads as `>=` the first unlisted one. Runs recorded
    /// before profctl recorded the patch hold the minor version only (6.3).
    package static var compilerVersion: String {
        #if compiler(>=6.6)
        ">=6.6"
        #elseif compiler(>=6.5.5)
        ">=6.5.5"
        #elseif compiler(>=6.5.4)
        "6.5.4"
        #elseif compiler(>=6.5.3)
        "6.5.3"
        #elseif compiler(>=6.5.2)
        "6.5.2"
        #elseif compiler(>=6.5.1)
        "6.5.1"
        #elseif compiler(>=6.5.0)
        "6.5.0"
        #elseif compiler(>=6.4.5)
        ">=6.4.5"
        #elseif compiler(>=6.4.4)
        "6.4.4"
        #elseif compiler(>=6.4.3)
        "6.4.3"
        #elseif compiler(>=6.4.2)
        "6.4.2"
        #elseif compiler(>=6.4.1)
        "6.4.1"
        #elseif compiler(>=6.4.0)
        "6.4.0"
        #elseif compiler(>=6.3.5)
        ">=6.3.5"
        #elseif compiler(>=6.3.4)
        "6.3.4"
        #elseif compiler(>=6.3.3)
        "6.3.3"
        #elseif compiler(>=6.3.2)
        "6.3.2"
        #elseif compiler(>=6.3.1)
        "6.3.1"
        #elseif compiler(>=6.3.0)
        "6.3.0"
        #elseif compiler(>=6.2.5)
        ">=6.2.5"
        #elseif compiler(>=6.2.4)
        "6.2.4"
        #elseif compiler(>=6.2.3)
        "6.2.3"
        #elseif compiler(>=6.2.2)
        "6.2.2"
        #elseif compiler(>=6.2.1)
        "6.2.1"
        #elseif compiler(>=6.2.0)
        "6.2.0"
        #elseif compiler(>=6.1.4)
        ">=6.1.4"
        #elseif compiler(>=6.1.3)
        "6.1.3"
        #elseif compiler(>=6.1.2)
        "6.1.2"
        #elseif compiler(>=6.1.1)
        "6.1.1"
        #elseif compiler(>=6.1.0)
        "6.1.0"
        #elseif compiler(>=6.0.4)
        ">=6.0.4"
        #elseif compiler(>=6.0.3)
        "6.0.3"
        #elseif compiler(>=6.0.2)
        "6.0.2"
        #elseif compiler(>=6.0.1)
        "6.0.1"
        #else
        "6.0.0"
        #endif
    }

    static func gitCommit(environment: [String: String], directory: String) -> String? {
        for key in ["GIT_COMMIT", "GITHUB_SHA", "CI_COMMIT_SHA"] {
            if let value = environment[key]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return value }
        }
        return git(["rev-parse", "HEAD"], in: directory)
    }

    /// Runs git in `directory`; nil when git is missing, fails, or prints nothing.
    static func git(_ arguments: [String], in directory: String) -> String? {
        guard let outcome = ChildProcess.run("git", ["-C", directory] + arguments), outcome.succeeded else { return nil }
        let text = String(decoding: outcome.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// The distribution's name and version (not the kernel's, which CI machines update
    /// without changing what a build measures).
    static func operatingSystem() -> String {
        var name = "Linux"
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) {
            for line in release.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
                name = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return name
    }

    static func machine() -> String {
        var info = utsname()
        guard uname(&info) == 0 else { return "unknown" }
        return withUnsafeBytes(of: &info.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
