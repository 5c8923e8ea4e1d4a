import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

@Suite struct ResultsCommandTests {
    let environment: [String: String] = {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "GITHUB_ACTIONS")
        environment.removeValue(forKey: "GITHUB_STEP_SUMMARY")
        return environment
    }()

    @Test func aSavedLogBecomesJUnitAndTheExitSaysATestFailed() throws {
        let folder = try TemporaryDirectory()
        let log = Fixtures.shared + "/console/xcbeautify__TestData__MixedTestLog_6_0_macOS.txt"
        let result = try InProcess.results(["results", log, "--format", "junit", "--output", folder.url("out/junit.xml")],
                                           in: folder.path, environment: environment)
        #expect(result.status == 1, "\(result)")
        let xml = try #require(folder.read("out/junit.xml"))
        #expect(xml.contains("<testsuites name=\"prepush\" tests=\"6\" failures=\"2\" errors=\"0\""))
        #expect(result.standardOutput.isEmpty)
    }

    /// `--output /dev/null` or a named pipe is written to, never replaced: a rename over `/dev/null`,
    /// as root, left a regular file there and broke every program on the machine that wrote to it.
    @Test(.timeLimit(.minutes(10)))
    func anOutputThatIsAPipeIsWrittenToNotReplaced() throws {
        let folder = try TemporaryDirectory()
        let fifo = folder.url("report.pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = try Command.start("/bin/sh", ["-c", "cat \"$0\" > \"$1\"", fifo, folder.url("received.xml")], environment: environment)
        let log = Fixtures.shared + "/console/xcbeautify__TestData__MixedTestLog_6_0_macOS.txt"
        let result = try InProcess.results(["results", log, "--format", "junit", "--output", fifo], in: folder.path, environment: environment)
        #expect(result.status == 1, "\(result)")
        // Bounded: when `results` ends without opening the pipe, `cat` waits in its open for ever.
        #expect(try reader.wait(upTo: 30).status == 0)
        var info = stat()
        #expect(stat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "the pipe was replaced")
        #expect(folder.read("received.xml")?.contains("<testsuites name=\"prepush\" tests=\"6\"") == true)
    }

    /// Issue 51: a log cut in half, every test in it passed, used to exit 0 with a ✅ report.
    @Test func aCutLogFailsUnlessAllowedAndEveryReportSaysItIsIncomplete() throws {
        let folder = try TemporaryDirectory()
        let text = try String(contentsOfFile: Fixtures.shared + "/console/xcbeautify__TestData__swift_test_log_macOS.txt", encoding: .utf8)
        // Cut right after a passing test, as in the issue: every test the cut log shows passed.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let end = try #require(lines.indices.filter { lines[$0].contains("' passed (") }.dropFirst(20).first)
        let half = lines[...end].joined(separator: "\n") + "\n"
        try folder.write("", to: "outputs.txt")
        var environment = environment
        environment["GITHUB_ACTIONS"] = "true"
        environment["GITHUB_OUTPUT"] = folder.url("outputs.txt")
        let cut = try InProcess.results(["results", "-", "--format", "junit,json,markdown", "--output-dir", folder.url("out")],
                                        in: folder.path, environment: environment, standardInput: half)
        #expect(cut.status == 1, "\(cut)")
        #expect(cut.standardError.contains("error: the output ends before the run does: it shows Test Suite 'All tests' started"), "\(cut)")
        #expect(cut.standardError.contains("--allow-incomplete accepts such a run"), "\(cut)")
        #expect(try #require(folder.read("out/results.md")).hasPrefix("## ❌ Incomplete: "))
        #expect(try #require(folder.read("out/results.json")).contains("\"incomplete\": {"))
        #expect(try #require(folder.read("out/junit.xml")).contains("type=\"incomplete\""))
        #expect(try folder.read("outputs.txt")?.hasSuffix("conclusion=failure\n") == true)

        let allowed = try InProcess.results(["results", "-", "--format", "markdown", "--output", folder.url("allowed.md"), "--allow-incomplete"],
                                            in: folder.path, environment: self.environment, standardInput: half)
        #expect(allowed.status == 0, "\(allowed)")
        #expect(allowed.standardError.contains("warning: the output ends before the run does") && allowed.standardError.contains("(allowed)"), "\(allowed)")
        #expect(try #require(folder.read("allowed.md")).hasPrefix("## ⚠️ Tests passed as far as the output goes"))
        // The whole log: complete, as before.
        let whole = try InProcess.results(["results", "-", "--format", "markdown"], in: folder.path, environment: self.environment, standardInput: text)
        #expect(!whole.standardError.contains("the output ends before the run does") && !whole.standardOutput.contains("Incomplete"), "\(whole)")
    }

    /// A push stage that exited 0 with a cut log passes (its exit status is its runner's verdict);
    /// its reports say the run is incomplete, never a whole ✅ run.
    @Test func aStageThatExitedZeroWithACutLogPassesAndItsReportsSayIncomplete() throws {
        let repo = try GitRepository()
        let log = Fixtures.shared + "/console/xcbeautify__TestData__swift_test_log_macOS.txt"
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let end = try #require(lines.indices.filter { lines[$0].contains("' passed (") }.dropFirst(20).first)
        try repo.write("stages:\n  unit:\n    run: head -n \(end + 1) '\(log)'\n", to: ".prepush.yml")
        try repo.commitAll("config")
        let run = try InProcess.run(["run"], in: repo.path, environment: environment)
        #expect(run.status == 0, "\(run)")
        #expect(run.combined.contains("warning: unit: the output ends before the run does"), "\(run)")
        #expect(run.combined.contains("the stage exited 0, its runner's verdict, so it passes"), "\(run)")
        let markdown = try String(contentsOfFile: repo.path + "/.prepush/reports/results.md", encoding: .utf8)
        #expect(markdown.hasPrefix("## ⚠️ Tests passed as far as the output goes"), "\(markdown)")
    }

    @Test func absurdDurationsAreCutWithAWarning() throws {
        let folder = try TemporaryDirectory()
        let log = "Test Case 'C.huge' passed (9999999999999999 seconds).\nTest Case 'C.small' passed (0.474 seconds).\n"
        let result = try InProcess.results(["results", "-", "--format", "junit"], in: folder.path, environment: environment, standardInput: log)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardError == "prepush: warning: standard input: 1 test duration was infinite or absurd; written as 10000000 seconds\n")
        #expect(result.standardOutput.contains(#"name="small" classname="C" time="0.474""#) || result.standardOutput.contains(#"time="0.474""#))
        #expect(result.standardOutput.contains(#"time="10000000.000""#), "\(result.standardOutput)")
    }

    @Test func standardInputIsReadAsItStreams() throws {
        let folder = try TemporaryDirectory()
        let log = try Fixtures.sharedText("console/xcbeautify__TestData__ParallelTestLog.txt")
        let result = try InProcess.results(["results", "-", "--format", "json"], in: folder.path, environment: environment, standardInput: log)
        #expect(result.status == 1)
        let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let summary = json?["summary"] as? [String: Any]
        #expect(summary?["tests"] as? Int == 21)
        #expect(summary?["failed"] as? Int == 1)
        #expect(json?["version"] as? Int == 1)
    }

    @Test func aStreamGetsALiveLinePerFailingTestOnStandardErrorAndQuietHasNone() throws {
        let folder = try TemporaryDirectory()
        let log = try Fixtures.sharedText("console/xcbeautify__TestData__ParallelTestLog.txt")
        let result = try InProcess.results(["results", "-", "--format", "junit", "--output", folder.url("r.xml")],
                                           in: folder.path, environment: environment, standardInput: log)
        #expect(result.status == 1)
        let live = result.standardError.split(separator: "\n").filter { $0.hasPrefix("✘ ") }
        #expect(live.count == 1, "\(result.standardError)")
        #expect(try String(contentsOfFile: folder.url("r.xml"), encoding: .utf8).contains("failures=\"1\""))
        let quiet = try InProcess.results(["results", "-", "--format", "junit", "--quiet"], in: folder.path, environment: environment, standardInput: log)
        #expect(!quiet.standardError.contains("✘"), "\(quiet.standardError)")
    }

    @Test func junitAndXcresultJSONAreReadByContent() throws {
        let folder = try TemporaryDirectory()
        let result = try InProcess.results(["results", Fixtures.shared + "/junit/fastlane__trainer_fixtures__Valid1.junit.xml",
                                            Fixtures.shared + "/xcresult-json/codemagic-cli-tools__xctests_mocks__test_results_tests.json",
                                            "--format", "markdown"], in: folder.path, environment: environment)
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("## ❌ 4 of"))
        #expect(result.standardOutput.contains("`/Users/liamnichols/Code/Local/Trainer/Unit/Unit.swift:19`: XCTAssertTrue failed -"))
    }

    @Test func aPassingRunExitsZero() throws {
        let folder = try TemporaryDirectory()
        let log = try folder.write("Test Case 'A.test_a' started at x\nTest Case 'A.test_a' passed (0.1 seconds)\n", to: "ok.log")
        #expect(try InProcess.results(["results", log], in: folder.path, environment: environment).status == 0)
    }

    @Test func malformedXMLIsAUsageErrorWithItsLocation() throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("<testsuites>\n<testsuite name='a'>\n</testsuites>\n", to: "bad.xml")
        let result = try InProcess.results(["results", file, "--output", folder.url("junit.xml")], in: folder.path, environment: environment)
        #expect(result.status == 2)
        #expect(result.standardError.contains("\(file):3:1: error: malformed XML: expected </testsuite> to close <testsuite>, found </testsuites>"))
        #expect(!folder.exists("junit.xml"), "no report is written from bad input")
    }

    @Test func aMissingFileIsAUsageError() throws {
        let folder = try TemporaryDirectory()
        let result = try InProcess.results(["results", "nope.log"], in: folder.path, environment: environment)
        #expect(result.status == 2)
        #expect(result.standardError == "error: nope.log: no such file\n")
    }

    @Test func inGitHubActionsFailuresBecomeAnnotationsAndTheSummaryIsAppended() throws {
        let folder = try TemporaryDirectory()
        let summary = try folder.write("## earlier step\n", to: "summary.md")
        var environment = self.environment
        environment["GITHUB_ACTIONS"] = "true"
        environment["GITHUB_STEP_SUMMARY"] = summary
        let result = try InProcess.results(["results", Fixtures.shared + "/console/xcbeautify__TestData__MixedTestLog_6_0_Linux.txt",
                                            "--output", folder.url("junit.xml")], in: folder.path, environment: environment)
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("::error file=/home/runner/work/xcbeautify/xcbeautify/Tests/XcbeautifyLibTests/CaptureGroupTests.swift,line=34,title=CaptureGroupTests.testForceFailure::XCTAssertTrue failed - True is never false.\n"))
        #expect(result.standardOutput.contains("::error file=Test.swift,line=17,col=9,title=testFailTrueIsFalse()::Expectation failed: true == false\n"))
        let appended = try #require(folder.read("summary.md"))
        #expect(appended.hasPrefix("## earlier step\n<!-- prepush:tests -->\n## ❌ 2 of 6 tests failed"))

        // A second call in the same step replaces prepush's block: the summary does not say it twice.
        _ = try InProcess.results(["results", Fixtures.shared + "/console/xcbeautify__TestData__MixedTestLog_6_0_Linux.txt",
                                   "--output", folder.url("junit.xml")], in: folder.path, environment: environment)
        let again = try #require(folder.read("summary.md"))
        #expect(again == appended, "\(again)")
    }

    /// A log of another machine (xcbeautify's CI, `/home/runner/work/xcbeautify/xcbeautify/…`) read
    /// in a checkout that has the file: the annotation names it from here, where GitHub can place it.
    @Test func aPathFromAnotherMachineIsPlacedInTheCheckout() throws {
        let folder = try TemporaryDirectory()
        _ = try folder.write("// the test file\n", to: "Tests/XcbeautifyLibTests/CaptureGroupTests.swift")
        var environment = self.environment
        environment["GITHUB_ACTIONS"] = "true"
        let result = try InProcess.results(["results", Fixtures.shared + "/console/xcbeautify__TestData__MixedTestLog_6_0_Linux.txt",
                                            "--output", folder.url("junit.xml")], in: folder.path, environment: environment)
        #expect(result.standardOutput.contains("::error file=Tests/XcbeautifyLibTests/CaptureGroupTests.swift,line=34,title=CaptureGroupTests.testForceFailure::"), "\(result)")
        // The report itself keeps what the log said.
        #expect(try #require(folder.read("junit.xml")).contains("/home/runner/work/xcbeautify/xcbeautify/Tests/XcbeautifyLibTests/CaptureGroupTests.swift"))
    }

    /// A report on standard output stays only the report in GitHub Actions: the workflow commands
    /// go to standard error, which GitHub reads too (issue 43: `> junit.xml` got `::error` lines).
    @Test func aReportOnStandardOutputIsOnlyTheReport() throws {
        let folder = try TemporaryDirectory()
        var environment = self.environment
        environment["GITHUB_ACTIONS"] = "true"
        let result = try InProcess.results(["results", Fixtures.shared + "/console/xcbeautify__TestData__MixedTestLog_6_0_Linux.txt", "--format", "junit"],
                                           in: folder.path, environment: environment)
        #expect(result.status == 1)
        #expect(result.standardOutput.hasPrefix("<?xml") && result.standardOutput.hasSuffix("</testsuites>\n") && !result.standardOutput.contains("::error"))
        #expect(result.standardError.contains("::error file=Test.swift,line=17,col=9,title=testFailTrueIsFalse()::Expectation failed: true == false\n"), "\(result)")
        let file = try folder.write(result.standardOutput, to: "junit.xml")
        let lint = try Command.run("xmllint", ["--noout", file], environment: ProcessInfo.processInfo.environment)
        #expect(lint.status == 0, "\(lint)")
    }

    /// A big red run (issue 43): 1,000 failing tests with 1 KiB messages. GitHub shows 10 error
    /// annotations a step and drops a step summary over 1 MiB whole; prepush prints 10 (or what
    /// `--annotations` asks, up to 50) and a notice counting the rest, lists failures in the summary
    /// up to 512 KiB and counts the rest there, and gives the counts and the conclusion as step outputs.
    @Test func aBigRedRunKeepsItsReportAndSaysWhatItLeftOut() throws {
        let folder = try TemporaryDirectory()
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"Big\" tests=\"1001\">\n"
        let message = String(repeating: "the total is off by one; ", count: 41)
        for index in 0..<1000 {
            xml += "    <testcase classname=\"BigTests\" name=\"test_big_\(index)\" time=\"0.01\"><failure message=\"\(message)\">BigTests.swift:\(index + 1)</failure></testcase>\n"
        }
        xml += "    <testcase classname=\"BigTests\" name=\"test_big_passes\" time=\"0.01\"/>\n  </testsuite>\n</testsuites>\n"
        let results = try folder.write(xml, to: "big.xml")
        let summary = try folder.write("## earlier step\n", to: "summary.md")
        let outputs = try folder.write("", to: "outputs.txt")
        var environment = self.environment
        environment["GITHUB_ACTIONS"] = "true"
        environment["GITHUB_STEP_SUMMARY"] = summary
        environment["GITHUB_OUTPUT"] = outputs
        let result = try InProcess.results(["results", results, "--output", folder.url("junit.xml")], in: folder.path, environment: environment)
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("::error ") }.count == 10, "\(lines.prefix(3))")
        #expect(lines.contains("::notice title=not every failure is annotated::990 more errors not annotated (10 of each a step; reports.annotations takes up to 50): see the step summary, junit.xml, results.json and results.md"))
        let written = try #require(folder.read("summary.md"))
        #expect(written.utf8.count <= 600 * 1024 && written.utf8.count > 500 * 1024, "\(written.utf8.count) bytes: failures up to 512 KiB")
        #expect(written.hasPrefix("## earlier step\n<!-- prepush:tests -->\n## ❌ 1000 of 1001 tests failed"))
        // Counts first, then the failures that fit, then one line for the rest; the report ends whole.
        let listed = written.split(separator: "\n").filter { $0.hasPrefix("- **BigTests.test_big_") }.count
        let rest = try #require(written.split(separator: "\n").first { $0.hasPrefix("- … and ") })
        #expect(rest == "- … and \(1000 - listed) more failures (full list in results.md and junit.xml)", "\(listed) listed")
        #expect(written.contains("| 1001 | 1 | 1000 | 0 |") && written.hasSuffix("<!-- /prepush:tests -->\n") && !written.contains("prepush cut this report"))
        #expect(try folder.read("outputs.txt") == "total=1001\ntests=1001\npassed=1\nfailed=1000\nunfinished=0\nskipped=0\nflaky=0\nquarantined=0\nconclusion=failure\n")

        // Up to 50 annotations when asked; more is a usage error, from the flag or the environment.
        let more = try InProcess.results(["results", results, "--format", "json", "--output", folder.url("r.json"), "--annotations", "25"],
                                         in: folder.path, environment: environment)
        #expect(more.standardOutput.split(separator: "\n").filter { $0.hasPrefix("::error ") }.count == 25, "\(more)")
        #expect(more.standardOutput.contains("::notice title=not every failure is annotated::975 more errors not annotated (25 of each a step;"))
        let tooMany = try InProcessCLI.run(["results", results, "--annotations", "51"], in: folder.path, environment: environment)
        #expect(tooMany.status == 2 && tooMany.standardError.contains("--annotations 51: expected a number of annotations from 1 to 50"), "\(tooMany)")
        environment["PREPUSH_ANNOTATIONS"] = "lots"
        let badVariable = try InProcess.results(["results", results], in: folder.path, environment: environment)
        #expect(badVariable.status == 2 && badVariable.standardError == "error: PREPUSH_ANNOTATIONS=lots: expected a number of annotations from 1 to 50\n", "\(badVariable)")
    }

    /// After the run's own failures (none here), failures GitHub can place are annotated first: a
    /// test without a file and line comes after every test with one, whatever the order of the input.
    @Test func placedFailuresAreAnnotatedFirst() throws {
        let folder = try TemporaryDirectory()
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"Mixed\" tests=\"4\">\n"
        xml += "    <testcase classname=\"MixedTests\" name=\"test_nowhere\"><failure message=\"no place\"/></testcase>\n"
        for index in 1...3 {
            xml += "    <testcase classname=\"MixedTests\" name=\"test_placed_\(index)\"><failure message=\"off by \(index)\">MixedTests.swift:\(index * 10)</failure></testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        let results = try folder.write(xml, to: "mixed.xml")
        var environment = self.environment
        environment["GITHUB_ACTIONS"] = "true"
        let result = try InProcess.results(["results", results, "--format", "json", "--output", folder.url("r.json"), "--annotations", "2"],
                                           in: folder.path, environment: environment)
        let errors = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        #expect(errors.count == 2 && errors.allSatisfy { $0.contains("file=MixedTests.swift") }, "\(result)")
        #expect(result.standardOutput.contains("::notice title=not every failure is annotated::2 more errors not annotated"))
    }

    /// A merge step is one command: three formats into one folder, the verdict as the exit status,
    /// standard output left to the annotations.
    @Test func severalFormatsGoIntoOneFolder() throws {
        let folder = try TemporaryDirectory()
        let log = Fixtures.shared + "/console/xcbeautify__TestData__MixedTestLog_6_0_Linux.txt"
        let result = try InProcess.results(["results", log, "--format", "junit,json,markdown", "--output-dir", folder.url("reports")],
                                           in: folder.path, environment: environment)
        #expect(result.status == 1 && result.standardOutput.isEmpty, "\(result)")
        let junit = try #require(folder.read("reports/junit.xml"))
        #expect(junit.contains("tests=\"6\" failures=\"2\""))
        #expect(try #require(folder.read("reports/results.json")).contains("\"conclusion\": \"failure\""))
        #expect(try #require(folder.read("reports/results.md")).hasPrefix("## ❌ 2 of 6 tests failed"))
        let alone = try InProcessCLI.run(["results", log, "--format", "junit,json"], in: folder.path, environment: environment)
        #expect(alone.status == 2 && alone.standardError.contains("several formats need --output-dir"), "\(alone)")
        let unknown = try InProcessCLI.run(["results", log, "--format", "junit,html", "--output-dir", "x"], in: folder.path, environment: environment)
        #expect(unknown.status == 2 && unknown.standardError.contains("--format html: expected junit, json, markdown or github"), "\(unknown)")
    }
}

@Suite struct PipelineReportTests {
    @Test func aPushWritesTheReportsOfWhatItsStagesRan() throws {
        let repo = try GitRepository()
        let log = Fixtures.shared + "/console/xcbeautify__TestData__MixedTestLog_6_0_Linux.txt"
        try repo.write("stages:\n  unit:\n    run: cat '\(log)'\n", to: ".prepush.yml")
        try repo.commitAll("config")
        let push = try InProcessCLI.hook(repo)
        // The stage exits 0, but its output shows failing tests: the tests' verdict refuses the push.
        #expect(push.status == 1, "\(push)")
        #expect(push.combined.contains("prepush: push refused: unit: exited 0, but its results show 2 failing tests"), "\(push)")
        #expect(push.combined.contains("prepush: tests: 4 passed, 2 failed"))
        #expect(push.combined.contains("   /home/runner/work/xcbeautify/xcbeautify/Tests/XcbeautifyLibTests/CaptureGroupTests.swift:34: error: CaptureGroupTests.testForceFailure: XCTAssertTrue failed - True is never false."))
        let junit = try String(contentsOfFile: repo.path + "/.prepush/reports/junit.xml", encoding: .utf8)
        #expect(junit.contains("tests=\"6\" failures=\"2\""))
        #expect(FileManager.default.fileExists(atPath: repo.path + "/.prepush/reports/results.json"))
        #expect(try repo.git("status", "--porcelain").isEmpty)
    }

    /// In GitHub Actions a run's counts and its conclusion are step outputs; the conclusion is the
    /// run's exit status, not the tests' alone (this stage's command ignores its failing tests).
    @Test func aRunInGitHubActionsGivesItsCountsAndConclusionAsStepOutputs() throws {
        let repo = try GitRepository()
        let log = Fixtures.shared + "/console/xcbeautify__TestData__MixedTestLog_6_0_Linux.txt"
        try repo.write("stages:\n  unit:\n    run: cat '\(log)'\n", to: ".prepush.yml")
        try repo.commitAll("config")
        let outputs = repo.root.url("outputs.txt")
        try repo.root.write("", to: "outputs.txt")
        var environment = repo.environment
        environment["GITHUB_ACTIONS"] = "true"
        environment["GITHUB_OUTPUT"] = outputs
        let run = try InProcess.run(["run"], in: repo.path, environment: environment)
        #expect(run.status == 1, "\(run)")
        let written = try String(contentsOfFile: outputs, encoding: .utf8)
        let summary = try #require(written.split(separator: "\n").first { $0.hasPrefix("summary=") }, "\(written)")
        #expect(summary.hasSuffix("/.prepush/reports/results.md") && FileManager.default.fileExists(atPath: String(summary.dropFirst(8))), "\(summary)")
        #expect(written.replacingOccurrences(of: summary + "\n", with: "") == "total=6\ntests=6\npassed=4\nfailed=2\nunfinished=0\nskipped=0\nflaky=0\nquarantined=0\nconclusion=failure\n", "\(written)")
    }

    @Test func reportsOfAnEarlierRunDoNotSurviveARunWithoutTests() throws {
        let repo = try GitRepository()
        // An earlier run's folder: its reports beside the ignore file prepush writes.
        try repo.write("# Written by prepush: reports are build output.\n*\n", to: ".prepush/reports/.gitignore")
        try repo.write("x", to: ".prepush/reports/junit.xml")
        try repo.write("an earlier UI run's log", to: ".prepush/reports/ui.log")
        try repo.write("stages:\n  unit:\n    run: echo no tests here\n", to: ".prepush.yml")
        let result = try InProcess.run(["run"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0)
        #expect(!repo.exists(".prepush/reports/junit.xml"))
        // The UI stage did not run this time: its old log must not pass for this run's.
        #expect(!repo.exists(".prepush/reports/ui.log"))
        #expect(repo.exists(".prepush/reports/unit.log"))
    }
}

@Suite struct ResultsExitStatusTests {
    let environment = ProcessInfo.processInfo.environment

    @Test(arguments: ["[]\n", "null\n", "Compiling App\nBuild complete!\n", ""])
    func inputWithNoTestResultsIsAUsageError(text: String) throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write(text, to: "results.txt")
        let result = try InProcess.results(["results", file], in: folder.path, environment: environment)
        #expect(result.status == 2, "\(result)")
        // Exactly the one sentence: the exit code's own description once followed it.
        #expect(result.standardError == "error: no test results found in \(file)\n", "\(result)")
        #expect(result.standardOutput.isEmpty, "no report is written for no results")
    }

    @Test func aRunThatFailedBeforeAnyTestIsExit1WithItsMessage() throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("Early unexpected exit, operation never finished bootstrapping - no restart will be attempted.\n** TEST FAILED **\n", to: "xcodebuild.log")
        let result = try InProcess.results(["results", file, "--format", "json"], in: folder.path, environment: environment)
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("the run failed: Early unexpected exit, operation never finished bootstrapping"), "\(result)")
    }
}
