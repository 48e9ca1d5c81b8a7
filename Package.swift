// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "profctl",
    products: [
        .library(name: "Profiler", targets: ["Profiler"]),
        // The stand-in UIKit the built-in scenarios measure, for users who build on its views.
        .library(name: "ProfilerCatalog", targets: ["ProfilerCatalog"]),
        // The record command line, for users' own executables.
        .library(name: "ProfilerCLI", targets: ["ProfilerCLI"]),
        // Memory limits as Swift Testing traits, for a test target's dependencies (docs/testing.md).
        .library(name: "ProfilerTesting", targets: ["ProfilerTesting"]),
        .executable(name: "profctl", targets: ["profctl"]),
        // profctl's commands with the PostgreSQL client (libpq): profctl runs it for --store,
        // push and PostgreSQL URLs; apart, so README command 1 does not build the client.
        .executable(name: "profctl-pg", targets: ["profctl-pg"]),
        // `swift package profile` in a user's package: record, report and check its own components.
        .plugin(name: "ProfilePlugin", targets: ["ProfilePlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // `swift package generate-documentation --target Profiler`: the DocC catalog in
        // Sources/Profiler/Exports/Profiler.docc (.ci/run builds it with warnings as errors).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The system SQLite (libsqlite3-dev), plus a shim for what Swift cannot call directly.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The platform seam: the malloc family replaced inside the process.
        .target(
            name: "CAllocationHooks",
            linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]
        ),
        // The library, one target per layer of the data path (docs/api.md, "Layers"): each
        // imports only the layers below it, so the compiler keeps a renderer from running SQL
        // (ProfilerOutputs cannot see the store) and a query from returning an output type
        // (ProfilerQueries cannot see the outputs). LayeringTests checks these rules.
        .target(
            name: "ProfilerSupport",
            dependencies: [.product(name: "Yams", package: "Yams")],
            path: "Sources/Profiler/Support"
        ),
        .target(name: "ProfilerHooks", dependencies: ["CAllocationHooks"], path: "Sources/Profiler/Hooks"),
        // Plain values both the queries and the renderers use: no SQL, no rendering.
        .target(name: "ProfilerModel", dependencies: ["ProfilerSupport"], path: "Sources/Profiler/Model"),
        .target(
            name: "ProfilerStore",
            dependencies: ["ProfilerModel", "ProfilerSupport", "ProfilerHooks", "CSQLite"],
            path: "Sources/Profiler/Store",
            plugins: ["EmbedMigrationsPlugin"]
        ),
        .target(
            name: "ProfilerRecording",
            dependencies: ["ProfilerStore", "ProfilerModel", "ProfilerSupport", "ProfilerHooks", "CAllocationHooks", "CSQLite"],
            path: "Sources/Profiler/Recording"
        ),
        .target(
            name: "ProfilerPrimitives",
            dependencies: ["ProfilerRecording", "ProfilerHooks"],
            path: "Sources/Profiler/Primitives"
        ),
        .target(
            name: "ProfilerQueries",
            dependencies: ["ProfilerStore", "ProfilerModel", "ProfilerSupport"],
            path: "Sources/Profiler/Query"
        ),
        .target(name: "ProfilerOutputs", dependencies: ["ProfilerModel", "ProfilerSupport"], path: "Sources/Profiler/Output"),
        // The allocation-site queries (the icicle page and pprof that draw them are outputs).
        .target(
            name: "ProfilerSites",
            dependencies: ["ProfilerQueries", "ProfilerRecording", "ProfilerStore", "ProfilerModel", "ProfilerSupport",
                           "ProfilerHooks"],
            path: "Sources/Profiler/Sites"
        ),
        // The stand-in UIKit the built-in scenarios measure: not part of the measuring API
        // (`import Profiler` does not bring it); a user who wants it imports ProfilerCatalog.
        .target(
            name: "ProfilerCatalog",
            dependencies: ["ProfilerPrimitives", "ProfilerRecording", "ProfilerHooks"],
            path: "Sources/Profiler/Catalog"
        ),
        .target(
            name: "ProfilerScenarios",
            dependencies: ["ProfilerCatalog", "ProfilerPrimitives", "ProfilerRecording", "ProfilerQueries", "ProfilerStore",
                           "ProfilerModel", "ProfilerSupport", "ProfilerHooks", .product(name: "Yams", package: "Yams")],
            path: "Sources/Profiler/Scenarios"
        ),
        .target(
            name: "ProfilerComparison",
            dependencies: ["ProfilerScenarios", "ProfilerPrimitives", "ProfilerRecording", "ProfilerModel"],
            path: "Sources/Profiler/Comparison"
        ),
        // Budgets, baselines, leak and trend checks: they read queries and print with the outputs.
        .target(
            name: "ProfilerChecks",
            dependencies: ["ProfilerScenarios", "ProfilerSites", "ProfilerQueries", "ProfilerOutputs", "ProfilerStore",
                           "ProfilerModel", "ProfilerSupport", .product(name: "Yams", package: "Yams")],
            path: "Sources/Profiler/Checks"
        ),
        // What users import: the measuring API, re-exported (everything but the catalog).
        .target(
            name: "Profiler",
            dependencies: ["ProfilerSupport", "ProfilerHooks", "ProfilerModel", "ProfilerStore", "ProfilerRecording",
                           "ProfilerPrimitives", "ProfilerQueries", "ProfilerOutputs", "ProfilerSites", "ProfilerScenarios",
                           "ProfilerComparison", "ProfilerChecks"],
            path: "Sources/Profiler/Exports"
        ),
        // Swift Testing traits and expectations on what a test allocates, measured per task by the
        // hooks' meters. The recorder and store are under it too: PROFCTL_TEST_DB writes the
        // figures through them (docs/testing.md), so a test target links the system SQLite. A
        // failing limit names its sites and types as `record --sites` and `--types` do: the
        // same symbolizer and type names (ProfilerRecording's).
        .target(name: "ProfilerTesting",
                dependencies: ["CAllocationHooks", "ProfilerRecording", "ProfilerStore", "ProfilerQueries", "ProfilerModel"]),
        // The system libpq (libpq-dev), for the PostgreSQL shared store; see docs/fleet.md for why libpq.
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // The PostgreSQL shared store (push, and reading commands with --store): apart from
        // Profiler, so users' own executables built on Profiler do not need libpq.
        .target(
            name: "ProfilerPostgres",
            dependencies: ["Profiler", "CLibPQ"],
            plugins: ["EmbedPostgresMigrationsPlugin"]
        ),
        .plugin(
            name: "EmbedPostgresMigrationsPlugin",
            capability: .buildTool(),
            dependencies: ["EmbedMigrations"]
        ),
        .target(
            name: "ProfilerCLI",
            dependencies: [
                "Profiler",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Every profctl command, in Sources/profctl; the PostgreSQL store behind a seam
        // (SharedStore.swift) that only profctl-pg fills.
        .target(
            name: "ProfctlCommands",
            dependencies: [
                "Profiler",
                "ProfilerCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/profctl"
        ),
        // Release profctl carries the Swift runtime and Foundation inside (-static-stdlib): the
        // dynamic linker then binds 6 libraries instead of 16, 12.3M fewer instructions at every
        // start (BENCHMARKS.md, issue 25). Release only: a test target that depends on this one
        // would inherit the flag and fail to link. Compiled with it too, so that main.swift's
        // imports name the static libraries Foundation needs (ICU, CoreFoundation). An executable's unsafe flags do not bar a
        // package that depends on this one by version (only products it uses are checked).
        .executableTarget(
            name: "profctl",
            dependencies: ["ProfctlCommands"],
            path: "Sources/profctl-main",
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]
        ),
        .executableTarget(
            name: "profctl-pg",
            dependencies: ["ProfctlCommands", "ProfilerPostgres", "Profiler", "ProfilerCLI"]
        ),
        // Benchmarks are a program, not tests: figures as ratios against a baseline of the same run.
        .target(name: "CBenchLoops", dependencies: ["CSQLite", "CAllocationHooks"]),
        .executableTarget(
            name: "profctl-bench",
            dependencies: [
                "Profiler", "CBenchLoops", "CSQLite", "CAllocationHooks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The same malloc/free loop without profctl's hooks: what heaptrack is measured on.
        .executableTarget(name: "malloc-loop"),
        // Workloads that fan out, measured by a window while heaptrack watches the same
        // allocations (the hooks chained to it): the window's witness test.
        .target(name: "HookWitness"),
        .executableTarget(name: "hook-witness", dependencies: ["HookWitness", "Profiler"]),
        // docs/schema.md's example queries, read once for the two test targets that run them.
        .target(name: "SchemaDocExamples"),
        // An identical copy of Examples/OwnComponents' 20-line main.swift (a test checks it is),
        // built with the tests so they can record it and read the database with profctl.
        .executableTarget(name: "own-components-example", dependencies: ["Profiler", "ProfilerCLI"]),
        // Compiles migrations/*.sql into the binary so a copied profctl works anywhere.
        .executableTarget(name: "EmbedMigrations"),
        .plugin(
            name: "EmbedMigrationsPlugin",
            capability: .buildTool(),
            dependencies: ["EmbedMigrations"]
        ),
        // What both test targets share: temporary folders and databases, running the built
        // profctl, keep(). Tests only; each target names its helpers once (TestSupport.swift).
        .target(name: "ProfctlTestSupport", path: "Tests/ProfctlTestSupport"),
        // Builds (release) the user's executables that run ProfilerMain and profctl, records and reads
        // with them (docs/api.md, "From the package manager"); it decides nothing itself.
        .plugin(
            name: "ProfilePlugin",
            capability: .command(intent: .custom(
                verb: "profile",
                description: "Record this package's components with profctl, print the reports, and gate them with check."
            ))
        ),
        .testTarget(
            name: "ProfilerTests",
            dependencies: [
                "Profiler", "ProfilerCatalog", "ProfilerSupport", "ProfilerHooks", "ProfilerModel", "ProfilerStore",
                "ProfilerRecording", "ProfilerPrimitives", "ProfilerQueries", "ProfilerOutputs", "ProfilerSites",
                "ProfilerScenarios", "ProfilerComparison", "ProfilerChecks", "CAllocationHooks", "CSQLite", "hook-witness",
                "SchemaDocExamples", "ProfctlTestSupport",
            ]
        ),
        .testTarget(name: "ProfilerTestingTests", dependencies: ["ProfilerTesting", "CAllocationHooks"]),
        .testTarget(
            name: "profctlTests",
            dependencies: [
                "profctl",
                "own-components-example",
                "profctl-pg",
                "ProfctlCommands",
                "Profiler",
                "ProfilerCLI",
                "ProfilerPostgres",
                "SchemaDocExamples",
                "ProfctlTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ]
)
