/// The state each console dialect keeps of its own, the way xcbeautify keeps one small type per
/// pattern; the results they all add to are the parser's.
extension ConsoleTestParser {
    /// What only XCTest's and xcodebuild's console need.
    struct XCTestState {
        var lastFatalError: String?
        var inFailingTestsList = false
        /// `swift test --parallel` announces every XCTest test as `[i/n] Testing Module.Class/test` and
        /// prints the output only of failing ones; an announced test with no output passed.
        var announced: [(suite: String, name: String)] = []
        /// Tests xcodebuild said it restarts after a crash: their next run is a retry.
        var restartedKeys: Set<String> = []
        /// The XCTest message the next plain lines continue: a failure with a line break
        /// (`XCTAssertEqual failed: ("a⏎b") is not equal to …`, `XCTFail("one⏎⏎two")`) or a skip's
        /// reason goes on, blank lines included, until the next event line.
        var continued: Continued?
        var continuationLines = 0
        /// Blank lines seen since the last line of the continued message: kept only if text follows.
        var blankLinesInContinuation = 0
        /// The top suite (`All tests`, `Selected tests`) whose start was seen and whose end was not:
        /// a log cut here is an incomplete run. Nil outside a run.
        var openRun: String?
        /// The top suite's `passed|failed at …` line was seen; its `Executed N tests` line closes the run.
        var closingRun = false
    }

    /// What only Swift Testing's console needs.
    struct SwiftTestingState {
        /// Its console names a test only by its function or display name, and several suites can
        /// hold a test of the same name: the keys of the running ones, per name, in start order.
        var running: [String: [String]] = [:]
        /// The closing line said the run passed (`Test run with N tests … passed after …`).
        var runPassed = false
        /// The N of the closing line, and how many of its tests the console showed end.
        var closingCount: Int?
        var ended = 0
        /// The issue the next `↳`, `±` and indented lines describe.
        var lastIssue: IssueTarget?
        /// An issue whose argument value is a string with line breaks: its line ends inside the
        /// quotes, and the place and message come lines later (`value → "a⏎b" at F.swift:3:5: …`).
        var pendingIssue: (name: String, text: [UInt8], lines: Int)?
        /// `Test run started.` was seen and its `Test run with N tests … after …` line was not yet.
        var runOpen = false
    }

    /// What only xcbeautify's output needs (users pipe xcodebuild through it): the suite its last
    /// `Test Suite X started` named, and the test whose `✖ name, reason` lines are being gathered.
    struct XcbeautifyState {
        var suite = ""
        var failing: String?
    }
}
