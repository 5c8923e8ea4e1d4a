import PrePushCore

// MARK: - Markdown

/// A summary people read in a pull request or `$GITHUB_STEP_SUMMARY`: totals, failures with their
/// messages and places, flaky tests, and the slowest tests.
public struct MarkdownReporter: TestReporter {
    /// How many of the slowest tests are listed.
    public var slowestCount = 10
    /// At most this many bytes of failures and warnings (a step summary's budget); the rest are
    /// counted in one line that says where the full list is. Nil: every one.
    public var failureBudget: Int?

    /// Creates the reporter.
    public init(failureBudget: Int? = nil) {
        self.failureBudget = failureBudget
    }

    public func render(_ run: TestRun) -> String {
        var lines = [headline(run), ""]
        if let errors = run.buildErrors, !errors.isEmpty {
            lines += errors.map { error in "- **build**: " + (describe(error.location).map { "\(MarkdownText.code($0)): " } ?? "") + cell(error.message) } + [""]
        }
        // A red build's log ends, for what has no `error:` line (a linker, a script, a missing tool):
        // fenced so that no line of it can close the block or start one.
        for log in run.buildLogs ?? [] where !log.tail.isEmpty {
            lines += ["Stage \(MarkdownText.code(log.stage)) failed before its tests ran; its log ends:", ""]
                + MarkdownText.fencedBlock(log.tail) + [""]
        }
        var budget = Budget(bytes: failureBudget)
        let failing = run.refusing
        if !run.runFailures.isEmpty || run.refusal != nil || run.incomplete != nil {
            lines += run.runFailures.map { "- **run**: \(cell($0))" } + (run.refusal.map { ["- **refused**: \(cell($0))"] } ?? [])
                + (run.incomplete.map { ["- **incomplete**: \(cell($0))" + (run.incompleteAllowed == true ? " (allowed)" : "")] } ?? []) + [""]
        }
        let tally = run.tally
        // Quarantined failures have a column of their own: a test is counted in one column only.
        lines.append("| tests | passed | failed | quarantined | skipped | expected failures | unfinished | flaky | time |")
        lines.append("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        lines.append("| \(tally.tests) | \(tally.passed) | \(tally.failed) | \(tally.quarantined) | \(tally.skipped) | \(tally.expectedFailures) | \(tally.unfinished) | \(tally.flaky) | \(TextFormatting.duration(run.elapsed)) |")
        if let counted = run.counted {
            lines += ["", "The runner's summary counts \(counted.tests) test\(counted.tests == 1 ? "" : "s"): \(counted.passed) passed, "
                      + "\(counted.failed) failed, \(counted.skipped) skipped; the input names \(run.results.isEmpty ? "none of them" : "only the failing ones")."]
        }
        let quarantined = run.quarantinedFailures
        for (title, tests) in [("Failures", failing.map { ($0, nil as String?) }), ("Quarantined failures (they never refuse)", quarantined.map { ($0.test, $0.reason) })]
        where !tests.isEmpty {
            lines += ["", "### \(title)", ""]
            for (index, (test, reason)) in tests.enumerated() {
                var entry = ["- **\(cell(test.testIdentifier))**\(test.status == .unfinished ? " (did not finish)" : "")" + (reason.map { ": quarantined: \(cell($0))" } ?? "")]
                for failure in test.failures {
                    let place = describe(failure.location).map { "\(MarkdownText.code($0)): " } ?? ""
                    entry.append("  - \(place)\(cell(failure.message))")
                }
                guard budget.spend(entry) else {
                    lines.append("- … and \(TextFormatting.count(tests.count - index, "more failure")) (full list in results.md and junit.xml)")
                    break
                }
                lines += entry
            }
        }
        // Runtime accessibility audits: how many of each kind, then each finding with its test.
        let audited = run.results.compactMap { test in test.accessibilityAuditResults.map { (test, $0) } }
        if !audited.isEmpty {
            var counts: [String: Int] = [:]
            for (_, audits) in audited { for audit in audits { counts[audit.auditType ?? audit.issueType.rawValue, default: 0] += 1 } }
            lines += ["", "### Accessibility audits", "", "| audit | issue type | findings |", "| --- | --- | ---: |"]
            for (kind, count) in counts.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
                let type = AccessibilityAuditMapping.issueType(forAuditType: kind)?.rawValue ?? kind
                lines.append("| \(cell(kind)) | \(cell(type)) | \(count) |")
            }
            lines += ["", "| test | element | audit | description |", "| --- | --- | --- | --- |"]
            for (test, audits) in audited {
                for audit in audits {
                    lines.append("| \(cell(test.testIdentifier)) | \(cell(audit.elementIdentifier)) | \(cell(audit.auditType ?? audit.issueType.rawValue)) | \(cell(audit.issueDescription)) |")
                }
            }
        }
        let warned = run.results.filter { $0.warnings != nil }
        if !warned.isEmpty {
            lines += ["", "### Warnings (not failures)", ""]
            let warnings = warned.flatMap { test in (test.warnings ?? []).map { (test, $0) } }
            for (index, (test, warning)) in warnings.enumerated() {
                let place = describe(warning.location).map { "\(MarkdownText.code($0)): " } ?? ""
                let line = "- **\(cell(test.testIdentifier))**: \(place)\(cell(warning.message))"
                guard budget.spend([line]) else {
                    lines.append("- … and \(TextFormatting.count(warnings.count - index, "more warning")) (full list in results.md)")
                    break
                }
                lines.append(line)
            }
        }
        let flaky = run.results.filter(\.isFlaky)
        if !flaky.isEmpty {
            lines += ["", "### Flaky (failed, then passed on retry)", ""]
            for test in flaky {
                lines.append("- **\(cell(test.testIdentifier))**: \(test.attempts) attempts; first failure: \(cell(test.failures.first?.message ?? ""))")
            }
        }
        let slowest = run.results.filter { $0.duration > 0 }.sorted { $0.duration > $1.duration }.prefix(slowestCount)
        if !slowest.isEmpty {
            lines += ["", "### Slowest tests", "", "| test | time |", "| --- | ---: |"]
            for test in slowest { lines.append("| \(cell(test.testIdentifier)) | \(threeDecimals(test.duration)) s |") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Bytes left for failures and warnings.
    private struct Budget {
        var bytes: Int?

        /// Takes `lines` from what is left; false (taking nothing) when they do not fit.
        mutating func spend(_ lines: [String]) -> Bool {
            guard let left = bytes else { return true }
            let cost = lines.reduce(0) { $0 + $1.utf8.count + 1 }
            guard cost <= left else { return false }
            bytes = left - cost
            return true
        }
    }

    /// The first line: ✅ only when the run passed as its exit status says (`passedOverall`).
    private func headline(_ run: TestRun) -> String {
        let failing = run.refusing
        guard run.passedOverall else {
            if !failing.isEmpty {
                return "## ❌ \(failing.count) of \(run.results.count) tests failed" + (run.runFailures.isEmpty ? "" : ", and the run failed")
            }
            if !(run.buildErrors ?? []).isEmpty, run.results.isEmpty { return "## ❌ The build failed before any test ran" }
            if run.runFailures.isEmpty, let refusal = run.refusal { return "## ❌ Refused: \(cell(refusal))" }
            if run.runFailures.isEmpty, run.refusedAsIncomplete {
                return "## ❌ Incomplete: the output ends before the run does (\(TextFormatting.count(run.results.count, "test")) shown)"
            }
            return "## ❌ The run failed"
        }
        let quarantined = run.quarantinedFailures.count
        let excused = quarantined > 0 ? ", \(quarantined) quarantined failure\(quarantined == 1 ? "" : "s")" : ""
        // An incomplete run that was allowed still never reads as a whole run that passed.
        if run.incomplete != nil { return "## ⚠️ Tests passed as far as the output goes: it ends before the run does" + excused }
        return "## ✅ Tests passed" + excused
    }

    /// Text from the run (names, messages, reasons) in a cell, list item or heading: through
    /// `MarkdownText`, so none of it becomes structure.
    private func cell(_ text: String) -> String {
        MarkdownText.text(text)
    }
}
