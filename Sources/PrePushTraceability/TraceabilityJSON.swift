#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// The report for tools: `{"version": 2, …}` (schema in docs/traceability.md).
enum TraceabilityJSON {
    struct Document: Encodable {
        let version = 2
        let catalog: String
        let stamp: Stamp
        let gate: Gate
        let totals: CoverageCount
        let stories: [Group]
        let priorities: [Group]
        let scenarios: [Scenario]
        let unmappedFailures: [Failure]
        let unmappedTests: [Test]
    }
    struct Stamp: Encodable {
        let commit: String?
        let branch: String?
        let date: String?
        let toolchain: String?
    }
    struct Gate: Encodable {
        let blocking: [String]
        let passed: Bool
        let violations: [String]
        let unmappedFailures: String
        let minTests: Int?
        let results: Int
    }
    struct Group: Encodable {
        let name: String
        let title: String?
        let counts: CoverageCount
    }
    struct Scenario: Encodable {
        let userStory: String
        let priority: String
        let description: String
        let testMethodName: String
        let requiredLaunchArguments: [String]
        let requiresManualIntervention: Bool
        let catalogLine: Int
        let status: String
        let links: [Link]
        let allowSkip: String?
        let references: [Reference]?
        let test: Test?
        let duration: Double?
        let failureMessage: String?
        let failureLocation: String?
        let screenshotPath: String?
        let missingLaunchArguments: [String]
        let history: [Mark]?
    }
    /// One tree of a scenario's history, oldest first.
    struct Mark: Encodable {
        let tree: String?
        let status: String
        let flaky: Bool?
    }
    /// One linked test: flat, and each field only when it says something (a 2,000-scenario report
    /// stays the size it was).
    struct Link: Encodable {
        let reference: String
        let name: String
        let status: String
        let file: String?
        let line: Int?
        let duration: Double?
        let message: String?
        let place: String?
        let skipReason: String?
        let attempts: Int?
        let flaky: Bool?
        let suggestion: String?
    }
    struct Reference: Encodable {
        let id: String
        let url: String?
    }
    struct Failure: Encodable {
        let name: String
        let status: String
        let message: String?
        let place: String?
    }
    struct Test: Encodable {
        let name: String
        let type: String?
        let framework: String
        let file: String
        let line: Int
        let tags: [String]?
    }

    static func test(_ test: DiscoveredTest) -> Test {
        Test(name: test.name, type: test.typeName, framework: test.framework.rawValue, file: test.location.file, line: test.location.line,
             tags: test.tags.isEmpty ? nil : test.tags)
    }

    static func link(_ link: LinkedTest, in matrix: TraceabilityMatrix) -> Link {
        let result = link.result
        return Link(reference: link.reference, name: link.name, status: link.status.rawValue, file: link.test?.location.file, line: link.test?.location.line,
                    duration: result?.duration, message: result?.failureMessage, place: result.flatMap(matrix.failurePlace), skipReason: result?.skipReason,
                    attempts: result.flatMap { $0.attempts > 1 ? $0.attempts : nil }, flaky: result?.isFlaky == true ? true : nil, suggestion: link.suggestion)
    }

    static func scenario(_ row: ScenarioRow, history: [HistoryMark], in matrix: TraceabilityMatrix) -> Scenario {
        Scenario(userStory: row.scenario.userStory, priority: row.scenario.priority.rawValue, description: row.scenario.description,
                 testMethodName: row.scenario.testMethodName, requiredLaunchArguments: row.scenario.requiredLaunchArguments,
                 requiresManualIntervention: row.scenario.requiresManualIntervention, catalogLine: row.entry.location.line,
                 status: row.status.rawValue, links: row.links.map { link($0, in: matrix) }, allowSkip: row.entry.links.allowSkip,
                 references: row.entry.links.references.isEmpty ? nil : row.entry.links.references.map { Reference(id: $0, url: matrix.url(of: $0)) },
                 test: row.test.map(test), duration: row.result?.duration,
                 failureMessage: row.status == .failed ? row.result?.failureMessage : nil,
                 failureLocation: row.status == .failed ? row.result.flatMap(matrix.failurePlace) : nil,
                 screenshotPath: row.result?.screenshotPath, missingLaunchArguments: row.missingLaunchArguments,
                 history: history.isEmpty ? nil : history.map { Mark(tree: $0.tree, status: $0.status.rawValue, flaky: $0.flaky ? true : nil) })
    }

    static func render(_ matrix: TraceabilityMatrix, gate: TraceabilityGate) -> String {
        let violations = gate.violations(in: matrix)
        let stamp = matrix.stamp
        let document = Document(
            catalog: matrix.catalogPath,
            stamp: Stamp(commit: stamp.commit, branch: stamp.branch, date: stamp.date, toolchain: stamp.toolchain),
            gate: Gate(blocking: gate.blocking.sorted().map(\.rawValue), passed: violations.isEmpty, violations: violations,
                       unmappedFailures: gate.unmappedFailures.rawValue, minTests: gate.minTests, results: matrix.resultCount),
            totals: matrix.total,
            stories: matrix.byStory.map { Group(name: $0.story, title: matrix.storyTitles[$0.story], counts: $0.count) },
            priorities: matrix.byPriority.map { Group(name: $0.priority.rawValue, title: nil, counts: $0.count) },
            scenarios: matrix.rows.indices.map { scenario(matrix.rows[$0], history: matrix.histories.isEmpty ? [] : matrix.histories[$0], in: matrix) },
            unmappedFailures: matrix.unmappedFailures.map { result in
                Failure(name: TraceabilityGate.name(of: result), status: result.status.rawValue, message: result.failureMessage,
                        place: matrix.failurePlace(result))
            },
            unmappedTests: matrix.unmappedTests.map(test))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(document)).map { String(decoding: $0, as: UTF8.self) } ?? "{}") + "\n"
    }
}
