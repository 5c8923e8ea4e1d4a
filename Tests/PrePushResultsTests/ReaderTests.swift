import Foundation
import PrePushCore
import PrePushResults
import PrePushTestSupport
import Testing

func read(_ fixture: String) throws -> TestRun {
    let bytes = Array(try Fixtures.sharedData(fixture))
    return try ResultsInput.parse(bytes, file: fixture).run
}

/// What two sources must agree on: each test's identity and status, in any order.
func outcomes(_ run: TestRun) -> [String: TestStatus] {
    Dictionary(run.results.map { ("\($0.suite)|\($0.name)", $0.status) }, uniquingKeysWith: { first, _ in first })
}

@Suite struct JUnitReaderTests {
    @Test(arguments: Fixtures.sharedFiles(in: "junit").filter { !$0.hasSuffix(".xsd") })
    func everyJUnitFixtureParses(_ fixture: String) throws {
        let run = try read(fixture)
        #expect(!run.results.isEmpty)
    }

    @Test(arguments: ["Linux", "macOS"])
    func theConsoleParserAgreesWithXcbeautifysExpectedJUnit(_ platform: String) throws {
        let fromConsole = ConsoleTestParser.parse(try Fixtures.sharedText("console/xcbeautify__TestData__MixedTestLog_6_0_\(platform).txt")).run
        let expected = try read("junit/xcbeautify__TestData__MixedTestLog_6_0_Expected_XML_\(platform).txt")
        // xcbeautify files Swift Testing tests under a suite it calls "SwiftTesting"; the console names none.
        let expectedOutcomes = Dictionary(outcomes(expected).map { ($0.key.hasPrefix("SwiftTesting|") ? String($0.key.dropFirst(12)) : $0.key, $0.value) },
                                          uniquingKeysWith: { first, _ in first })
        #expect(outcomes(fromConsole) == expectedOutcomes)
        // XCTest failures carry the same place and message; for Swift Testing xcbeautify writes
        // only "Swift testing test failed", where prepush keeps the recorded issue and its place.
        for test in expected.results where test.suite != "SwiftTesting" && !test.passed {
            let ours = try #require(fromConsole.results.first { $0.testIdentifier == test.testIdentifier })
            #expect(ours.failures == test.failures)
        }
    }

    @Test func fastlanesRetriesBecomeAttemptsOfOneTest() throws {
        let withRetries = try read("junit/fastlane__trainer_fixtures__Xcode16-Mixed-XCTest-SwiftTesting-WithRetries.junit.xml")
        let withoutRetries = try read("junit/fastlane__trainer_fixtures__Xcode16-Mixed-XCTest-SwiftTesting-WithoutRetries.junit.xml")
        #expect(withRetries.results.count == withoutRetries.results.count)
        #expect(outcomes(withRetries) == outcomes(withoutRetries))
        let retried = try #require(withRetries.results.first { $0.name == "Conditionally skipped test" })
        #expect(retried.attempts == 2)
        #expect(retried.status == .failed)
    }

    @Test func failureLocationsAreTakenFromTheMessage() throws {
        let run = try read("junit/fastlane__trainer_fixtures__Valid1.junit.xml")
        let failed = try #require(run.failing.first)
        #expect(failed.testIdentifier == "Unit.testExample2()")
        #expect(failed.failureLocation == SourceLocation(file: "/Users/liamnichols/Code/Local/Trainer/Unit/Unit.swift", line: 19, column: 0))
        #expect(failed.failureMessage == "XCTAssertTrue failed -")
    }

    @Test func prepushsOwnJUnitReadsBackTheSame() throws {
        let run = try goldenRun()
        let reread = try JUnitReader.parse(Array(JUnitReporter().render(run).utf8), file: "junit.xml")
        // JUnit has no "expected failure": it reads back as passed.
        #expect(outcomes(reread) == outcomes(run).mapValues { $0 == .expectedFailure ? .passed : $0 })
        #expect(reread.results.first { $0.name == "test_login_succeeds" }?.isFlaky == true)
        #expect(reread.results.first { $0.name == "test_recording_showsModal" }?.screenshotPath == "/tmp/reports/screenshots/test_recording_showsModal.png")
        #expect(reread.results.first { $0.name == "test_add_isSkipped" }?.skipReason == "not on this platform")
    }

    @Test func malformedXMLNamesLineAndColumn() {
        let xml = "<testsuites>\n  <testsuite name=\"A\">\n    <testcase name=\"x\" time=\"1\">\n  </testsuite>\n</testsuites>\n"
        do {
            _ = try JUnitReader.parse(Array(xml.utf8), file: "report.xml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == """
            report.xml:4:3: error: malformed XML: expected </testcase> to close <testcase>, found </testsuite>
              </testsuite>
              ^
            """)
        }
    }

    /// A file (2.3 MB) is read into memory given back as the scan passes it: the results are the same as
    /// from the bytes whole, and an error megabytes in still names its line and column.
    @Test func aBigFileReadsTheSameAndItsErrorsKeepTheirPlace() throws {
        let folder = try TemporaryDirectory(prefix: "prepush-big-junit")
        let cases = (0..<30_000).map { index in
            "    <testcase classname=\"App.Suite\(index % 97)\" name=\"test\(index)\" time=\"0.\(index % 10)\">"
                + (index % 1000 == 7 ? "<failure message=\"no &amp; never\">File.swift:\(index): no</failure></testcase>\n" : "</testcase>\n")
        }
        let xml = "<testsuites>\n  <testsuite name=\"Big\">\n" + cases.joined()
        let whole = xml + "  </testsuite>\n</testsuites>\n"
        #expect(whole.utf8.count > 2 * (1 << 20))  // the scanner gives memory back every megabyte
        let path = try folder.write(whole, to: "big.xml")
        let fromFile = try ResultsInput.parse(file: path)
        #expect(fromFile.kind == .junit)
        #expect(fromFile.run == (try JUnitReader.parse(Array(whole.utf8), file: path)))
        #expect(fromFile.run.results.count == 30_000)

        let broken = xml + "    <testcase name=\"last\" time=\"1\">\n  </testsuite>\n</testsuites>\n"
        let brokenPath = try folder.write(broken, to: "broken.xml")
        let expected = """
        \(brokenPath):30004:3: error: malformed XML: expected </testcase> to close <testcase>, found </testsuite>
          </testsuite>
          ^
        """
        do {
            _ = try ResultsInput.parse(file: brokenPath)
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == expected)
        }
        do {
            _ = try JUnitReader.parse(Array(broken.utf8), file: brokenPath)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func truncatedXMLIsAnError() {
        #expect(throws: XMLError.self) { try JUnitReader.parse(Array("<testsuites><testsuite name='a'>".utf8), file: "x.xml") }
    }

    @Test func entitiesAndCDATAAreDecoded() throws {
        let xml = "<testsuite name='S'><testcase classname='S' name='a&amp;b'><failure message='&lt;x&gt; &#233;&#x263A;'><![CDATA[raw <text>]]></failure></testcase></testsuite>"
        let run = try JUnitReader.parse(Array(xml.utf8), file: "x.xml")
        #expect(run.results.first?.name == "a&b")
        // The attribute and the body (CDATA) are both kept.
        #expect(run.results.first?.failureMessage == "<x> é☺\nraw <text>")
    }
}

@Suite struct XCResultReaderTests {
    @Test func xcode16TestsAgreeWithFastlanesJUnitOfTheSameRun() throws {
        let fromJSON = try read("xcresult-json/fastlane__trainer_fixtures__Xcode16-Mixed-XCTest-SwiftTesting.json")
        let fromJUnit = try read("junit/fastlane__trainer_fixtures__Xcode16-Mixed-XCTest-SwiftTesting-WithoutRetries.junit.xml")
        // Not one run: the JUnit holds 191 tests, the JSON 64 (and other launch-test arguments).
        // Every test both hold must have the same outcome, and most of the JSON's must be there.
        let junit = outcomes(fromJUnit)
        let shared = outcomes(fromJSON).filter { junit[$0.key] != nil }
        #expect(shared.count >= 55, "only \(shared.count) of \(fromJSON.results.count) tests matched by name")
        for (key, status) in shared { #expect(junit[key] == status, "\(key)") }
    }

    @Test func repetitionsArgumentsAndFailureMessages() throws {
        let run = try read("xcresult-json/fastlane__trainer_fixtures__Xcode16-Mixed-XCTest-SwiftTesting.json")
        let ui = try #require(run.results.first { $0.name == "testBasicNavigation()" })
        #expect(ui.suite == "FastlaneTrainerExampleUITests")
        #expect(run.results.contains { $0.suite == "FastlaneTrainerTests.UserTests.RegistrationTests.PasswordTests" && $0.name == "Password complexity" })
        #expect(run.results.contains { $0.name == "testLaunch(1, 1)" })
        #expect(ui.status == .failed)
        #expect(ui.attempts == 2)
        #expect(ui.failureLocation == SourceLocation(file: "FastlaneTrainerExampleUITests.swift", line: 43, column: 0))
        #expect(ui.failureMessage?.hasPrefix("Failed to tap \"Details\" Button") == true)
        let password = try #require(run.results.first { $0.name == "Password length requirements" })
        #expect(password.failures.count == 2)
        // Named as fastlane's JUnit names it: the argument tuple inside "name (…)".
        #expect(run.results.contains { $0.name == "Privacy settings ((setting: \"email\", isPrivate: true))" })
        #expect(XCResultReader.duration("0,011s") == 0.011)
        #expect(XCResultReader.duration("1m 5s") == 65)
    }

    @Test func eachTestKeepsHowXcodebuildSelectsIt() throws {
        let run = try read("xcresult-json/fastlane__trainer_fixtures__Xcode16-Mixed-XCTest-SwiftTesting.json")
        // The test bundle, then the node's identifier: what `-only-testing:` takes.
        #expect(run.results.first { $0.name == "testBasicNavigation()" }?.selector == "FastlaneTrainerExampleUITests/FastlaneTrainerExampleUITests/testBasicNavigation()")
        #expect(run.results.first { $0.name == "Password length requirements" }?.selector
            == "FastlaneTrainerExampleTests/FastlaneTrainerTests/UserTests/RegistrationTests/PasswordTests/testPasswordLength()")
        // Every argument of a parameterized test is selected by its function.
        let privacy = run.results.filter { $0.name.hasPrefix("Privacy settings (") }
        #expect(privacy.count > 1 && Set(privacy.map(\.selector)) == ["FastlaneTrainerExampleTests/FastlaneTrainerTests/UserTests/ProfileTests/SettingsTests/testPrivacySettings(_:)"])
        #expect(run.results.allSatisfy { $0.selector != nil })
        // A form without test bundles (the summary) names none.
        #expect(try read("xcresult-json/codemagic-cli-tools__xctests_mocks__test_results_summary.json").results.allSatisfy { $0.selector == nil })
    }

    @Test func codemagicsTestsDocument() throws {
        let run = try read("xcresult-json/codemagic-cli-tools__xctests_mocks__test_results_tests.json")
        #expect(run.count(.failed) == 3)
        #expect(run.count(.skipped) == 1)
        let skipped = try #require(run.results.first { $0.status == .skipped })
        #expect(skipped.skipReason == "This test is skipped")
        #expect(run.results.first { $0.name == "testFailExample()" }?.failureLocation == SourceLocation(file: "banaanTests.swift", line: 44, column: 0))
    }

    @Test func theSummaryFormNamesOnlyFailures() throws {
        let run = try read("xcresult-json/codemagic-cli-tools__xctests_mocks__test_results_summary.json")
        #expect(run.results.map(\.testIdentifier) == ["banaanTests.testExceptionExample()", "banaanTests.testFailExample()", "banaanUITests.testUIFailExample()"])
        #expect(run.results.allSatisfy { $0.status == .failed })
    }

    @Test func theLegacyRecordsLineNumbersAreZeroBased() throws {
        let run = try read("xcresult-json/codemagic-cli-tools__xctests_mocks__actions_invocation_record.json")
        // Four failure summaries, two of them for one test.
        #expect(run.results.map(\.testIdentifier) == ["banaanTests.testExceptionExample()", "banaanTests.testFailExample()", "banaanUITests.testUIFailExample()"])
        #expect(run.results[0].failures.count == 2)
        let failure = try #require(run.results.first { $0.failureMessage == "failed - This won't make the cut" })
        #expect(failure.failureLocation?.line == 44)
        #expect(failure.failureLocation?.file == "/Users/priit/nevercode/banaan-ios/ios-test2/ios-test2Tests/banaanTests.swift")
    }

    @Test func badJSONIsAnError() {
        #expect(throws: XCResultError.self) { try XCResultReader.parse(Data("{\"testNodes\": [".utf8), file: "r.json") }
        do {
            _ = try XCResultReader.parse(Data("{\"hello\": 1}".utf8), file: "r.json")
        } catch {
            #expect(error.description.hasPrefix("r.json: error: not an xcresulttool result"))
        }
    }

    @Test func auditTypesMapOntoTheDataModel() {
        #expect(AccessibilityAuditMapping.issueType(forAuditType: "contrast") == .insufficientContrast)
        #expect(AccessibilityAuditMapping.issueType(forAuditType: "hitRegion") == .touchTargetTooSmall)
        #expect(AccessibilityAuditMapping.issueType(forAuditType: "dynamicType") == .dynamicTypeUnsupported)
        #expect(AccessibilityAuditMapping.issueType(forAuditType: "textClipped") == .dynamicTypeUnsupported)
        #expect(AccessibilityAuditMapping.issueType(forAuditType: "sufficientElementDescription") == .missingLabel)
        #expect(AccessibilityAuditMapping.issueType(forAuditType: "unknownKind") == nil)
        let audit = AccessibilityAuditMapping.results(fromFailureMessage: "Accessibility issue, auditType: hitRegion, element: home_button_add")
        #expect(audit == [AccessibilityAuditResult(elementIdentifier: "home_button_add", issueType: .touchTargetTooSmall,
                                                   issueDescription: "Accessibility issue, auditType: hitRegion, element: home_button_add",
                                                   auditType: "hitRegion")])
    }

    @Test(arguments: [
        ("XCUIAccessibilityAuditTypeContrast", AccessibilityIssueType.insufficientContrast),
        ("XCUIAccessibilityAuditTypeElementDetection", .other), ("XCUIAccessibilityAuditTypeHitRegion", .touchTargetTooSmall),
        ("XCUIAccessibilityAuditTypeSufficientElementDescription", .missingLabel), ("XCUIAccessibilityAuditTypeDynamicType", .dynamicTypeUnsupported),
        ("XCUIAccessibilityAuditTypeTextClipped", .dynamicTypeUnsupported), ("XCUIAccessibilityAuditTypeTrait", .other),
        ("XCUIAccessibilityAuditTypeAction", .other), ("XCUIAccessibilityAuditTypeParentChild", .other),
        (".contrast", .insufficientContrast), (".hitRegion", .touchTargetTooSmall), (".dynamicType", .dynamicTypeUnsupported),
        (".sufficientElementDescription", .missingLabel), (".parentChild", .other),
    ])
    func appleSpellingsOfEveryAuditType(_ name: String, _ type: AccessibilityIssueType) {
        #expect(AccessibilityAuditMapping.issueType(forAuditType: name) == type)
    }

    @Test(arguments: [
        ("Contrast failed", "contrast", AccessibilityIssueType.insufficientContrast),
        ("Contrast nearly passed", "contrast", .insufficientContrast),
        ("Element has no description", "sufficientElementDescription", .missingLabel),
        ("Image has no label", "sufficientElementDescription", .missingLabel),
        ("Dynamic Type font sizes are unsupported", "dynamicType", .dynamicTypeUnsupported),
        ("Potentially inaccessible text", "elementDetection", .other),
        ("Action is missing", "action", .other),
        ("Label not human-readable", "sufficientElementDescription", .missingLabel),
        ("Parent/Child mismatch", "parentChild", .other),
        ("Unknown role", "elementDetection", .other),
        ("Element may need a title", "sufficientElementDescription", .missingLabel),
        ("Label duplicates role description", "sufficientElementDescription", .missingLabel),
        ("Hit region is too small", "hitRegion", .touchTargetTooSmall),
    ])
    func xcodesDescriptionsGiveTheirAudit(_ description: String, _ auditType: String, _ type: AccessibilityIssueType) {
        let message = "\(description) (Element: \"home_button_add\")"
        let audit = AccessibilityAuditMapping.results(fromFailureMessage: message)
        #expect(audit.map(\.auditType) == [auditType])
        #expect(audit.map(\.issueType) == [type])
        #expect(audit.first?.elementIdentifier == "home_button_add")
    }

    @Test func aConsoleFailureThatIsAnAuditBecomesTheTestsAuditResult() {
        let parsed = ConsoleTestParser.parse("""
        Test Case '-[AppUITests.AuditTests testHomeAudit]' started.
        /src/AuditTests.swift:12: error: -[AppUITests.AuditTests testHomeAudit] : Contrast nearly passed (Element: "home_button_add")
        /src/AuditTests.swift:12: error: -[AppUITests.AuditTests testHomeAudit] : Parent/Child mismatch (Element: "home_list")
        Test Case '-[AppUITests.AuditTests testHomeAudit]' failed (2.100 seconds).
        """)
        let audits = parsed.run.results.first?.accessibilityAuditResults ?? []
        #expect(audits.map(\.issueType) == [.insufficientContrast, .other])
        #expect(audits.map(\.elementIdentifier) == ["home_button_add", "home_list"])
        let markdown = ReportFormat.markdown.reporter.render(parsed.run)
        #expect(markdown.contains("### Accessibility audits"))
        #expect(markdown.contains("| contrast | insufficientContrast | 1 |"))
        #expect(markdown.contains("| parentChild | other | 1 |"))
        let json = ReportFormat.json.reporter.render(parsed.run)
        #expect(json.contains("\"auditType\": \"parentChild\""))
    }
}

@Suite struct ResultBundleLocatorTests {
    @Test func theBundleIsTheValueOfResultBundlePath() {
        #expect(ResultBundleLocator.bundlePath(inCommand: "xcodebuild test -scheme App -resultBundlePath build/UI.xcresult -destination 'platform=iOS Simulator,name=iPhone 16'",
                                               workingDirectory: "/repo") == "/repo/build/UI.xcresult")
        #expect(ResultBundleLocator.bundlePath(inCommand: "set -o pipefail && xcodebuild test -resultBundlePath \"/tmp/my results/R\" | xcbeautify",
                                               workingDirectory: "/repo") == "/tmp/my results/R.xcresult")
        #expect(ResultBundleLocator.bundlePath(inCommand: "swift test", workingDirectory: "/repo") == nil)
        #expect(ResultBundleLocator.bundlePath(inCommand: "xcodebuild test -resultBundlePath", workingDirectory: "/repo") == nil)
    }
}

/// Numbers no tool writes, as damaged or hostile files hold them: read or refused, never a trap
/// (converting `1e300` to an `Int` trapped; the fuzzer found the console's form).
@Suite struct HugeNumberTests {
    func parse(_ json: String) throws -> TestRun {
        try ResultsInput.parse(Array(json.utf8), file: "huge.json").run
    }

    @Test func jsonCountsVersionsAndShardsBeyondAnIntAreCutOrRefused() throws {
        #expect(try parse(#"{"testFailures": [], "totalTestCount": 1e300}"#).counted?.tests == 1_000_000_000)
        #expect(try parse(#"{"version": 1, "tests": [], "summary": {"tests": 0}, "counted": {"tests": 1e300}}"#).counted?.tests == 1_000_000_000)
        #expect(throws: XCResultError.self) { try parse(#"{"version": 1e300, "tests": [], "summary": {"tests": 0}}"#) }
        #expect(throws: XCResultError.self) { try parse(#"{"version": 1, "tests": [], "summary": {"tests": 0}, "shard": {"index": 1e300, "count": 2}}"#) }
        let located = try parse(#"{"version": 1, "summary": {"tests": 1}, "tests": [{"suite": "A", "name": "t", "status": "failed", "attempts": 1e300, "failures": [{"message": "m", "file": "F.swift", "line": 1e300, "column": -1e300}]}]}"#)
        #expect(located.results.first?.attempts == 1_000_000_000)
    }

    @Test func aConsoleClosingLineWithAnEndlessCountStillSaysTheRunFailed() {
        let run = ConsoleTestParser.parse("✘ Test run with 1111111111111111111100000000000000000000000000000000000000002 tests failed after 0.001 seconds with 1 issue.\n").run
        #expect(run.hasFailures)
        let iteration = ConsoleTestParser.parse("Test Case '-[A.B testC]' started (Iteration 99999999999999999999999999 of 3).\nTest Case '-[A.B testC]' passed (0.001 seconds).\n").run
        #expect(iteration.results.map(\.status) == [.passed])
    }
}
