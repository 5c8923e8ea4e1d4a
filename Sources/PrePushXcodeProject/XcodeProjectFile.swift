import Foundation
import PrePushCore

/// The targets of a `project.pbxproj` (an OpenStep property list, read by Foundation's
/// `PropertyListSerialization`): each native target's id, name and product type, which says whether
/// a test bundle runs unit tests or drives the app.
public struct XcodeProjectFile: Sendable, Equatable {
    /// A native target.
    public struct Target: Sendable, Equatable {
        public let identifier: String
        public let name: String
        /// `com.apple.product-type.bundle.unit-test`, `…ui-testing`, `…application`, …
        public let productType: String

        /// What kind of tests the target's bundle holds, if it is a test bundle.
        public var testKind: TestBundleKind? {
            switch productType {
            case "com.apple.product-type.bundle.unit-test": return .unit
            case "com.apple.product-type.bundle.ui-testing": return .ui
            default: return nil
            }
        }
    }

    /// The native targets by id.
    public let targets: [String: Target]

    /// Why a project file could not be read.
    public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        public let file: String
        public let reason: String
        public var description: String { "\(file): not a project file Xcode can read (\(reason))" }
    }

    /// Reads a project file's bytes.
    public init(bytes: [UInt8], file: String) throws(ReadError) {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw ReadError(file: file, reason: "\(error)")
        }
        guard let objects = (root as? [String: Any])?["objects"] as? [String: Any] else {
            throw ReadError(file: file, reason: "no objects")
        }
        var targets: [String: Target] = [:]
        for (identifier, value) in objects {
            guard let object = value as? [String: Any], object["isa"] as? String == "PBXNativeTarget" else { continue }
            targets[identifier] = Target(identifier: identifier, name: object["name"] as? String ?? "",
                                         productType: object["productType"] as? String ?? "")
        }
        self.targets = targets
    }
}

/// What a test bundle tests.
public enum TestBundleKind: String, Sendable, Equatable {
    /// Unit tests (`bundle.unit-test`): they run inside the app or on their own.
    case unit
    /// UI tests (`bundle.ui-testing`): they drive the app through XCUIApplication.
    case ui
}

/// The test targets of an `.xctestplan` (JSON): which bundles of which project it runs.
public struct XcodeTestPlan: Sendable, Equatable {
    /// A target the plan runs.
    public struct Target: Sendable, Equatable {
        public let identifier: String
        public let name: String
        /// The project, as the plan names it (`container:App.xcodeproj`, without `container:`).
        public let container: String
        /// Whether the plan leaves it out (`"enabled": false`).
        public let enabled: Bool
        /// The classes and tests the plan skips in it (`"skippedTests"`, `WikipediaUITests` or `Class/test()`).
        public var skippedTests: [String] = []
    }

    public let targets: [Target]

    /// Reads a plan's JSON; nil when it is not one.
    public init?(bytes: [UInt8]) {
        guard let root = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let entries = root["testTargets"] as? [[String: Any]] else { return nil }
        targets = entries.compactMap { entry in
            guard let target = entry["target"] as? [String: Any], let identifier = target["identifier"] as? String else { return nil }
            return Target(identifier: identifier, name: target["name"] as? String ?? "",
                          container: XcodeScheme.container(target["containerPath"] as? String ?? ""),
                          enabled: entry["enabled"] as? Bool ?? true, skippedTests: Self.skipped(entry["skippedTests"]))
        }
    }

    /// A plan's `skippedTests`: a list of names, or (Xcode 16's form) `{"suites": [{"name": …}]}`.
    static func skipped(_ value: Any?) -> [String] {
        if let names = value as? [String] { return names }
        if let object = value as? [String: Any], let suites = object["suites"] as? [[String: Any]] {
            return suites.compactMap { $0["name"] as? String }
        }
        return []
    }
}
