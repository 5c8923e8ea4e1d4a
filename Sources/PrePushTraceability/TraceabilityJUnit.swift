import PrePushCore

/// The matrix as JUnit XML, for tools that read nothing else: one `<testsuite>` per story, one
/// `<testcase>` per scenario. A scenario the gate refuses is a `<failure>` (with every reason), a
/// scenario that only reports and did not pass is `<skipped>` with what it lacks. Valid against the
/// Jenkins JUnit schema (shared/fixtures/junit), as the test reports are.
enum TraceabilityJUnit {
    static func render(_ matrix: TraceabilityMatrix, gate: TraceabilityGate) -> String {
        let escape = { (text: String) in MarkupText.escape(text) }
        // The stamp goes on every suite: JUnit has no place for properties of the whole document.
        let stamped = [("commit", matrix.stamp.commit), ("branch", matrix.stamp.branch), ("date", matrix.stamp.date), ("toolchain", matrix.stamp.toolchain)]
            .compactMap { name, value in value.map { "<property name=\"\(name)\" value=\"\(escape($0))\"/>" } }
        let stamp = stamped.isEmpty ? "" : "    <properties>" + stamped.joined() + "</properties>\n"
        var suites = ""
        var totals = (tests: 0, failures: 0)
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
                // What it links, where the schema lets a test case say more than its verdict.
                var said = ["tests: " + row.links.map(\.name).joined(separator: ", ")]
                said += row.entry.links.references.map { "link: " + (matrix.url(of: $0) ?? $0) }
                cases += "      <system-out>\(text(said.joined(separator: "\n")))</system-out>\n"
                cases += "    </testcase>\n"
            }
            totals.tests += rows.count
            totals.failures += failures
            let title = matrix.storyTitles[story].map { " \($0)" } ?? ""
            suites += "  <testsuite name=\"\(escape(story + title))\" tests=\"\(rows.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\">\n"
            suites += stamp + cases + "  </testsuite>\n"
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        // The schema has no skipped count on the whole document; each suite carries its own.
        out += "<testsuites name=\"traceability\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" errors=\"0\">\n"
        out += suites + "</testsuites>\n"
        return out
    }

    static func text(_ text: String) -> String { MarkupText.escape(text, attribute: false) }
}
