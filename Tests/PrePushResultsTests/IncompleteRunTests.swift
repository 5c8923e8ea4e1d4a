import Foundation
import PrePushCore
import PrePushResults
import PrePushTestSupport
import Testing

/// Issue 51: a log cut in half read as a passed run (`✅`). Output that shows a run start (XCTest's
/// `Test Suite 'All tests' started`, Swift Testing's `Test run started.` or `runStarted` event) and
/// not its end is an incomplete run, which fails unless allowed. Every case is a real captured log
/// cut in the test, never a log written by hand.
@Suite struct IncompleteRunTests {
    /// Real logs whose whole reads as complete. A third of each ends inside a run (half of two of
    /// them ends exactly between XCTest's run and the next, which is a complete output).
    static let consoleLogs: [String] = [
        Fixtures.own + "/captured/sample-swift-test-linux-6.3.1.txt",
        Fixtures.own + "/captured/sample-swift-test-parallel-linux-6.3.1.txt",
        Fixtures.shared + "/console/xcbeautify__TestData__TestLog.txt",
        Fixtures.shared + "/console/xcbeautify__TestData__swift_test_log_macOS.txt",
        Fixtures.shared + "/console/fastlane__scan_spec_fixtures__non_parallel_testing_failure.log",
        RunnerCorpus.folder + "/st-all-pass.console.txt",
    ]

    /// The first `fraction` of `text`'s lines, as a log cut there by a full disk or a killed job.
    static func firstPart(of text: String, fraction: Double) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.prefix(Int(Double(lines.count) * fraction)).joined(separator: "\n") + "\n"
    }

    @Test(arguments: consoleLogs)
    func aRealLogReadsAsCompleteAndItsFirstThirdAsIncomplete(_ path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(ConsoleTestParser.parse(text).run.incomplete == nil, "\(path)")
        let half = ConsoleTestParser.parse(Self.firstPart(of: text, fraction: 0.3)).run
        let incomplete = try #require(half.incomplete, "\(path)")
        #expect(incomplete.hasPrefix("the output ends before the run does: it shows "), "\(incomplete)")
        #expect(!half.passedOverall && half.conclusion == "failure")
    }

    @Test func everySharedConsoleLogReadsAsComplete() throws {
        let logs = Fixtures.sharedFiles(in: "console")
        #expect(logs.count >= 10)
        for log in logs {
            let run = try ResultsInput.parse(file: Fixtures.shared + "/" + log).run
            #expect(run.incomplete == nil, "\(log): \(run.incomplete ?? "")")
        }
    }

    /// A real macOS `swift test` log cut right after its 21st passing XCTest test.
    static func cutAfterPassingTests() throws -> TestRun {
        let text = try String(contentsOfFile: Fixtures.shared + "/console/xcbeautify__TestData__swift_test_log_macOS.txt", encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let cut = try #require(lines.indices.filter { lines[$0].contains("' passed (") }.dropFirst(20).first)
        return ConsoleTestParser.parse(lines[...cut].joined(separator: "\n") + "\n").run
    }

    @Test func aLogCutBetweenTwoPassingTestsFailsWhereItUsedToPass() throws {
        // The issue's case: every test the cut log shows passed.
        let run = try Self.cutAfterPassingTests()
        #expect(run.results.count == 21 && run.failing.isEmpty && run.runFailures.isEmpty)
        #expect(run.incomplete?.contains("Test Suite 'All tests' started") == true, "\(run.incomplete ?? "")")
        #expect(!run.passedOverall)
        let markdown = MarkdownReporter().render(run)
        #expect(markdown.hasPrefix("## ❌ Incomplete: the output ends before the run does (21 tests shown)\n"), "\(markdown)")
        #expect(!markdown.contains("✅"))
        let json = JSONReporter().render(run)
        #expect(json.contains("\"conclusion\": \"failure\"") && json.contains("\"incomplete\": {\n    \"allowed\": false,"), "\(json)")
        let junit = JUnitReporter().render(run)
        #expect(junit.contains("<testcase classname=\"prepush.run\" name=\"incomplete\"") && junit.contains("type=\"incomplete\""), "\(junit)")
        #expect(GitHubAnnotationsReporter().render(run).contains("::error title=the run is incomplete::"))
        // Read back, the verdict stays: results.json carries it.
        let folder = try TemporaryDirectory()
        let read = try ResultsInput.parse(file: try folder.write(json, to: "results.json")).run
        #expect(read.incomplete == run.incomplete && !read.passedOverall)
    }

    @Test func anAllowedIncompleteRunPassesAndStillSaysItIsIncomplete() throws {
        let run = try Self.cutAfterPassingTests().allowingIncomplete()
        #expect(run.failing.isEmpty && run.incomplete != nil && run.passedOverall)
        let markdown = MarkdownReporter().render(run)
        #expect(markdown.hasPrefix("## ⚠️ Tests passed as far as the output goes: it ends before the run does\n"), "\(markdown)")
        #expect(markdown.contains("- **incomplete**: the output ends before the run does") && markdown.contains("(allowed)"))
        let junit = JUnitReporter().render(run)
        #expect(junit.contains("<skipped message=\"allowed: the output ends before the run does") && !junit.contains("type=\"incomplete\""), "\(junit)")
        let json = JSONReporter().render(run)
        #expect(json.contains("\"allowed\": true") && json.contains("\"conclusion\": \"success\""), "\(json)")
        let annotations = GitHubAnnotationsReporter().render(run)
        #expect(annotations.contains("::warning title=the run is incomplete (allowed)::") && !annotations.contains("::error"), "\(annotations)")
        let folder = try TemporaryDirectory()
        let schema = Fixtures.shared + "/junit/jenkinsci-xunit-plugin__junit-10.xsd"
        let files = [try folder.write(junit, to: "allowed.xml"), try folder.write(JUnitReporter().render(try Self.cutAfterPassingTests()), to: "refused.xml")]
        let lint = try Command.run("xmllint", ["--noout", "--schema", schema] + files, environment: ProcessInfo.processInfo.environment)
        #expect(lint.status == 0, "\(lint)")
    }

    /// Lone lines and fragments with no run start keep their readings: a lone passed line is a passed
    /// test, and the test lines of a real log without its suite lines are a complete fragment.
    @Test func aFragmentWithoutARunStartIsNotIncomplete() throws {
        let lone = ConsoleTestParser.parse("Test Case '-[App.LoginTests testLogin]' passed (0.001 seconds).\n").run
        #expect(lone.incomplete == nil && lone.passedOverall && lone.results.count == 1)
        let text = try String(contentsOfFile: Fixtures.shared + "/console/xcbeautify__TestData__TestLog.txt", encoding: .utf8)
        let testLines = text.split(separator: "\n").filter { $0.hasPrefix("Test Case '") }.prefix(40).joined(separator: "\n") + "\n"
        let fragment = ConsoleTestParser.parse(testLines).run
        #expect(fragment.results.count == 20 && fragment.incomplete == nil, "\(fragment.results.count)")
    }

    @Test func anEventStreamCutBeforeRunEndedIsIncomplete() throws {
        for name in ["st-all-pass", "everything-ev6.3"] {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: "\(RunnerCorpus.folder)/\(name).events.jsonl")))
            let whole = try SwiftTestingEventStream.parse(bytes, file: name)
            #expect(whole.incomplete == nil, "\(name)")
            // Cut at a line boundary half-way, as a killed writer leaves it.
            let middle = bytes[..<(bytes.count / 2)].lastIndex(of: 10)! + 1
            let half = try SwiftTestingEventStream.parse(Array(bytes[..<middle]), file: name)
            #expect(half.incomplete?.hasPrefix("the event stream ends before the run does") == true, "\(name)")
            #expect(!half.passedOverall)
        }
    }

    @Test func oneIncompleteShardMakesTheMergedRunIncomplete() throws {
        let text = try String(contentsOfFile: Fixtures.own + "/captured/sample-swift-test-linux-6.3.1.txt", encoding: .utf8)
        let cut = ConsoleTestParser.parse(Self.firstPart(of: text, fraction: 0.3)).run
        let whole = ConsoleTestParser.parse(try String(contentsOfFile: RunnerCorpus.folder + "/st-all-pass.console.txt", encoding: .utf8)).run
        let merged = try ResultsMerge.merge([("a.log", whole), ("b.log", cut)]).run
        #expect(merged.incomplete?.hasPrefix("b.log: the output ends before the run does") == true && !merged.passedOverall)
    }
}
