import PrePushCore
@testable import PrePushPipeline
import PrePushResults
import PrePushTestSupport
import Testing

/// The pure parts of `retry:`: the filter that reruns exactly the failed tests, and the merge of
/// the attempts into one result per test.
@Suite struct RetryTests {
    @Test func theFilterNamesEachFailedTestTheWaySwiftTestIdsItsTests() throws {
        let xctest = UITestResult(suite: "CheckoutTests", name: "testPays", status: .failed, duration: 0)
        let swiftTesting = UITestResult(suite: "", name: "adds(item:)", status: .failed, duration: 0)
        let nested = UITestResult(suite: "Outer.Inner", name: "counts()", status: .failed, duration: 0)
        // The event stream's suite: the module first, nesting with `/` (`ShopTests.Outer/Inner`).
        let fromStream = UITestResult(suite: "ShopTests.Outer/Inner", name: "counts()", status: .failed, duration: 0)
        let patterns = [xctest, swiftTesting, nested, fromStream].map(Retries.filterPattern)
        #expect(patterns == [#"(^|\.)CheckoutTests/testPays$"#, #"(^|[./])adds\("#, #"(^|[./])Outer[./]Inner/counts\("#,
                             #"(^|[./])ShopTests[./]Outer[./]Inner/counts\("#])
        // What they select among the ids `swift test --filter` matches against.
        let regexes = try patterns.map { try Regex($0) }
        #expect(try regexes[0].firstMatch(in: "ShopTests.CheckoutTests/testPays") != nil)
        #expect(try regexes[0].firstMatch(in: "ShopTests.CheckoutTests/testPaysLater") == nil)
        #expect(try regexes[1].firstMatch(in: "ShopTests.BasketTests/adds(item:)/BasketTests.swift:4:6") != nil)
        #expect(try regexes[1].firstMatch(in: "ShopTests.BasketTests/addsMore()/BasketTests.swift:9:6") == nil)
        #expect(try regexes[2].firstMatch(in: "ShopTests.Outer/Inner/counts()/File.swift:1:1") != nil)
        #expect(try regexes[3].firstMatch(in: "ShopTests.Outer/Inner/counts()/File.swift:1:1") != nil)
        #expect(try regexes[3].firstMatch(in: "ShopTests.Other/Inner/counts()/File.swift:1:1") == nil)
    }

    /// Swift Testing's console names a test without its suite: a retry of a broken `compileXib()`
    /// runs all four suites' `compileXib()`, and the three that pass must not make it flaky.
    @Test func aSameNamedPassInAnotherSuiteDoesNotMakeABrokenTestFlaky() {
        let broken = UITestResult(suite: "", name: "compileXib()", status: .failed, duration: 1, failures: [TestFailure(message: "broken", location: nil)])
        let rerun = TestRun(results: [
            UITestResult(suite: "", name: "compileXib()", status: .passed, duration: 1),
            UITestResult(suite: "", name: "compileXib()", status: .failed, duration: 1, failures: [TestFailure(message: "still broken", location: nil)]),
            UITestResult(suite: "", name: "compileXib()", status: .passed, duration: 1),
        ])
        let merged = Retries.merge(TestRun(results: [broken]), with: rerun)
        #expect(merged.results.map(\.status) == [.failed])
        #expect(merged.results.first?.isFlaky == false)
        #expect(merged.results.first?.failures.map(\.message) == ["broken", "still broken"])
    }

    @Test func attemptsMergeIntoOneResultPerTest() {
        let first = TestRun(results: [
            UITestResult(suite: "A", name: "flaky", status: .failed, duration: 1, failures: [TestFailure(message: "first", location: nil)]),
            UITestResult(suite: "A", name: "broken", status: .failed, duration: 1, failures: [TestFailure(message: "one", location: nil)]),
            UITestResult(suite: "A", name: "steady", status: .passed, duration: 1),
        ], runFailures: ["crashed"])
        let rerun = TestRun(results: [
            UITestResult(suite: "A", name: "flaky", status: .passed, duration: 2),
            UITestResult(suite: "A", name: "broken", status: .failed, duration: 2, failures: [TestFailure(message: "two", location: nil)]),
        ])
        let merged = Retries.merge(first, with: rerun)
        let byName = Dictionary(uniqueKeysWithValues: merged.results.map { ($0.name, $0) })
        #expect(byName["flaky"]?.status == .passed && byName["flaky"]?.attempts == 2 && byName["flaky"]?.isFlaky == true)
        #expect(byName["flaky"]?.failures.map(\.message) == ["first"])
        #expect(byName["broken"]?.status == .failed && byName["broken"]?.attempts == 2)
        #expect(byName["broken"]?.failures.map(\.message) == ["one", "two"])
        #expect(byName["steady"]?.attempts == 1 && byName["steady"]?.isFlaky == false)
        // The run's own failure is the last attempt's: none.
        #expect(merged.runFailures.isEmpty)
    }

    @Test func anXcodebuildRetryRunsOnlyTheFailedTestsWithoutBuildingIntoItsOwnBundle() throws {
        let command = "rm -rf Build/UI.xcresult && xcodebuild clean test -scheme test -destination 'platform=iOS Simulator,name=My test phone' -only-testing:AppUITests -resultBundlePath Build/UI.xcresult | xcbeautify"
        let retry = try #require(XcodebuildRetry.command(command, attempt: "retry-1", narrowing: true, onlyTesting: ["-only-testing:AppUITests/LoginTests/testLogin"]))
        #expect(retry == "rm -rf Build/UI.retry-1.xcresult && xcodebuild '-only-testing:AppUITests/LoginTests/testLogin' test-without-building -scheme test -destination 'platform=iOS Simulator,name=My test phone' -resultBundlePath Build/UI.retry-1.xcresult | xcbeautify")
        // A test's name is the pull request's: each argument is one quoted word, never split at a
        // tab or globbed against the checkout.
        let hostile = try #require(XcodebuildRetry.command("xcodebuild test", attempt: "retry-1", narrowing: true,
                                                           onlyTesting: ["-only-testing:A/B/t\t-skip-testing:A", "-only-testing:A/B/*", "-only-testing:A/B/$(touch x)'"]))
        #expect(ShellWords.tokens(hostile).map(\.value) == ["xcodebuild", "-only-testing:A/B/t\t-skip-testing:A", "-only-testing:A/B/*", "-only-testing:A/B/$(touch x)'", "test-without-building"])
        #expect(XcodebuildRetry.breaksUnquoted("-only-testing:A/B/t\tx") && XcodebuildRetry.breaksUnquoted("-only-testing:A/*"))
        #expect(!XcodebuildRetry.breaksUnquoted("-only-testing:AppTests/Suite/signIn()"))
        // Run again whole: the same actions and selection, its own bundle.
        let whole = try #require(XcodebuildRetry.command(command, attempt: "attempt-2", narrowing: false))
        #expect(whole == command.replacing("Build/UI.xcresult", with: "Build/UI.attempt-2.xcresult"))
        // A path that needs quotes is quoted; one without the suffix gets the attempt at its end.
        #expect(XcodebuildRetry.command("xcodebuild test -resultBundlePath 'My Results/ui' -only-testing AppTests/A", attempt: "retry-2", narrowing: true,
                                        onlyTesting: ["-only-testing:AppTests/A/t"])
            == "xcodebuild '-only-testing:AppTests/A/t' test-without-building -resultBundlePath 'My Results/ui.retry-2'")
        // A command that already reads the variable (a shard) keeps its own place for it.
        #expect(XcodebuildRetry.command("xcodebuild $PREPUSH_ONLY_TESTING build-for-testing test-without-building", attempt: "retry-1", narrowing: true)
            == "xcodebuild $PREPUSH_ONLY_TESTING test-without-building")
        // Not a test run of xcodebuild: nothing to rewrite.
        #expect(XcodebuildRetry.command("xcodebuild build -scheme App", attempt: "retry-1", narrowing: true) == nil)
        #expect(XcodebuildRetry.command("swift test", attempt: "retry-1", narrowing: true) == nil)
    }

    @Test func eachFailedTestIsNamedInTheFormsXcodebuildTakes() throws {
        let fromBundle = UITestResult(suite: "Suite", name: "Signs in", status: .failed, duration: 0, selector: "AppTests/Suite/signIn()")
        let parameterized = UITestResult(suite: "Suite", name: "adds (1)", status: .failed, duration: 0, selector: "AppTests/Suite/adds(_:)")
        let fromConsole = UITestResult(suite: "AppUITests.LoginUITests", name: "testLogin", status: .failed, duration: 0)
        #expect(XcodebuildRetry.onlyTesting([fromBundle, parameterized, parameterized, fromConsole]) == [
            "-only-testing:AppTests/Suite/signIn", "-only-testing:AppTests/Suite/signIn()", "-only-testing:AppTests/Suite/signIn()()",
            "-only-testing:AppTests/Suite/adds(_:)", "-only-testing:AppUITests/LoginUITests/testLogin",
        ])
        // xcodebuild's console names XCTest tests with their module: a crash in a captured run.
        let captured = ConsoleTestParser.parse(try Fixtures.sharedText("console/fastlane__scan_spec_fixtures__non_parallel_testing_failure.log")).run
        #expect(XcodebuildRetry.onlyTesting(captured.failing) == ["-only-testing:TestingTestTests/TestingTestTests/testFailure"])
        // A console that does not name the test bundle (Linux XCTest, Swift Testing): no selection.
        #expect(XcodebuildRetry.onlyTesting([UITestResult(suite: "LoginTests", name: "testLogin", status: .failed, duration: 0)]) == nil)
    }
}
