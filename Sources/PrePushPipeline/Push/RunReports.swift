#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushResults
import PrePushTraceability

/// The reports of a run, written whatever happened to its stages: the tests' (junit.xml,
/// results.json, results.md, annotations, the step summary) and the traceability matrix's.
enum RunReports {
    /// The traceability matrix of a run and what its gate refuses, before any report is written.
    static func judgeTraceability(_ step: TraceabilityStep, _ traced: (catalog: ScenarioCatalog, inventory: TestInventory),
                                  stages: [StageResult], stamp: ReportStamp, history: String?,
                                  environment: [String: String]) -> TraceabilityStep.Judged {
        step.judge(catalog: traced.catalog, inventory: traced.inventory, results: stages.flatMap(\.tests.results), stamp: stamp, history: history,
                   environment: environment, buildFailed: stages.contains(where: failedBeforeTests))
    }

    /// Whether a stage failed before its tests ran, with a compiler's or tool's error (a red build).
    static func failedBeforeTests(_ stage: StageResult) -> Bool {
        stage.status != .passed && stage.tests.results.isEmpty && !stage.evidence.compilerErrors.isEmpty
    }

    /// Writes the traceability reports of a judged run and lists what the gate refuses; returns the files written.
    static func publishTraceability(_ step: TraceabilityStep, _ judged: TraceabilityStep.Judged, configuration: ResolvedConfiguration,
                                    checkout: Checkout?, environment: [String: String], diagnostics: Diagnostics) -> [String] {
        let written = step.publish(judged, folder: configuration.reportsDirectory, checkout: checkout, environment: environment, diagnostics: diagnostics)
        // A failure message's later lines stay under their error, as the stages' failures do.
        for violation in judged.violations { diagnostics.console.line("   error: " + violation.replacing("\n", with: "\n      "), tone: .bad) }
        return written
    }

    /// Lists the reports this run wrote in the folder's `provenance.json`, after them all: what
    /// `prepush comment` posts and a merge takes is only what this run wrote. Written even when no
    /// report was (a stage may have left files in the folder that must not pass for the run's).
    static func recordProvenance(_ written: [String], folder: String, provenance: RunProvenance, shard: TestShard?,
                                 checkout: Checkout?, diagnostics: Diagnostics) {
        do {
            try ReportFiles.recordManifest(folder: folder, written: written, provenance: provenance, shard: shard?.description,
                                           checkout: checkout, replacing: true)
        } catch {
            diagnostics.warning("could not write \(ReportManifest.fileName) in \(folder): \(error)")
        }
    }

    /// One line for every report written, paths relative to the current folder where they are inside it.
    static func sayReports(_ paths: [String], from here: String, console: Console) {
        guard !paths.isEmpty else { return }
        console.line("prepush: reports: \(paths.map { FilePath.shown($0, from: here) }.joined(separator: ", "))")
    }

    /// Writes junit.xml, results.json and results.md when the stages showed any tests, lists the
    /// failing ones compiler-style, and in GitHub Actions prints annotations and the step summary.
    /// Returns the paths written.
    @discardableResult
    static func publishTests(_ stages: [StageResult], shard: TestShard? = nil, toolchain: String? = nil, refusal: String? = nil,
                             provenance: RunProvenance? = nil, checkout: Checkout? = nil,
                             repositoryRoot: String, configuration: ResolvedConfiguration, environment: [String: String], diagnostics: Diagnostics) -> [String] {
        let console = diagnostics.console
        // Places from the repository root in the reports too, as the console shows them.
        let places = SourcePlaces(root: repositoryRoot)
        // The stages ran one after another; the tests inside them in parallel, so the wall time is the stages'.
        var run = TestRun(results: stages.flatMap(\.tests.results), runFailures: stages.flatMap(\.tests.runFailures),
                          wallTime: stages.map(\.duration).reduce(0, +), shard: shard)
        run.toolchain = toolchain
        run.provenance = provenance
        // A stage that failed before its tests ran (a red build): its errors.
        let red = stages.filter { $0.status != .passed && $0.tests.results.isEmpty }
        let buildErrors = red.flatMap(\.evidence.compilerErrors).map { BuildErrors.failure(fromLine: $0) }
        if !buildErrors.isEmpty { run.buildErrors = buildErrors }
        // Its log's end too, for what has no `error:` line; only with errors or failures to report
        // (a stage that passed nothing and failed nothing writes no reports).
        let logs = red.filter { !$0.evidence.logTail.isEmpty }.map { BuildLog(stage: $0.kind.rawValue, tail: $0.evidence.logTail) }
        if !logs.isEmpty, !buildErrors.isEmpty { run.buildLogs = logs }
        run = places.placed(run)
        // A stage whose output ends before its run does: a stage that exited 0 passes (its exit status
        // is its runner's verdict), and its reports say the run is incomplete rather than whole.
        let cut = stages.compactMap { stage in stage.tests.incomplete.map { (stage, "\(stage.kind.rawValue): \($0)") } }
        if !cut.isEmpty {
            run.incomplete = cut.map(\.1).joined(separator: "; ")
            if cut.allSatisfy({ $0.0.status == .passed }) {
                run.incompleteAllowed = true
                diagnostics.warning("\(run.incomplete ?? ""); the stage exited 0, its runner's verdict, so it passes")
            }
        }
        let results = run.results
        // Every report states the run's verdict: quarantined failures as such, and a refusal the tests do not show.
        let quarantined = Dictionary(results.filter { !$0.passed }.compactMap { test in
            configuration.quarantine.reason(for: test.testIdentifier).map { (test.testIdentifier, $0) }
        }, uniquingKeysWith: { first, _ in first })
        if !quarantined.isEmpty { run.quarantined = quarantined }
        run = run.agreeing(withRefusal: refusal)
        // Tests a stage's runner counted whose lines its console lost: in the counts, with no name.
        let unnamed = stages.reduce(0) { sum, stage in sum + max(0, (stage.tests.counted?.tests ?? 0) - stage.tests.results.count) }
        if unnamed > 0 { run.counted = TestCounts(tests: results.count + unnamed, failed: run.failing.count, skipped: run.count(.skipped)) }
        for failure in run.runFailures { console.line("   error: the test run failed: \(failure)", tone: .bad) }
        // A shard always leaves its results.json, even an empty one: the merge job counts the shards.
        guard !run.results.isEmpty || shard != nil || !buildErrors.isEmpty else { return [] }
        let publisher = ReportPublisher(environment: environment, annotationLimit: configuration.annotationLimit)
        // The same counts as every report's (`TestRun.tally`): a quarantined failure is counted once, as such.
        let tally = run.tally
        var counts = ["\(tally.passed + unnamed) passed", "\(tally.failed) failed"]
        if tally.quarantined > 0 { counts.append("\(tally.quarantined) quarantined failure\(tally.quarantined == 1 ? "" : "s")") }
        if tally.skipped > 0 { counts.append("\(tally.skipped) skipped") }
        let expected = tally.expectedFailures
        if expected > 0 { counts.append("\(expected) expected failure\(expected == 1 ? "" : "s")") }
        if tally.unfinished > 0 { counts.append("\(tally.unfinished) unfinished") }
        if tally.flaky > 0 { counts.append("\(tally.flaky) flaky") }
        if run.results.isEmpty, !buildErrors.isEmpty {
            console.line("prepush: tests: none ran: the build failed (\(TextFormatting.count(buildErrors.count, "error")) in the reports)")
        } else {
            console.line("prepush: tests: \(counts.joined(separator: ", "))")
        }
        // A failed stage listed its failing tests itself; a stage that passed with failing tests
        // (its command ignores them, and the verdict refuses it) has them listed here.
        let unlisted = stages.filter { $0.status == .passed }.flatMap(\.tests.failing).filter { run.quarantined?[$0.testIdentifier] == nil }
        FailureList.show(unlisted, places: places, console: console)
        var written: [String] = []
        do {
            written = try publisher.writeReports(run, to: configuration.reportsDirectory, checkout: checkout)
        } catch {
            diagnostics.warning("could not write the reports to \(configuration.reportsDirectory): \(ErrorText.describe(error))")
        }
        let annotations = publisher.annotations(run)
        if !annotations.isEmpty { console.payload(annotations) }
        try? publisher.appendStepSummary(run)
        // `summary`: the Markdown report written, for a later step to post or attach.
        publisher.setOutputs(ReportPublisher.outputs(of: run) + written.filter { $0.hasSuffix(ReportFormat.markdown.fileName) }.map { ("summary", $0) })
        return written
    }
}
