import PrePushConfig
import PrePushCore
import PrePushTestSupport
import Testing

/// A file that sets every setting, so each row can check that a higher source beats it.
let fullFile = """
verbose: true
stages:
  unit:
    run: make test
    timeout: 120
  ui:
    run: make ui
    timeout: 50
    skip: true
reports:
  directory: out/reports
remote:
  host: mac.local
  path: /tmp/x
  syncMode: rsync

"""

let annotationsFile = "reports:\n  annotations: 30\n"

/// One row of the precedence table: the sources given and the value and origin that must win.
struct PrecedenceCase: CustomTestStringConvertible, Sendable {
    let setting: String
    var flags = ConfigurationFlags()
    var environment: [String: String] = [:]
    var file: String? = nil
    var packageSwift = false
    let value: String
    let origin: String

    var testDescription: String { "\(setting) = \(value) from \(origin)" }
}

func flags(_ change: (inout ConfigurationFlags) -> Void) -> ConfigurationFlags {
    var flags = ConfigurationFlags()
    change(&flags)
    return flags
}

let precedenceCases: [PrecedenceCase] = [
    // UI timeout: --timeout > UI_TEST_TIMEOUT > stages.ui.timeout > 600
    .init(setting: "uiTestTimeout", flags: flags { $0.uiTestTimeout = 30 }, environment: ["UI_TEST_TIMEOUT": "40"], file: fullFile, value: "30", origin: "flag --timeout"),
    .init(setting: "uiTestTimeout", environment: ["UI_TEST_TIMEOUT": "40"], file: fullFile, value: "40", origin: "environment UI_TEST_TIMEOUT"),
    .init(setting: "uiTestTimeout", file: fullFile, value: "50", origin: "file .prepush.yml:8:14"),
    .init(setting: "uiTestTimeout", value: "600", origin: "default"),
    // skipUITests: --skip-ui-tests > SKIP_UI_TESTS > stages.ui.skip > false
    .init(setting: "skipUITests", flags: flags { $0.skipUITests = true }, environment: ["SKIP_UI_TESTS": "no"], file: fullFile, value: "true", origin: "flag --skip-ui-tests"),
    .init(setting: "skipUITests", environment: ["SKIP_UI_TESTS": "0"], file: fullFile, value: "false", origin: "environment SKIP_UI_TESTS"),
    .init(setting: "skipUITests", environment: ["SKIP_UI_TESTS": "YES"], value: "true", origin: "environment SKIP_UI_TESTS"),
    .init(setting: "skipUITests", file: fullFile, value: "true", origin: "file .prepush.yml:9:11"),
    .init(setting: "skipUITests", value: "false", origin: "default"),
    // --ui-tests-only beats a skip from a lower source
    .init(setting: "skipUITests", flags: flags { $0.uiTestsOnly = true }, environment: ["SKIP_UI_TESTS": "true"], value: "false", origin: "flag --ui-tests-only"),
    .init(setting: "uiTestsOnly", flags: flags { $0.uiTestsOnly = true }, value: "true", origin: "flag --ui-tests-only"),
    .init(setting: "uiTestsOnly", value: "false", origin: "default"),
    // verbose: --verbose > UI_TEST_VERBOSE > verbose > false
    .init(setting: "verbose", flags: flags { $0.verbose = true }, environment: ["UI_TEST_VERBOSE": "false"], file: fullFile, value: "true", origin: "flag --verbose"),
    .init(setting: "verbose", environment: ["UI_TEST_VERBOSE": "False"], file: fullFile, value: "false", origin: "environment UI_TEST_VERBOSE"),
    .init(setting: "verbose", file: fullFile, value: "true", origin: "file .prepush.yml:1:10"),
    .init(setting: "verbose", value: "false", origin: "default"),
    // syncMode: --sync-mode > PREPUSH_SYNC_MODE > remote.syncMode > scp
    .init(setting: "syncMode", flags: flags { $0.syncMode = "scp" }, environment: ["PREPUSH_SYNC_MODE": "rsync"], file: fullFile, value: "scp", origin: "flag --sync-mode"),
    .init(setting: "syncMode", environment: ["PREPUSH_SYNC_MODE": "scp"], file: fullFile, value: "scp", origin: "environment PREPUSH_SYNC_MODE"),
    .init(setting: "syncMode", file: fullFile, value: "rsync", origin: "file .prepush.yml:15:13"),
    .init(setting: "syncMode", value: "scp", origin: "default"),
    // unit timeout: --unit-timeout > stages.unit.timeout > 600
    .init(setting: "unit.timeout", flags: flags { $0.unitTestTimeout = 7 }, file: fullFile, value: "7", origin: "flag --unit-timeout"),
    .init(setting: "unit.timeout", file: fullFile, value: "120", origin: "file .prepush.yml:5:14"),
    .init(setting: "unit.timeout", value: "600", origin: "default"),
    // unit command: stages.unit.run > `swift test` when Package.swift exists > not configured
    .init(setting: "unit.run", file: fullFile, packageSwift: true, value: "make test", origin: "file .prepush.yml:4:10"),
    .init(setting: "unit.run", packageSwift: true, value: "swift test", origin: "default (Package.swift found)"),
    .init(setting: "unit.run", value: "(not configured)", origin: "default"),
    // reports folder: --reports-dir > reports.directory > .prepush/reports
    .init(setting: "reports.directory", flags: flags { $0.reportsDirectory = "ci-out" }, file: fullFile, value: "ci-out", origin: "flag --reports-dir"),
    .init(setting: "reports.directory", file: fullFile, value: "out/reports", origin: "file .prepush.yml:11:14"),
    .init(setting: "reports.directory", value: ".prepush/reports", origin: "default"),
    // GitHub annotations a step: --annotations > PREPUSH_ANNOTATIONS > reports.annotations > 10
    .init(setting: "reports.annotations", flags: flags { $0.annotations = 40 }, environment: ["PREPUSH_ANNOTATIONS": "20"], file: annotationsFile,
          value: "40", origin: "flag --annotations"),
    .init(setting: "reports.annotations", environment: ["PREPUSH_ANNOTATIONS": "20"], file: annotationsFile, value: "20", origin: "environment PREPUSH_ANNOTATIONS"),
    .init(setting: "reports.annotations", file: annotationsFile, value: "30", origin: "file .prepush.yml:2:16"),
    .init(setting: "reports.annotations", value: "10", origin: "default"),
    // configuration file: --config > PREPUSH_CONFIG > .prepush.yml at the root
    .init(setting: "config", flags: flags { $0.configPath = "other.yml" }, environment: ["PREPUSH_CONFIG": "env.yml"], file: fullFile, value: "other.yml", origin: "flag --config"),
    .init(setting: "config", environment: ["PREPUSH_CONFIG": "env.yml"], file: fullFile, value: "env.yml", origin: "environment PREPUSH_CONFIG"),
    .init(setting: "config", file: fullFile, value: ".prepush.yml", origin: "default"),
]

@Suite struct PrecedenceTests {
    @Test(arguments: precedenceCases)
    func eachSourceBeatsTheOnesBelowIt(_ row: PrecedenceCase) throws {
        let folder = try TemporaryDirectory()
        if let file = row.file {
            try folder.write(file, to: ".prepush.yml")
            try folder.write("verbose: false\n", to: "other.yml")
            try folder.write("verbose: false\n", to: "env.yml")
        }
        if row.packageSwift { try folder.write("// swift-tools-version:5.9\n", to: "Package.swift") }
        let request = ConfigurationRequest(flags: row.flags, environment: row.environment, repositoryRoot: folder.path, currentDirectory: folder.path)
        let resolved = try ConfigurationResolver.resolve(request)
        let setting = try #require(resolved.settings.first { $0.name == row.setting })
        #expect(setting.value == row.value)
        #expect(setting.origin.description == row.origin)
    }

    /// An annotation count outside 1–50 is an error naming where it came from.
    @Test(arguments: [(["PREPUSH_ANNOTATIONS": "0"], nil as String?, "PREPUSH_ANNOTATIONS"), ([:], "reports:\n  annotations: 60\n", ".prepush.yml:2:16")])
    func aBadAnnotationCountSaysWhereItCameFrom(_ environment: [String: String], file: String?, origin: String) throws {
        let folder = try TemporaryDirectory()
        if let file { try folder.write(file, to: ".prepush.yml") }
        let request = ConfigurationRequest(flags: ConfigurationFlags(), environment: environment, repositoryRoot: folder.path, currentDirectory: folder.path)
        let error = try #require(throws: ConfigurationError.self) { try ConfigurationResolver.resolve(request) }
        let text = "\(error)"
        #expect(text.contains(origin) && text.contains("is not a number of annotations (expected a whole number, 1 to 50)"), "\(text)")
    }

    @Test func resolvedValuesReachTheHookConfigAndStages() throws {
        let folder = try TemporaryDirectory()
        try folder.write(fullFile, to: ".prepush.yml")
        var given = ConfigurationFlags()
        given.uiTestTimeout = 45
        let resolved = try ConfigurationResolver.resolve(ConfigurationRequest(
            flags: given, environment: ["UI_TEST_VERBOSE": "no"], repositoryRoot: folder.path, currentDirectory: folder.path))
        #expect(resolved.hook == PrePushHookConfig(skipUITests: true, uiTestsOnly: false, uiTestTimeout: 45, verbose: false, syncMode: .rsync))
        #expect(resolved.uiStage == StageSettings(kind: .ui, command: "make ui", timeout: 45, environment: [], workingDirectory: folder.path))
        #expect(resolved.unitStage?.timeout == 120)
        #expect(resolved.reportsDirectory == folder.url("out/reports"))
        #expect(resolved.remote == RemoteSettings(connection: RemoteHost(host: "mac.local", user: nil, port: 22, path: "/tmp/x")))
    }

    @Test(arguments: ["true", "TRUE", "yes", "Yes", "1"])
    func skipAllAcceptsTrueWords(_ word: String) throws {
        #expect(ConfigurationResolver.skipAllRequested(environment: ["PREPUSH_SKIP": word]) == (true, nil))
    }

    @Test(arguments: ["false", "No", "0", ""])
    func skipAllAcceptsFalseWords(_ word: String) throws {
        #expect(ConfigurationResolver.skipAllRequested(environment: ["PREPUSH_SKIP": word]) == (false, nil))
    }

    @Test(arguments: ["on", "off", "", "2", "y", "truee"])
    func booleansAcceptNothingElse(_ word: String) {
        guard case .failure = ValueParsers.boolean(word) else { Issue.record("\(word) was read as a boolean"); return }
    }

    @Test func stageEnvironmentAndWorkingDirectoryAreRead() throws {
        let folder = try TemporaryDirectory()
        try folder.write("", to: "App/keep")
        try folder.write("""
        stages:
          unit:
            run: swift test
            workingDirectory: App
            env:
              LANG: C
              RETRIES: 3
              EMPTY:

        """, to: ".prepush.yml")
        let resolved = try ConfigurationResolver.resolve(ConfigurationRequest(
            flags: ConfigurationFlags(), environment: [:], repositoryRoot: folder.path, currentDirectory: folder.path))
        #expect(resolved.unitStage?.workingDirectory == folder.url("App"))
        #expect(resolved.unitStage?.environment == [
            EnvironmentEntry(name: "LANG", value: "C"), EnvironmentEntry(name: "RETRIES", value: "3"), EnvironmentEntry(name: "EMPTY", value: ""),
        ])
        #expect(resolved.uiStage == nil)
    }

    @Test func anEmptyFileMeansDefaults() throws {
        let folder = try TemporaryDirectory()
        try folder.write("# nothing configured yet\n", to: ".prepush.yml")
        let resolved = try ConfigurationResolver.resolve(ConfigurationRequest(
            flags: ConfigurationFlags(), environment: [:], repositoryRoot: folder.path, currentDirectory: folder.path))
        #expect(resolved.hook == .default)
        #expect(resolved.unitStage == nil && resolved.uiStage == nil)
    }
}
