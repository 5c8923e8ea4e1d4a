import PrePushCore

// MARK: - GitHub annotations

/// GitHub Actions workflow commands: one `::error` per failure of the run as a whole, then one per
/// failing test, at its failure's file and line, then a `::warning` per warning a test recorded.
public struct GitHubAnnotationsReporter: TestReporter {
    /// Annotations of each kind printed (errors, warnings); more are counted in one notice that says
    /// where they are.
    public let limit: Int

    /// Creates the reporter; `limit` annotations of each kind (`reports.annotations`).
    public init(limit: Int = GitHubAnnotationsReporter.perStepLimit) {
        self.limit = limit
    }

    /// Annotations of each kind GitHub shows for one step (its documented limit: 10 errors and 10
    /// warnings a step, 50 a job): the default.
    public static let perStepLimit = 10

    public func render(_ run: TestRun) -> String {
        let refusing = run.refusing, quarantined = run.quarantinedFailures
        let runErrors = run.runFailures.map { ("the run failed", $0) } + (run.refusal.map { [("prepush refused the run", $0)] } ?? [])
            + (run.refusedAsIncomplete ? [("the run is incomplete", run.incomplete ?? "")] : [])
        // An incomplete run that was allowed is a warning: it does not fail, and is never a whole run.
        let allowedIncomplete = run.refusedAsIncomplete ? nil : run.incomplete.map {
            WorkflowCommand.line("warning", properties: [("title", "the run is incomplete (allowed)")], message: $0) + "\n"
        }
        // The run's own failures first (a missing shard, a refusal: few, and the verdict), then what
        // GitHub can place (a red build's errors, failing tests, at their file and line), then the rest.
        let buildErrors = run.buildErrors ?? []
        let buildError = { (error: TestFailure) in
            WorkflowCommand.line("error", properties: Self.place(error.location) + [("title", "the build failed")], message: error.message) + "\n"
        }
        let failedTest = { (test: UITestResult) in annotation("error", at: test.failureLocation, of: test, message: Self.message(of: test)) }
        let errors = runErrors.lazy.map { WorkflowCommand.line("error", properties: [("title", $0.0)], message: $0.1) + "\n" }
            + buildErrors.lazy.filter { $0.location != nil }.map(buildError)
            + refusing.lazy.filter { $0.failureLocation != nil }.map(failedTest)
            + buildErrors.lazy.filter { $0.location == nil }.map(buildError)
            + refusing.lazy.filter { $0.failureLocation == nil }.map(failedTest)
        // A quarantined failure is a warning: it never refuses, and an error would say it did.
        let warnings = Array(allowedIncomplete.map { [$0] } ?? []).lazy + quarantined.lazy.map { test, reason in
                annotation("warning", at: test.failureLocation, of: test,
                           message: "quarantined (\(reason)): " + test.failures.map(\.message).joined(separator: "\n"))
            }
            + run.results.lazy.filter { $0.warnings != nil }.flatMap { test in
                (test.warnings ?? []).map { annotation("warning", at: $0.location, of: test, message: $0.message) }
            }
            + run.results.lazy.filter(\.isFlaky).map { test in
                annotation("warning", at: test.failureLocation, of: test,
                           message: "flaky: failed, then passed on attempt \(test.attempts): \(test.failures.first?.message ?? "")")
            }
        let errorCount = buildErrors.count + runErrors.count + refusing.count
        let warningCount = (allowedIncomplete == nil ? 0 : 1) + quarantined.count + run.results.reduce(0) { $0 + ($1.warnings?.count ?? 0) + ($1.isFlaky ? 1 : 0) }
        var out = errors.prefix(limit).joined() + warnings.prefix(limit).joined()
        let moreErrors = max(0, errorCount - limit), moreWarnings = max(0, warningCount - limit)
        if moreErrors + moreWarnings > 0 {
            let parts = [moreErrors > 0 ? TextFormatting.count(moreErrors, "more error") : nil,
                         moreWarnings > 0 ? TextFormatting.count(moreWarnings, "more warning") : nil].compactMap { $0 }
            out += WorkflowCommand.line("notice", properties: [("title", "not every failure is annotated")],
                                        message: "\(parts.joined(separator: " and ")) not annotated (\(limit) of each a step; reports.annotations "
                                            + "takes up to 50): see the step summary, junit.xml, results.json and results.md") + "\n"
        }
        return out
    }

    /// A failing test's messages, each once: a test retried twice recorded its one message three
    /// times, said once with the attempts (`failed on all 3 attempts`).
    static func message(of test: UITestResult) -> String {
        var seen: Set<String> = []
        let messages = test.failures.map(\.message).filter { seen.insert($0).inserted }
        let attempts = test.attempts > 1 && test.status == .failed ? " (failed on all \(test.attempts) attempts)" : ""
        return messages.joined(separator: "\n") + attempts
    }

    /// One command at `location` (when known), titled with the test.
    private func annotation(_ command: String, at location: SourceLocation?, of test: UITestResult, message: String) -> String {
        WorkflowCommand.line(command, properties: Self.place(location) + [("title", test.testIdentifier)], message: message) + "\n"
    }

    /// `file`, `line` and `col` of a place, when there is one.
    static func place(_ location: SourceLocation?) -> [(key: String, value: String)] {
        guard let location else { return [] }
        return [("file", location.file), ("line", String(location.line))] + (location.column > 0 ? [("col", String(location.column))] : [])
    }
}
