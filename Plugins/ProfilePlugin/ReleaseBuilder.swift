import Foundation
import PackagePlugin

/// Builds one product in release, as `swift build -c release --product NAME` would: the
/// measured executables (so the figures are release figures) and profctl, which shares
/// their release build of the library.
struct ReleaseBuilder {
    let packageManager: PackageManager
    let console: Console

    func build(product: String) async throws -> URL {
        console.progress("Building \(product) (release)...")
        let result = try packageManager.build(.product(product), parameters: .init(configuration: .release, logging: .concise))
        guard result.succeeded else {
            console.error(result.logText)
            console.error("error: building \(product) in release failed (above).")
            exit(PluginExit.failure)
        }
        guard let artifact = result.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == product })
        else {
            console.error("error: the release build of \(product) succeeded but produced no executable named \(product).")
            exit(PluginExit.failure)
        }
        return artifact.url
    }
}
