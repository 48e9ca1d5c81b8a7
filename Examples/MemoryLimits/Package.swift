// swift-tools-version: 6.0
// An example of a user's own package whose ordinary Swift Testing tests carry memory
// limits: the test target depends on profctl's ProfilerTesting product by path
// (docs/testing.md). scripts/test-example runs it.
import PackageDescription

let package = Package(
    name: "MemoryLimits",
    dependencies: [
        .package(name: "profctl", path: "../.."),
    ],
    targets: [
        .target(name: "Inventory"),
        .testTarget(
            name: "InventoryTests",
            dependencies: [
                "Inventory",
                .product(name: "ProfilerTesting", package: "profctl"),
            ]
        ),
    ]
)
