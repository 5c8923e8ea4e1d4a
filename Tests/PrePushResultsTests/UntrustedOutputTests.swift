import Foundation
import PrePushCore
@testable import PrePushResults
import PrePushTestSupport
import Testing

/// Output a pull request controls (its sources, its tests' prints) read the way a runner writes
/// it, and the last wrong readings of files peers publish.
@Suite struct UntrustedOutputTests {
    /// The real compiler, in both of its styles, quoting a source line that holds a test event's text.
    @Test(arguments: ["swift", "llvm"])
    func aCompilerQuotingASourceLineYieldsNoTestEvent(style: String) throws {
        let folder = try TemporaryDirectory()
        try folder.write("""
        func add(_ a: Int, _ b: Int) -> Int {
            return a + b + undefinedThing // Test Case 'NetTests.testFlakyNetwork' failed (0.001 seconds)
        }
        func sub(_ a: Int) -> Int {
            return a - missingToo //xTest Case 'NetTests.testOther' failed (0.001 seconds)
        }
        let quoted = "\\(nowhere)"; let text = \"""
        Test Case 'NetTests.testThird' failed (0.001 seconds)
        \""" + nothing

        """, to: "Net.swift")
        let compiled = try Command.run("swiftc", ["-typecheck", "-diagnostic-style", style, "Net.swift"], in: folder.path, environment: ProcessInfo.processInfo.environment)
        #expect(compiled.status == 1)
        let output = compiled.standardOutput + compiled.standardError
        #expect(output.contains("Test Case 'NetTests.testFlakyNetwork' failed"), "the compiler quotes the line: \(output)")
        var parser = ConsoleTestParser()
        var text = output
        text.withUTF8 { parser.consume(UnsafeRawBufferPointer($0)) }
        let errors = parser.compilerErrorCount
        let parsed = parser.finish()
        #expect(parsed.run.results.isEmpty, "\(parsed.run.results.map(\.testIdentifier))")
        #expect(errors >= 3, "every compiler error is counted: \(output)")
        #expect(parser.runnerSummaries == 0)
    }

    /// An event printed right after output that did not end its line is still the runner's.
    @Test func anEventGluedToUnfinishedOutputIsRead() {
        let parsed = ConsoleTestParser.parse("""
        Test Case '-[A.B testFirst]' started.
        loading manifeTest Case '-[A.B testFirst]' passed (0.001 seconds).
        Test Case '-[A.B testSecond]' started.
        note // Test Case '-[A.B testSecond]' passed (0.001 seconds).
        Test Case '-[A.B testSecond]' failed (0.002 seconds).

        """)
        #expect(parsed.run.results.map(\.status) == [.passed, .failed])
    }

    @Test func closingSummariesAndToolErrorsAreCounted() {
        var parser = ConsoleTestParser()
        var text = """
        Test Suite 'All tests' started at 2026-01-01 10:00:00.000
        Executed 3 tests, with 0 failures (0 unexpected) in 0.003 (0.004) seconds
        ✔ Test run with 2 tests in 1 suite passed after 0.001 seconds.
        error: fatalError

        """
        text.withUTF8 { parser.consume(UnsafeRawBufferPointer($0)) }
        #expect(parser.runnerSummaries == 2)
        #expect(parser.compilerErrorCount == 1 && parser.compilerErrors == ["error: fatalError"])
    }

    // MARK: - Lone lines are failures

    @Test func aLoneXCTestFailureLineIsAFailedTest() {
        let parsed = ConsoleTestParser.parse("/src/ATests.swift:13: error: -[Module.ATests testThing] : XCTAssertEqual failed: (\"1\") is not equal to (\"2\")\n")
        #expect(parsed.run.results.count == 1)
        let test = parsed.run.results.first
        #expect(test?.testIdentifier == "Module.ATests.testThing" && test?.status == .failed)
        #expect(test?.failureLocation == SourceLocation(file: "/src/ATests.swift", line: 13, column: 0))
        // The same failure inside a test the console shows whole stays one test.
        let whole = ConsoleTestParser.parse("""
        /src/ATests.swift:13: error: -[Module.ATests testThing] : early
        Test Case '-[Module.ATests testThing]' started.
        Test Case '-[Module.ATests testThing]' failed (0.001 seconds).

        """)
        #expect(whole.run.results.map(\.testIdentifier) == ["Module.ATests.testThing"])
    }

    @Test func aLoneSwiftTestingSuiteFailureIsAFailedRun() {
        let parsed = ConsoleTestParser.parse("✘ Suite \"Checkout\" failed after 0.004 seconds with 3 issues.\n")
        #expect(parsed.run.hasFailures)
        #expect(parsed.run.runFailures.first?.contains("a suite failed") == true, "\(parsed.run.runFailures)")
        #expect(parsed.unplacedEventLines == 0)
    }

    /// Swift Testing's symbols on Windows (Event.Symbol.swift): `◊` default, `√` pass, `×` fail, `➜` skip.
    @Test func windowsSymbolsReadLikeTheOthers() {
        let parsed = ConsoleTestParser.parse("""
        ◊ Test run started.
        ◊ Test adds() started.
        √ Test adds() passed after 0.001 seconds.
        ◊ Test divides() started.
        × Test divides() recorded an issue at Math.swift:9:5: Expectation failed: 1 == 2
        × Test divides() failed after 0.002 seconds with 1 issue.
        ➜ Test later() skipped: "not yet"
        × Test run with 3 tests in 1 suite failed after 0.003 seconds with 1 issue.

        """)
        let byName = Dictionary(uniqueKeysWithValues: parsed.run.results.map { ($0.name, $0) })
        #expect(byName["adds()"]?.status == .passed)
        #expect(byName["divides()"]?.status == .failed)
        #expect(byName["divides()"]?.failureLocation == SourceLocation(file: "Math.swift", line: 9, column: 5))
        #expect(byName["later()"]?.status == .skipped)
        #expect(parsed.unplacedEventLines == 0)
    }

    // MARK: - Files peers publish

    /// vscode-swift's own test streams: events only, no `test` records.
    @Test func anEventStreamWithoutTestRecordsIsRead() throws {
        func event(_ kind: String, _ extra: String = "") -> String {
            #"{"kind":"event","version":0,"payload":{"kind":"\#(kind)","instant":{"absolute":0,"since1970":0},"messages":[]\#(extra)}}"#
        }
        let passing = [event("runStarted"), event("testCaseStarted", #","testID":"MyTests.MyTests/testPass()""#),
                       event("testCaseEnded", #","testID":"MyTests.MyTests/testPass()""#),
                       event("testSkipped", #","testID":"MyTests.MyTests/testSkip()""#), event("runEnded")].joined(separator: "\n")
        let run = try SwiftTestingEventStream.parse(Array(passing.utf8), file: "events.jsonl")
        #expect(run.results.map(\.status) == [.passed, .skipped])
        #expect(run.results.first?.suite == "MyTests.MyTests" && run.results.first?.name == "testPass()")
        #expect(!run.hasFailures)

        let issue = #","testID":"MyTests.MyTests/testFail()","issue":{"isKnown":false,"sourceLocation":{"_filePath":"/some/file.swift","line":1,"column":2}}"#
        let warning = #","testID":"MyTests.MyTests/testFail()","issue":{"isKnown":false,"severity":"warning","sourceLocation":{"_filePath":"/some/file.swift","line":3,"column":2}}"#
        let failing = [event("runStarted"), event("testCaseStarted", #","testID":"MyTests.MyTests/testFail()""#),
                       event("issueRecorded", issue).replacingOccurrences(of: #""messages":[]"#, with: #""messages":[{"symbol":"fail","text":"Expectation failed: bar == foo"}]"#),
                       event("issueRecorded", warning).replacingOccurrences(of: #""messages":[]"#, with: #""messages":[{"symbol":"warning","text":"careful"}]"#),
                       event("testCaseEnded", #","testID":"MyTests.MyTests/testFail()""#), event("runEnded")].joined(separator: "\n")
        let failed = try SwiftTestingEventStream.parse(Array(failing.utf8), file: "events.jsonl")
        #expect(failed.results.count == 1)
        #expect(failed.results.first?.status == .failed)
        #expect(failed.results.first?.failureMessage == "Expectation failed: bar == foo")
        #expect(failed.results.first?.warnings?.map(\.message) == ["careful"])
    }

    /// xcresultparser reads a bundle's `summary` and `tests` JSON together: each test counts once.
    @Test func aSummaryGivenWithItsRunCountsEachTestOnce() throws {
        let summary = "xcresult-json/codemagic-cli-tools__xctests_mocks__test_results_summary.json"
        let tests = "xcresult-json/codemagic-cli-tools__xctests_mocks__test_results_tests.json"
        let alone = try ResultsInput.parse(file: Fixtures.shared + "/" + tests).run
        let inputs = try [summary, tests].map { (file: $0, run: try ResultsInput.parse(file: Fixtures.shared + "/" + $0).run) }
        for order in [inputs, inputs.reversed()] {
            let merged = try ResultsMerge.merge(order).run
            #expect(merged.results.count == alone.results.count && merged.results.count == 8)
            #expect(merged.failing.count == 3)
            #expect(merged.counted == nil)
        }
        // A summary of another run (other counts) is not taken for this one's.
        var other = inputs[0].run
        other.counted = TestCounts(tests: 9, failed: 3, skipped: 1)
        #expect(try ResultsMerge.merge([(summary, other), inputs[1]]).run.results.count == 11)
    }
}
