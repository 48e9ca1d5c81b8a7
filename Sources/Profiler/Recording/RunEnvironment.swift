import Foundation
import ProfilerModel
import ProfilerSupport

/// Where and with what a run was recorded: stored with every run so a comparison can
/// tell like from unlike.
public struct RunEnvironment: Sendable, Equatable, Codable {
    public var host: String
    public var os: String
    public var arch: String
    public var swiftVersion: String
    public var buildConfiguration: String
    public var toolVersion: String
    public var gitCommit: String?
    public var ci: CIContext

    /// Reads this process's environment. `git rev-parse HEAD` runs only when neither
    /// GIT_COMMIT nor GITHUB_SHA is set.
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment,
                               directory: String = FileManager.default.currentDirectoryPath) -> RunEnvironment {
        RunEnvironment(
            host: ProcessInfo.processInfo.hostName,
            os: operatingSystem(),
            arch: machine(),
            swiftVersion: compilerVersion,
            buildConfiguration: buildConfiguration,
            toolVersion: ProfilerVersion.current,
            gitCommit: gitCommit(environment: environment, directory: directory),
            ci: CIContext.detect(environment: environment, directory: directory))
    }

    public static var buildConfiguration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    /// The compiler that built this binary, to the minor version.
    public static var compilerVersion: String {
        #if compiler(>=6.5)
        ">=6.5"
        #elseif compiler(>=6.4)
        "6.4"
        #elseif compiler(>=6.3)
        "6.3"
        #elseif compiler(>=6.2)
        "6.2"
        #elseif compiler(>=6.1)
        "6.1"
        #else
        "6.0"
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
