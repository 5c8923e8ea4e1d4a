/// How one test ended.
public enum TestStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case passed
    case failed
    case skipped
    /// It failed as expected (XCTExpectFailure, Swift Testing's `withKnownIssue`): not a failure.
    case expectedFailure
    /// It started and never finished: the run crashed, was killed, or the log was cut off.
    case unfinished
}

/// The data model's test execution states in which a test can fail.
public enum TestPhase: String, Sendable, Hashable, Codable {
    case setup
    case test
    case teardown
}

/// The data model's kinds of accessibility issue, plus those prepush's source checks add, plus
/// `other` for the runtime audits the data model has no kind for (Xcode's element detection, trait,
/// action and parent/child audits): their Apple name is kept in `AccessibilityAuditResult.auditType`.
/// (The issue asked for `other(String)`; a case without a value keeps `issueType` a plain string in
/// every report and schema, and the name travels beside it.)
public enum AccessibilityIssueType: String, Sendable, Hashable, Codable, CaseIterable {
    case missingLabel
    case insufficientContrast
    case touchTargetTooSmall
    case dynamicTypeUnsupported
    case missingIdentifier
    case identifierConvention
    case missingTrait
    case other
}

/// One issue an accessibility audit reported for an element (data model: `AccessibilityAuditResult`).
public struct AccessibilityAuditResult: Sendable, Hashable, Codable {
    /// The element's identifier or description.
    public let elementIdentifier: String
    /// What kind of issue.
    public let issueType: AccessibilityIssueType
    /// The audit's own words.
    public let issueDescription: String
    /// The audit type as Apple names it (`contrast`, `hitRegion`, `elementDetection`, …), when known.
    public let auditType: String?

    /// Creates an audit result.
    public init(elementIdentifier: String, issueType: AccessibilityIssueType, issueDescription: String, auditType: String? = nil) {
        self.elementIdentifier = elementIdentifier
        self.issueType = issueType
        self.issueDescription = issueDescription
        self.auditType = auditType
    }
}

/// One recorded failure (a test can record several).
public struct TestFailure: Sendable, Hashable, Codable {
    /// The assertion's message.
    public let message: String
    /// Where it was recorded, when the output says.
    public let location: SourceLocation?

    /// The longest message kept, in bytes: a test that prints megabytes into an assertion does not
    /// grow every report by as much.
    public static let messageLimit = 4096

    /// Creates a failure; a message over `messageLimit` bytes is cut there, marked with `…`.
    public init(message: String, location: SourceLocation?) {
        if message.utf8.count > Self.messageLimit {
            var cut = message.utf8.prefix(Self.messageLimit)
            while let last = cut.last, last & 0xC0 == 0x80 { cut = cut.dropLast() }
            if let last = cut.last, last >= 0xC0 { cut = cut.dropLast() }
            self.message = String(decoding: cut, as: UTF8.self) + "…"
        } else {
            self.message = message
        }
        self.location = location
    }
}

extension UITestResult {
    /// The same result with each failure's file rewritten by `place` (repository-relative paths in
    /// reports, as the console shows them).
    public func placingFailures(_ place: (String) -> String) -> UITestResult {
        guard failures.contains(where: { $0.location.map { place($0.file) != $0.file } ?? false }) else { return self }
        return mappingFailures { failure in
            TestFailure(message: failure.message, location: failure.location.map { SourceLocation(file: place($0.file), line: $0.line, column: $0.column) })
        }
    }

    /// The same result with each failure transformed.
    public func mappingFailures(_ transform: (TestFailure) -> TestFailure) -> UITestResult {
        UITestResult(suite: suite, name: name, status: status, duration: duration, failures: failures.map(transform), phase: phase, attempts: attempts,
                     skipReason: skipReason, screenshotPath: screenshotPath, accessibilityAuditResults: accessibilityAuditResults,
                     warnings: warnings ?? [], selector: selector)
    }
}

/// The result of one test (data model: `UITestResult`), with what reports also need.
public struct UITestResult: Sendable, Hashable, Codable {
    /// `Suite.method` for XCTest, `name()` or the display name for Swift Testing. Never empty.
    /// Made from `suite` and `name` when asked for, not stored: a million-test run would otherwise
    /// hold every name twice.
    public var testIdentifier: String { suite.isEmpty ? name : "\(suite).\(name)" }
    /// Whether the test did not fail: true for passed, skipped and expected failures.
    public var passed: Bool { status != .failed && status != .unfinished }
    /// Seconds, at least 0.
    public let duration: TimeInterval
    /// The first failure's message; nil unless the test failed or did not finish.
    public var failureMessage: String? { passed ? nil : failures.first?.message }
    /// A failure screenshot (absolute path), when one was exported; nil unless the test failed.
    public let screenshotPath: String?
    /// Issues of accessibility audits the test ran, when it ran any.
    public let accessibilityAuditResults: [AccessibilityAuditResult]?

    /// The suite (XCTest class, or `SwiftTesting` when the console does not say).
    public let suite: String
    /// The test's own name within the suite.
    public let name: String
    /// How it ended.
    public let status: TestStatus
    /// Every failure it recorded, in order.
    public let failures: [TestFailure]
    /// When it failed: in setUp, the test body, or tearDown, when known.
    public let phase: TestPhase?
    /// How many times it ran (more than 1 with retries).
    public let attempts: Int
    /// Why it was skipped, when it was.
    public let skipReason: String?
    /// Issues the test recorded as warnings (Swift Testing's `Issue.record(…, severity: .warning)`):
    /// shown in reports, never a failure. Nil when there are none, so results.json of a run
    /// without warnings reads as it always did.
    public let warnings: [TestFailure]?
    /// How `xcodebuild -only-testing:` names the test: its test bundle, then the result bundle's
    /// identifier (`AppUITests/LoginUITests/testLogin()`), when the input tells (an xcresult's test
    /// nodes); nil otherwise. What a retry of an xcodebuild stage selects the test by.
    public let selector: String?

    /// Creates a result; `passed` and `failureMessage` follow from `status` and `failures`.
    public init(suite: String, name: String, status: TestStatus, duration: TimeInterval, failures: [TestFailure] = [],
                phase: TestPhase? = nil, attempts: Int = 1, skipReason: String? = nil, screenshotPath: String? = nil,
                accessibilityAuditResults: [AccessibilityAuditResult]? = nil, warnings: [TestFailure] = [], selector: String? = nil) {
        let passed = status != .failed && status != .unfinished
        self.selector = selector.map { Self.bounded($0, to: 2 * Self.nameLimit) }
        self.warnings = warnings.isEmpty ? nil : warnings
        self.suite = Self.bounded(suite, to: Self.nameLimit)
        self.name = Self.bounded(name, to: Self.nameLimit)
        self.status = status
        self.duration = Self.saneDuration(duration)
        self.failures = failures
        self.phase = passed ? nil : phase
        self.attempts = max(1, attempts)
        self.skipReason = skipReason.map { Self.bounded($0, to: TestFailure.messageLimit) }
        self.screenshotPath = passed ? nil : screenshotPath
        // Whatever format the result came from (console, JUnit, xcresult), a failure that is a
        // runtime accessibility audit's finding becomes an audit result of the test.
        if accessibilityAuditResults == nil, !passed, !failures.isEmpty {
            let found = failures.flatMap { AccessibilityAuditMapping.results(fromFailureMessage: $0.message) }
            self.accessibilityAuditResults = found.isEmpty ? nil : found
        } else {
            self.accessibilityAuditResults = accessibilityAuditResults
        }
    }

    /// The longest suite or test name kept, in bytes. Real names are under 200; a test source can
    /// make them as long as it likes (2,000 failing tests named with 60 KB each made 600 MB of
    /// reports and minutes of work after the stage).
    public static let nameLimit = 1_000

    /// `text` when it fits in `limit` UTF-8 bytes; else its start, `…` and a hash of the whole, so
    /// two long names that start alike stay two names.
    public static func bounded(_ text: String, to limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var cut = text.utf8.prefix(limit - 20)
        while let last = cut.last, last & 0xC0 == 0x80 { cut = cut.dropLast() }
        if let last = cut.last, last >= 0xC0 { cut = cut.dropLast() }
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        return String(decoding: cut, as: UTF8.self) + "…#" + String(hash, radix: 16)
    }

    /// The longest duration a result keeps, in seconds (about 115 days): readers meet `1e309`,
    /// `9999999999999999 seconds` and `inf` in damaged or hostile input, and no writer may trap on them.
    public static let longestDuration: TimeInterval = 10_000_000

    /// `seconds` made safe for every writer: NaN or negative is 0; infinite or absurd is
    /// `longestDuration`, a value no real test reaches, so a reader can count what was cut and say so.
    public static func saneDuration(_ seconds: Double) -> TimeInterval {
        guard !seconds.isNaN, seconds > 0 else { return 0 }
        return min(seconds, longestDuration)
    }

    /// Whether this result's duration was cut to `longestDuration` (infinite or absurd in the input).
    public var durationWasCut: Bool { duration >= Self.longestDuration }

    /// This test merged with a later run of it (a retry): attempts and durations add up, failures
    /// are kept (at most `failureLimit`), and the later run decides the status — so a test that
    /// failed and then passed comes out as passed with its failures, which `FlakyJudgement` reads as flaky.
    public func merged(withRetry later: UITestResult, failureLimit: Int = 10) -> UITestResult {
        UITestResult(suite: later.suite, name: later.name, status: later.status, duration: duration + later.duration,
                     failures: Array((failures + later.failures).prefix(failureLimit)),
                     phase: later.phase ?? phase, attempts: attempts + later.attempts,
                     skipReason: later.skipReason, screenshotPath: later.screenshotPath ?? screenshotPath,
                     accessibilityAuditResults: later.accessibilityAuditResults ?? accessibilityAuditResults,
                     warnings: Array(((warnings ?? []) + (later.warnings ?? [])).prefix(failureLimit)), selector: later.selector ?? selector)
    }

    /// This result under its full identity (`TestIdentities`), everything else kept.
    public func identified(suite: String, name: String) -> UITestResult {
        UITestResult(suite: suite, name: name, status: status, duration: duration, failures: failures, phase: phase,
                     attempts: attempts, skipReason: skipReason, screenshotPath: screenshotPath,
                     accessibilityAuditResults: accessibilityAuditResults, warnings: warnings ?? [], selector: selector)
    }

    /// This result with a screenshot attached (kept only when the test failed).
    public func withScreenshot(_ path: String) -> UITestResult {
        UITestResult(suite: suite, name: name, status: status, duration: duration, failures: failures, phase: phase,
                     attempts: attempts, skipReason: skipReason, screenshotPath: path,
                     accessibilityAuditResults: accessibilityAuditResults, warnings: warnings ?? [], selector: selector)
    }

    /// The first failure's location.
    public var failureLocation: SourceLocation? { failures.first?.location }
}

/// The results of one run of tests, in the order they finished.
public struct TestRun: Sendable, Hashable, Codable {
    /// Every test.
    public var results: [UITestResult]
    /// Failures of the run as a whole that no test carries: the runner never started its tests
    /// (xcodebuild's "Early unexpected exit"), or a summary said the run failed and no test failure was shown.
    public var runFailures: [String] = []
    /// Seconds from the run's start to its end, when the input tells (an event stream's first and
    /// last instants; the stages' own clock). Tests run in parallel, so this is not their sum.
    public var wallTime: Double?
    /// The part of a split suite this run is (`prepush run --shard 2/4`), kept in results.json so
    /// that merging the shards can tell a missing or repeated one.
    public var shard: TestShard?
    /// The toolchain the tests ran with (`Swift version 6.3.1 (…)`), kept in results.json so a
    /// report made later, on another machine, names it.
    public var toolchain: String?
    /// What the runner's own summary counted, when the input is a summary that names only the
    /// failing tests, or none (`xcresulttool get test-results summary`, an `ActionsInvocationRecord`).
    public var counted: TestCounts?
    /// Why the run was refused when its tests do not show it (a stage that timed out after its
    /// last test passed, the traceability gate, `flaky: refuse`): every report states it, so no
    /// report of a refused run reads as passed. Nil when the run was not refused, or its failures say so.
    public var refusal: String?
    /// The failing tests `quarantine:` excuses, by identifier, with why: reported as quarantined
    /// failures (warnings), never as the run's failures.
    public var quarantined: [String: String]?
    /// The compiler's and tools' errors of a stage that failed before its tests ran (a red build),
    /// with their places: every report says the build failed, and each error is annotated.
    public var buildErrors: [TestFailure]?
    /// The stages that failed before their tests ran, and the last lines of their logs: what a red
    /// build's summary shows after its errors (a linker or script failure has no `error:` line).
    public var buildLogs: [BuildLog]?
    /// The run of prepush that wrote this run's results.json (its commit, CI run and job): the merge
    /// of shards takes only shards of its own run and commit. Nil for any other input.
    public var provenance: RunProvenance?
    /// Why the input is not the whole run, when it is not: the output shows the run starting and
    /// not ending (a log cut off, a runner killed between two tests). Such a run fails, unless
    /// `incompleteAllowed`; every report says it either way, so none claims a complete run.
    public var incomplete: String?
    /// True when `incomplete` was allowed (`--allow-incomplete`, or a push stage whose exit status 0
    /// is its runner's verdict): said in every report, not a failure. Nil otherwise.
    public var incompleteAllowed: Bool?

    /// Creates a run.
    public init(results: [UITestResult] = [], runFailures: [String] = [], wallTime: Double? = nil, shard: TestShard? = nil) {
        self.results = results
        self.runFailures = runFailures
        self.wallTime = wallTime
        self.shard = shard
    }

    /// The run's time as a reader means it: the wall time when known, else the tests' durations added up.
    public var elapsed: Double { wallTime ?? totalDuration }

    /// A test failed or did not finish, or the run itself failed.
    public var hasFailures: Bool {
        !runFailures.isEmpty || !(buildErrors ?? []).isEmpty || results.contains { !$0.passed } || (counted?.failed ?? 0) > 0
    }

    /// Whether there is anything to report: tests, failures of the run or its build, a shard, or a summary's counts.
    public var isEmpty: Bool { results.isEmpty && runFailures.isEmpty && (buildErrors ?? []).isEmpty && shard == nil && counted == nil }

    /// How many tests have `status`.
    public func count(_ status: TestStatus) -> Int {
        var count = 0
        for result in results where result.status == status { count += 1 }
        return count
    }

    /// Tests that failed or did not finish.
    public var failing: [UITestResult] { results.filter { !$0.passed } }

    /// Failing tests that count against the run: those `quarantined` does not excuse.
    public var refusing: [UITestResult] {
        guard let quarantined, !quarantined.isEmpty else { return failing }
        return results.filter { !$0.passed && quarantined[$0.testIdentifier] == nil }
    }

    /// Failing tests `quarantined` excuses, with why.
    public var quarantinedFailures: [(test: UITestResult, reason: String)] {
        guard let quarantined, !quarantined.isEmpty else { return [] }
        return results.compactMap { test in test.passed ? nil : quarantined[test.testIdentifier].map { (test, $0) } }
    }

    /// The run's verdict as every report states it: passed only when no test counts against it,
    /// the run itself did not fail, the runner's counts show no failure and nothing refused it.
    /// The one check each writer asks (issue 35: a refused run never writes ✅).
    public var passedOverall: Bool {
        refusal == nil && runFailures.isEmpty && (buildErrors ?? []).isEmpty && refusing.isEmpty
            && (counted?.failed ?? 0) <= failing.count - refusing.count && !refusedAsIncomplete
    }

    /// Whether the run fails for being incomplete alone: it is, and that was not allowed.
    public var refusedAsIncomplete: Bool { incomplete != nil && incompleteAllowed != true }

    /// This run with an incomplete input allowed (`--allow-incomplete`); as it is when complete.
    public func allowingIncomplete() -> TestRun {
        guard incomplete != nil else { return self }
        var allowed = self
        allowed.incompleteAllowed = true
        return allowed
    }

    /// The run's counts as every output states them (console, results.md, results.json, junit.xml,
    /// the step outputs): a failing or unfinished test that `quarantined` excuses is counted once,
    /// as quarantined, never as failed or unfinished.
    public var tally: Tally {
        var tally = Tally()
        for test in results {
            tally.tests += 1
            if test.judgement == .flaky { tally.flaky += 1 }
            if !test.passed, quarantined?[test.testIdentifier] != nil { tally.quarantined += 1; continue }
            switch test.status {
            case .passed: tally.passed += 1
            case .failed: tally.failed += 1
            case .unfinished: tally.unfinished += 1
            case .skipped: tally.skipped += 1
            case .expectedFailure: tally.expectedFailures += 1
            }
        }
        return tally
    }

    /// How many tests ended each way; every test is in exactly one of `passed`, `failed`,
    /// `unfinished`, `quarantined`, `skipped` and `expectedFailures`.
    public struct Tally: Sendable, Hashable {
        /// Every test.
        public var tests = 0
        /// Tests that passed (a flaky test that passed on a retry among them).
        public var passed = 0
        /// Tests that failed and count against the run.
        public var failed = 0
        /// Tests that did not finish and count against the run.
        public var unfinished = 0
        /// Tests that failed or did not finish and that quarantine excuses: they never fail the run.
        public var quarantined = 0
        /// Tests skipped.
        public var skipped = 0
        /// Tests that failed as expected.
        public var expectedFailures = 0
        /// Tests that failed, then passed on a retry (also counted in `passed`).
        public var flaky = 0
    }

    /// `success` or `failure`, the words of `$GITHUB_OUTPUT`'s `conclusion` and results.json.
    public var conclusion: String { passedOverall ? "success" : "failure" }

    /// This run with `refusal` set when it was refused (`why`) and its tests alone read as passed;
    /// with no refusal, as it is.
    public func agreeing(withRefusal why: String?) -> TestRun {
        guard let why, passedOverall else { return self }
        var refused = self
        refused.refusal = why
        return refused
    }

    /// Seconds of all tests added up.
    public var totalDuration: Double { results.reduce(0) { $0 + $1.duration } }

    /// The tests grouped by suite, suites in first-seen order.
    public var suites: [(name: String, results: [UITestResult])] {
        var order: [String] = []
        var grouped: [String: [UITestResult]] = [:]
        for result in results {
            if grouped[result.suite] == nil { order.append(result.suite) }
            grouped[result.suite, default: []].append(result)
        }
        return order.map { ($0, grouped[$0]!) }
    }
}

/// A runner's own count of a run's tests, from a summary that does not name every test.
public struct TestCounts: Sendable, Hashable, Codable {
    /// Tests run.
    public var tests: Int
    /// Tests that failed.
    public var failed: Int
    /// Tests skipped.
    public var skipped: Int

    /// Creates counts.
    public init(tests: Int, failed: Int, skipped: Int) {
        self.tests = max(0, tests)
        self.failed = max(0, failed)
        self.skipped = max(0, skipped)
    }

    /// Tests that neither failed nor were skipped.
    public var passed: Int { max(0, tests - failed - skipped) }
}

/// The end of a stage's log, kept for a build that failed before its tests ran.
public struct BuildLog: Sendable, Hashable, Codable {
    /// The stage's name (`unit`, `ui`).
    public let stage: String
    /// Its last lines, as printed.
    public let tail: [String]

    /// Creates one.
    public init(stage: String, tail: [String]) {
        self.stage = stage
        self.tail = tail
    }
}
