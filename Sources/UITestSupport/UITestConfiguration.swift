#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How the app runs under UI tests, read from its launch arguments (data model: `UITestConfiguration`).
///
/// ```swift
/// // In the app, once at launch:
/// let configuration = try UITestConfiguration.fromProcessInfo()
/// if configuration.isUITesting { UIView.setAnimationsEnabled(false) }
/// ```
public struct UITestConfiguration: Sendable, Hashable {
    /// `--uitesting`: the app runs under UI tests.
    public let isUITesting: Bool
    /// `--reset-onboarding`: clear the onboarding state.
    public let resetOnboarding: Bool
    /// `--skip-permission-checks`: use the mock permission service.
    public let skipPermissionChecks: Bool
    /// `--skip-onboarding`: skip the onboarding flow.
    public let skipOnboarding: Bool
    /// `--trigger-recording`: show the recording modal on launch.
    public let triggerRecordingOnLaunch: Bool
    /// `--mock-permissions=granted|denied`; nil means real permissions.
    public let mockPermissionState: MockPermissionState?
    /// `--initial-language=en-US`; nil keeps the device's language.
    public let initialLanguage: String?
    /// `--accessibility-testing`: verbose accessibility labels.
    public let accessibilityTestingEnabled: Bool
    /// Arguments starting with `--` that this library does not know, in the order given: reported
    /// here rather than dropped, so a typo (`--uitestng`) shows. Single-dash arguments belong to the
    /// system (`-AppleLanguages`, `-NSDoubleLocalizedStrings`) and are not looked at.
    public let unrecognizedArguments: [String]

    /// A configuration from its fields; validation rule 2 is checked.
    public init(isUITesting: Bool = false, resetOnboarding: Bool = false, skipPermissionChecks: Bool = false,
                skipOnboarding: Bool = false, triggerRecordingOnLaunch: Bool = false, mockPermissionState: MockPermissionState? = nil,
                initialLanguage: String? = nil, accessibilityTestingEnabled: Bool = false,
                unrecognizedArguments: [String] = []) throws(UITestConfigurationError) {
        if let mockPermissionState, !skipPermissionChecks {
            throw .mockPermissionsRequireSkipPermissionChecks(mockPermissionState)
        }
        self.isUITesting = isUITesting
        self.resetOnboarding = resetOnboarding
        self.skipPermissionChecks = skipPermissionChecks
        self.skipOnboarding = skipOnboarding
        self.triggerRecordingOnLaunch = triggerRecordingOnLaunch
        self.mockPermissionState = mockPermissionState
        self.initialLanguage = initialLanguage
        self.accessibilityTestingEnabled = accessibilityTestingEnabled
        self.unrecognizedArguments = unrecognizedArguments
    }

    /// Parses launch arguments (a pure function: pass `ProcessInfo.processInfo.arguments` or a test's
    /// list). The first element is not skipped: pass the arguments without the program path, or with
    /// it — a path never starts with `--`. With `strict`, unknown `--` arguments are an error too.
    public init(arguments: [String], strict: Bool = false) throws(UITestConfigurationError) {
        var flags: Set<String> = []
        var values: [String: String] = [:]
        var unrecognized: [String] = []
        for argument in arguments where argument.hasPrefix("--") {
            let name: String, value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
                value = nil
            }
            if LaunchArguments.valued.contains(name) {
                guard let value, !value.isEmpty else { throw .missingValue(argument: name) }
                if let first = values[name], first != value { throw .conflictingValues(argument: name, first: first, second: value) }
                values[name] = value
            } else if LaunchArguments.byName.values.contains(name) {
                if let value { throw .unexpectedValue(argument: name, value: value) }
                flags.insert(name)
            } else {
                unrecognized.append(argument)
            }
        }
        if strict, !unrecognized.isEmpty { throw .unrecognizedArguments(unrecognized) }
        var state: MockPermissionState?
        if let value = values[LaunchArguments.mockPermissions] {
            guard let parsed = MockPermissionState(rawValue: value) else { throw .invalidMockPermissionState(value) }
            state = parsed
        }
        let language = values[LaunchArguments.initialLanguage]
        if let language, !Self.isLanguageTag(language) { throw .invalidLanguage(language) }
        try self.init(isUITesting: flags.contains(LaunchArguments.uitesting), resetOnboarding: flags.contains(LaunchArguments.resetOnboarding),
                      skipPermissionChecks: flags.contains(LaunchArguments.skipPermissionChecks),
                      skipOnboarding: flags.contains(LaunchArguments.skipOnboarding),
                      triggerRecordingOnLaunch: flags.contains(LaunchArguments.triggerRecording), mockPermissionState: state,
                      initialLanguage: language, accessibilityTestingEnabled: flags.contains(LaunchArguments.accessibilityTesting),
                      unrecognizedArguments: unrecognized)
    }

    /// The configuration of the running process (`ProcessInfo.processInfo.arguments`).
    public static func fromProcessInfo() throws(UITestConfigurationError) -> UITestConfiguration {
        try UITestConfiguration(arguments: Array(ProcessInfo.processInfo.arguments.dropFirst()))
    }

    /// The arguments that give this configuration, in `LaunchArguments` order: what a UI test passes.
    public var launchArguments: [String] {
        var arguments: [String] = []
        if isUITesting { arguments.append(LaunchArguments.uitesting) }
        if resetOnboarding { arguments.append(LaunchArguments.resetOnboarding) }
        if skipPermissionChecks { arguments.append(LaunchArguments.skipPermissionChecks) }
        if skipOnboarding { arguments.append(LaunchArguments.skipOnboarding) }
        if triggerRecordingOnLaunch { arguments.append(LaunchArguments.triggerRecording) }
        if let mockPermissionState { arguments.append("\(LaunchArguments.mockPermissions)=\(mockPermissionState.rawValue)") }
        if let initialLanguage { arguments.append("\(LaunchArguments.initialLanguage)=\(initialLanguage)") }
        if accessibilityTestingEnabled { arguments.append(LaunchArguments.accessibilityTesting) }
        return arguments
    }

    /// A BCP 47-shaped tag: a 2–3 letter language, then subtags of 2–8 letters or digits, joined by
    /// `-` (or `_`, as Apple's locale identifiers write them).
    static func isLanguageTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}
