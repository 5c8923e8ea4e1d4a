#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// Where a scenario stands after a run.
package enum ScenarioStatus: String, Sendable, Hashable, Codable, CaseIterable {
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

/// One test a scenario links, and how it stands.
package struct LinkedTest: Sendable {
    /// The test in the sources, when found there.
    package let test: DiscoveredTest?
    /// Its result, when the run has one (the worst, when several name it).
    package let result: UITestResult?
    /// Where it stands: passed, failed, skipped, not run or no test.
    package let status: ScenarioStatus
    /// What the catalog wrote that led to it: `test_x`, `suite LoginTests`, `tag smoke`.
    package let reference: String
    /// Whether other tests of its suite have results: its stage ran, and it did not.
    package let suiteRan: Bool
    /// A test the sources hold that a `no test` reference may mean (`test_login_ok` → `test_login_okay`).
    package let suggestion: String?
    /// Which test or result it is, to link each once.
    let identity: Int

    /// `Suite/name` as the sources or the results name it, or the reference when neither does.
    package var name: String {
        if let test { return (test.typeName.map { "\($0)/" } ?? "") + test.name }
        if let result { return (result.suite.isEmpty ? "" : "\(result.suite)/") + result.name }
        return reference
    }
}

/// One scenario's line of the matrix.
package struct ScenarioRow: Sendable {
    /// The scenario and where the catalog names it.
    package let entry: CatalogEntry
    /// Every test it links, each with its status, in catalog order.
    package let links: [LinkedTest]
    /// Where it stands: `manual`, else the worst of its links.
    package let status: ScenarioStatus
    /// Required launch arguments a linked test does not pass.
    package let missingLaunchArguments: [String]

    /// The first test found in the sources.
    package let test: DiscoveredTest?
    /// The result that decided its status (the worst link's).
    package let result: UITestResult?

    /// A row; its test and result are found once, as sorting and rendering read them often.
    init(entry: CatalogEntry, links: [LinkedTest], status: ScenarioStatus, missingLaunchArguments: [String]) {
        self.entry = entry
        self.links = links
        self.status = status
        self.missingLaunchArguments = missingLaunchArguments
        test = links.lazy.compactMap(\.test).first
        result = (links.first { $0.status == status && $0.result != nil } ?? links.first { $0.result != nil })?.result
    }

    /// The scenario.
    package var scenario: TestScenario { entry.scenario }
    /// Whether a test implements it (found in the sources, or named by a result).
    package var isImplemented: Bool { links.contains { $0.test != nil || $0.result != nil } }
}

/// Counts for one story or one priority.
package struct CoverageCount: Sendable, Hashable, Codable {
    /// Scenarios in the group.
    package var total = 0
    /// Those with a test (manual ones excluded).
    package var implemented = 0
    /// Those whose tests passed.
    package var passed = 0
    /// Those with a failing test.
    package var failed = 0
    /// Those whose worst test was skipped or disabled.
    package var skipped = 0
    /// Those with a test that has no result.
    package var notRun = 0
    /// Manual scenarios.
    package var manual = 0

    /// Creates counts.
    package init(total: Int = 0, implemented: Int = 0, passed: Int = 0, failed: Int = 0, skipped: Int = 0, notRun: Int = 0, manual: Int = 0) {
        self.total = total
        self.implemented = implemented
        self.passed = passed
        self.failed = failed
        self.skipped = skipped
        self.notRun = notRun
        self.manual = manual
    }
}

/// What the report is of: the commit, branch, time and toolchain, shown in every format.
package struct ReportStamp: Sendable, Equatable {
    /// The commit's id (abbreviated where shown).
    package var commit: String?
    /// The branch.
    package var branch: String?
    /// When the report was made (ISO 8601, UTC).
    package var date: String?
    /// The Swift toolchain (`swift --version`'s first line).
    package var toolchain: String?
    /// Whether the report is a push's (the gate then "refused the push").
    package var inPush = false

    /// Creates a stamp.
    package init(commit: String? = nil, branch: String? = nil, date: String? = nil, toolchain: String? = nil, inPush: Bool = false) {
        self.commit = commit
        self.branch = branch
        self.date = date
        self.toolchain = toolchain
        self.inPush = inPush
    }

    /// The current time as ISO 8601 in UTC, to the second.
    package static func now() -> String {
        Date().formatted(.iso8601)
    }

    /// `commit 1a2b3c4 · branch main · 2026-11-26T10:00:00Z · Swift version 6.3.1`, or nil when nothing is known.
    package var text: String? {
        let parts = [commit.map { "commit \($0.prefix(12))" }, branch.map { "branch \($0)" }, date, toolchain].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}

/// Scenarios × tests × results: the traceability report's content.
package struct TraceabilityMatrix: Sendable {
    /// One row per scenario, in catalog order.
    package let rows: [ScenarioRow]
    /// Tests that no scenario names.
    package let unmappedTests: [DiscoveredTest]
    /// Results that failed (or did not finish) that no scenario links: counted as failed in the headline.
    package let unmappedFailures: [UITestResult]
    /// How many results the run holds (`gate.minTests` checks it).
    package let resultCount: Int
    /// Story titles from the catalog.
    package let storyTitles: [String: String]
    /// Story ids in the catalog's `stories:` order.
    let storyOrder: [String]
    /// The catalog's path.
    package let catalogPath: String
    /// Whether a catalog was read (false: a report made without one, which lists the tests).
    package let catalogWasRead: Bool
    /// Failures no scenario carries, each of which refuses the gate: the run's own (a missing shard,
    /// a runner that failed before its tests) and, where there is no catalog, every failing test.
    package var runFailures: [String] = []
    /// Whether a stage failed before any test ran (a red build): then no scenario has a result, and
    /// the gate says so once (`the build failed: N scenarios have no result`), not once per scenario.
    package var buildFailed = false
    /// What the change under test does to the gate's policy that is not honoured until it is merged
    /// (a P1 scenario made manual, a lowered `gate.minTests`): shown to reviewers in every report.
    package var policyChanges: [String] = []
    /// What the report is of.
    package var stamp = ReportStamp()
    /// Each row's strip of earlier trees from the run history (parallel to `rows`; empty without a history).
    package internal(set) var histories: [[HistoryMark]] = []
    /// `traceability.linkPattern`: how a `links:` id becomes a URL.
    package var linkPattern: String?
    /// Where failure places are shown from (the repository root): absolute ones inside it become relative.
    package var root: String?

    /// Builds the matrix: each scenario's links resolved to tests by identity (TestLinker). Under
    /// `refuseWhenItsSuiteRan` (the hook), a linked test whose whole suite has no result (a UI test
    /// on a machine that runs only the flow tests of the same name, a skipped stage) does not
    /// decide its scenario's status while another linked test has a result; it is still listed.
    package init(catalog: ScenarioCatalog, inventory: TestInventory, results: [UITestResult], notRun: TraceabilityGate.NotRunRule = .refuse) {
        var linker = TestLinker(inventory: inventory, results: results)
        rows = catalog.entries.map { entry in
            let links = linker.links(entry.links)
            let deciding = notRun == .refuse ? links : links.filter { $0.status != .notRun || $0.suiteRan }
            let worst = (deciding.isEmpty ? links : deciding).map(\.status).min { $0.severity < $1.severity } ?? .noTest
            let status: ScenarioStatus = entry.scenario.requiresManualIntervention ? .manual : worst
            let missing = links.compactMap(\.test).flatMap { test in entry.scenario.requiredLaunchArguments.filter { !test.passes($0) } }
            var seen = Set<String>()
            return ScenarioRow(entry: entry, links: links, status: status, missingLaunchArguments: missing.filter { seen.insert($0).inserted })
        }
        unmappedTests = inventory.tests.indices.filter { !linker.linkedTests.contains($0) }.map { inventory.tests[$0] }
        unmappedFailures = results.indices.filter { !linker.linkedResults.contains($0) && !results[$0].passed }.map { results[$0] }
        resultCount = results.count
        storyTitles = Dictionary(catalog.stories.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        storyOrder = catalog.stories.map(\.id)
        catalogPath = catalog.path
        catalogWasRead = catalog.wasRead
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
            return TraceabilityMatrix.suite(suite, names: type)
        }
    }

    /// Whether `suite` as a person wrote it (`LoginTests`, `App.LoginTests`) names `type`, a test's
    /// type or a result's suite (`Outer.LoginTests`, `AppTests.LoginTests`).
    static func suite(_ suite: String, names type: String?) -> Bool {
        guard let type else { return false }
        let wanted = suite.split(separator: ".").last.map(String.init) ?? suite
        return type == suite || type.hasSuffix("." + wanted) || type == wanted || suite.hasSuffix("." + type)
    }

    /// `test_x()` and `test_x(value:)` → `test_x`.
    package static func bareName(_ name: String) -> String {
        guard let open = name.firstIndex(of: "(") else { return name }
        return String(name[..<open])
    }

    /// Story ids: the catalog's `stories:` order, then stories it does not list in order of appearance.
    package var stories: [String] {
        var seen = Set<String>()
        let used = Set(rows.map(\.scenario.userStory))
        return (storyOrder.filter(used.contains) + rows.map(\.scenario.userStory)).filter { seen.insert($0).inserted }
    }

    /// Counts per story, in catalog order.
    package var byStory: [(story: String, count: CoverageCount)] {
        stories.map { story in (story, Self.count(rows(story: story))) }
    }

    /// The priorities that have scenarios, P1 first: the columns of the story × priority table.
    package var priorities: [TestPriority] {
        TestPriority.allCases.filter { priority in rows.contains { $0.scenario.priority == priority } }
    }

    /// The rows of one story, of one priority when given.
    package func rows(story: String, priority: TestPriority? = nil) -> [ScenarioRow] {
        rows.filter { $0.scenario.userStory == story && (priority == nil || $0.scenario.priority == priority) }
    }

    /// Counts per priority, P1 first; priorities without scenarios are left out.
    package var byPriority: [(priority: TestPriority, count: CoverageCount)] {
        priorities.map { priority in (priority, Self.count(rows.filter { $0.scenario.priority == priority })) }
    }

    /// Counts over every scenario.
    package var total: CoverageCount { Self.count(rows) }

    /// The headline: `12 scenarios, 11 implemented, 9 passed, 1 failed, 1 skipped, 1 not run; 1 failing test no scenario names`.
    package var headline: String { "\(TextFormatting.count(total.total, "scenario")), " + counts }

    /// The headline after its scenario count: `11 implemented, 9 passed, 1 failed, …`.
    package var counts: String {
        let total = total
        var line = "\(total.implemented) implemented, \(total.passed) passed, \(total.failed) failed"
        if total.skipped > 0 { line += ", \(total.skipped) skipped" }
        if total.notRun > 0 { line += ", \(total.notRun) not run" }
        if total.manual > 0 { line += ", \(total.manual) manual" }
        if !unmappedFailures.isEmpty {
            line += "; \(TextFormatting.count(unmappedFailures.count, "failing test")) in no scenario"
        }
        return line
    }

    /// Where a failure happened, as the reader of a report wants it: relative to the repository,
    /// without a zero column.
    package func place(_ location: SourceLocation) -> String {
        var file = location.file
        if let root, file.hasPrefix(root + "/") { file = String(file.dropFirst(root.count + 1)) }
        return location.column > 0 ? "\(file):\(location.line):\(location.column)" : "\(file):\(location.line)"
    }

    /// A `links:` entry as a URL: itself when it is one, else through `linkPattern`; nil when neither,
    /// or when what it makes is not a link `LinkTarget` allows (`javascript:`, `data:`, …): the
    /// configuration refuses such a pattern, and the reports never make one a link either way.
    package func url(of reference: String) -> String? {
        let lowered = reference.lowercased()
        let url = lowered.hasPrefix("https://") || lowered.hasPrefix("http://") ? reference : linkPattern.map { $0.replacing("{id}", with: reference) }
        return url.flatMap { LinkTarget.isAllowed($0) ? $0 : nil }
    }

    static func count(_ rows: [ScenarioRow]) -> CoverageCount {
        var count = CoverageCount()
        for row in rows {
            count.total += 1
            if row.status == .manual { count.manual += 1; continue }
            if row.isImplemented { count.implemented += 1 }
            switch row.status {
            case .passed: count.passed += 1
            case .failed: count.failed += 1
            case .skipped: count.skipped += 1
            case .notRun: count.notRun += 1
            case .noTest, .manual: break
            }
        }
        return count
    }
}

extension ScenarioStatus {
    /// Lower is worse: a scenario stands as its worst link.
    var severity: Int {
        switch self {
        case .failed: return 0
        case .noTest: return 1
        case .notRun: return 2
        case .skipped: return 3
        case .passed: return 4
        case .manual: return 5
        }
    }
}

