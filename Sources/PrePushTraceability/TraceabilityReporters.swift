#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// The formats the traceability report is written in.
public enum TraceabilityFormat: String, Sendable, CaseIterable {
    case markdown
    case json
    case html

    /// The file extension of the format.
    public var fileExtension: String {
        switch self {
        case .markdown: return "md"
        case .json: return "json"
        case .html: return "html"
        }
    }

    /// Renders `matrix`; `gate` adds what would refuse a push.
    public func render(_ matrix: TraceabilityMatrix, gate: TraceabilityGate, generated: String? = nil) -> String {
        switch self {
        case .markdown: return TraceabilityMarkdown.render(matrix, gate: gate)
        case .json: return TraceabilityJSON.render(matrix, gate: gate)
        case .html: return TraceabilityHTML.render(matrix, gate: gate, generated: generated)
        }
    }
}

extension ScenarioRow {
    /// `12.3 s`, or empty without a result.
    var durationText: String {
        guard let result else { return "" }
        return TraceabilityMarkdown.seconds(result.duration)
    }

    /// The first failure's message, or a line about missing launch arguments.
    var problemText: String {
        if status == .failed, let message = result?.failureMessage { return message }
        if !missingLaunchArguments.isEmpty { return "does not pass " + missingLaunchArguments.joined(separator: ", ") }
        return ""
    }
}

/// The report for a pull request or `$GITHUB_STEP_SUMMARY`.
enum TraceabilityMarkdown {
    static let icons: [ScenarioStatus: String] = [
        .passed: "✅", .failed: "❌", .skipped: "⏭️", .notRun: "⏸️", .noTest: "🚫", .manual: "🖐️",
    ]

    /// `0.05 s`, `1.23 s`, `42 s`: a test's time in a table, where hundredths tell tests apart.
    static func seconds(_ value: Double) -> String { TextFormatting.testDuration(value) }

    /// Text for a table cell: `|` escaped, line breaks as `<br>`.
    static func cell(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "|": out += "\\|"
            case "\r": break
            case "\n": out += "<br>"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func coverage(_ count: CoverageCount) -> String {
        "\(count.passed)/\(count.implemented)/\(count.total - count.manual)" + (count.manual > 0 ? " +\(count.manual) manual" : "")
    }

    static func render(_ matrix: TraceabilityMatrix, gate: TraceabilityGate) -> String {
        let total = matrix.total
        var out = "## Traceability: \(total.total) scenarios, \(total.implemented) implemented, \(total.passed) passed, \(total.failed) failed"
        out += total.manual > 0 ? ", \(total.manual) manual\n\n" : "\n\n"
        let violations = gate.violations(in: matrix)
        if violations.isEmpty {
            out += "Gate: passed (blocking: \(gate.blocking.sorted().map(\.rawValue).joined(separator: ", ")))\n\n"
        } else {
            out += "**Gate: refused**\n\n" + violations.map { "- \(cell($0))\n" }.joined() + "\n"
        }
        let priorities = matrix.priorities
        out += "Passed / implemented / automated scenarios, by story and priority:\n\n"
        out += "| Story | " + priorities.map(\.rawValue).joined(separator: " | ") + " | All |\n"
        out += "| --- |" + String(repeating: " ---: |", count: priorities.count + 1) + "\n"
        for (story, count) in matrix.byStory {
            let title = matrix.storyTitles[story].map { " \($0)" } ?? ""
            out += "| \(cell(story + title)) | "
            out += priorities.map { priority in
                let group = matrix.rows(story: story, priority: priority)
                return group.isEmpty ? "" : coverage(TraceabilityMatrix.count(group))
            }.joined(separator: " | ")
            out += " | \(coverage(count)) |\n"
        }
        out += "\n| | Priority | Story | Scenario | Test | Duration | Problem |\n| --- | --- | --- | --- | --- | ---: | --- |\n"
        for row in matrix.rows {
            let test = row.test.map { "`\($0.name)` \($0.location.file):\($0.location.line)" } ?? "`\(row.scenario.testMethodName)`"
            out += "| \(icons[row.status]!) \(row.status.rawValue) | \(row.scenario.priority.rawValue) | \(cell(row.scenario.userStory)) | "
            out += "\(cell(row.scenario.description)) | \(cell(test)) | \(row.durationText) | \(cell(row.problemText)) |\n"
        }
        if !matrix.unmappedTests.isEmpty {
            out += "\n\(matrix.unmappedTests.count) test\(matrix.unmappedTests.count == 1 ? "" : "s") no scenario names:\n\n"
            for test in matrix.unmappedTests {
                out += "- `\(test.typeName.map { "\($0)." } ?? "")\(test.name)` \(test.location.file):\(test.location.line)\n"
            }
        }
        return out
    }
}

/// The report for tools: `{"version": 1, …}` (schema in docs/traceability.md).
enum TraceabilityJSON {
    struct Document: Encodable {
        let version = 1
        let catalog: String
        let gate: Gate
        let totals: CoverageCount
        let stories: [Group]
        let priorities: [Group]
        let scenarios: [Scenario]
        let unmappedTests: [Test]
    }
    struct Gate: Encodable {
        let blocking: [String]
        let passed: Bool
        let violations: [String]
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
        let test: Test?
        let duration: Double?
        let failureMessage: String?
        let failureLocation: String?
        let screenshotPath: String?
        let missingLaunchArguments: [String]
    }
    struct Test: Encodable {
        let name: String
        let type: String?
        let framework: String
        let file: String
        let line: Int
    }

    static func test(_ test: DiscoveredTest) -> Test {
        Test(name: test.name, type: test.typeName, framework: test.framework.rawValue, file: test.location.file, line: test.location.line)
    }

    static func render(_ matrix: TraceabilityMatrix, gate: TraceabilityGate) -> String {
        let violations = gate.violations(in: matrix)
        let document = Document(
            catalog: matrix.catalogPath,
            gate: Gate(blocking: gate.blocking.sorted().map(\.rawValue), passed: violations.isEmpty, violations: violations),
            totals: matrix.total,
            stories: matrix.byStory.map { Group(name: $0.story, title: matrix.storyTitles[$0.story], counts: $0.count) },
            priorities: matrix.byPriority.map { Group(name: $0.priority.rawValue, title: nil, counts: $0.count) },
            scenarios: matrix.rows.map { row in
                Scenario(userStory: row.scenario.userStory, priority: row.scenario.priority.rawValue, description: row.scenario.description,
                         testMethodName: row.scenario.testMethodName, requiredLaunchArguments: row.scenario.requiredLaunchArguments,
                         requiresManualIntervention: row.scenario.requiresManualIntervention, catalogLine: row.entry.location.line,
                         status: row.status.rawValue, test: row.test.map(test), duration: row.result?.duration,
                         failureMessage: row.status == .failed ? row.result?.failureMessage : nil,
                         failureLocation: row.status == .failed ? row.result?.failureLocation.map(\.description) : nil,
                         screenshotPath: row.result?.screenshotPath, missingLaunchArguments: row.missingLaunchArguments)
            },
            unmappedTests: matrix.unmappedTests.map(test))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(document)).map { String(decoding: $0, as: UTF8.self) } ?? "{}") + "\n"
    }
}
