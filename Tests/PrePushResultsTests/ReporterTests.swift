import Foundation
import PrePushCore
import PrePushResults
import PrePushTestSupport
import Testing

/// The run every golden file is rendered from: this project's captured `swift test` output plus a
/// retried (flaky) test, an unfinished one and one with a screenshot, so every branch shows.
func goldenRun() throws -> TestRun {
    let captured = try String(contentsOfFile: Fixtures.own + "/captured/sample-swift-test-linux-6.3.1.txt", encoding: .utf8)
    var run = ConsoleTestParser.parse(captured).run
    run.results += ConsoleTestParser.parse("""
    Test Case '-[App.LoginUITests test_login_succeeds]' started.
    /src/LoginUITests.swift:12: error: -[App.LoginUITests test_login_succeeds] : XCTAssertTrue failed - "Sign in" & <b> not hittable
    Test Case '-[App.LoginUITests test_login_succeeds]' failed (1.500 seconds).
    Test Case '-[App.LoginUITests test_login_succeeds]' started (Iteration 2 of 3).
    Test Case '-[App.LoginUITests test_login_succeeds]' passed (1.250 seconds).
    Test Case '-[App.LoginUITests test_logout_crashes]' started.
    """).run.results
    run.results.append(UITestResult(suite: "App.RecordingUITests", name: "test_recording_showsModal", status: .failed, duration: 12.25,
                                    failures: [TestFailure(message: "No matches found for \"record_button_start\"", location: SourceLocation(file: "/src/RecordingUITests.swift", line: 40, column: 0))],
                                    phase: .test, screenshotPath: "/tmp/reports/screenshots/test_recording_showsModal.png"))
    return run
}

func golden(_ name: String) throws -> String {
    try String(contentsOfFile: Fixtures.own + "/expected/" + name, encoding: .utf8)
}

/// Own process: the help is printed by the binary's entry point (`--help`), which a test cannot run
/// inside itself; this target links the results library, not the commands.
@Suite struct ReporterTests {
    /// A golden file per format of the registry: `golden.` and the file's name without `results.`.
    static func goldenFile(_ format: ReportFormat) -> String {
        "golden." + format.fileName.replacing("results.", with: "")
    }

    @Test(arguments: ReportFormat.allCases)
    func renderedReportsMatchTheStoredOnes(format: ReportFormat) throws {
        let file = Self.goldenFile(format)
        let rendered = format.reporter.render(try goldenRun())
        if ProcessInfo.processInfo.environment["PREPUSH_WRITE_GOLDEN"] == "1" {
            try rendered.write(toFile: Fixtures.own + "/expected/" + file, atomically: true, encoding: .utf8)
        }
        #expect(rendered == (try golden(file)))
    }

    /// The help is made from the registry: a format added to `ReportFormat` is listed without a hand edit.
    @Test func theHelpListsEveryFormatOfTheRegistry() throws {
        let help = try PrepushBinary.run(["results", "--help"], in: FileManager.default.currentDirectoryPath,
                                         environment: ProcessInfo.processInfo.environment).standardOutput
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains(ReportFormat.helpList), "\(help)")
        #expect(help.contains("(" + ReportFormat.pushFormats.map(\.fileName).joined(separator: ", ") + ")"), "\(help)")
        #expect(ReportFormat.pushFormats == [.junit, .json, .markdown])
    }

    @Test func junitValidatesAgainstTheJenkinsSchema() throws {
        let folder = try TemporaryDirectory()
        let xml = try folder.write(JUnitReporter().render(try goldenRun()), to: "junit.xml")
        let schema = Fixtures.shared + "/junit/jenkinsci-xunit-plugin__junit-10.xsd"
        let result = try Command.run("xmllint", ["--noout", "--schema", schema, xml], environment: ProcessInfo.processInfo.environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardError.contains("validates"))
    }

    @Test func junitOfEveryConsoleFixtureValidates() throws {
        let folder = try TemporaryDirectory()
        let schema = Fixtures.shared + "/junit/jenkinsci-xunit-plugin__junit-10.xsd"
        var files: [String] = []
        for fixture in Fixtures.sharedFiles(in: "console") {
            let run = ConsoleTestParser.parse(try Fixtures.sharedText(fixture)).run
            files.append(try folder.write(JUnitReporter().render(run), to: (fixture as NSString).lastPathComponent + ".xml"))
        }
        let result = try Command.run("xmllint", ["--noout", "--schema", schema] + files, environment: ProcessInfo.processInfo.environment)
        #expect(result.status == 0, "\(result)")
    }

    @Test func annotationsEscapeWhatGitHubWouldMisread() {
        let run = TestRun(results: [UITestResult(suite: "A", name: "b", status: .failed, duration: 1,
                                                 failures: [TestFailure(message: "100% broken\nsecond line", location: SourceLocation(file: "dir,x/F:1.swift", line: 3, column: 0))])])
        #expect(GitHubAnnotationsReporter().render(run) == "::error file=dir%2Cx/F%3A1.swift,line=3,title=A.b::100%25 broken%0Asecond line\n")
    }

    @Test func aPassingRunHasNoAnnotations() {
        #expect(GitHubAnnotationsReporter().render(TestRun(results: [UITestResult(suite: "A", name: "b", status: .passed, duration: 1)])) == "")
    }

    @Test func theDataModelsRulesHold() throws {
        for test in try goldenRun().results {
            #expect(!test.testIdentifier.isEmpty)
            #expect(test.duration >= 0)
            if test.passed {
                #expect(test.failureMessage == nil)
                #expect(test.screenshotPath == nil)
            }
        }
    }
}
