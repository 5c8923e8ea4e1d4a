import Foundation
import PrePushCore
import PrePushResults
import PrePushTestSupport
import Testing

/// The runs captured from the package in Tests/Fixtures/RunnerCorpus by scripts/capture-runner-corpus.sh:
/// what `swift test` printed, the files it wrote, and how it exited.
enum RunnerCorpus {
    static let folder = Fixtures.own + "/runner-corpus"

    /// Every captured case, by name (`st-warnings`, `xct-multiline-failures`, …).
    static var cases: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".exit") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The runner's exit status for a case.
    static func exitStatus(_ name: String) throws -> Int32 {
        let text = try String(contentsOfFile: "\(folder)/\(name).exit", encoding: .utf8)
        return try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// The files a case's run left, other than its exit status: console, event stream, xunit.
    static func outputs(_ name: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix(name + ".") && !$0.hasSuffix(".exit") }.sorted().map { "\(folder)/\($0)" }
    }

    static func read(_ name: String, _ kind: String) throws -> TestRun {
        try ResultsInput.parse(file: "\(folder)/\(name).\(kind)").run
    }
}

/// Own process: `prepush results`' exit status is checked as a CI job's shell sees it; this target links
/// the results library, not the commands that run in-process elsewhere.
@Suite struct RunnerVerdictTests {
    @Test func theCorpusHoldsEveryKindOfEnding() {
        // Warnings, cancellations, an issue after its test, known issues, parameterized, repetitions, multi-line messages.
        let cases = Set(RunnerCorpus.cases)
        for expected in ["st-warnings-ev6.3", "st-cancelled", "st-detached-issue", "st-known-issues", "st-parameterized",
                         "st-repeat-coloured", "st-repeat-until-pass", "st-multiline-messages", "xct-multiline-failures",
                         "xct-multiline-skip", "everything"] {
            #expect(cases.contains(expected), "\(expected) is missing from Tests/Fixtures/runner-corpus")
        }
    }

    /// The rule of the readers: a run the runner failed is failed, a run it passed is passed, read
    /// from its console alone or from everything it wrote.
    @Test(arguments: RunnerCorpus.cases)
    func theConsoleGivesTheRunnersVerdict(_ name: String) throws {
        let status = try RunnerCorpus.exitStatus(name)
        let run = try RunnerCorpus.read(name, "console.txt")
        #expect(run.hasFailures == (status != 0), "\(name): the runner exited \(status); failing: \(run.failing.map(\.testIdentifier)), run: \(run.runFailures)")
    }

    /// Each machine-readable file a run wrote, alone: Swift Testing's event stream, SwiftPM's xunit.
    @Test(arguments: ["events.jsonl", "swift-testing.xunit.xml"].flatMap { kind in
        RunnerCorpus.cases.filter { FileManager.default.fileExists(atPath: "\(RunnerCorpus.folder)/\($0).\(kind)") }.map { "\($0) \(kind)" }
    })
    func eachRecordGivesTheRunnersVerdict(_ input: String) throws {
        let parts = input.split(separator: " ").map(String.init)
        let status = try RunnerCorpus.exitStatus(parts[0])
        let run = try RunnerCorpus.read(parts[0], parts[1])
        // An XCTest-only run writes Swift Testing records of no tests: nothing to agree or disagree with.
        guard !run.isEmpty else { return #expect(parts[0].hasPrefix("xct-")) }
        #expect(run.hasFailures == (status != 0), "\(input): the runner exited \(status); failing: \(run.failing.map(\.testIdentifier)), run: \(run.runFailures)")
    }

    /// The same, through the command a CI job runs: `prepush results` on everything the run wrote.
    @Test(.timeLimit(.minutes(5)))
    func prepushResultsExitsAsTheRunnerDid() throws {
        var disagreements: [String] = []
        let scratch = try TemporaryDirectory(prefix: "prepush-verdicts")
        for name in RunnerCorpus.cases {
            let expected = try RunnerCorpus.exitStatus(name)
            for inputs in [[RunnerCorpus.folder + "/\(name).console.txt"], RunnerCorpus.outputs(name)] {
                let result = try PrepushBinary.run(["results"] + inputs + ["--format", "json", "--output", scratch.url("report.json")],
                                                  in: RunnerCorpus.folder, environment: ProcessInfo.processInfo.environment)
                if result.status != expected { disagreements.append("\(name) \(inputs.map { ($0 as NSString).lastPathComponent }): \(result.status), runner \(expected)") }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
    }

    @Test(arguments: ["st-warnings-ev6.3", "st-warnings-verbose-ev6.3"])
    func aWarningIsReportedAndTheTestPasses(_ name: String) throws {
        for kind in ["console.txt", "events.jsonl"] {
            let run = try RunnerCorpus.read(name, kind)
            let test = try #require(run.results.first { $0.name == "warnsAndPasses()" }, "\(name).\(kind)")
            #expect(test.status == .passed)
            let warning = try #require(test.warnings?.first, "\(name).\(kind) lost the warning")
            #expect(warning.message == "Issue recorded\nthe cache is cold")
            #expect(warning.location?.line == 7 && warning.location?.column == 21)
            #expect(!run.hasFailures)
        }
        // Version 0 of the event stream leaves warnings out, of the stream and of the console: what prepush cannot see.
        let hidden = try RunnerCorpus.read("st-warnings", "console.txt")
        #expect(hidden.results.allSatisfy { $0.warnings == nil && $0.status == .passed })
    }

    @Test func aWarningReachesEveryReport() throws {
        let run = try RunnerCorpus.read("st-warnings-ev6.3", "events.jsonl")
        // results.json read back (a shard's, a CI artifact's) keeps them, and a summary's counts.
        let back = try ResultsInput.parse(Array(JSONReporter().render(run).utf8), file: "results.json").run
        #expect(back.results.first { $0.name == "warnsAndPasses()" }?.warnings == run.results.first { $0.name == "warnsAndPasses()" }?.warnings)
        let summary = try read("xcresult-json/marathon__xctesttool__sample_2.json")
        #expect(try ResultsInput.parse(Array(JSONReporter().render(summary).utf8), file: "results.json").run.counted == summary.counted)
        #expect(GitHubAnnotationsReporter().render(run).contains("::warning file=/tmp/prepush-runner-corpus/RunnerCorpus/Tests/VerdictSwiftTests/VerdictSwiftTests.swift,line=7,col=21"))
        #expect(MarkdownReporter().render(run).contains("### Warnings (not failures)"))
        #expect(JUnitReporter().render(run).contains("<system-out>warning: "))
        #expect(JSONReporter().render(run).contains("\"warnings\""))
        #expect(MarkdownReporter().render(run).hasPrefix("## ✅"))
    }

    @Test(arguments: ["st-cancelled console.txt", "st-cancelled events.jsonl", "st-cancelled-ev6.3 console.txt", "st-cancelled-ev6.3 events.jsonl"])
    func aCancelledTestIsASkipWithItsReason(_ input: String) throws {
        let parts = input.split(separator: " ").map(String.init)
        let run = try RunnerCorpus.read(parts[0], parts[1])
        let test = try #require(run.results.first { $0.name == "cancelledWithReason()" })
        #expect(test.status == .skipped)
        #expect(test.skipReason == "cancelled: the simulator is not booted")
        #expect(run.results.first { $0.name == "runsToTheEnd()" }?.status == .passed)
    }

    @Test(arguments: ["console.txt", "events.jsonl"])
    func anIssueAfterItsTestFailsTheRunAndNoTest(_ kind: String) throws {
        let run = try RunnerCorpus.read("st-detached-issue", kind)
        #expect(run.results.count == 2, "the runner counts 2 tests; «unknown» is none of them")
        #expect(run.results.allSatisfy { $0.status == .passed })
        #expect(run.runFailures.count == 2)
        let failure = try #require(run.runFailures.first)
        #expect(failure.contains("outside any test"))
        #expect(failure.contains("VerdictSwiftTests.swift:32:25"))
        #expect(failure.contains("recorded after the test ended"))
    }

    @Test func swiftPMsXunitCountsTheIssueNoTestCarries() throws {
        let run = try RunnerCorpus.read("st-detached-issue", "swift-testing.xunit.xml")
        #expect(run.results.allSatisfy { $0.passed })
        #expect(run.runFailures == ["the JUnit suite 'TestResults' counts 2 failures or errors, but no test case fails"])
    }

    @Test func multiLineSwiftTestingMessagesAreWhole() throws {
        let run = try RunnerCorpus.read("st-multiline-messages", "console.txt")
        let comment = try #require(run.firstFailure(of: "commentOverLines()"))
        #expect(comment.message == "Expectation failed: 1 == 2\nfirst line\nsecond line\n\nfourth line")
        let difference = try #require(run.firstFailure(of: "collectionDifference()"))
        #expect(difference.message.hasSuffix("\n± inserted [5], removed [3]"))
        let stream = try RunnerCorpus.read("st-multiline-messages", "events.jsonl")
        #expect(stream.firstFailure(of: "commentOverLines()")?.message.contains("fourth line") == true)
    }

    @Test func multiLineXCTestMessagesKeepTheirBlankLines() throws {
        let run = try RunnerCorpus.read("everything", "console.txt")
        let message = try #require(run.firstFailure(of: "testMessageOverLines"))
        #expect(message.message == "failed - one\ntwo\n\nfour")
        let equal = try #require(run.firstFailure(of: "testEqualStrings"))
        #expect(equal.message.hasPrefix("XCTAssertEqual failed: (\"alpha\nbeta\") is not equal to (\"alpha\ngamma\")"))
        let skipped = try #require(run.results.first { $0.name == "testSkippedOverLines" })
        #expect(skipped.status == .skipped)
        #expect(skipped.skipReason == "needs a device\nwith a camera")
    }

    @Test func theWholeRunIsCountedAsTheRunnerCountsIt() throws {
        // XCTest: `Executed 7 tests`; Swift Testing: `Test run with 18 tests in 10 suites … with 8 issues (including 1 known issue)`.
        let console = try RunnerCorpus.read("everything", "console.txt")
        #expect(console.results.count == 7 + 18)
        let stream = try RunnerCorpus.read("everything", "events.jsonl")
        #expect(stream.results.count == 18)
        let failingInStream = Set(stream.failing.map(\.name))
        let failingSwiftTesting = Set(console.failing.filter { $0.suite.isEmpty }.map(\.name))
        #expect(failingInStream == failingSwiftTesting)
        #expect(console.results.first { $0.name == "knownIssuePasses()" }?.status == .expectedFailure)
        #expect(console.results.first { $0.name == "isSmall(value:)" }?.status == .failed)
        #expect(console.results.first { $0.name == "allPass(letter:)" }?.status == .passed)
    }

    /// Swift Testing on Linux loses blocks of its console (docs/reports.md): a test whose every line
    /// is gone has no name, but the closing line of a run that passed still counts it.
    @Test func aTestTheConsoleLostWhollyIsCountedByTheClosingLine() throws {
        let text = try String(contentsOfFile: RunnerCorpus.folder + "/st-all-pass.console.txt", encoding: .utf8)
        let lost = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("Test one()") }.joined(separator: "\n")
        #expect(lost.count < text.count)
        let parsed = ConsoleTestParser.parse(lost)
        #expect(parsed.run.results.count == 2)
        #expect(parsed.lostFromConsole == 1)
        #expect(parsed.run.counted == TestCounts(tests: 3, failed: 0, skipped: 0))
        #expect(!parsed.run.hasFailures)
        // Whole, nothing is counted beyond the names.
        #expect(ConsoleTestParser.parse(text).run.counted == nil)
    }

    @Test(arguments: ["st-repeat-coloured", "st-repeat-until-pass"])
    func repetitionsAreCountedAndAFailingOneFails(_ name: String) throws {
        // The closing line of a repeated run speaks of its last iteration; the exit status of all of them.
        for kind in ["console.txt", "events.jsonl"] {
            let run = try RunnerCorpus.read(name, kind)
            #expect(run.results.count == (name == "st-repeat-coloured" ? 3 : 2), "\(name).\(kind)")
            #expect(run.failing.count == 1)
            #expect(run.failing.first?.failures.first?.message.contains("run 1") == true)
        }
    }
}

/// The peers' own captured output, read as the peers read it.
@Suite struct PeerVerdictTests {
    @Test func xcbeautifysColouredRenderingReadsAsTheRunItShows() throws {
        let run = try read("console/xcbeautify__TestData__swift_test_log_macOS_colored.txt")
        #expect(run.results.count == 464)
        #expect(run.count(.failed) == 2)
        #expect(run.count(.skipped) == 2)
        let plain = try read("console/xcbeautify__TestData__swift_test_log_macOS.txt")
        #expect(Set(run.failing.map(\.name)) == Set(plain.failing.map(\.name)))
        // A quoted display name with spaces is a name, not a line to pass over.
        #expect(run.failing.contains { $0.name == "Different kinds of functions are handled correctly" })
    }

    @Test func xcbeautifysColouredMixedLogFailsAtEveryLengthThatShowsAFailure() throws {
        let text = try Fixtures.sharedText("console/xcbeautify__TestData__MixedTestLog_6_0_macOS_colored.txt")
        let run = ConsoleTestParser.parse(text).run
        #expect(run.results.count == 6)
        #expect(Set(run.failing.map(\.name)) == ["testForceFailure", "testFailTrueIsFalse()"])
        #expect(run.failing.first { $0.name == "testFailTrueIsFalse()" }?.failures.first?.message == "Expectation failed: true == false")
        // Any first part of the log that holds a `✖` line must fail: a cut-off pipe never passes a failure.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let firstCross = try #require(lines.firstIndex { $0.contains("\u{2716}") })
        for count in (firstCross + 1)...lines.count {
            let prefix = lines[0..<count].joined(separator: "\n")
            #expect(ConsoleTestParser.parse(prefix).run.hasFailures, "the first \(count) lines passed")
        }
    }

    @Test func fastlanesXcbeautifyLogReadsAsTwoFailedTests() throws {
        let run = try read("console/fastlane__scan_spec_fixtures__xcode26_xcbeautify_failure.log")
        #expect(run.results.map(\.testIdentifier).sorted() == ["ExampleTestTests.testExample", "ExampleTestUITests.testExample"])
        #expect(run.count(.failed) == 2)
        #expect(run.results.first?.duration == 0.474)
    }

    @Test func aGreenSummaryIsAPassingRunWithItsCounts() throws {
        let run = try read("xcresult-json/marathon__xctesttool__sample_2.json")
        #expect(run.results.isEmpty)
        #expect(run.counted == TestCounts(tests: 1, failed: 0, skipped: 0))
        #expect(!run.hasFailures && !run.isEmpty)
        #expect(JSONReporter().render(run).contains("\"counted\""))
        let summary = try read("xcresult-json/codemagic-cli-tools__xctests_mocks__test_results_summary.json")
        #expect(summary.counted == TestCounts(tests: 8, failed: 3, skipped: 1))
        let record = try read("xcresult-json/codemagic-cli-tools__xctests_mocks__actions_invocation_record.json")
        #expect(record.counted == TestCounts(tests: 14, failed: 6, skipped: 2))
        #expect(record.hasFailures)
    }

    @Test func trainersJUnitKeepsEveryTestItWrote() throws {
        // trainer's own count: `<testsuites tests='192'>`, names that differ only by a tab or a carriage return among them.
        for variant in ["WithRetries", "WithoutRetries"] {
            let run = try read("junit/fastlane__trainer_fixtures__Xcode16-Mixed-XCTest-SwiftTesting-\(variant).junit.xml")
            #expect(run.results.count == 192, "\(variant)")
            #expect(run.count(.failed) == 20 && run.count(.skipped) == 7, "\(variant)")
        }
    }

    @Test func namesThatDifferOnlyByControlCharactersStayApartInJUnit() throws {
        let run = TestRun(results: (1...3).map { UITestResult(suite: "S", name: "f(\(Character(Unicode.Scalar($0)!)))", status: .passed, duration: 0) })
        let written = JUnitReporter().render(run)
        #expect(written.contains("name=\"f(\\u{1})\""))
        let back = try JUnitReader.parse(Array(written.utf8), file: "written.xml")
        #expect(Set(back.results.map(\.name)).count == 3)
    }

    /// trainer's real Xcode 16 result with `testBasicAssertions()`'s node changed by `edit`, read back.
    func trainerResult(editing edit: @escaping ([[String: Any]]) -> [[String: Any]]) throws -> UITestResult {
        let text = try Fixtures.sharedText("xcresult-json/fastlane__trainer_fixtures__Xcode16-Mixed-XCTest-SwiftTesting.json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        func walk(_ node: Any) -> Any {
            guard var node = node as? [String: Any] else { return node }
            if node["name"] as? String == "testBasicAssertions()", let children = node["children"] as? [[String: Any]] {
                node["children"] = edit(children)
                return node
            }
            if let children = node["children"] as? [Any] { node["children"] = children.map(walk) }
            return node
        }
        var edited = object
        edited["testNodes"] = (object["testNodes"] as? [Any] ?? []).map(walk)
        let derived = String(decoding: try JSONSerialization.data(withJSONObject: edited), as: UTF8.self)
        let run = try ResultsInput.parse(Array(derived.utf8), file: "derived.json").run
        return try #require(run.results.first { $0.name == "testBasicAssertions()" })
    }

    @Test func mixedRepetitionsAreFlakyWhateverTheNodeSays() throws {
        // Derived from trainer's real result: the second retry of testBasicAssertions() passed (a structural case, not a capture).
        let test = try trainerResult { children in
            var children = children
            children[1]["result"] = "Passed"
            children[1]["children"] = nil
            // Newer Xcode: the repetitions under a `Test Case Run` node.
            return [["nodeType": "Test Case Run", "name": "iPhone 16", "children": children]]
        }
        #expect(test.status == .passed)
        #expect(test.isFlaky)
        #expect(test.attempts == 2)
    }

    /// The same, with no failure message node anywhere under the test: a failed repetition is a failure all the same.
    @Test func aFailedRepetitionWithoutAMessageStillMakesTheTestFlaky() throws {
        let test = try trainerResult { children in
            var repetitions = children.filter { $0["nodeType"] as? String == "Repetition" }
            repetitions[0]["children"] = nil
            repetitions[1]["result"] = "Passed"
            repetitions[1]["children"] = nil
            return repetitions
        }
        #expect(test.status == .passed)
        #expect(test.isFlaky)
        #expect(test.failures.map(\.message) == ["failed on repetition 1 of 2 (the result bundle gives no message)"])
    }
}

/// Console shapes the corpus has no capture of, each as the tool prints it.
@Suite struct RunLevelVerdictTests {
    @Test func aLogThatStartsWithAngleBracketIsTextUnlessItIsXML() throws {
        let log = "<unknown>:0: warning: a module was built with an older compiler\nTest Case 'A.b' started at 2026-01-01\nTest Case 'A.b' passed (0.001 seconds)\n"
        let parsed = try ResultsInput.parse(Array(log.utf8), file: "test.log")
        #expect(parsed.kind == .console)
        #expect(parsed.run.results.map(\.testIdentifier) == ["A.b"])
        #expect(throws: XMLError.self) { try ResultsInput.parse(Array("<?xml version=\"1.0\"?><testsuites><testcase".utf8), file: "cut.xml") }
    }

    @Test(arguments: ["** TEST EXECUTE FAILED **", "** BUILD FAILED **", "** TEST FAILED **"])
    func aFailedXcodebuildWithNoTestIsARunFailure(_ closing: String) {
        let run = ConsoleTestParser.parse("Testing started\nsomething went wrong\n\(closing)\n").run
        #expect(run.results.isEmpty)
        #expect(run.hasFailures)
        #expect(run.runFailures.first?.contains(closing) == true)
    }

    @Test func anEarlyExitAnywhereInALineFailsTheRun() {
        let run = ConsoleTestParser.parse("Testing failed:\n\tAppUITests-Runner (4242) encountered an error (Early unexpected exit, operation never finished bootstrapping - no restart will be attempted.)\n").run
        #expect(run.runFailures.count == 1)
        #expect(run.runFailures.first?.hasPrefix("AppUITests-Runner (4242) encountered an error") == true)
    }

    @Test func anXCTestCountOfFailuresFailsARunThatShowsNone() {
        let run = ConsoleTestParser.parse("Test Suite 'All tests' started at 2026\n\t Executed 3 tests, with 1 test skipped and 2 failures (0 unexpected) in 0.1 (0.1) seconds\n").run
        #expect(run.runFailures == ["the XCTest summary counts 2 failures, but no test failure was shown"])
    }

    @Test func aHandWrittenStreamsIssuesCount() throws {
        // vscode-swift's tests write streams of issue events without declaring or starting the tests.
        let stream = """
        {"kind":"event","payload":{"kind":"issueRecorded","instant":{"absolute":1,"since1970":1},"messages":[{"symbol":"fail","text":"Expectation failed"}],"issue":{"isKnown":false,"sourceLocation":{"_filePath":"/p/T.swift","line":3,"column":5}},"testID":"M.S/t()/T.swift:1:2"},"version":0}
        {"kind":"event","payload":{"kind":"issueRecorded","instant":{"absolute":2,"since1970":2},"messages":[{"symbol":"fail","text":"no test"}],"issue":{"isKnown":false}},"version":0}
        """
        let run = try ResultsInput.parse(Array(stream.utf8), file: "events.jsonl").run
        #expect(run.results.map(\.testIdentifier) == ["M.S.t()"])
        #expect(run.results.first?.status == .failed)
        #expect(run.runFailures == ["an issue was recorded outside any test: no test"])
    }
}

extension TestRun {
    /// The first failure of the first test named `name`.
    func firstFailure(of name: String) -> TestFailure? {
        results.first { $0.name == name }?.failures.first
    }
}
