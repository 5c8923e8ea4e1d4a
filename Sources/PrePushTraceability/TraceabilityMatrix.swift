import PrePushCore

/// Where a scenario stands after a run.
public enum ScenarioStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Its test passed.
    case passed
    /// Its test failed (or finished unexpectedly).
    case failed
    /// Its test was skipped.
    case skipped
    /// Its test exists but no result names it (the stage did not run it, or was skipped).
    case notRun = "not run"
    /// No test with its method name was found.
    case noTest = "no test"
    /// A person carries it out; never counted as a failure.
    case manual
}

/// One scenario's line of the matrix.
public struct ScenarioRow: Sendable {
    /// The scenario and where the catalog names it.
    public let entry: CatalogEntry
    /// The test implementing it, when found in the sources.
    public let test: DiscoveredTest?
    /// Its result, when the run has one.
    public let result: UITestResult?
    /// Where it stands.
    public let status: ScenarioStatus
    /// Required launch arguments its test does not pass.
    public let missingLaunchArguments: [String]

    /// The scenario.
    public var scenario: TestScenario { entry.scenario }
    /// Whether a test implements it (found in the sources, or named by a result).
    public var isImplemented: Bool { test != nil || result != nil }
}

/// Counts for one story or one priority.
public struct CoverageCount: Sendable, Hashable, Codable {
    /// Scenarios in the group.
    public var total = 0
    /// Those with a test (manual ones excluded).
    public var implemented = 0
    /// Those whose test passed.
    public var passed = 0
    /// Those whose test failed.
    public var failed = 0
    /// Manual scenarios.
    public var manual = 0

    /// Creates counts.
    public init(total: Int = 0, implemented: Int = 0, passed: Int = 0, failed: Int = 0, manual: Int = 0) {
        self.total = total
        self.implemented = implemented
        self.passed = passed
        self.failed = failed
        self.manual = manual
    }
}

/// Scenarios × tests × results: the traceability report's content.
public struct TraceabilityMatrix: Sendable {
    /// One row per scenario, in catalog order.
    public let rows: [ScenarioRow]
    /// Tests that no scenario names.
    public let unmappedTests: [DiscoveredTest]
    /// Story titles from the catalog.
    public let storyTitles: [String: String]
    /// The catalog's path.
    public let catalogPath: String
    /// Failures no scenario carries, each of which refuses the gate: the run's own (a missing shard,
    /// a runner that failed before its tests) and, where there is no catalog, every failing test.
    public var runFailures: [String] = []

    /// Builds the matrix. Results are matched to a scenario's test by name (`test_x` and Swift
    /// Testing's `test_x()` alike), preferring a result whose suite is the test's type.
    public init(catalog: ScenarioCatalog, inventory: TestInventory, results: [UITestResult]) {
        var resultsByName: [String: [UITestResult]] = [:]
        for result in results {
            resultsByName[Self.bareName(result.name), default: []].append(result)
            // Swift Testing's console names a test by its display name when it has one.
            if result.name != Self.bareName(result.name) || result.name.contains(" ") { resultsByName[result.name, default: []].append(result) }
        }
        var testsByName: [String: [DiscoveredTest]] = [:]
        for test in inventory.tests {
            testsByName[test.name, default: []].append(test)
            if let display = test.displayName, display != test.name { testsByName[display, default: []].append(test) }
        }

        var named = Set<DiscoveredTest>()
        rows = catalog.entries.map { entry in
            let scenario = entry.scenario
            let reference = TestReference(scenario.testMethodName)
            let candidates = (testsByName[reference.name] ?? []).filter { reference.suiteMatches($0.typeName) }
            let test = candidates.first
            named.formUnion(candidates)
            var matches = (resultsByName[reference.name] ?? []).filter { reference.suiteMatches($0.suite) }
            // A display name in the catalog, a function name in the results (an event stream), or the other way round.
            if matches.isEmpty, let test {
                matches = ((resultsByName[test.name] ?? []) + (test.displayName.flatMap { resultsByName[$0] } ?? []))
            }
            let result = matches.first { result in
                guard let type = test?.typeName else { return false }
                let last = type.split(separator: ".").last.map(String.init) ?? type
                return result.suite == type || result.suite.hasSuffix("." + last) || result.suite == last
            } ?? matches.first
            let status: ScenarioStatus
            if scenario.requiresManualIntervention {
                status = .manual
            } else if let result {
                switch result.status {
                case .passed, .expectedFailure: status = .passed
                case .skipped: status = .skipped
                case .failed, .unfinished: status = .failed
                }
            } else {
                status = test == nil ? .noTest : .notRun
            }
            let missing = test.map { test in scenario.requiredLaunchArguments.filter { !test.passes($0) } } ?? []
            return ScenarioRow(entry: entry, test: test, result: result, status: status, missingLaunchArguments: missing)
        }
        unmappedTests = inventory.tests.filter { !named.contains($0) }
        storyTitles = Dictionary(catalog.stories.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        catalogPath = catalog.path
    }

    /// A scenario's `test:`: `test_x`, `test_x()`, `Suite/function()`, `Module.Suite/function(arg:)`,
    /// or a Swift Testing display name (`Sign in works`).
    struct TestReference {
        /// The function name without its parentheses, or the display name.
        let name: String
        /// The suite it must be in, when the reference names one.
        let suite: String?

        init(_ text: String) {
            var text = text
            var suite: String?
            if !text.contains(" "), let slash = text.lastIndex(of: "/") {
                suite = String(text[..<slash])
                text = String(text[text.index(after: slash)...])
            }
            self.suite = suite
            name = text.contains(" ") ? text : TraceabilityMatrix.bareName(text)
        }

        /// Whether a test of `type` (or a result of that suite) is the one this reference means.
        func suiteMatches(_ type: String?) -> Bool {
            guard let suite else { return true }
            guard let type else { return false }
            let wanted = suite.split(separator: ".").last.map(String.init) ?? suite
            return type == suite || type.hasSuffix("." + wanted) || type == wanted || suite.hasSuffix("." + type)
        }
    }

    /// `test_x()` and `test_x(value:)` → `test_x`.
    static func bareName(_ name: String) -> String {
        guard let open = name.firstIndex(of: "(") else { return name }
        return String(name[..<open])
    }

    /// Story ids in catalog order.
    public var stories: [String] {
        var seen = Set<String>()
        return rows.map(\.scenario.userStory).filter { seen.insert($0).inserted }
    }

    /// Counts per story, in catalog order.
    public var byStory: [(story: String, count: CoverageCount)] {
        stories.map { story in (story, Self.count(rows(story: story))) }
    }

    /// The priorities that have scenarios, P1 first: the columns of the story × priority table.
    public var priorities: [TestPriority] {
        TestPriority.allCases.filter { priority in rows.contains { $0.scenario.priority == priority } }
    }

    /// The rows of one story, of one priority when given.
    public func rows(story: String, priority: TestPriority? = nil) -> [ScenarioRow] {
        rows.filter { $0.scenario.userStory == story && (priority == nil || $0.scenario.priority == priority) }
    }

    /// Counts per priority, P1 first; priorities without scenarios are left out.
    public var byPriority: [(priority: TestPriority, count: CoverageCount)] {
        priorities.map { priority in (priority, Self.count(rows.filter { $0.scenario.priority == priority })) }
    }

    /// Counts over every scenario.
    public var total: CoverageCount { Self.count(rows) }

    static func count(_ rows: [ScenarioRow]) -> CoverageCount {
        var count = CoverageCount()
        for row in rows {
            count.total += 1
            if row.status == .manual { count.manual += 1; continue }
            if row.isImplemented { count.implemented += 1 }
            if row.status == .passed { count.passed += 1 }
            if row.status == .failed { count.failed += 1 }
        }
        return count
    }
}

/// Which scenarios may refuse a push.
public struct TraceabilityGate: Sendable, Equatable {
    /// Priorities whose failing scenario, scenario without a test, or test missing a required
    /// launch argument refuses the push; the others only report.
    public var blocking: Set<TestPriority>
    /// Quarantined tests: a blocking scenario whose test is one counts as uncovered.
    public var quarantine = Quarantine()

    /// The default: P1 blocks, P2 and P3 report.
    public init(blocking: Set<TestPriority> = [.p1]) {
        self.blocking = blocking
    }

    /// Why the push is refused, one line per scenario; empty when it may go.
    public func violations(in matrix: TraceabilityMatrix) -> [String] {
        matrix.runFailures.map { "the run failed: \($0)" } + matrix.rows.compactMap { row in
            let scenario = row.scenario
            guard blocking.contains(scenario.priority), row.status != .manual else { return nil }
            let name = "\(scenario.priority.rawValue) scenario \(scenario.testMethodName) (\(scenario.userStory): \(scenario.description))"
            if let identifier = row.result?.testIdentifier, let reason = quarantine.reason(for: identifier) {
                return "\(name) has only a quarantined test, \(identifier) (\(reason)): it counts as uncovered"
            }
            switch row.status {
            case .failed:
                let message = row.result?.failureMessage.map { ": \($0)" } ?? ""
                return "\(name) failed\(message)"
            case .noTest:
                return "\(name) has no test; catalog: \(row.entry.location)"
            default:
                guard !row.missingLaunchArguments.isEmpty, let test = row.test else { return nil }
                return "\(name): \(test.location) does not pass \(row.missingLaunchArguments.joined(separator: ", "))"
            }
        }
    }
}
