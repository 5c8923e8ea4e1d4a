// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "prepush",
    // iOS is for UITestSupport, the library apps import; the tool itself runs on macOS and Linux.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "prepush", targets: ["prepush"]),
        .library(name: "PrePushCore", targets: ["PrePushCore"]),
        .library(name: "PrePushConfig", targets: ["PrePushConfig"]),
        .library(name: "PrePushRunner", targets: ["PrePushRunner"]),
        .library(name: "PrePushResults", targets: ["PrePushResults"]),
        // For apps: launch arguments and the UI-test configuration they make. Foundation only.
        .library(name: "UITestSupport", targets: ["UITestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Source is read as a syntax tree, never with regular expressions (ARCHITECTURE.md).
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
    ],
    targets: [
        // System libraries: exactly one Swift module imports each (STYLE.md).
        .systemLibrary(
            name: "CGit2",
            pkgConfig: "libgit2",
            providers: [.apt(["libgit2-dev"]), .brew(["libgit2"])]
        ),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),

        // The app side of the data model: LaunchArguments, UITestConfiguration. Foundation only, no other dependency.
        .target(name: "UITestSupport"),
        // Core values of the data model; Foundation only.
        .target(name: "PrePushCore"),
        // YAML: libyaml's events into located nodes, its limits and errors (the only importer of CYAML);
        // the configuration and the scenario catalog read through it.
        .target(name: "PrePushYAML", dependencies: ["PrePushCore", "CYAML"]),
        // Configuration: decoding, merging, validation.
        .target(name: "PrePushConfig", dependencies: ["PrePushCore", "PrePushYAML"]),
        // Git: the only importer of CGit2.
        .target(name: "PrePushGit", dependencies: ["PrePushCore", "CGit2"]),
        // posix_spawn's chdir action, hidden from Swift by glibc's _GNU_SOURCE guard.
        .target(name: "CProcessSupport"),
        // Child processes: process groups, timeouts, signals, streamed capture.
        .target(name: "PrePushRunner", dependencies: ["PrePushCore", "CProcessSupport"]),
        // Accessibility rules over the syntax tree of SwiftUI views.
        .target(
            name: "PrePushAccessibility",
            dependencies: [
                "PrePushCore",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        // Scenario catalog, the matrix, the gate and its reports. No swift-syntax: the fuzz build (which
        // reaches the catalog reader) stays free of it.
        .target(name: "PrePushTraceability", dependencies: ["PrePushCore", "PrePushYAML"]),
        // The tests the sources declare, read with swift-syntax (XCTest methods, @Test functions, their
        // launch arguments, the #if branches compiled for a platform).
        .target(
            name: "PrePushTestDiscovery",
            dependencies: [
                "PrePushCore", "PrePushTraceability", "UITestSupport",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        // Every run remembered: the SQLite database of runs and test results (the only importer of CSQLite).
        .target(name: "PrePushHistory", dependencies: ["PrePushCore", "CSQLite"]),
        // Test output → UITestResults (console, JUnit, xcresult JSON) and the report writers.
        .target(name: "PrePushResults", dependencies: ["PrePushCore"]),
        // Xcode's own files read as Xcode reads them: workspaces, projects, shared schemes and their
        // test bundles' product types, test plans, XcodeGen and Tuist specs (`prepush init`).
        .target(
            name: "PrePushXcodeProject",
            dependencies: ["PrePushCore", "PrePushYAML", .product(name: "SwiftSyntax", package: "swift-syntax"), .product(name: "SwiftParser", package: "swift-syntax")]
        ),
        // The path of one push, start to end; hook installation; the demo.
        .target(
            name: "PrePushPipeline",
            dependencies: ["PrePushCore", "PrePushConfig", "PrePushGit", "PrePushRunner", "PrePushResults", "PrePushAccessibility", "PrePushTraceability",
                           "PrePushTestDiscovery", "PrePushHistory", "PrePushXcodeProject", "PrePushYAML"]
        ),
        // The readers of untrusted input under libFuzzer (scripts/fuzz.sh); without it, a corpus replayer.
        .executableTarget(name: "PrePushFuzz", dependencies: ["PrePushCore", "PrePushConfig", "PrePushYAML", "PrePushResults", "PrePushTraceability", "PrePushHistory"]),
        // The command line: swift-argument-parser commands only, each a few lines over PrePushPipeline.
        // A library, so that tests parse and run the very commands users type, inside their process.
        .target(
            name: "PrePushCommands",
            dependencies: [
                "PrePushCore", "PrePushConfig", "PrePushPipeline", "PrePushRunner", "PrePushTraceability",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The executable: `Main` (the fast paths, the exit codes) over PrePushCommands.
        .executableTarget(
            name: "prepush",
            dependencies: [
                "PrePushCommands", "PrePushCore", "PrePushConfig", "PrePushPipeline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The hook's added time to choose tests from an impact map (Benchmarks/ImpactChoice, docs/benchmarks.md).
        .executableTarget(
            name: "impact-choice",
            dependencies: ["PrePushPipeline", "PrePushConfig", "PrePushCore", "PrePushGit", "PrePushHistory"],
            path: "Benchmarks/ImpactChoice"
        ),

        // Benchmark floor: read and parse Swift files with swift-syntax, nothing else (Benchmarks/accessibility-check).
        .executableTarget(
            name: "parse-floor",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            path: "Benchmarks/ParseFloor"
        ),

        // Shared test helpers: temporary folders, real git repositories, running the built binary.
        .target(name: "PrePushTestSupport", path: "Tests/PrePushTestSupport"),
        // The commands run inside the test process, parsed as the binary parses them (`InProcessCLI`).
        .target(name: "PrePushCommandTestSupport", dependencies: ["PrePushCommands", "PrePushPipeline", "PrePushCore", "PrePushTestSupport",
                                                                  .product(name: "ArgumentParser", package: "swift-argument-parser")],
                path: "Tests/PrePushCommandTestSupport"),
        .testTarget(name: "PrePushCoreTests", dependencies: ["PrePushCore", "PrePushTestSupport"]),
        .testTarget(name: "PrePushConfigTests", dependencies: ["PrePushConfig", "PrePushYAML", "PrePushCore", "PrePushTestSupport"]),
        .testTarget(name: "PrePushGitTests", dependencies: ["PrePushGit", "PrePushCore", "PrePushTestSupport"]),
        .testTarget(name: "PrePushRunnerTests", dependencies: ["PrePushRunner", "PrePushResults", "PrePushTestSupport"]),
        .testTarget(name: "PrePushAccessibilityTests", dependencies: ["PrePushAccessibility", "PrePushCore", "PrePushTestSupport"]),
        .testTarget(name: "UITestSupportTests", dependencies: ["UITestSupport"]),
        .testTarget(name: "PrePushTraceabilityTests", dependencies: ["PrePushTraceability", "PrePushTestDiscovery", "PrePushResults", "PrePushCore", "PrePushTestSupport"]),
        .testTarget(name: "PrePushResultsTests", dependencies: ["PrePushResults", "PrePushCore", "PrePushTestSupport"]),
        .testTarget(name: "PrePushXcodeProjectTests", dependencies: ["PrePushXcodeProject", "PrePushCore", "PrePushTestSupport"]),
        // The planner and the verdict of a push, without git or processes.
        .testTarget(name: "PrePushPipelineTests", dependencies: ["PrePushPipeline", "PrePushConfig", "PrePushCore", "PrePushTraceability", "PrePushResults", "PrePushHistory", "PrePushRunner", "PrePushTestSupport", "PrePushCommandTestSupport"]),
        .testTarget(
            name: "PrePushCLITests",
            dependencies: ["prepush", "PrePushPipeline", "PrePushHistory", "PrePushCore", "PrePushRunner", "PrePushTestSupport", "PrePushCommandTestSupport"]
        ),
    ]
)
