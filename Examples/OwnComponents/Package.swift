// swift-tools-version: 6.0
// A user's own package comparing two of its own classes under the standard strategies
// (eager, lazy, lazy-realized, cached): its whole source is the 20 lines of
// Sources/OwnComponents/main.swift, shown in the README and in docs/api.md.
import PackageDescription

let package = Package(
    name: "OwnComponents",
    dependencies: [
        .package(name: "profctl", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "own-components",
            dependencies: [
                .product(name: "Profiler", package: "profctl"),
                .product(name: "ProfilerCLI", package: "profctl"),
            ],
            path: "Sources/OwnComponents"
        ),
    ]
)
