/// Whether a test passed, is flaky or is broken: the one rule behind every output that says so
/// (the console, results.md/.json, junit.xml, annotations, the traceability reports), the retry
/// loop, the verdict cache, `flaky: refuse`, the run history and `prepush flaky`. To change how a
/// retry decides flaky or broken, change this file (docs/architecture.md, "Where to change what").
public enum FlakyJudgement: String, Sendable, Hashable, CaseIterable {
    /// Passed, and never failed on the way: the first attempt passed, or every attempt did.
    case passed
    /// Failed, then passed on a later attempt of the same tree (a retry within one run, or
    /// another run of the same tree in the history).
    case flaky
    /// Failed on every attempt (or did not finish): the code is broken until shown otherwise.
    case broken
    /// Not a pass or a failure to judge: skipped, or failed as expected.
    case notJudged

    /// The judgement of one test's attempts within a run, oldest first. The latest attempt decides
    /// the status (a retry runs only the tests still failing), so a pass after any failure is
    /// flaky and a failure at the end is broken.
    public init(attempts: [TestStatus]) {
        guard let last = attempts.last else { self = .notJudged; return }
        switch last {
        case .failed, .unfinished: self = .broken
        case .skipped, .expectedFailure: self = .notJudged
        case .passed: self = attempts.contains { $0 == .failed || $0 == .unfinished } ? .flaky : .passed
        }
    }

    /// The judgement of a test whose attempts are merged into one result (`merged(withRetry:)`):
    /// its status is the latest attempt's, its failures every attempt's. Passed with failures after
    /// more than one attempt is flaky; not `attempts > 1` alone: a test Xcode ran several times
    /// (`-test-iterations`) that passed every time is no flakier than one that ran once.
    public init(status: TestStatus, attempts: Int, failureCount: Int) {
        if status == .passed, attempts > 1, failureCount > 0 {
            self = .flaky
        } else {
            self.init(attempts: [status])
        }
    }

    /// Whether runs of one tree (the same tested inputs) both passed outright and did not (failed,
    /// or passed only on a retry): what `prepush flaky` counts as "passed and failed on the same
    /// tree". Only one tree's runs are given: a change between trees is a break or a fix, never flakiness.
    public static func mixed(_ runs: [FlakyJudgement]) -> Bool {
        runs.contains(.passed) && runs.contains { $0 == .broken || $0 == .flaky }
    }

    /// The word the run history stores for a judged test: `flaky` for a pass on a retry, else the
    /// test's own status (so older files, which stored only statuses, read the same).
    public static let recordedFlaky = "flaky"

    /// The judgement of a status the run history stored (`recordedFlaky` or a `TestStatus`).
    public init(recorded status: String) {
        if status == Self.recordedFlaky {
            self = .flaky
        } else {
            self.init(attempts: [TestStatus(rawValue: status) ?? .passed])
        }
    }
}

extension UITestResult {
    /// This test's judgement over its attempts (`FlakyJudgement`).
    public var judgement: FlakyJudgement {
        FlakyJudgement(status: status, attempts: attempts, failureCount: failures.count)
    }

    /// Failed at least once and then passed when retried (`judgement == .flaky`).
    public var isFlaky: Bool { judgement == .flaky }

    /// The status the run history records for this test: `flaky`, or its status.
    public var recordedStatus: String { judgement == .flaky ? FlakyJudgement.recordedFlaky : status.rawValue }
}
