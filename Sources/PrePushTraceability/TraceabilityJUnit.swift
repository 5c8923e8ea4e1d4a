import PrePushCore

/// The matrix as JUnit XML, for tools that read nothing else: one `<testsuite>` per story, one
/// `<testcase>` per scenario. A scenario the gate refuses is a `<failure>` (with every reason), a
/// scenario that only reports and did not pass is `<skipped>` with what it lacks.
enum TraceabilityJUnit {
    static func render(_ matrix: TraceabilityMatrix, gate: TraceabilityGate) -> String {
        let escape = { (text: String) in MarkupText.escape(text) }
        var suites = ""
        var totals = (tests: 0, failures: 0, skipped: 0)
        for story in matrix.stories {
            let rows = matrix.rows(story: story)
            var cases = ""
            var failures = 0, skipped = 0
            for row in rows {
                let refusals = gate.violations(of: row, in: matrix)
                let name = "\(row.scenario.priority.rawValue) \(row.scenario.description)"
                let time = row.result.map { " time=\"\(TextFormatting.threeDecimals($0.duration))\"" } ?? ""
                cases += "    <testcase classname=\"\(escape(story))\" name=\"\(escape(name))\"\(time)>\n"
                let details = row.details(in: matrix).joined(separator: "\n")
                if !refusals.isEmpty || row.status == .failed {
                    failures += 1
                    let message = refusals.first ?? details
                    cases += "      <failure message=\"\(escape(message))\">\(text((refusals.isEmpty ? [details] : refusals).joined(separator: "\n")))</failure>\n"
                } else if row.status != .passed {
                    skipped += 1
                    let reason = row.status == .manual ? "manual" : details.isEmpty ? row.status.rawValue : details
                    cases += "      <skipped message=\"\(escape(reason))\"/>\n"
                }
                cases += "      <properties><property name=\"tests\" value=\"\(escape(row.links.map(\.name).joined(separator: ", ")))\"/></properties>\n"
                cases += "    </testcase>\n"
            }
            totals.tests += rows.count
            totals.failures += failures
            totals.skipped += skipped
            let title = matrix.storyTitles[story].map { " \($0)" } ?? ""
            suites += "  <testsuite name=\"\(escape(story + title))\" tests=\"\(rows.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\">\n\(cases)  </testsuite>\n"
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"traceability\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" errors=\"0\" skipped=\"\(totals.skipped)\">\n"
        out += suites + "</testsuites>\n"
        return out
    }

    static func text(_ text: String) -> String { MarkupText.escape(text, attribute: false) }
}
