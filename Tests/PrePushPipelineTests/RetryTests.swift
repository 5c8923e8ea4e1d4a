import PrePushCore
@testable import PrePushPipeline
import Testing

/// The pure parts of `retry:`: the filter that reruns exactly the failed tests, and the merge of
/// the attempts into one result per test.
@Suite struct RetryTests {
    @Test func theFilterNamesEachFailedTestTheWaySwiftTestIdsItsTests() throws {
        let xctest = UITestResult(suite: "CheckoutTests", name: "testPays", status: .failed, duration: 0)
        let swiftTesting = UITestResult(suite: "", name: "adds(item:)", status: .failed, duration: 0)
        let nested = UITestResult(suite: "Outer.Inner", name: "counts()", status: .failed, duration: 0)
        let patterns = [xctest, swiftTesting, nested].map(Retries.filterPattern)
        #expect(patterns == [#"(^|\.)CheckoutTests/testPays$"#, #"[./]adds\("#, #"[./]Outer/Inner/counts\("#])
        // What they select among the ids `swift test --filter` matches against.
        let regexes = try patterns.map { try Regex($0) }
        #expect(try regexes[0].firstMatch(in: "ShopTests.CheckoutTests/testPays") != nil)
        #expect(try regexes[0].firstMatch(in: "ShopTests.CheckoutTests/testPaysLater") == nil)
        #expect(try regexes[1].firstMatch(in: "ShopTests.BasketTests/adds(item:)/BasketTests.swift:4:6") != nil)
        #expect(try regexes[1].firstMatch(in: "ShopTests.BasketTests/addsMore()/BasketTests.swift:9:6") == nil)
        #expect(try regexes[2].firstMatch(in: "ShopTests.Outer/Inner/counts()/File.swift:1:1") != nil)
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
}
