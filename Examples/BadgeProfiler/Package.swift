// swift-tools-version: 6.0
// An example of a user's own package: it depends on profctl's Profiler library by path,
// wraps its own component in the lazy container, and records with profctl's options.
import PackageDescription

let package = Package(
    name: "BadgeProfiler",
    dependencies: [
        .package(name: "profctl", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "badge-profiler",
            dependencies: [
                .product(name: "Profiler", package: "profctl"),
                // The badge is a View of the stand-in UIKit, which is not part of Profiler.
                .product(name: "ProfilerCatalog", package: "profctl"),
                .product(name: "ProfilerCLI", package: "profctl"),
            ],
            path: "Sources/BadgeProfiler"
        ),
    ]
)
