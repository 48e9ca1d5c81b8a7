import Foundation

/// The plugin's own exit statuses: the values of ExitCodes in ProfilerCLI, which a plugin
/// cannot import (ProfilePluginTests checks usage against ExitCodes.usage). Every other status is a child's,
/// passed on. SwiftPM turns any non-zero plugin status into its own exit 1
/// (swiftlang/swift-package-manager issue 7380), so the plugin also says the child's status
/// and the command that returns it as is.
enum PluginExit {
    static let failure: Int32 = 1
    static let usage: Int32 = 64
}
