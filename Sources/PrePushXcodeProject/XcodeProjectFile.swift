#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// The targets of a `project.pbxproj` (an OpenStep property list, read by `PropertyListReader`, not Foundation's
/// `PropertyListSerialization`): each native target's id, name and product type, which says whether
/// a test bundle runs unit tests or drives the app.
package struct XcodeProjectFile: Sendable, Equatable {
    /// A native target.
    package struct Target: Sendable, Equatable {
        package let identifier: String
        package let name: String
        /// `com.apple.product-type.bundle.unit-test`, `…ui-testing`, `…application`, …
        package let productType: String
        /// The SDKs it builds for (`SDKROOT` and `SUPPORTED_PLATFORMS` of its configurations, else
        /// the project's): `iphoneos`, `iphonesimulator`, `watchos`, `macosx`, …; empty when unsaid.
        package var platforms: Set<String> = []

        /// Whether an iOS Simulator destination can run it: it names an iOS SDK, or none at all.
        package var runsOnIOS: Bool { platforms.isEmpty || platforms.contains("iphoneos") || platforms.contains("iphonesimulator") }

        /// What kind of tests the target's bundle holds, if it is a test bundle.
        package var testKind: TestBundleKind? {
            switch productType {
            case "com.apple.product-type.bundle.unit-test": return .unit
            case "com.apple.product-type.bundle.ui-testing": return .ui
            default: return nil
            }
        }
    }

    /// The native targets by id.
    package let targets: [String: Target]

    /// Why a project file could not be read.
    package struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        package let file: String
        package let reason: String
        package var description: String { "\(file): not a project file Xcode can read (\(reason))" }
    }

    /// Reads a project file's bytes.
    package init(bytes: [UInt8], file: String) throws(ReadError) {
        let root: Any
        do throws(PropertyListReader.ReadError) {
            root = try PropertyListReader.openStep(bytes)
        } catch {
            throw ReadError(file: file, reason: error.description)
        }
        guard let objects = (root as? [String: Any])?["objects"] as? [String: Any] else {
            throw ReadError(file: file, reason: "no objects")
        }
        let projectPlatforms = objects.values.compactMap { $0 as? [String: Any] }.first { $0["isa"] as? String == "PBXProject" }
            .map { Self.platforms(of: $0, in: objects) } ?? []
        var targets: [String: Target] = [:]
        for (identifier, value) in objects {
            guard let object = value as? [String: Any], object["isa"] as? String == "PBXNativeTarget" else { continue }
            let own = Self.platforms(of: object, in: objects)
            targets[identifier] = Target(identifier: identifier, name: object["name"] as? String ?? "",
                                         productType: object["productType"] as? String ?? "", platforms: own.isEmpty ? projectPlatforms : own)
        }
        self.targets = targets
    }

    /// The SDKs a target's or the project's configurations name (`SDKROOT = watchos;`,
    /// `SUPPORTED_PLATFORMS = "iphoneos iphonesimulator";`).
    static func platforms(of object: [String: Any], in objects: [String: Any]) -> Set<String> {
        guard let listID = object["buildConfigurationList"] as? String, let list = objects[listID] as? [String: Any],
              let configurations = list["buildConfigurations"] as? [String] else { return [] }
        var platforms: Set<String> = []
        for id in configurations {
            guard let settings = (objects[id] as? [String: Any])?["buildSettings"] as? [String: Any] else { continue }
            for key in ["SDKROOT", "SUPPORTED_PLATFORMS"] {
                guard let value = settings[key] as? String, !value.contains("$") else { continue }
                platforms.formUnion(value.split(separator: " ").map(String.init).filter { $0 != "auto" })
            }
        }
        return platforms
    }
}

/// What a test bundle tests.
package enum TestBundleKind: String, Sendable, Equatable {
    /// Unit tests (`bundle.unit-test`): they run inside the app or on their own.
    case unit
    /// UI tests (`bundle.ui-testing`): they drive the app through XCUIApplication.
    case ui
}

/// The test targets of an `.xctestplan` (JSON): which bundles of which project it runs.
package struct XcodeTestPlan: Sendable, Equatable {
    /// A target the plan runs.
    package struct Target: Sendable, Equatable {
        package let identifier: String
        package let name: String
        /// The project, as the plan names it (`container:App.xcodeproj`, without `container:`).
        package let container: String
        /// Whether the plan leaves it out (`"enabled": false`).
        package let enabled: Bool
        /// The classes and tests the plan skips in it (`"skippedTests"`, `WikipediaUITests` or `Class/test()`).
        package var skippedTests: [String] = []
        /// The only classes and tests the plan runs in it (`"selectedTests"`), empty for all of them.
        package var selectedTests: [String] = []
    }

    package let targets: [Target]

    /// Reads a plan's JSON; nil when it is not one.
    package init?(bytes: [UInt8]) {
        guard let root = (try? PropertyListReader.json(bytes)) as? [String: Any],
              let entries = root["testTargets"] as? [[String: Any]] else { return nil }
        targets = entries.compactMap { entry in
            guard let target = entry["target"] as? [String: Any], let identifier = target["identifier"] as? String else { return nil }
            return Target(identifier: identifier, name: target["name"] as? String ?? "",
                          container: XcodeScheme.container(target["containerPath"] as? String ?? ""),
                          enabled: entry["enabled"] as? Bool ?? true, skippedTests: Self.skipped(entry["skippedTests"]),
                          selectedTests: Self.skipped(entry["selectedTests"]))
        }
    }

    /// A plan's `skippedTests` or `selectedTests`: a list of names, or (Xcode 16's form) `{"suites": [{"name": …}]}`.
    static func skipped(_ value: Any?) -> [String] {
        if let names = value as? [String] { return names }
        if let object = value as? [String: Any], let suites = object["suites"] as? [[String: Any]] {
            return suites.compactMap { $0["name"] as? String }
        }
        return []
    }
}
