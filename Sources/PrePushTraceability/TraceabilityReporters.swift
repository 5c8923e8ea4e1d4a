#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// The formats the traceability report is written in.
package enum TraceabilityFormat: String, Sendable, CaseIterable {
    case markdown
    case json
    case html
    /// One testcase per scenario, for tools that read only JUnit (`prepush report`).
    case junit

    /// What a push writes into its reports folder.
    package static let pushFormats: [TraceabilityFormat] = [.markdown, .json, .html]

    /// Every format as `--help` names them: `markdown, json, html or junit`.
    package static var helpList: String { TextFormatting.list(allCases.map(\.rawValue)).replacing(" and ", with: " or ") }

    /// The file extension of the format.
    package var fileExtension: String {
        switch self {
        case .markdown: return "md"
        case .json: return "json"
        case .html: return "html"
        case .junit: return "xml"
        }
    }

    /// Renders `matrix`; `gate` adds what would refuse a push.
    package func render(_ matrix: TraceabilityMatrix, gate: TraceabilityGate, generated: String? = nil) -> String {
        switch self {
        case .markdown: return TraceabilityMarkdown.render(matrix, gate: gate)
        case .json: return TraceabilityJSON.render(matrix, gate: gate)
        case .html: return TraceabilityHTML.render(matrix, gate: gate, generated: generated)
        case .junit: return TraceabilityJUnit.render(matrix, gate: gate)
        }
    }
}

extension ScenarioRow {
    /// `12.3 s`, or empty without a result.
    var durationText: String {
        guard let result else { return "" }
        return TraceabilityMarkdown.seconds(result.duration)
    }

    /// What the results know of each link worth saying, one line each: a failure with its place, a
    /// skip or disable reason, a flaky pass, a test with no result, a name with no test; then
    /// missing launch arguments. With several links each line names its test.
    func details(in matrix: TraceabilityMatrix) -> [String] {
        let several = links.count > 1
        var lines: [String] = []
        for link in links {
            let prefix = several ? "\(link.name): " : ""
            switch link.status {
            case .failed:
                let place = link.result?.failureLocation.map { " (\(matrix.place($0)))" } ?? ""
                lines.append(prefix + (link.result?.failureMessage ?? "failed") + place)
            case .skipped:
                let reason = link.result?.skipReason.map { ": \($0)" } ?? ""
                let allowed = entry.links.allowSkip.map { " (allowed: \($0))" } ?? ""
                lines.append(prefix + "skipped" + reason + allowed)
            case .notRun:
                lines.append(prefix + "not run: no result names it")
            case .noTest:
                lines.append("\(link.reference): no test" + (link.suggestion.map { " (did you mean \($0)?)" } ?? ""))
            case .passed:
                if let result = link.result, result.isFlaky {
                    lines.append(prefix + "flaky: passed on attempt \(result.attempts) of \(result.attempts)")
                }
            case .manual:
                break
            }
        }
        if !missingLaunchArguments.isEmpty { lines.append("does not pass " + missingLaunchArguments.joined(separator: ", ")) }
        return lines
    }

    /// `Suite/test file:line` for each linked test, or what the catalog wrote when nothing matched.
    var testNames: [(name: String, place: String?)] {
        links.map { link in (link.name, link.test.map { "\($0.location.file):\($0.location.line)" }) }
    }
}

extension TraceabilityMatrix {
    /// `Gate refused the push:` in a push, `Gate refused:` in a report made later.
    var refusedHeading: String { stamp.inPush ? "Gate refused the push" : "Gate refused" }

    /// What the gate checks, for its passed line.
    static func gateScope(_ gate: TraceabilityGate) -> String {
        "no \(gate.blocking.sorted().map(\.rawValue).joined(separator: "/")) scenario fails, is skipped, did not run or lacks a test"
    }

    /// A failing result's place, shown from the repository.
    func failurePlace(_ result: UITestResult) -> String? {
        result.failureLocation.map(place)
    }
}

/// The report for a pull request or `$GITHUB_STEP_SUMMARY`.
enum TraceabilityMarkdown {
    static let icons: [ScenarioStatus: String] = [
        .passed: "✅", .failed: "❌", .skipped: "⏭️", .notRun: "⏸️", .noTest: "🚫", .manual: "🖐️",
    ]

    /// `0.05 s`, `1.23 s`, `42 s`: a test's time in a table, where hundredths tell tests apart.
    static func seconds(_ value: Double) -> String { TextFormatting.testDuration(value) }

    /// Text for a table cell or list item, through `MarkdownText`: nothing in it becomes structure.
    static func cell(_ text: String) -> String {
        MarkdownText.text(text)
    }

    /// Several texts in one cell, one per line: each escaped, then joined with prepush's own `<br>`.
    static func cell(lines: [String]) -> String {
        lines.map(MarkdownText.text).joined(separator: "<br>")
    }

    static func coverage(_ count: CoverageCount) -> String {
        "\(count.passed)/\(count.implemented)/\(count.total - count.manual)" + (count.manual > 0 ? " +\(count.manual) manual" : "")
    }

    /// Tests listed by name before the rest are counted: a step summary must not bury the matrix.
    static let unmappedListLimit = 50

    static func render(_ matrix: TraceabilityMatrix, gate: TraceabilityGate) -> String {
        var out = "## Traceability: \(matrix.headline)\n\n"
        if let stamp = matrix.stamp.text { out += "_\(cell(stamp))_\n\n" }
        let violations = gate.violations(in: matrix)
        if violations.isEmpty {
            out += "Gate: passed (\(TraceabilityMatrix.gateScope(gate)))\n\n"
        } else {
            out += "**Gate: refused**\n\n" + violations.map { "- \(cell($0))\n" }.joined() + "\n"
        }
        if !matrix.policyChanges.isEmpty {
            out += "**Policy changes** this change makes (for review):\n\n" + matrix.policyChanges.map { "- \(cell($0))\n" }.joined() + "\n"
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
        let withHistory = matrix.histories.contains { !$0.isEmpty }
        out += "\n| | Priority | Story | Scenario | Test | Duration | Details |" + (withHistory ? " History, oldest first |" : "")
        out += "\n| --- | --- | --- | --- | --- | ---: | --- |" + (withHistory ? " --- |" : "") + "\n"
        for (index, row) in matrix.rows.enumerated() {
            let tests = row.testNames.map { MarkdownText.code($0.name, inTable: true) + ($0.place.map { " " + cell($0) } ?? "") }.joined(separator: "<br>")
            var scenario = cell(row.scenario.description)
            for reference in row.entry.links.references {
                scenario += " " + (matrix.url(of: reference).map { MarkdownText.link(reference, to: $0) } ?? cell(reference))
            }
            out += "| \(icons[row.status]!) \(row.status.rawValue) | \(row.scenario.priority.rawValue) | \(cell(row.scenario.userStory)) | "
            out += "\(scenario) | \(tests) | \(row.durationText) | \(cell(lines: row.details(in: matrix))) |"
            if withHistory {
                let marks = matrix.histories[index]
                out += " \(TraceabilityMatrix.stripText(marks))\(TraceabilityMatrix.failingSince(marks).map { " \($0)" } ?? "") |"
            }
            out += "\n"
        }
        if !matrix.unmappedFailures.isEmpty {
            out += "\n\(TextFormatting.count(matrix.unmappedFailures.count, "failing test")) in no scenario:\n\n"
            for result in matrix.unmappedFailures {
                let place = matrix.failurePlace(result).map { " " + cell($0) } ?? ""
                out += "- ❌ \(MarkdownText.code(TraceabilityGate.name(of: result))) \(result.status.rawValue)\(place)" + (result.failureMessage.map { ": \(cell($0))" } ?? "") + "\n"
            }
        }
        if !matrix.unmappedTests.isEmpty {
            out += "\n\(TextFormatting.count(matrix.unmappedTests.count, "test")) in no scenario:\n\n"
            for test in matrix.unmappedTests.prefix(unmappedListLimit) {
                out += "- \(MarkdownText.code((test.typeName.map { "\($0)/" } ?? "") + test.name)) \(cell("\(test.location.file):\(test.location.line)"))\n"
            }
            if matrix.unmappedTests.count > unmappedListLimit {
                out += "- and \(matrix.unmappedTests.count - unmappedListLimit) more (traceability.json and traceability.html list them all)\n"
            }
        }
        return out
    }
}
