import Foundation
import PrePushCore
import PrePushResults
import PrePushTestSupport
import Testing

func parse(_ fixture: String) throws -> ParsedTests {
    ConsoleTestParser.parse(try Fixtures.sharedText(fixture))
}

func result(_ parsed: ParsedTests, _ identifier: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> UITestResult {
    try #require(parsed.run.results.first { $0.testIdentifier == identifier }, "no result for \(identifier)", sourceLocation: sourceLocation)
}

@Suite struct ConsoleParserFixtureTests {
    @Test(arguments: Fixtures.sharedFiles(in: "console"))
    func everyLineThatLooksLikeATestEventIsPlaced(_ fixture: String) throws {
        let parsed = try parse(fixture)
        #expect(parsed.unplacedEventLines == 0, "unplaced: \(parsed.unplacedSamples)")
        #expect(parsed.lineCount > 0)
    }

    /// Every console file shared/fixtures/README.md lists is there (the list grows as fixtures are added).
    @Test func fixturesArePresent() throws {
        let listed = try Fixtures.sharedText("README.md").split(separator: "\n").filter { $0.hasPrefix("| console/") }.count
        #expect(listed >= 10)
        #expect(Fixtures.sharedFiles(in: "console").count == listed, "shared/fixtures/console not found at \(Fixtures.shared)")
    }

    @Test func mixedLinuxLog() throws {
        let parsed = try parse("console/xcbeautify__TestData__MixedTestLog_6_0_Linux.txt")
        #expect(parsed.run.results.count == 6)
        let failure = try result(parsed, "CaptureGroupTests.testForceFailure")
        #expect(failure.status == .failed)
        #expect(failure.failureMessage == "XCTAssertTrue failed - True is never false.")
        #expect(failure.failureLocation == SourceLocation(file: "/home/runner/work/xcbeautify/xcbeautify/Tests/XcbeautifyLibTests/CaptureGroupTests.swift", line: 34, column: 0))
        #expect(failure.duration == 0.001)
        #expect(try result(parsed, "CaptureGroupTests.testMatchSwiftTestingIssueArgument1").duration == 0.002)
        let swiftFailure = try result(parsed, "testFailTrueIsFalse()")
        #expect(swiftFailure.status == .failed)
        #expect(swiftFailure.failures == [TestFailure(message: "Expectation failed: true == false", location: SourceLocation(file: "Test.swift", line: 17, column: 9))])
        #expect(try result(parsed, "testTrueIsTrue()").status == .passed)
    }

    @Test func macOSLogUsesModuleQualifiedClasses() throws {
        let parsed = try parse("console/xcbeautify__TestData__MixedTestLog_6_0_macOS.txt")
        #expect(parsed.run.results.count == 6)
        let failure = try result(parsed, "XcbeautifyLibTests.CaptureGroupTests.testForceFailure")
        #expect(failure.suite == "XcbeautifyLibTests.CaptureGroupTests")
        #expect(failure.name == "testForceFailure")
        #expect(failure.duration == 0.163)
        #expect(failure.failureLocation?.line == 34)
    }

    @Test func parallelXcodebuildLog() throws {
        let parsed = try parse("console/xcbeautify__TestData__ParallelTestLog.txt")
        #expect(parsed.run.results.count == 21)
        #expect(try result(parsed, "BuildFlagTests.test_failIntentionally").status == .failed)
        #expect(try result(parsed, "BuildFlagTests.test_failIntentionally").duration == 0.278)
        #expect(try result(parsed, "UserCoordinatorTests.test_resetPassword_requestSucceeds_completionCalledWithSuccess").status == .skipped)
        #expect(parsed.run.count(.passed) == 19)
    }

    @Test func parallelXcodebuildWithFailingTestsSummary() throws {
        let parsed = try parse("console/fastlane__scan_spec_fixtures__parallel_testing_failure.log")
        #expect(parsed.run.results.count == 18)
        #expect(parsed.run.failing.map(\.testIdentifier) == ["TestingTestTests.testFailure"])
    }

    @Test func aCrashRestartFailsTheTestThatWasRunning() throws {
        let parsed = try parse("console/fastlane__scan_spec_fixtures__non_parallel_testing_failure.log")
        let crashed = try result(parsed, "TestingTestTests.TestingTestTests.testFailure")
        #expect(crashed.status == .failed)
        #expect(crashed.failureMessage?.contains("exited unexpectedly") == true)
        #expect(crashed.failureMessage?.contains("Fatal error: Unexpectedly found nil while unwrapping an Optional value") == true)
        #expect(try result(parsed, "TestingTestTests.TestingTestTests.testH").status == .passed)
        #expect(parsed.run.failing.count == 1)
    }

    @Test func theBoringLogsThreeTestsPassIncludingAMeasuredOne() throws {
        // The fixture index calls it a build log "without tests"; it holds three passing ones.
        let parsed = try parse("console/fastlane__scan_spec_fixtures__boring.log")
        #expect(parsed.run.results.map(\.testIdentifier) == ["appTests.testExample", "appTests.testPerformanceExample", "appUITests.testExample"])
        #expect(parsed.run.results.allSatisfy { $0.status == .passed })
        #expect(try result(parsed, "appUITests.testExample").duration == 4.265)
    }

    @Test func xctestLog() throws {
        let parsed = try parse("console/xcbeautify__TestData__TestLog.txt")
        let failure = try result(parsed, "XcbeautifyLibTests.XcbeautifyLibTests.testAggregateTarget")
        #expect(failure.status == .failed)
        #expect(failure.failureMessage?.hasPrefix("XCTAssertEqual failed: (\"Optional(\"Aggregate target Be Aggro") == true)
        // And the two tests xcodebuild restarted after a crash, named only by their restart lines.
        #expect(parsed.run.failing.map(\.testIdentifier) == ["XcbeautifyLibTests.XcbeautifyLibTests.testAggregateTarget", "SwiftTests.testExample", "ObjCTests.testExample"])
    }

    @Test func swiftTestingWithSFSymbols() throws {
        let parsed = try parse("console/xcbeautify__TestData__demo_swift_testing_log.txt")
        #expect(parsed.run.results.count == 3)
        #expect(try result(parsed, "example()").status == .passed)
        let skipped = try result(parsed, "skippedTest()")
        #expect(skipped.status == .skipped)
        #expect(skipped.skipReason == "Skipping this test")
        let failed = try result(parsed, "secondExample()")
        #expect(failed.failures == [TestFailure(message: "Expectation failed: true == false", location: SourceLocation(file: "DemoSwiftTestingTests.swift", line: 11, column: 5))])
    }

    @Test func swiftTestingIssuesAreKeptPerTest() throws {
        let parsed = try parse("console/xcbeautify__TestData__spi_swift_testing_short_log.txt")
        #expect(parsed.run.results.count == 4)
        #expect(parsed.run.failing.count == 3)
        let failure = try result(parsed, "analyze_dumpPackage_missing_manifest()")
        #expect(failure.failureLocation == SourceLocation(file: "AnalyzeErrorTests.swift", line: 149, column: 6))
        #expect(failure.failureMessage?.hasPrefix("Caught error: PSQLError") == true)
    }

    @Test func swiftTestingRepositoryLog() throws {
        let parsed = try parse("console/xcbeautify__TestData__swift_test_log_macOS.txt")
        #expect(try result(parsed, "Repeated calls to #expect() run in reasonable time").skipReason == "time-sensitive")
        #expect(try result(parsed, "Dumping a Runner.Plan").status == .skipped)
        let parameterized = try result(parsed, "Different kinds of functions are handled correctly")
        #expect(parameterized.status == .failed)
        #expect(parameterized.failures.count == 5)
        #expect(try result(parsed, "Selected tests by ID").status == .failed)
        #expect(parsed.run.count(.unfinished) == 0)
    }
}

@Suite struct CapturedOutputTests {
    func captured(_ name: String) throws -> ParsedTests {
        ConsoleTestParser.parse(try String(contentsOfFile: Fixtures.own + "/captured/" + name, encoding: .utf8))
    }

    /// `swift test` of a package that does not compile (SwiftPM 6.3.1): the compiler's error, its
    /// quoted source, then SwiftPM's `error: fatalError`, which is one build error, not two.
    @Test func aRedBuildIsItsCompilerErrorsAloneNotSwiftPMsSummary() throws {
        var parser = ConsoleTestParser()
        var text = try String(contentsOfFile: Fixtures.own + "/captured/red-build-swift-test-linux-6.3.1.txt", encoding: .utf8)
        #expect(text.contains("\nerror: fatalError"), "the capture ends with SwiftPM's summary")
        text.withUTF8 { parser.consume(UnsafeRawBufferPointer($0)) }
        #expect(parser.compilerErrors == ["/tmp/redpkg/Sources/Red/Red.swift:1:33: error: cannot find 'undefinedThing' in scope"])
        #expect(parser.compilerErrorCount == 1)
        let failures = parser.compilerErrors.map(BuildErrors.failure(fromLine:))
        #expect(failures.map(\.location) == [SourceLocation(file: "/tmp/redpkg/Sources/Red/Red.swift", line: 1, column: 33)])
        let parsed = parser.finish()
        #expect(parsed.run.results.isEmpty && parsed.unplacedEventLines == 0)
    }

    @Test func swiftTestOnLinux() throws {
        let parsed = try captured("sample-swift-test-linux-6.3.1.txt")
        #expect(parsed.unplacedEventLines == 0)
        let statuses = Dictionary(parsed.run.results.map { ($0.testIdentifier, $0.status) }, uniquingKeysWith: { $1 })
        #expect(statuses == [
            "ArithmeticTests.test_add_fails": .failed, "ArithmeticTests.test_add_isSkipped": .skipped, "ArithmeticTests.test_add_passes": .passed,
            "passes()": .passed, "A display name that fails": .failed, "skipped()": .skipped,
            "parameterized(value:)": .failed, "knownIssue()": .expectedFailure,
        ])
        #expect(try result(parsed, "ArithmeticTests.test_add_isSkipped").skipReason == "not on this platform")
        #expect(try result(parsed, "parameterized(value:)").failureMessage == "Expectation failed: (add(value, 0) → 2) != 2 (1 argument value → 2)")
    }

    @Test func swiftTestParallelOnLinux() throws {
        let parsed = try captured("sample-swift-test-parallel-linux-6.3.1.txt")
        #expect(parsed.unplacedEventLines == 0)
        #expect(try result(parsed, "ArithmeticTests.test_add_fails").status == .failed)
        // Announced, no output: passed (a skip is not visible in this mode, nor in SwiftPM's xunit).
        #expect(try result(parsed, "SampleXCTests.ArithmeticTests.test_add_passes").status == .passed)
        #expect(parsed.run.results.filter { $0.name == "test_add_fails" }.count == 1, "the announced failing test is not counted twice")
    }
}

@Suite struct ConsoleParserBehaviourTests {
    @Test func aTruncatedLogKeepsFinishedTestsAndReportsTheUnfinishedOne() throws {
        let text = try Fixtures.sharedText("console/xcbeautify__TestData__TestLog.txt")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let cut = try #require(lines.firstIndex { $0.contains("testAnalyzeTarget]' started") })
        let parsed = ConsoleTestParser.parse(lines[...cut].joined(separator: "\n"))
        let unfinished = try result(parsed, "XcbeautifyLibTests.XcbeautifyLibTests.testAnalyzeTarget")
        #expect(unfinished.status == .unfinished)
        #expect(!unfinished.passed)
        #expect(unfinished.failureMessage?.hasPrefix("did not finish") == true)
        #expect(try result(parsed, "XcbeautifyLibTests.XcbeautifyLibTests.testAnalyze").status == .passed)
    }

    @Test func bytesThatAreNotUTF8DoNotStopParsing() {
        var bytes = Array("Test Case 'A.test_one' started at x\n".utf8)
        bytes += [0xFF, 0xFE, 0x80, 10]
        bytes += Array("Test Case 'A.test_one' passed (0.5 seconds)\nTest Case 'A.test_\u{FF}two' passed (0.1 seconds)\n".utf8)
        var parser = ConsoleTestParser()
        bytes.withUnsafeBytes { parser.consume($0) }
        let parsed = parser.finish()
        #expect(parsed.run.results.map(\.testIdentifier) == ["A.test_one", "A.test_\u{FF}two"])
        #expect(parsed.run.results.first?.duration == 0.5)
    }

    @Test(arguments: [1, 7, 64, 4096])
    func chunkBoundariesDoNotMatter(chunkSize: Int) throws {
        let bytes = Array(try Fixtures.sharedData("console/xcbeautify__TestData__swift_test_log_macOS.txt"))
        let whole = ConsoleTestParser.parse(String(decoding: bytes, as: UTF8.self))
        var parser = ConsoleTestParser()
        bytes.withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                let end = min(all.count, offset + chunkSize)
                parser.consume(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                offset = end
            }
        }
        let chunked = parser.finish()
        #expect(chunked.run == whole.run)
        #expect(chunked.lineCount == whole.lineCount)
    }

    @Test func aNameThatRunsAgainWithoutARetryMarkerIsAnotherRunNotAnAttempt() {
        let parsed = ConsoleTestParser.parse("""
        Test Case '-[App.LoginTests test_login]' started.
        Test Case '-[App.LoginTests test_login]' passed (0.100 seconds).
        Test Case '-[App.LoginTests test_login]' started.
        /src/LoginTests.swift:12: error: -[App.LoginTests test_login] : XCTAssertTrue failed
        Test Case '-[App.LoginTests test_login]' failed (0.200 seconds).
        Test Case '-[App.LoginTests test_login]' started.
        Test Case '-[App.LoginTests test_login]' passed (0.300 seconds).
        """)
        #expect(parsed.run.results.map(\.status) == [.passed, .failed, .passed])
        #expect(parsed.run.results.allSatisfy { $0.attempts == 1 })
        #expect(parsed.run.count(.failed) == 1, "a failure is never hidden by a later pass of the same name")
    }

    @Test func sameNamedSwiftTestingTestsOfSeveralSuitesAreSeparateTests() {
        // Swift Testing runs suites in parallel and its console names only the function.
        let parsed = ConsoleTestParser.parse("""
        ◇ Test emitModule() started.
        ◇ Test emitModule() started.
        ◇ Test emitModule() started.
        ✘ Test emitModule() recorded an issue at BuildTests.swift:22:31: Expectation failed: 4 == 8
        ✔ Test emitModule() passed after 0.001 seconds.
        ✘ Test emitModule() failed after 0.002 seconds with 1 issue.
        ✔ Test emitModule() passed after 0.001 seconds.
        """)
        #expect(parsed.run.results.count == 3)
        #expect(parsed.run.count(.passed) == 2)
        #expect(parsed.run.count(.failed) == 1)
        let failed = parsed.run.failing.first
        #expect(failed?.testIdentifier == "emitModule()", "the console does not name the suite: none is made up")
        #expect(failed?.failureLocation == SourceLocation(file: "BuildTests.swift", line: 22, column: 31))
        #expect(parsed.run.results.allSatisfy { !$0.isFlaky && $0.attempts == 1 })
    }

    @Test func aParameterizedTestWithOneCaseFinishes() {
        let parsed = ConsoleTestParser.parse("""
        ◇ Test n(_:) started.
        ✔ Test n(_:) with 1 test case passed after 0.001 seconds.
        """)
        #expect(parsed.run.results.map(\.status) == [.passed])
    }

    @Test func aRetriedTestThatPassesIsFlaky() {
        // xcodebuild -retry-tests-on-failure (and -test-iterations) marks each run after the first.
        let parsed = ConsoleTestParser.parse("""
        Test Case '-[App.LoginTests test_login]' started (Iteration 1 of 3).
        /src/LoginTests.swift:12: error: -[App.LoginTests test_login] : XCTAssertTrue failed
        Test Case '-[App.LoginTests test_login]' failed (1.500 seconds).
        Test Case '-[App.LoginTests test_login]' started (Iteration 2 of 3).
        Test Case '-[App.LoginTests test_login]' passed (1.250 seconds).
        """)
        let test = parsed.run.results[0]
        #expect(parsed.run.results.count == 1)
        #expect(test.status == .passed)
        #expect(test.attempts == 2)
        #expect(test.isFlaky)
        #expect(test.duration == 2.75)
        #expect(test.failures.first?.location == SourceLocation(file: "/src/LoginTests.swift", line: 12, column: 0))
    }

    @Test func compilerErrorsAreNotTestFailures() {
        let parsed = ConsoleTestParser.parse("/src/App/View.swift:10:5: error: cannot find 'x' in scope\n")
        #expect(parsed.run.results.isEmpty)
        #expect(parsed.unplacedEventLines == 0)
    }

    @Test func malformedEventLinesAreCounted() {
        let parsed = ConsoleTestParser.parse("Test Case 'broken\nTest Case 'A.b' exploded (1 seconds)\n")
        #expect(parsed.unplacedEventLines == 2)
    }
}

@Suite struct AbsurdDurationTests {
    @Test func hugeAndInfiniteDurationsNeitherTrapNorWriteInvalidJSON() throws {
        let console = ConsoleTestParser.parse("""
        Test Case 'C.huge' passed (9999999999999999 seconds).
        Test Case 'C.small' passed (0.474 seconds).
        """).run
        let junit = try JUnitReader.parse(Array(#"<testsuite name="S"><testcase classname="C" name="hugeTime" time="1e309"/></testsuite>"#.utf8), file: "r.xml")
        let run = TestRun(results: console.results + junit.results)
        for format in [ReportFormat.junit, .json, .markdown, .github] { _ = format.reporter.render(run) }
        let json = ReportFormat.json.reporter.render(run)
        #expect(!json.contains("inf") && !json.contains("nan"))
        #expect(try JSONSerialization.jsonObject(with: Data(json.utf8)) is [String: Any])
        #expect(run.results.allSatisfy { $0.duration <= UITestResult.longestDuration })
    }
}
