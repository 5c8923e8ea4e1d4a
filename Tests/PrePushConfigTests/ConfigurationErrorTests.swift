import PrePushConfig
import PrePushCore
import PrePushTestSupport
import Testing

/// Resolves with the given inputs and returns the error's text; records an issue if nothing is thrown.
func errorText(file: String? = nil, flags: ConfigurationFlags = ConfigurationFlags(), environment: [String: String] = [:],
               fileBytes: [UInt8]? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
    let folder = try TemporaryDirectory()
    if let file { try folder.write(file, to: ".prepush.yml") }
    if let fileBytes { FileManagerShim.write(fileBytes, to: folder.url(".prepush.yml")) }
    do {
        _ = try ConfigurationResolver.resolve(ConfigurationRequest(flags: flags, environment: environment, repositoryRoot: folder.path, currentDirectory: folder.path))
        Issue.record("expected a configuration error", sourceLocation: sourceLocation)
        return ""
    } catch {
        return error.rendered
    }
}

import Foundation
enum FileManagerShim {
    static func write(_ bytes: [UInt8], to path: String) { _ = FileManager.default.createFile(atPath: path, contents: Data(bytes)) }
}

@Suite struct ConfigurationErrorTests {
    @Test func yamlSyntaxError() throws {
        let text = try errorText(file: "stages:\n  unit:\n    run: [swift test\n")
        #expect(text == """
        .prepush.yml:4:1: error: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence at line 3, column 10)

        ^
        """)
    }

    @Test func tabIndentationIsASyntaxError() throws {
        let text = try errorText(file: "stages:\n\tunit:\n")
        #expect(text == """
        .prepush.yml:2:1: error: invalid YAML: found character that cannot start any token (while scanning for the next token at line 2, column 1)
        \tunit:
        ^
        """)
    }

    @Test func badRetrySettingsNameTheirPlaceAndWhatIsExpected() throws {
        let retry = try errorText(file: "stages:\n  unit:\n    run: swift test\n    retry: 9\n")
        #expect(retry.hasPrefix(#".prepush.yml:4:12: error: stages.unit.retry: "9" is not a number of retries (expected a whole number, 0 to 5)"#), "\(retry)")
        let flaky = try errorText(file: "stages:\n  unit:\n    run: swift test\n    flaky: maybe\n")
        #expect(flaky.hasPrefix(#".prepush.yml:4:12: error: stages.unit.flaky: "maybe" is not a flaky policy (expected warn, refuse or allow)"#), "\(flaky)")
        let reason = try errorText(file: "stages:\n  unit:\n    run: swift test\n    retryOn: [failed, network]\n")
        #expect(reason.hasPrefix(#".prepush.yml:4:23: error: stages.unit.retryOn: "network" is not a retry reason (expected failed or infrastructure)"#), "\(reason)")
    }

    @Test func aQuarantineEntryNeedsATestAndAReason() throws {
        let text = try errorText(file: "quarantine:\n  - test: CheckoutTests.testRefund\n")
        #expect(text.hasPrefix(".prepush.yml:2:5: error: quarantine: expected a reason: in each entry, found an entry without one"), "\(text)")
        let file = try ConfigurationFile.decode("quarantine:\n  - test: CheckoutTests.*\n    reason: refunds are down\n", path: ".prepush.yml")
        #expect(file.quarantine.map(\.value) == [QuarantineEntry(pattern: "CheckoutTests.*", reason: "refunds are down")])
    }

    @Test func unknownKeyWithSuggestion() throws {
        let text = try errorText(file: "stages:\n  ui:\n    run: make ui\n    timout: 30\n")
        #expect(text == """
        .prepush.yml:4:5: error: unknown key "timout" in stages.ui; did you mean "timeout"?
            timout: 30
            ^
        """)
    }

    @Test func unknownTopLevelKeyWithoutSuggestion() throws {
        let text = try errorText(file: "hooks:\n  - pre-push\n")
        #expect(text == """
        .prepush.yml:1:1: error: unknown key "hooks" at the top level
        hooks:
        ^
        """)
    }

    @Test func caseMistakeIsSuggested() throws {
        let text = try errorText(file: "stages:\n  unit:\n    run: x\n    workingdirectory: App\n")
        #expect(text.hasPrefix(".prepush.yml:4:5: error: unknown key \"workingdirectory\" in stages.unit; did you mean \"workingDirectory\"?"))
    }

    @Test func wrongTypeNamesWhatWasFound() throws {
        let text = try errorText(file: "stages:\n  - unit\n")
        #expect(text == """
        .prepush.yml:2:3: error: stages: expected a mapping, found a list
          - unit
          ^
        """)
    }

    @Test func timeoutThatIsNotANumber() throws {
        let text = try errorText(file: "stages:\n  ui:\n    run: make ui\n    timeout: ten\n")
        #expect(text == """
        .prepush.yml:4:14: error: stages.ui.timeout: "ten" is not a whole number of seconds
            timeout: ten
                     ^
        """)
    }

    /// The reports make `links:` clickable through the pattern: a scheme that runs script is refused where it is written.
    @Test(arguments: ["javascript:alert(1)//{id}", "JavaScript:alert(1)//{id}", "data:text/html,{id}", "vbscript:{id}", "//evil.example.com/{id}", " javascript:{id}"])
    func aLinkPatternOtherThanHTTPOrRelativeIsRefused(_ pattern: String) throws {
        let text = try errorText(file: "traceability:\n  linkPattern: \"\(pattern)\"\n")
        #expect(text == """
        .prepush.yml:2:16: error: traceability.linkPattern: "\(pattern)" is not an http or https URL or a relative path: the reports make it a link, and another scheme (javascript:, data:, file:) would run or open what the repository chose
          linkPattern: "\(pattern)"
                       ^
        """)
    }

    @Test func uiTimeoutOutOfRangeInTheFile() throws {
        let text = try errorText(file: "stages:\n  ui:\n    run: make ui\n    timeout: 900\n")
        #expect(text == """
        .prepush.yml:4:14: error: stages.ui.timeout: "900" is out of range: the UI test timeout must be 1 to 600 seconds
            timeout: 900
                     ^
        """)
    }

    @Test func timeoutThatIsAMapping() throws {
        let text = try errorText(file: "stages:\n  ui:\n    run: make ui\n    timeout: {seconds: 3}\n")
        #expect(text == """
        .prepush.yml:4:14: error: stages.ui.timeout: expected a whole number of seconds, found a mapping
            timeout: {seconds: 3}
                     ^
        """)
    }

    @Test func fileBooleanThatIsNotOne() throws {
        let text = try errorText(file: "verbose: sometimes\n")
        #expect(text == """
        .prepush.yml:1:10: error: verbose: "sometimes" is not a boolean (expected true/false, yes/no or 1/0)
        verbose: sometimes
                 ^
        """)
    }

    @Test func duplicateKey() throws {
        let text = try errorText(file: "verbose: true\nverbose: false\n")
        #expect(text == """
        .prepush.yml:2:1: error: duplicate key "verbose" (first at line 1, column 1)
        verbose: false
        ^
        """)
    }

    @Test func stageWithoutRun() throws {
        let text = try errorText(file: "stages:\n  ui:\n    timeout: 30\n")
        #expect(text == """
        .prepush.yml:2:3: error: stages.ui: missing key "run"
          ui:
          ^
        """)
    }

    @Test func emptyCommand() throws {
        let text = try errorText(file: "stages:\n  unit:\n    run: '  '\n")
        #expect(text == """
        .prepush.yml:3:10: error: stages.unit.run: "  " is empty; expected a shell command
            run: '  '
                 ^
        """)
    }

    @Test func badEnvironmentVariableName() throws {
        let text = try errorText(file: "stages:\n  unit:\n    run: x\n    env:\n      1BAD: y\n")
        #expect(text == """
        .prepush.yml:5:7: error: stages.unit.env: "1BAD" is not a valid environment variable name (letters, digits and '_', not starting with a digit)
              1BAD: y
              ^
        """)
    }

    @Test func unsafeRemoteHost() throws {
        let text = try errorText(file: "remote:\n  host: -oProxyCommand=touch\n  path: /tmp/x\n")
        #expect(text == """
        .prepush.yml:2:9: error: remote.host: "-oProxyCommand=touch" is not a safe host: it must not start with '-' or hold spaces or shell characters
          host: -oProxyCommand=touch
                ^
        """)
    }

    @Test func remoteWithoutHostOrPathAndBadPort() throws {
        let text = try errorText(file: "remote:\n  port: 70000\n")
        #expect(text == """
        .prepush.yml:1:1: error: remote: missing key "host"
        remote:
        ^
        .prepush.yml:1:1: error: remote: missing key "path"
        remote:
        ^
        .prepush.yml:2:9: error: remote.port: "70000" is not a port number (expected 1 to 65535)
          port: 70000
                ^
        """)
    }

    @Test func badSyncModeInTheFile() throws {
        let text = try errorText(file: "remote:\n  host: mac\n  path: /x\n  syncMode: ftp\n")
        #expect(text == """
        .prepush.yml:4:13: error: remote.syncMode: "ftp" is not a sync mode (expected rsync or scp)
          syncMode: ftp
                    ^
        """)
    }

    @Test func secondDocument() throws {
        let text = try errorText(file: "verbose: true\n---\nverbose: false\n")
        #expect(text == """
        .prepush.yml:3:1: error: a second YAML document; the file is one document (remove the '---')
        verbose: false
        ^
        """)
    }

    @Test func fileThatIsNotUTF8() throws {
        let text = try errorText(fileBytes: [0x76, 0x65, 0x72, 0x62, 0x6F, 0x73, 0x65, 0x3A, 0x20, 0xFF, 0xFE, 0x0A])
        #expect(text == ".prepush.yml:1:1: error: the configuration file is not UTF-8 text")
    }

    @Test func recursiveAliasIsStopped() throws {
        // An anchor is defined only once its node is complete, so an alias inside it points at nothing.
        let text = try errorText(file: "stages: &a\n  unit: *a\n")
        #expect(text == """
        .prepush.yml:2:9: error: invalid YAML: found undefined alias 'a'
          unit: *a
                ^
        """)
    }

    /// 375 bytes of nested aliases once expanded into gigabytes and the out-of-memory killer.
    @Test func aliasBombIsRefusedWithItsPlace() throws {
        var yaml = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        let names = ["b", "c", "d", "e", "f", "g", "h", "i"]
        var previous = "a"
        for name in names {
            yaml += "\(name): &\(name) [*\(previous),*\(previous),*\(previous),*\(previous),*\(previous),*\(previous),*\(previous),*\(previous),*\(previous)]\n"
            previous = name
        }
        #expect(yaml.utf8.count < 400)
        let text = try errorText(file: yaml)
        #expect(text.hasPrefix(".prepush.yml:5:"), "\(text)")
        #expect(text.contains("error: aliases repeat more than 10000 nodes"))
    }

    @Test func aFewAliasesStillWork() throws {
        let file = try ConfigurationFile.decode(
            "stages:\n  unit: &stage\n    run: swift test\n    timeout: 30\n  ui: *stage\n", path: ".prepush.yml")
        #expect(file.stages.count == 2)
        #expect(file.stages[.ui]?.timeout?.value == 30)
    }

    /// 200 KB of `[[[…` took 27 s (libyaml's scanner is quadratic in flow depth) and echoed the whole line.
    @Test func deepNestingStopsEarlyAndEchoesLittle() throws {
        let text = try errorText(file: "stages: " + String(repeating: "[", count: 200_000) + "\n")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == ".prepush.yml:1:72: error: nesting deeper than 64 levels")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.unicodeScalars.count <= Diagnostic.echoLimit + 2 })
        // The caret still sits under the bracket that went too deep.
        let shown = Array(lines[1].unicodeScalars), caret = Array(lines[2].unicodeScalars)
        #expect(caret.last == "^" && shown[caret.count - 1] == "[")
    }

    @Test func longValuesAreCutInMessages() throws {
        let long = String(repeating: "x", count: 5_000)
        let text = try errorText(file: "verbose: \(long)\n")
        #expect(text.utf8.count < 700, "\(text.utf8.count) bytes")
        #expect(text.contains("xxx…"))
    }

    @Test func missingWorkingDirectory() throws {
        let text = try errorText(file: "stages:\n  unit:\n    run: make\n    workingDirectory: NoSuchFolder\n")
        #expect(text == """
        .prepush.yml:4:23: error: working directory NoSuchFolder does not exist
            workingDirectory: NoSuchFolder
                              ^
        """)
    }

    @Test func everyProblemOfAFileIsReportedInFileOrder() throws {
        let text = try errorText(file: "verbose: maybe\nstages:\n  ui:\n    run: x\n    timout: 3\n")
        #expect(text == """
        .prepush.yml:1:10: error: verbose: "maybe" is not a boolean (expected true/false, yes/no or 1/0)
        verbose: maybe
                 ^
        .prepush.yml:5:5: error: unknown key "timout" in stages.ui; did you mean "timeout"?
            timout: 3
            ^
        """)
    }

    // MARK: Environment and flags

    @Test func environmentTimeoutThatIsNotANumber() throws {
        #expect(try errorText(environment: ["UI_TEST_TIMEOUT": "abc"]) == "error: UI_TEST_TIMEOUT=\"abc\" is not a whole number of seconds")
    }

    @Test func environmentTimeoutOutOfRange() throws {
        #expect(try errorText(environment: ["UI_TEST_TIMEOUT": "0"])
            == "error: UI_TEST_TIMEOUT=\"0\" is out of range: the UI test timeout must be 1 to 600 seconds")
    }

    @Test func environmentTimeoutWithFraction() throws {
        #expect(try errorText(environment: ["UI_TEST_TIMEOUT": "1.5"]) == "error: UI_TEST_TIMEOUT=\"1.5\" is not a whole number of seconds")
    }

    @Test func environmentBooleans() throws {
        #expect(try errorText(environment: ["UI_TEST_VERBOSE": "on"])
            == "error: UI_TEST_VERBOSE=\"on\" is not a boolean (expected true/false, yes/no or 1/0)")
        #expect(try errorText(environment: ["SKIP_UI_TESTS": "skip"])
            == "error: SKIP_UI_TESTS=\"skip\" is not a boolean (expected true/false, yes/no or 1/0)")
    }

    @Test func environmentSyncMode() throws {
        #expect(try errorText(environment: ["PREPUSH_SYNC_MODE": "ftp"])
            == "error: PREPUSH_SYNC_MODE=\"ftp\" is not a sync mode (expected rsync or scp)")
    }

    @Test func flagTimeoutOutOfRange() throws {
        #expect(try errorText(flags: flags { $0.uiTestTimeout = 601 })
            == "error: --timeout \"601\" is out of range: the UI test timeout must be 1 to 600 seconds")
        #expect(try errorText(flags: flags { $0.unitTestTimeout = 0 })
            == "error: --unit-timeout \"0\" is out of range: the unit test timeout must be 1 to 86400 seconds")
    }

    @Test func flagSyncMode() throws {
        #expect(try errorText(flags: flags { $0.syncMode = "ftp" }) == "error: --sync-mode \"ftp\" is not a sync mode (expected rsync or scp)")
    }

    @Test func conflictingFlags() throws {
        #expect(try errorText(flags: flags { $0.skipUITests = true; $0.uiTestsOnly = true })
            == "error: --skip-ui-tests and --ui-tests-only cannot be used together")
    }

    @Test func configFileNamedButMissing() throws {
        #expect(try errorText(flags: flags { $0.configPath = "ci.yml" }) == "error: configuration file ci.yml (from flag --config) does not exist")
        #expect(try errorText(environment: ["PREPUSH_CONFIG": "/no/such.yml"])
            == "error: configuration file /no/such.yml (from environment PREPUSH_CONFIG) does not exist")
    }

    /// An escape hatch never blocks: a word it does not know counts as set, and says so.
    @Test func skipAllWithAWordItDoesNotKnow() {
        let skip = ConfigurationResolver.skipAllRequested(environment: ["PREPUSH_SKIP": "please"])
        #expect(skip.skip)
        #expect(skip.note == "PREPUSH_SKIP=\"please\" is not true/false, yes/no or 1/0; taken as set (use PREPUSH_SKIP=1)")
    }

    @Test func environmentAndFileErrorsAreAllReported() throws {
        let text = try errorText(file: "verbose: maybe\n", environment: ["UI_TEST_TIMEOUT": "abc"])
        #expect(text == """
        .prepush.yml:1:10: error: verbose: "maybe" is not a boolean (expected true/false, yes/no or 1/0)
        verbose: maybe
                 ^
        error: UI_TEST_TIMEOUT="abc" is not a whole number of seconds
        """)
    }
}
