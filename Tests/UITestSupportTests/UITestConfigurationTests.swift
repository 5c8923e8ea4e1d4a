import Testing
import UITestSupport

@Suite struct UITestConfigurationTests {
    @Test func noArgumentsIsTheDataModelsDefaults() throws {
        let configuration = try UITestConfiguration(arguments: [])
        #expect(!configuration.isUITesting && !configuration.resetOnboarding && !configuration.skipPermissionChecks)
        #expect(!configuration.skipOnboarding && !configuration.triggerRecordingOnLaunch && !configuration.accessibilityTestingEnabled)
        #expect(configuration.mockPermissionState == nil)
        #expect(configuration.initialLanguage == nil)
        #expect(configuration.unrecognizedArguments.isEmpty)
    }

    @Test(arguments: [
        (LaunchArguments.uitesting, \UITestConfiguration.isUITesting),
        (LaunchArguments.resetOnboarding, \UITestConfiguration.resetOnboarding),
        (LaunchArguments.skipPermissionChecks, \UITestConfiguration.skipPermissionChecks),
        (LaunchArguments.skipOnboarding, \UITestConfiguration.skipOnboarding),
        (LaunchArguments.triggerRecording, \UITestConfiguration.triggerRecordingOnLaunch),
        (LaunchArguments.accessibilityTesting, \UITestConfiguration.accessibilityTestingEnabled),
    ] as [(String, KeyPath<UITestConfiguration, Bool> & Sendable)])
    func eachFlagSetsItsFieldAndNoOther(_ argument: String, _ field: KeyPath<UITestConfiguration, Bool> & Sendable) throws {
        let configuration = try UITestConfiguration(arguments: ["/path/to/App", argument])
        #expect(configuration[keyPath: field])
        let all: [KeyPath<UITestConfiguration, Bool>] = [\.isUITesting, \.resetOnboarding, \.skipPermissionChecks, \.skipOnboarding,
                                                          \.triggerRecordingOnLaunch, \.accessibilityTestingEnabled]
        #expect(all.filter { configuration[keyPath: $0] }.count == 1)
        #expect(configuration.launchArguments == [argument], "and it writes back the same argument")
    }

    @Test func everyArgumentStartsWithTwoDashes() {
        #expect(LaunchArguments.byName.count == 8)
        #expect(LaunchArguments.byName.values.allSatisfy { $0.hasPrefix("--") }, "validation rule 1")
    }

    @Test func mockPermissionsAndLanguageCarryValues() throws {
        let configuration = try UITestConfiguration(arguments: [
            "--uitesting", "--skip-permission-checks", "--mock-permissions=denied", "--initial-language=en-US",
        ])
        #expect(configuration.mockPermissionState == .denied)
        #expect(configuration.initialLanguage == "en-US")
        #expect(try UITestConfiguration(arguments: ["--skip-permission-checks", "--mock-permissions=granted"]).mockPermissionState == .granted)
        for language in ["en", "de-DE", "zh-Hant-TW", "pt_BR", "es-419"] {
            #expect(try UITestConfiguration(arguments: ["--initial-language=\(language)"]).initialLanguage == language)
        }
        #expect(configuration.launchArguments == ["--uitesting", "--skip-permission-checks", "--mock-permissions=denied", "--initial-language=en-US"])
    }

    @Test func ruleTwoMockPermissionsNeedSkipPermissionChecks() {
        #expect(throws: UITestConfigurationError.mockPermissionsRequireSkipPermissionChecks(.granted)) {
            try UITestConfiguration(arguments: ["--uitesting", "--mock-permissions=granted"])
        }
        #expect(throws: UITestConfigurationError.mockPermissionsRequireSkipPermissionChecks(.denied)) {
            try UITestConfiguration(mockPermissionState: .denied)
        }
        #expect(UITestConfigurationError.mockPermissionsRequireSkipPermissionChecks(.granted).description
            == "--mock-permissions=granted needs --skip-permission-checks: mock permissions replace the permission checks")
    }

    @Test func everyOtherErrorHasItsCaseAndWords() throws {
        let cases: [([String], UITestConfigurationError, String)] = [
            (["--skip-permission-checks", "--mock-permissions=maybe"], .invalidMockPermissionState("maybe"),
             "--mock-permissions=maybe: expected granted or denied"),
            (["--mock-permissions"], .missingValue(argument: "--mock-permissions"),
             "--mock-permissions needs a value: --mock-permissions=granted or --mock-permissions=denied"),
            (["--initial-language="], .missingValue(argument: "--initial-language"), "--initial-language needs a value: --initial-language=en-US"),
            (["--initial-language=english please"], .invalidLanguage("english please"),
             "--initial-language=english please: expected a language tag such as en, en-US or zh-Hant-TW"),
            (["--uitesting=yes"], .unexpectedValue(argument: "--uitesting", value: "yes"), "--uitesting=yes: --uitesting takes no value"),
            (["--initial-language=en", "--initial-language=fr"], .conflictingValues(argument: "--initial-language", first: "en", second: "fr"),
             "--initial-language is given twice, as en and as fr"),
        ]
        for (arguments, expected, words) in cases {
            #expect(throws: expected, "\(arguments)") { try UITestConfiguration(arguments: arguments) }
            #expect(expected.description == words)
        }
        #expect(try UITestConfiguration(arguments: ["--initial-language=en", "--initial-language=en"]).initialLanguage == "en", "the same value twice is fine")
    }

    @Test func unknownArgumentsAreReportedNotDropped() throws {
        let configuration = try UITestConfiguration(arguments: ["--uitestng", "-AppleLanguages", "(en)", "--uitesting", "--verbose=2"])
        #expect(configuration.isUITesting)
        #expect(configuration.unrecognizedArguments == ["--uitestng", "--verbose=2"], "the system's single-dash arguments are not ours")
        #expect(throws: UITestConfigurationError.unrecognizedArguments(["--uitestng", "--verbose=2"])) {
            try UITestConfiguration(arguments: ["--uitestng", "--uitesting", "--verbose=2"], strict: true)
        }
        #expect(UITestConfigurationError.unrecognizedArguments(["--uitestng"]).description == "unrecognized launch argument: --uitestng")
    }

    @Test func theRunningProcessParses() throws {
        // The test runner's own arguments hold no mock permissions, so rule 2 cannot fail here.
        let configuration = try UITestConfiguration.fromProcessInfo()
        #expect(configuration.mockPermissionState == nil)
    }
}
