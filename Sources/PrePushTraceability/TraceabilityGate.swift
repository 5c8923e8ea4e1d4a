import PrePushCore

/// Which scenarios may refuse a push, and what counts as proven.
package struct TraceabilityGate: Sendable, Equatable {
    /// When a blocking scenario's test has no result.
    package enum NotRunRule: String, Sendable, Equatable {
        /// It refuses: `prepush report` and CI, where a missing or truncated results file must not pass.
        case refuse
        /// It refuses when other tests of its suite ran (its stage ran, it did not); a stage the
        /// user skipped is said, not refused. The hook's rule.
        case refuseWhenItsSuiteRan
    }

    /// What a failing test that no scenario names does (`gate.unmappedFailures`).
    package enum UnmappedFailureRule: String, Sendable, Equatable, CaseIterable {
        /// It is counted and listed, and refuses nothing.
        case warn
        /// It refuses.
        case refuse
    }

    /// Priorities whose failing, skipped, not run or test-less scenario, or test missing a
    /// required launch argument, refuses the push; the others only report.
    package var blocking: Set<TestPriority>
    /// Quarantined tests: a blocking scenario whose test is one counts as uncovered.
    package var quarantine = Quarantine()
    /// When a linked test with no result refuses.
    package var notRun = NotRunRule.refuse
    /// Whether a failing test no scenario names refuses.
    package var unmappedFailures = UnmappedFailureRule.warn
    /// Fewer results than this refuse: a truncated or forgotten results file (`gate.minTests`).
    package var minTests: Int?

    /// The default: P1 blocks, P2 and P3 report.
    package init(blocking: Set<TestPriority> = [.p1]) {
        self.blocking = blocking
    }

    /// Why the push is refused, one line per problem; empty when it may go.
    package func violations(in matrix: TraceabilityMatrix) -> [String] {
        var lines = matrix.runFailures.map { "the run failed: \($0)" }
        if let minTests, matrix.resultCount < minTests {
            lines.append("the results hold \(TextFormatting.count(matrix.resultCount, "test")), fewer than gate.minTests (\(minTests)): a results file is missing or cut short")
        }
        // A red build ran no test: one line says why no scenario has a result, rather than one per scenario.
        let buildFailed = matrix.buildFailed && matrix.resultCount == 0
        var withoutResult = 0
        for row in matrix.rows {
            let rowLines = violations(of: row, in: matrix, listingNotRun: !buildFailed)
            if buildFailed, blocking.contains(row.scenario.priority), row.status != .manual, row.links.contains(where: { notRunRefuses($0) }) { withoutResult += 1 }
            lines += rowLines
        }
        if withoutResult > 0 {
            lines.append("the build failed: \(TextFormatting.count(withoutResult, "scenario")) \(withoutResult == 1 ? "has" : "have") no result")
        }
        if unmappedFailures == .refuse {
            lines += matrix.unmappedFailures.map { result in
                "\(Self.name(of: result)) failed and no scenario names it (gate.unmappedFailures: refuse)" + (result.failureMessage.map { ": \($0)" } ?? "")
            }
        }
        return lines
    }

    /// Whether a link without a result refuses under `notRun`.
    func notRunRefuses(_ link: LinkedTest) -> Bool {
        link.status == .notRun && (notRun == .refuse || link.suiteRan)
    }

    /// What refuses in one scenario's row; a link without a result only when `listingNotRun`.
    func violations(of row: ScenarioRow, in matrix: TraceabilityMatrix, listingNotRun: Bool = true) -> [String] {
        let scenario = row.scenario
        guard blocking.contains(scenario.priority), row.status != .manual else { return [] }
        let name = "\(scenario.priority.rawValue) scenario \(row.entry.links.description) (\(scenario.userStory): \(scenario.description))"
        // With one link, the line names the scenario only; with several, each line names its test.
        let several = row.links.count > 1
        var lines: [String] = []
        for link in row.links {
            let which = several ? " (\(link.name))" : ""
            if let identifier = link.result?.testIdentifier, let reason = quarantine.reason(for: identifier) {
                lines.append("\(name) has only a quarantined test, \(identifier) (\(reason)): it counts as uncovered")
                continue
            }
            switch link.status {
            case .failed:
                let message = link.result?.failureMessage.map { ": \($0)" } ?? ""
                let place = link.result?.failureLocation.map { " (\(matrix.place($0)))" } ?? ""
                lines.append("\(name) failed\(which)\(message)\(place)")
            case .noTest:
                let hint = link.suggestion.map { " (did you mean \($0)?)" } ?? ""
                lines.append("\(name) has no test\(several ? " for \(link.reference)" : "")\(hint); catalog: \(row.entry.location)")
            case .skipped where row.entry.links.allowSkip == nil:
                let reason = link.result?.skipReason.map { ": \($0)" } ?? ""
                lines.append("\(name) was skipped\(which)\(reason); a skipped test proves nothing (allowSkip: \"why\" in the catalog accepts it)")
            case .notRun where notRunRefuses(link) && listingNotRun:
                lines.append("\(name) did not run\(which): no result names \(link.name)")
            default:
                break
            }
        }
        if !row.missingLaunchArguments.isEmpty, let test = row.test {
            lines.append("\(name): \(test.location) does not pass \(row.missingLaunchArguments.joined(separator: ", "))")
        }
        return lines
    }

    /// `Suite/name` of a result.
    static func name(of result: UITestResult) -> String {
        (result.suite.isEmpty ? "" : "\(result.suite)/") + result.name
    }
}
