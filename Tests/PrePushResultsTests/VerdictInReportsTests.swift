import Foundation
import PrePushCore
import PrePushResults
import PrePushTestSupport
import Testing

/// Every report of a run states the verdict its exit status states (issue 35): a refused run whose
/// tests all passed (a stage that timed out after its last test, the traceability gate) never
/// reads as passed, and a run that passed with quarantined failures says exactly that. Checked for
/// each format on this project's captured `swift test` output.
@Suite struct VerdictInReportsTests {
    /// The captured run's passing tests.
    static func passingRun() throws -> TestRun {
        let captured = try String(contentsOfFile: Fixtures.own + "/captured/sample-swift-test-linux-6.3.1.txt", encoding: .utf8)
        var run = ConsoleTestParser.parse(captured).run
        run.results = run.results.filter { $0.status == .passed }
        run.runFailures = []
        #expect(run.results.count >= 2)
        return run
    }

    /// The captured run with its failing tests all quarantined.
    static func quarantinedRun() throws -> TestRun {
        let captured = try String(contentsOfFile: Fixtures.own + "/captured/sample-swift-test-linux-6.3.1.txt", encoding: .utf8)
        var run = ConsoleTestParser.parse(captured).run
        run.runFailures = []
        let failing = run.failing
        #expect(!failing.isEmpty)
        run.quarantined = Dictionary(uniqueKeysWithValues: failing.map { ($0.testIdentifier, "known to fail: JIRA-12") })
        return run
    }

    static let refusal = "the traceability gate found 1 problem (blocking: P1)"

    @Test func aRefusedRunWhoseTestsPassedReadsRefusedInEveryFormat() throws {
        let run = try Self.passingRun().agreeing(withRefusal: Self.refusal)
        #expect(run.refusal == Self.refusal && !run.passedOverall && run.conclusion == "failure")
        let markdown = MarkdownReporter().render(run)
        #expect(markdown.hasPrefix("## ❌ Refused: \(Self.refusal)\n"), "\(markdown)")
        #expect(!markdown.contains("✅"), "\(markdown)")
        let junit = JUnitReporter().render(run)
        #expect(junit.contains("<error message=\"\(Self.refusal)\" type=\"refusal\">"), "\(junit)")
        #expect(junit.contains("<testsuites name=\"prepush\" tests=\"\(run.results.count + 1)\" failures=\"0\" errors=\"1\""), "\(junit)")
        let json = JSONReporter().render(run)
        #expect(json.contains("\"conclusion\": \"failure\"") && json.contains("\"refusal\": \"\(Self.refusal)\""), "\(json)")
        let annotations = GitHubAnnotationsReporter().render(run)
        #expect(annotations == "::error title=prepush refused the run::\(Self.refusal)\n", "\(annotations)")
        let outputs = ReportPublisher.outputs(of: run)
        #expect(outputs.first { $0.name == "failed" }?.value == "0")
        // Read back (a merge job's `prepush results` on a shard's results.json), it is still refused.
        let folder = try TemporaryDirectory()
        let file = try folder.write(json, to: "results.json")
        let read = try ResultsInput.parse(file: file).run
        #expect(read.refusal == Self.refusal && !read.passedOverall)
    }

    @Test func aRunThatIsNotRefusedKeepsNoRefusalAndAFailingOneNeedsNone() throws {
        #expect(try Self.passingRun().agreeing(withRefusal: nil).refusal == nil)
        #expect(try Self.passingRun().agreeing(withRefusal: nil).conclusion == "success")
        // A run whose failures show the refusal already says it by them.
        let captured = try String(contentsOfFile: Fixtures.own + "/captured/sample-swift-test-linux-6.3.1.txt", encoding: .utf8)
        let failing = ConsoleTestParser.parse(captured).run.agreeing(withRefusal: "unit: failed (exit 1) after 2.0 s")
        #expect(failing.refusal == nil && MarkdownReporter().render(failing).hasPrefix("## ❌ "))
    }

    @Test func quarantinedFailuresAreSaidAsSuchInEveryFormat() throws {
        let run = try Self.quarantinedRun()
        let count = run.failing.count
        #expect(run.passedOverall && run.conclusion == "success" && run.refusing.isEmpty)
        let markdown = MarkdownReporter().render(run)
        #expect(markdown.hasPrefix("## ✅ Tests passed, \(count) quarantined failure\(count == 1 ? "" : "s")\n"), "\(markdown)")
        #expect(markdown.contains("### Quarantined failures (they never refuse)") && !markdown.contains("### Failures\n"), "\(markdown)")
        let junit = JUnitReporter().render(run)
        #expect(junit.contains("failures=\"0\" errors=\"0\""), "\(junit)")
        #expect(junit.components(separatedBy: "<skipped message=\"quarantined: known to fail: JIRA-12\"/>").count - 1 == count, "\(junit)")
        #expect(!junit.contains("<failure"), "\(junit)")
        let json = JSONReporter().render(run)
        #expect(json.contains("\"conclusion\": \"success\""))
        #expect(json.components(separatedBy: "\"quarantined\": \"known to fail: JIRA-12\"").count - 1 == count, "\(json)")
        let annotations = GitHubAnnotationsReporter().render(run)
        #expect(!annotations.contains("::error") && annotations.contains("::warning "), "\(annotations)")
        #expect(annotations.contains("::quarantined (known to fail: JIRA-12): "), "\(annotations)")
        let outputs = Dictionary(uniqueKeysWithValues: ReportPublisher.outputs(of: run).map { ($0.name, $0.value) })
        #expect(outputs["failed"] == "0" && outputs["quarantined"] == String(count), "\(outputs)")
        let folder = try TemporaryDirectory()
        let read = try ResultsInput.parse(file: try folder.write(json, to: "results.json")).run
        #expect(read.quarantinedFailures.count == count && read.passedOverall)
    }

    /// Issue 51: results.md and results.json counted a quarantined failure as failed (2) while the
    /// console and the step outputs said 0. Each output now counts it once, as quarantined.
    @Test func everyOutputCountsAQuarantinedFailureOnceAsQuarantined() throws {
        let run = try Self.quarantinedRun()
        let failed = run.results.filter { $0.status == .failed }.count, unfinished = run.count(.unfinished)
        #expect(failed > 0)
        let quarantined = failed + unfinished
        let markdown = MarkdownReporter().render(run)
        let table = markdown.split(separator: "\n").drop { !$0.hasPrefix("| tests |") }
        #expect(table.first == "| tests | passed | failed | quarantined | skipped | expected failures | unfinished | flaky | time |", "\(markdown)")
        let row = table.dropFirst(2).first?.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        #expect(Array(row.prefix(7)) == ["\(run.results.count)", "\(run.count(.passed))", "0", "\(quarantined)", "\(run.count(.skipped))",
                                         "\(run.count(.expectedFailure))", "0"], "\(markdown)")
        let json = JSONReporter().render(run)
        #expect(json.contains("\"failed\": 0,") && json.contains("\"quarantined\": \(quarantined),") && json.contains("\"unfinished\": 0"), "\(json)")
        let outputs = Dictionary(uniqueKeysWithValues: ReportPublisher.outputs(of: run).map { ($0.name, $0.value) })
        #expect(outputs["failed"] == "0" && outputs["unfinished"] == "0" && outputs["quarantined"] == String(quarantined), "\(outputs)")
        let tally = run.tally
        #expect(tally.passed + tally.failed + tally.unfinished + tally.quarantined + tally.skipped + tally.expectedFailures == tally.tests)
        let junit = JUnitReporter().render(run)
        #expect(junit.contains("failures=\"0\" errors=\"0\""), "\(junit)")
    }

    @Test func theReportsOfBothCasesValidateAgainstTheJenkinsSchema() throws {
        let folder = try TemporaryDirectory()
        let schema = Fixtures.shared + "/junit/jenkinsci-xunit-plugin__junit-10.xsd"
        let files = [try folder.write(JUnitReporter().render(try Self.passingRun().agreeing(withRefusal: Self.refusal)), to: "refused.xml"),
                     try folder.write(JUnitReporter().render(try Self.quarantinedRun()), to: "quarantined.xml")]
        let result = try Command.run("xmllint", ["--noout", "--schema", schema] + files, environment: ProcessInfo.processInfo.environment)
        #expect(result.status == 0, "\(result)")
    }
}

/// A red build's error lines, as compilers and tools print them, read into a place and a message.
@Suite struct BuildErrorLineTests {
    @Test(arguments: [
        ("/src/App/Tests/A.swift:9:17: error: cannot find 'x' in scope", "/src/App/Tests/A.swift", 9, 17, "cannot find 'x' in scope"),
        ("Sources/B.swift:12: error: expected '}'", "Sources/B.swift", 12, 0, "expected '}'"),
        ("/a:b/C.swift:3:1: error: odd folder", "/a:b/C.swift", 3, 1, "odd folder"),
    ])
    func aPlacedErrorKeepsItsPlace(line: String, file: String, lineNumber: Int, column: Int, message: String) {
        let error = BuildErrors.failure(fromLine: line)
        #expect(error.location == SourceLocation(file: file, line: lineNumber, column: column))
        #expect(error.message == message)
    }

    @Test func anErrorWithoutAPlaceIsItsText() {
        #expect(BuildErrors.failure(fromLine: "error: fatalError") == TestFailure(message: "fatalError", location: nil))
        #expect(BuildErrors.failure(fromLine: "** BUILD FAILED **") == TestFailure(message: "** BUILD FAILED **", location: nil))
    }
}

/// A test that failed on every attempt is annotated with its message once and its attempts.
@Suite struct RetriedAnnotationTests {
    @Test func aRetriedFailureSaysItsMessageOnceWithTheAttempts() {
        let place = SourceLocation(file: "Tests/A.swift", line: 3, column: 0)
        let test = UITestResult(suite: "Shop.CheckoutTests", name: "testRefund", status: .failed, duration: 3,
                                failures: Array(repeating: TestFailure(message: "refunds are broken", location: place), count: 3), attempts: 3)
        let annotations = GitHubAnnotationsReporter().render(TestRun(results: [test]))
        #expect(annotations == "::error file=Tests/A.swift,line=3,title=Shop.CheckoutTests.testRefund::refunds are broken (failed on all 3 attempts)\n")
    }
}

/// A step output's value never adds an output of its own.
@Suite struct StepOutputTests {
    @Test func aValueWithALineBreakIsLeftOut() throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("", to: "outputs.txt")
        ReportPublisher(environment: ["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": file])
            .setOutputs([("summary", "reports\nconclusion=success/results.md"), ("failed", "1")])
        #expect(folder.read("outputs.txt") == "failed=1\n")
    }
}
