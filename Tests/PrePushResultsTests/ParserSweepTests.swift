import Foundation
import PrePushCore
import PrePushResults
import Testing

/// Patterns a sweep over real logs found misread, written as lines of the same shape.
@Suite struct RunLevelFailureTests {
    @Test func anEarlyUnexpectedExitWithNoTestIsAFailedRun() {
        let parsed = ConsoleTestParser.parse("""
        Testing started
        Early unexpected exit, operation never finished bootstrapping - no restart will be attempted. (Underlying Error: Test crashed with signal kill.)
        ** TEST FAILED **
        """)
        #expect(parsed.run.results.isEmpty)
        #expect(parsed.run.hasFailures)
        #expect(parsed.run.runFailures.first?.hasPrefix("Early unexpected exit, operation never finished bootstrapping") == true)
    }

    @Test func aSummaryThatSaysFailedWithNoFailingTestIsAFailedRun() {
        let parsed = ConsoleTestParser.parse("""
        Test Suite 'All tests' started at 2026-01-01 10:00:00.000
        Test Case 'A.test_one' started at 2026-01-01 10:00:00.001
        Test Case 'A.test_one' passed (0.001 seconds)
        Test Suite 'All tests' failed at 2026-01-01 10:00:00.002
        """)
        #expect(parsed.run.results.map(\.status) == [.passed])
        #expect(parsed.run.runFailures == ["the XCTest summary says the run failed (Test Suite 'All tests' failed), but no test failure was shown"])
    }

    @Test func aSummaryOfAFailingTestAddsNoRunFailure() {
        let parsed = ConsoleTestParser.parse("""
        ◇ Test run started.
        ◇ Test a() started.
        ✘ Test a() recorded an issue at A.swift:3:5: Expectation failed: 1 == 2
        ✘ Test a() failed after 0.001 seconds with 1 issue.
        ✘ Test run with 1 test failed after 0.001 seconds with 1 issue.
        """)
        #expect(parsed.run.count(.failed) == 1)
        #expect(parsed.run.runFailures.isEmpty)
    }

    @Test func utf16WithAByteOrderMarkReadsLikeUTF8() throws {
        let text = "Test Case 'A.test_one' started.\nTest Case 'A.test_one' failed (0.002 seconds).\n"
        var wide: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { wide += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let parsed = try ResultsInput.parse(wide, file: "log.txt")
        #expect(parsed.run.results.map(\.testIdentifier) == ["A.test_one"])
        #expect(parsed.run.results.first?.status == .failed)
    }
}

@Suite struct MisreadLineTests {
    @Test func xcode26NamesTestsSuiteSlashFunction() {
        let parsed = ConsoleTestParser.parse("""
        Test case 'SubFolderTestDemoTests/exampleFalse()' started on 'My Mac - TestDemo (29692)'
        Test case 'SubFolderTestDemoTests/exampleFalse()' failed on 'My Mac - TestDemo (29692)' (0.001 seconds)
        Test case 'SubFolderTestDemoTests/exampleTrue()' passed on 'My Mac - TestDemo (29692)' (0.002 seconds)
        """)
        #expect(parsed.run.results.map(\.testIdentifier) == ["SubFolderTestDemoTests.exampleFalse", "SubFolderTestDemoTests.exampleTrue"])
        #expect(parsed.run.results.map(\.status) == [.failed, .passed])
        #expect(parsed.unplacedEventLines == 0)
    }

    @Test func aRestartLineWithoutAStartedLineStillFailsTheTest() {
        let parsed = ConsoleTestParser.parse("""
        Restarting after unexpected exit, crash, or test timeout in SwiftTests.testExample(); summary will include totals from previous launches.
        """)
        #expect(parsed.run.results.map(\.testIdentifier) == ["SwiftTests.testExample"])
        #expect(parsed.run.results.first?.status == .failed)
    }

    @Test func verboseDisplayNameLinesAreRead() {
        let parsed = ConsoleTestParser.parse("""
        ◇ Test "Crabs walk sideways" (aka 'walksSideways()') started.
        ✔ Test "Crabs walk sideways" (aka 'walksSideways()') passed after 0.001 seconds.
        """)
        #expect(parsed.run.results.map(\.name) == ["Crabs walk sideways"])
        #expect(parsed.run.results.first?.status == .passed)
    }

    @Test func theCommentOnArrowLinesStaysWithTheIssue() {
        let parsed = ConsoleTestParser.parse("""
        ◇ Test whales() started.
        ✘ Test whales() recorded an issue at Ocean.swift:12:9: Issue recorded
        ↳ Whales fail.
        ✘ Test whales() failed after 0.001 seconds with 1 issue.
        """)
        #expect(parsed.run.failing.first?.failureMessage == "Issue recorded\nWhales fail.")
        #expect(parsed.run.failing.first?.failureLocation == SourceLocation(file: "Ocean.swift", line: 12, column: 9))
    }

    @Test func anEventGluedToOutputWithoutANewlineIsRead() {
        let parsed = ConsoleTestParser.parse("""
        Test Case '-[A.B testFirst]' started.
        loading manifeTest Case '-[A.B testFirst]' passed (0.001 seconds).
        """)
        #expect(parsed.run.results.map(\.testIdentifier) == ["A.B.testFirst"])
        #expect(parsed.run.results.first?.status == .passed)
    }

    @Test func aUITestsAssertionFailureLineGivesTheMessageAndPlace() {
        let parsed = ConsoleTestParser.parse("""
        Test Case '-[AppUITests.FlakyTests testLogin]' started.
            t =     4.13s Assertion Failure: FlakyTests.swift:63: XCTAssertTrue failed - Sign in button not hittable
        Test Case '-[AppUITests.FlakyTests testLogin]' failed (4.200 seconds).
        """)
        let test = parsed.run.failing.first
        #expect(test?.failureMessage == "XCTAssertTrue failed - Sign in button not hittable")
        #expect(test?.failureLocation == SourceLocation(file: "FlakyTests.swift", line: 63, column: 0))
    }

    @Test func oldStyleSuiteFinishedLinesAreUnderstood() {
        let parsed = ConsoleTestParser.parse("""
        Test Suite 'LegacyTests' started at 2016-05-01 10:00:00 +0000
        Test Case '-[LegacyTests testOld]' started.
        Test Case '-[LegacyTests testOld]' passed (0.001 seconds).
        Test Suite 'LegacyTests' finished at 2016-05-01 10:00:00 +0000.
        """)
        #expect(parsed.unplacedEventLines == 0)
        #expect(parsed.run.results.count == 1)
    }

    @Test func skipReasonsDoNotStartWithTheSeparator() {
        let parsed = ConsoleTestParser.parse("""
        Test Case 'A.test_skip' started.
        /src/A.swift:14: A.test_skip : Test skipped: needs a network
        Test Case 'A.test_skip' skipped (0.001 seconds).
        """)
        #expect(parsed.run.results.first?.skipReason == "needs a network")
    }

    @Test func aHugeMessageIsBoundedPerTest() {
        let huge = String(repeating: "é", count: 100_000)
        let failure = TestFailure(message: huge, location: nil)
        #expect(failure.message.utf8.count <= TestFailure.messageLimit + 3)
        #expect(failure.message.hasSuffix("…"))
    }
}

@Suite struct JUnitBodyTests {
    func failure(_ element: String) throws -> TestFailure? {
        let xml = #"<testsuite name="S"><testcase classname="C" name="t">"# + element + "</testcase></testsuite>"
        return try JUnitReader.parse(Array(xml.utf8), file: "r.xml").results.first?.failures.first
    }

    @Test func theAttributeAndTheBodyAreBothKept() throws {
        let kept = try failure(#"<failure message="Assertion failed">Expected 3 items but found 2 at LoginTests.swift:38</failure>"#)
        #expect(kept?.message == "Assertion failed\nExpected 3 items but found 2 at LoginTests.swift:38")
    }

    @Test func aBodyThatRepeatsTheAttributeIsNotDoubled() throws {
        let kept = try failure(#"<failure message="XCTAssertTrue failed">/src/A.swift:12: XCTAssertTrue failed</failure>"#)
        #expect(kept?.message == "XCTAssertTrue failed")
        #expect(kept?.location == SourceLocation(file: "/src/A.swift", line: 12, column: 0))
    }

    @Test(arguments: [
        ("/src/LoginTests.swift:38: XCTAssertEqual failed", 38),
        ("/src/LoginTests.swift:44 XCTAssertEqual failed", 44),
        ("XCTAssertEqual failed file:///src/LoginTests.swift#CharacterRangeLen=0&amp;EndingLineNumber=35&amp;StartingLineNumber=35", 36),
    ])
    func placesComeFromTheFormsToolsWrite(body: String, line: Int) throws {
        let kept = try failure("<failure>\(body)</failure>")
        #expect(kept?.location == SourceLocation(file: "/src/LoginTests.swift", line: line, column: 0), "\(String(describing: kept))")
    }
}

@Suite struct XCResultFormsTests {
    func read(_ json: String) throws -> TestRun {
        try XCResultReader.parse(Data(json.utf8), file: "tests.json")
    }

    @Test func exactSecondsWinAndRepetitionsAddUpAndAPassingRetryIsFlaky() throws {
        let run = try read("""
        {"testNodes": [{"nodeType": "Test Suite", "name": "LoginTests", "children": [
          {"nodeType": "Test Case", "name": "testLogin()", "duration": "1s", "durationInSeconds": 0.474,
           "result": "Passed"},
          {"nodeType": "Test Case", "name": "testRetry()", "nodeIdentifier": "LoginTests/testRetry()", "children": [
            {"nodeType": "Repetition", "name": "Repetition 1", "result": "Failed", "durationInSeconds": 1.25,
             "children": [{"nodeType": "Failure Message", "name": "LoginTests.swift:9: XCTAssertTrue failed"}]},
            {"nodeType": "Repetition", "name": "Repetition 2", "result": "Passed", "durationInSeconds": 1.5}]}
        ]}]}
        """)
        let login = try #require(run.results.first { $0.name == "testLogin()" })
        #expect(login.duration == 0.474)
        #expect(login.suite == "LoginTests", "the suite node names a test whose identifier does not")
        let retry = try #require(run.results.first { $0.name == "testRetry()" })
        #expect(retry.duration == 2.75)
        #expect(retry.status == .passed)
        #expect(retry.attempts == 2)
        #expect(retry.isFlaky)
    }

    @Test func theLegacyTestPlanRunSummaryIsRead() throws {
        let run = try read("""
        {"_type": {"_name": "ActionTestPlanRunSummaries"}, "summaries": {"_type": {"_name": "Array"}, "_values": [
          {"_type": {"_name": "ActionTestPlanRunSummary"}, "testableSummaries": {"_values": [
            {"_type": {"_name": "ActionTestableSummary"}, "name": {"_value": "AppTests"}, "tests": {"_values": [
              {"_type": {"_name": "ActionTestSummaryGroup"}, "name": {"_value": "AppTests"}, "subtests": {"_values": [
                {"_type": {"_name": "ActionTestMetadata"}, "identifier": {"_value": "CartTests/testAdd()"},
                 "testStatus": {"_value": "Success"}, "duration": {"_value": "0.011"}},
                {"_type": {"_name": "ActionTestMetadata"}, "identifier": {"_value": "CartTests/testRemove()"},
                 "testStatus": {"_value": "Failure"}, "duration": {"_value": "0.2"}}]}}]}}]}}]}}
        """)
        #expect(run.results.map(\.testIdentifier) == ["CartTests.testAdd", "CartTests.testRemove"])
        #expect(run.results.map(\.status) == [.passed, .failed])
        #expect(run.results.first?.duration == 0.011)
    }
}

/// Messages and arguments that span lines, and xcbeautify's rendering of a run.
@Suite struct MultiLineAndXcbeautifyTests {
    @Test func anXCTestMessageWithLineBreaksIsKeptWhole() {
        let parsed = ConsoleTestParser.parse("""
        Test Case 'ParserTests.testNames' started at 2026-01-01 10:00:00.000
        /src/Tests/ParserTests.swift:42: error: ParserTests.testNames : XCTAssertEqual failed: ("first line
        second line") is not equal to ("first line")
        Test Case 'ParserTests.testNames' failed (0.002 seconds)
        Test Case '-[App.ListTests testRows]' started.
        /src/Tests/ListTests.swift:9: error: -[App.ListTests testRows] : failed - rows differ:
          expected: 3
          actual: 2
        Test Case '-[App.ListTests testRows]' failed (0.010 seconds).
        """)
        let messages = parsed.run.results.map { $0.failures.map(\.message) }
        #expect(messages == [
            ["XCTAssertEqual failed: (\"first line\nsecond line\") is not equal to (\"first line\")"],
            ["failed - rows differ:\n  expected: 3\n  actual: 2"],
        ])
        #expect(parsed.run.results.first?.failures.first?.location?.line == 42)
    }

    @Test func aMessageStopsAtTheNextEventAndOutputAfterTheTestIsNotAdded() {
        let parsed = ConsoleTestParser.parse("""
        Test Case 'A.test_one' started at 2026-01-01 10:00:00.000
        /src/A.swift:3: error: A.test_one : XCTFail failed - boom
        Test Case 'A.test_one' failed (0.001 seconds)
        some output of the next test
        Test Case 'A.test_two' started at 2026-01-01 10:00:00.002
        Test Case 'A.test_two' passed (0.001 seconds)
        """)
        #expect(parsed.run.results.first?.failures.map(\.message) == ["XCTFail failed - boom"])
    }

    @Test func aSwiftTestingArgumentWithLineBreaksKeepsTheIssuesPlace() {
        let parsed = ConsoleTestParser.parse("""
        ◇ Test greets(_:) started.
        ✘ Test greets(_:) recorded an issue with 1 argument text → "Hello,
        meet at noon" at GreetingTests.swift:12:9: Expectation failed: (text.count → 25) == 5
        ✘ Test greets(_:) failed after 0.001 seconds with 1 issue.
        """)
        let failure = parsed.run.results.first?.failures.first
        #expect(failure?.location == SourceLocation(file: "GreetingTests.swift", line: 12, column: 9))
        #expect(failure?.message == "Expectation failed: (text.count → 25) == 5 (1 argument text → \"Hello,\nmeet at noon\")")
        #expect(parsed.run.results.map(\.status) == [.failed])
    }

    /// Lines as xcbeautify renders them (its OutputRendering: `✔ name (t seconds)`, `✖ name, reason`
    /// per failed assertion, `⊘`, `[Suite] name on 'device'` for parallel runs, Swift Testing forms).
    @Test func xcbeautifysOutputIsRead() {
        let parsed = ConsoleTestParser.parse("""
        Test Suite All tests started
        Test Suite CalculatorTests started
            ✔ testAddition (0.001 seconds)
            ✖ testDivision, XCTAssertEqual failed: ("1") is not equal to ("2")
            ✖ testDivision, XCTAssertTrue failed
            ⊘ testLater (0.000 seconds)
        Test Suite NetworkTests started on 'iPhone 16'
            ✔ [NetworkTests] testFetch on 'iPhone 16' (0.120 seconds)
            ✖ [NetworkTests] testTimeout on 'iPhone 16' (2.000 seconds)
            ✔ addsNumbers() (0.004 seconds)
            ✖ dividesByZero() (0.002 seconds) 1 issue(s)
            ⊘ notYet() skipped (Not implemented)
        Executed 8 tests, with 4 failures (0 unexpected) in 2.127 (2.130) seconds
        """)
        let summary = parsed.run.results.map { "\($0.suite).\($0.name) \($0.status) \($0.duration)" }
        #expect(summary == [
            "CalculatorTests.testAddition passed 0.001",
            "CalculatorTests.testDivision failed 0.0",
            "CalculatorTests.testLater skipped 0.0",
            "NetworkTests.testFetch passed 0.12",
            "NetworkTests.testTimeout failed 2.0",
            "NetworkTests.addsNumbers() passed 0.004",
            "NetworkTests.dividesByZero() failed 0.002",
            "NetworkTests.notYet() skipped 0.0",
        ])
        #expect(parsed.run.results[1].failures.map(\.message) == ["XCTAssertEqual failed: (\"1\") is not equal to (\"2\")", "XCTAssertTrue failed"])
        #expect(parsed.run.results[7].skipReason == "Not implemented")
        #expect(parsed.unplacedEventLines == 0)
    }
}

/// Inputs the fuzzer (scripts/fuzz.sh) found crashing, kept as tests.
@Suite struct FuzzFoundTests {
    /// A YAML-ish line before the skip marker: its colon sits right before the marker, and the
    /// identifier's range once ran backwards (a trap, found in CI's first fuzzing run).
    @Test func aSkipMarkerRightAfterAColonIsNotATrap() {
        let parsed = ConsoleTestParser.parse("""
        stages:
          unit: : Test skipped - not on this platform
        /src/A.swift:14: A.test_b : Test skipped - not here
        """)
        #expect(parsed.lineCount == 3)
        #expect(parsed.run.results.isEmpty)
    }

    /// Every input in Tests/Fixtures/fuzz-regressions, read as the fuzzer read it (its first byte
    /// picks the reader; all are console logs so far): the first, a closing line counting
    /// `1111…2 tests`, trapped converting the count (CI of aae3547).
    @Test func everyKeptCrashIsReadWithTheRunnersVerdict() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Fixtures/fuzz-regressions").standardized.path
        let inputs = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasSuffix(".md") }
        #expect(!inputs.isEmpty)
        for input in inputs {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + input)))
            #expect(bytes.first.map { $0 % 7 } == 2, "\(input): not a console log")
            let run = try ResultsInput.parse(Array(bytes.dropFirst()), file: input).run
            for format in ReportFormat.allCases { _ = format.reporter.render(run) }
            #expect(run.hasFailures, "\(input): its closing line says the run failed")
        }
    }
}
