import PrePushCore
@testable import PrePushPipeline
import Testing

/// When Swift Testing's console loses the end of some tests and its closing line, a stage whose
/// exit status is the runner's says the verdict.
@Suite struct ExitStatusVerdictTests {
    let lost = TestFailure(message: "did not finish: the output ended while the test was running (a crash, a kill or a truncated log)", location: nil)

    func run(_ extra: [UITestResult] = []) -> TestRun {
        TestRun(results: [
            UITestResult(suite: "", name: "case1()", status: .passed, duration: 0.1),
            UITestResult(suite: "", name: "case2()", status: .unfinished, duration: 0, failures: [lost]),
        ] + extra)
    }

    @Test func lostEndsCountAsPassedWhenTheRunnerExitedZero() throws {
        let (trusted, count) = try #require(StageExecution.passedByExitStatus(run(), command: "swift test --skip-build"))
        #expect(count == 1)
        #expect(trusted.results.map(\.status) == [.passed, .passed])
        #expect(!trusted.hasFailures)
    }

    @Test func aPipeHidesTheRunnersStatusSoNothingIsTrusted() {
        #expect(StageExecution.passedByExitStatus(run(), command: "swift test | tee test.log") == nil)
    }

    @Test func anXCTestOrAFailedTestKeepsItsVerdict() {
        // XCTest names carry their class: its lines are never lost, so an unfinished one is real.
        let xctest = UITestResult(suite: "AppTests", name: "testHang", status: .unfinished, duration: 0, failures: [lost])
        #expect(StageExecution.passedByExitStatus(TestRun(results: [xctest]), command: "swift test") == nil)
        let failed = UITestResult(suite: "", name: "case3()", status: .failed, duration: 0,
                                  failures: [TestFailure(message: "Expectation failed", location: nil)])
        #expect(StageExecution.passedByExitStatus(run([failed]), command: "swift test") == nil)
    }
}
