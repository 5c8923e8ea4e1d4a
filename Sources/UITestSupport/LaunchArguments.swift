#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The launch arguments a UI test passes to the app (data model: `LaunchArguments`). Each starts with
/// `--` (validation rule 1); the two that carry a value take it after `=`.
///
/// ```swift
/// app.launchArguments = [LaunchArguments.uitesting, LaunchArguments.skipPermissionChecks,
///                        LaunchArguments.mockPermissions + "=denied"]
/// ```
public enum LaunchArguments {
    /// Enable UI testing mode: disables certain animations and timeouts.
    public static let uitesting = "--uitesting"
    /// Reset onboarding state: clears the onboarding-completed flag.
    public static let resetOnboarding = "--reset-onboarding"
    /// Skip permission checks: use the mock permission service.
    public static let skipPermissionChecks = "--skip-permission-checks"
    /// Skip onboarding entirely, for tests that don't need the flow.
    public static let skipOnboarding = "--skip-onboarding"
    /// Show the recording modal on launch, for recording flow tests.
    public static let triggerRecording = "--trigger-recording"
    /// Force the permission state: `--mock-permissions=granted` or `--mock-permissions=denied`.
    public static let mockPermissions = "--mock-permissions"
    /// Set the initial language: `--initial-language=en-US`.
    public static let initialLanguage = "--initial-language"
    /// Accessibility testing mode: verbose accessibility labels.
    public static let accessibilityTesting = "--accessibility-testing"

    /// Every argument by its constant's name (`"uitesting": "--uitesting"`).
    public static let byName: [String: String] = [
        "uitesting": uitesting, "resetOnboarding": resetOnboarding, "skipPermissionChecks": skipPermissionChecks,
        "skipOnboarding": skipOnboarding, "triggerRecording": triggerRecording, "mockPermissions": mockPermissions,
        "initialLanguage": initialLanguage, "accessibilityTesting": accessibilityTesting,
    ]

    /// The arguments that take `=value`.
    public static let valued: Set<String> = [mockPermissions, initialLanguage]
}

/// A forced permission state for tests (data model: `MockPermissionState`).
public enum MockPermissionState: String, Sendable, Hashable, CaseIterable {
    case granted
    case denied
}

/// Why launch arguments do not make a valid `UITestConfiguration`.
public enum UITestConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Validation rule 2: a mock permission state without `--skip-permission-checks`.
    case mockPermissionsRequireSkipPermissionChecks(MockPermissionState)
    /// `--mock-permissions=` with something other than granted or denied.
    case invalidMockPermissionState(String)
    /// A valued argument without its `=value`.
    case missingValue(argument: String)
    /// `--initial-language=` with something that is not a language tag (`en`, `en-US`, `zh-Hant-TW`).
    case invalidLanguage(String)
    /// A flag given a value (`--uitesting=yes`).
    case unexpectedValue(argument: String, value: String)
    /// The same valued argument twice with different values.
    case conflictingValues(argument: String, first: String, second: String)
    /// In strict parsing: `--` arguments this library does not know (typos, usually).
    case unrecognizedArguments([String])

    public var description: String {
        switch self {
        case .mockPermissionsRequireSkipPermissionChecks(let state):
            return "--mock-permissions=\(state.rawValue) needs --skip-permission-checks: mock permissions replace the permission checks"
        case .invalidMockPermissionState(let value):
            return "--mock-permissions=\(value): expected granted or denied"
        case .missingValue(let argument):
            return "\(argument) needs a value: \(argument == LaunchArguments.mockPermissions ? "--mock-permissions=granted or --mock-permissions=denied" : "--initial-language=en-US")"
        case .invalidLanguage(let value):
            return "--initial-language=\(value): expected a language tag such as en, en-US or zh-Hant-TW"
        case .unexpectedValue(let argument, let value):
            return "\(argument)=\(value): \(argument) takes no value"
        case .conflictingValues(let argument, let first, let second):
            return "\(argument) is given twice, as \(first) and as \(second)"
        case .unrecognizedArguments(let arguments):
            return "unrecognized launch argument\(arguments.count == 1 ? "" : "s"): \(arguments.joined(separator: ", "))"
        }
    }
}
