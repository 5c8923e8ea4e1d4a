#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// A test found in the sources, without running anything.
package struct DiscoveredTest: Sendable, Hashable {
    /// Which framework runs it.
    package enum Framework: String, Sendable, Hashable, Codable {
        /// A `test…` method of an `XCTestCase` subclass.
        case xctest
        /// A function marked `@Test`.
        case swiftTesting
    }

    /// The method or function name (`test_login_validCredentials`).
    package let name: String
    /// The type it is declared in (`Outer.LoginUITests`), nil for a free `@Test` function.
    package let typeName: String?
    /// A Swift Testing display name (`@Test("Sign in works")`), when it has one.
    package var displayName: String?
    /// The argument labels of a parameterised `@Test` (`["value"]`, `_` for none): Swift Testing's
    /// test id names them (`param(value:)`).
    package var parameterLabels: [String] = []
    /// Swift Testing tags, its own and its suites' (`@Test(.tags(.smoke))`), sorted.
    package var tags: [String] = []
    /// Which framework runs it.
    package let framework: Framework
    /// Where it is declared.
    package let location: PrePushCore.SourceLocation
    /// The launch arguments it passes, resolved: string literals starting with `--` and
    /// `LaunchArguments` constants (with `+` and interpolation) in its body, in the `setUp` methods of
    /// its class and superclasses, and in the methods of those classes it calls.
    package let launchArguments: Set<String>

    /// Creates a test as discovery found it.
    package init(name: String, typeName: String?, framework: Framework, location: PrePushCore.SourceLocation,
                launchArguments: Set<String> = [], displayName: String? = nil, parameterLabels: [String] = []) {
        self.name = name
        self.typeName = typeName
        self.framework = framework
        self.location = location
        self.launchArguments = launchArguments
        self.displayName = displayName
        self.parameterLabels = parameterLabels
    }

    /// Whether `argument` (a scenario's required launch argument) is passed: exactly, or as
    /// `argument=value` when the requirement names no value.
    package func passes(_ argument: String) -> Bool {
        launchArguments.contains(argument) || (!argument.contains("=") && launchArguments.contains { $0.hasPrefix(argument + "=") })
    }
}

/// What discovery found.
package struct TestInventory: Sendable {
    /// Every test, sorted by file and line.
    package let tests: [DiscoveredTest]
    /// Swift Testing `@Suite` types by name.
    package let suites: [String]
    /// Files not read, each with why (`Tests/Big.swift (… over the limit …; not read)`, `… (not
    /// UTF-8 text)`), so the user knows what was skipped.
    package let skippedFiles: [String]

    /// Creates an inventory.
    package init(tests: [DiscoveredTest], suites: [String] = [], skippedFiles: [String] = []) {
        self.tests = tests
        self.suites = suites
        self.skippedFiles = skippedFiles
    }
}

/// The platform a stage's tests are compiled for, to tell which `#if` branches hold tests that
/// run: a test under `#if os(macOS)` is not run by `swift test` on Linux, and a shard that counts
/// it names a test that never runs. Only sharding asks: the traceability report keeps every
/// branch, since a catalog names iOS UI tests that a Linux job reports on.
package struct BuildPlatform: Sendable, Equatable {
    /// `os(…)`'s name: `Linux`, `macOS`, `iOS`, …
    package let operatingSystem: String
    /// `arch(…)`'s name.
    package let architecture: String

    /// Creates a platform.
    package init(operatingSystem: String, architecture: String) {
        self.operatingSystem = operatingSystem
        self.architecture = architecture
    }

    /// The machine prepush runs on.
    package static var host: BuildPlatform {
        #if os(Linux)
        let system = "Linux"
        #elseif os(macOS)
        let system = "macOS"
        #elseif os(Windows)
        let system = "Windows"
        #else
        let system = "unknown"
        #endif
        #if arch(arm64)
        return BuildPlatform(operatingSystem: system, architecture: "arm64")
        #else
        return BuildPlatform(operatingSystem: system, architecture: "x86_64")
        #endif
    }

    /// The platform a stage's command builds for: an `xcodebuild` destination's platform when it
    /// names one (`platform=iOS Simulator` is iOS), else the host.
    package static func of(command: String) -> BuildPlatform {
        let parts = command.split(separator: "platform=", maxSplits: 1, omittingEmptySubsequences: false)
        guard command.contains("xcodebuild"), parts.count == 2 else { return host }
        let named = parts[1]
        for (prefix, system) in [("iOS", "iOS"), ("tvOS", "tvOS"), ("watchOS", "watchOS"), ("visionOS", "visionOS"), ("xrOS", "visionOS"), ("macOS", "macOS"), ("OS X", "macOS")]
            where named.hasPrefix(prefix) {
            return BuildPlatform(operatingSystem: system, architecture: host.architecture)
        }
        return host
    }
}
