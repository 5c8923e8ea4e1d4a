#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushGit
import PrePushHistory
import PrePushCore
import PrePushResults
import PrePushTestDiscovery
import PrePushTraceability

/// `prepush scenarios lint` and `prepush report`: traceability outside a push.
package enum TraceabilityRun {
    /// The step for the repository here (its configuration), or for the current folder with defaults
    /// when there is no repository.
    static func step(flags: ConfigurationFlags, environment: [String: String], diagnostics: Diagnostics,
                     repository: Repository? = try? CommandContext.now.openRepository()) -> TraceabilityStep? {
        guard let repository, let root = repository.workingDirectory else {
            return TraceabilityStep(nil, root: CommandContext.now.here)
        }
        do {
            let configuration = try Pipeline.resolveConfiguration(flags: flags, environment: environment, repository: repository)
            return TraceabilityStep(configuration.traceability, root: root, quarantine: configuration.quarantine)
        } catch {
            diagnostics.error(describing: error)
            return nil
        }
    }

    /// The configuration's `testNamePattern`, when there is a readable configuration (`lint FILE`
    /// still applies the team's naming).
    static func configuredPattern(flags: ConfigurationFlags, environment: [String: String]) -> String? {
        (try? Pipeline.resolveConfiguration(flags: flags, environment: environment))?.traceability?.testNamePattern?.value
    }

    /// Checks a catalog alone: 0 valid, 1 problems (each with its place), 2 unusable configuration.
    package static func lint(catalog: String?, flags: ConfigurationFlags, environment: [String: String], console: Console) -> ExitStatus {
        let diagnostics = Diagnostics(console: console)
        GitLibrary.initialize()
        var step: TraceabilityStep?
        if catalog == nil {
            step = Self.step(flags: flags, environment: environment, diagnostics: diagnostics)
            guard step != nil else { return .usage }
        }
        do {
            // A catalog named on the command line is the user's choice; the repository's must stay inside it.
            var loaded: ScenarioCatalog
            if let step { loaded = try step.loadCatalog() } else { loaded = try ScenarioCatalog.load(path: FilePath.absolute(catalog ?? "", base: CommandContext.now.here), displayPath: catalog ?? "", testNamePattern: configuredPattern(flags: flags, environment: environment)) }
            let path = step?.absoluteCatalogPath ?? catalog ?? ""
            let manual = loaded.entries.filter(\.scenario.requiresManualIntervention).count
            let stories = Set(loaded.entries.map(\.scenario.userStory)).count
            // In the repository, the links are checked against the tests its sources declare.
            let warnings = step.map { linkWarnings(loaded, inventory: $0.inventory(), shownAs: catalog ?? relative(path)) } ?? []
            for warning in warnings { diagnostics.aside(warning) }
            let verdict = warnings.isEmpty ? "no problems" : TextFormatting.count(warnings.count, "warning")
            console.line("\(catalog ?? relative(path)): \(loaded.entries.count) scenarios in \(stories) stories (\(manual) manual): \(verdict)")
            return .success
        } catch {
            diagnostics.error(describing: error)
            let count = error.problems.count
            if count > 1 { diagnostics.aside("\(count) problems") }
            return .failure
        }
    }

    /// What a catalog links that the sources do not bear out: a bare name several suites declare
    /// (`qualify it as Suite/name`), a name, suite or tag with no test (with a did-you-mean).
    static func linkWarnings(_ catalog: ScenarioCatalog, inventory: TestInventory, shownAs path: String) -> [String] {
        let matrix = TraceabilityMatrix(catalog: catalog, inventory: inventory, results: [])
        var warnings: [String] = []
        for row in matrix.rows {
            let place = "\(path):\(row.entry.location.line):\(row.entry.location.column)"
            for text in row.entry.links.tests where !text.contains("/") && !text.contains(" ") {
                let name = TraceabilityMatrix.bareName(text)
                let owners = inventory.tests.filter { $0.name == name }.map { ($0.typeName.map { "\($0)/" } ?? "") + $0.name }
                if Set(owners).count > 1 {
                    warnings.append("\(place): warning: \(text) names \(owners.count) tests (\(owners.joined(separator: ", "))); the scenario links them all: qualify it as Suite/\(name) to link one")
                }
            }
            for link in row.links where link.status == .noTest && !row.scenario.requiresManualIntervention {
                let hint = link.suggestion.map { " (did you mean \($0)?)" } ?? ""
                warnings.append("\(place): warning: \(link.reference) has no test in the sources\(hint)")
            }
        }
        return warnings
    }

    /// Writes the report of a catalog and saved results: 0 the gate passes, 1 it refuses, 2 bad input.
    /// `allowIncomplete` (`--allow-incomplete`): results whose output ends before their run does are
    /// said, and do not refuse.
    package static func report(catalog: String?, resultFiles: [String], format: TraceabilityFormat, output: String?,
                              flags: ConfigurationFlags, environment: [String: String], console: Console,
                              allowIncomplete: Bool = false) -> ExitStatus {
        GitLibrary.initialize()
        // Opened once: the configuration, the stamp and the history all come from it.
        let repository = try? CommandContext.now.openRepository()
        // The report may be standard output: notes and warnings keep off it.
        let diagnostics = Diagnostics(console: console, standardOutputIsReport: true)
        guard let configured = step(flags: flags, environment: environment, diagnostics: diagnostics, repository: repository) else { return .usage }
        var inputs: [(file: String, run: TestRun)] = []
        let here = CommandContext.now.here
        let trust = ResultsTrust(here: here, environment: environment, flags: flags)
        for file in resultFiles {
            let location = FilePath.absolute(file, base: here)
            guard FileManager.default.isReadableFile(atPath: location) else {
                diagnostics.error("\(file): \(FileManager.default.fileExists(atPath: location) ? "cannot be read" : "no such file")")
                return .usage
            }
            if let refused = trust.problem(admitting: FilePath.absolute(file, base: here), named: file) {
                diagnostics.error(refused)
                return .usage
            }
            do {
                let parsed = try ResultsInput.parse(file: file, at: FilePath.absolute(file, base: here)).run
                if parsed.results.isEmpty && parsed.shard == nil { diagnostics.warning("\(file): no test results in it") }
                if let refused = trust.problem(stampOf: parsed, file: FilePath.absolute(file, base: here), named: file) {
                    diagnostics.error(refused)
                    return .usage
                }
                inputs.append((file, parsed))
            } catch {
                diagnostics.error(describing: error)
                return .usage
            }
        }
        // The shards of a CI matrix (their results.json) make one matrix; a missing one is said and fails the gate.
        let merged: (run: TestRun, added: [String])
        do {
            merged = try ResultsMerge.merge(inputs)
        } catch {
            diagnostics.error(describing: error)
            return .usage
        }
        // Results read from a console name a test without its suite: the sources give it.
        // (The sources are read only when a result needs them.)
        let decided = trust.redecideQuarantine(merged.run, diagnostics: diagnostics)
        var run = IdentitySource { TestIdentities(inventory: configured.testInventory(platform: nil)) }.resolve(decided)
        if allowIncomplete { run = run.allowingIncomplete() }
        if let incomplete = run.incomplete, !run.refusedAsIncomplete { diagnostics.warning("\(incomplete) (allowed)") }
        let results = run.results
        var loaded: ScenarioCatalog
        // With no catalog at all (none named, none in the default place) the report still merges the
        // results, and the gate is theirs: every failing test and every failure of the run refuses.
        let withoutCatalog = catalog == nil && !configured.isActive
        if withoutCatalog, let testsFormat = format.testsFormat {
            return testsReport(run, format: testsFormat, output: output, stamp: reportStamp(repository), root: configured.root,
                               checkout: trust.around?.checkout, provenance: trust.provenance, diagnostics: diagnostics)
        }
        do {
            if let catalog {
                loaded = try ScenarioCatalog.load(path: FilePath.absolute(catalog, base: here), displayPath: catalog, testNamePattern: configured.testNamePattern)
            } else if withoutCatalog {
                diagnostics.note("no scenario catalog (\(configured.catalogPath)); the report lists the tests, and any failure refuses")
                loaded = ScenarioCatalog.empty(path: configured.catalogPath)
            } else {
                loaded = try configured.loadCatalog()
            }
        } catch {
            diagnostics.error(describing: error)
            return .usage
        }
        // The merge job's gate is the base's policy in CI, as the push's is.
        var step = configured
        var policyChanges: [String] = []
        if catalog == nil, let around = trust.around {
            let base = TrustedBase.resolve(given: nil, environment: environment, repository: around.repository)
            let trusted = GatePolicyTrust.apply(loaded, step: &step, base: base, repository: around.repository,
                                                configurationFile: trust.configuration?.configurationFile, here: here)
            loaded = trusted.catalog
            policyChanges = trusted.changes
            GatePolicyTrust.say(policyChanges, base: base, diagnostics: diagnostics)
        }
        var matrix = TraceabilityMatrix(catalog: loaded, inventory: configured.inventory(), results: results)
        matrix.policyChanges = policyChanges
        matrix.stamp = reportStamp(repository)
        // The toolchain the tests ran with, as the results recorded it: not this machine's.
        matrix.stamp.toolchain = run.toolchain
        matrix.root = configured.root
        matrix.linkPattern = configured.linkPattern
        if let repository {
            matrix.attachHistory(TraceabilityStep.pastResults(RunHistory.path(commonDirectory: repository.commonDirectory)))
        }
        // The run's own failures (a missing shard among them) refuse in every format, never a green report.
        matrix.runFailures = run.runFailures
        matrix.buildFailed = !(run.buildErrors ?? []).isEmpty
        if let refusal = run.refusal { matrix.runFailures.append("the run was refused: \(refusal)") }
        // A cut log's tests passed as far as it goes: the gate cannot know what came after.
        if run.refusedAsIncomplete, let incomplete = run.incomplete {
            matrix.runFailures.append("the results are incomplete: \(incomplete); --allow-incomplete accepts them")
        }
        if withoutCatalog {
            matrix.runFailures += run.refusing.map { test in
                "\(test.testIdentifier) \(test.status == .unfinished ? "did not finish" : "failed")" + (test.failureMessage.map { ": \($0)" } ?? "")
            }
        }
        let text = format.render(matrix, gate: step.gate)
        guard emit(text, to: output, checkout: trust.around?.checkout, provenance: trust.provenance, diagnostics: diagnostics) else { return .usage }
        let violations = step.gate.violations(in: matrix)
        for violation in violations { diagnostics.error(violation.replacing("\n", with: "\n   ")) }
        return violations.isEmpty ? .success : .failure
    }

    /// `prepush report` with no catalog: the tests' own report (results.md, results.json or
    /// junit.xml as a push writes them, the Markdown stamped), no scenario in it; it refuses as the
    /// results do (a failure of a test that is not quarantined, of the run, or a refusal they record).
    static func testsReport(_ run: TestRun, format: ReportFormat, output: String?, stamp: ReportStamp, root: String, checkout: Checkout?,
                            provenance: RunProvenance, diagnostics: Diagnostics) -> ExitStatus {
        diagnostics.note("no scenario catalog; the report is the tests' own (\(format.fileName)), and any failure refuses")
        var stamped = stamp
        stamped.toolchain = run.toolchain
        var text = format.reporter.render(run)
        if format == .markdown, let line = stamped.text {
            let headline = text.prefix { $0 != "\n" }
            // The branch and the toolchain (read from results.json) are the pull request's text.
            text = headline + "\n\n_" + MarkdownText.text(line) + "_" + text.dropFirst(headline.count)
        }
        guard emit(text, to: output, checkout: checkout, provenance: provenance, diagnostics: diagnostics) else { return .usage }
        let places = SourcePlaces(root: root)
        for test in run.refusing {
            let place = test.failureLocation.map { "\(places.describe($0)): " } ?? ""
            let message = test.failureMessage.map { ": " + $0.replacing("\n", with: "\n   ") } ?? ""
            diagnostics.error("\(place)\(test.testIdentifier) \(test.status == .unfinished ? "did not finish" : "failed")" + message)
        }
        for failure in run.runFailures { diagnostics.error("the test run failed: \(failure)") }
        if let refusal = run.refusal { diagnostics.error("the run was refused: \(refusal)") }
        if run.refusedAsIncomplete, let incomplete = run.incomplete {
            diagnostics.error("the results are incomplete: \(incomplete); --allow-incomplete accepts them")
        }
        return run.passedOverall ? .success : .failure
    }

    /// Writes a report whole to `output` (inside the checkout through its confinement, and joining
    /// the folder's `provenance.json` of this run when there is one), or to standard output; false
    /// (said) when it cannot be written.
    static func emit(_ text: String, to output: String?, checkout: Checkout?, provenance: RunProvenance, diagnostics: Diagnostics) -> Bool {
        guard let output else {
            diagnostics.console.payload(text)
            return true
        }
        let path = FilePath.absolute(output, base: CommandContext.now.here)
        do {
            try ReportPublisher.writeWhole(text, to: path, checkout: checkout)
            try? ReportFiles.recordManifest(folder: FilePath.parent(path), written: [path], provenance: provenance, shard: nil,
                                            checkout: checkout, onlyJoining: true)
            return true
        } catch let problem as Checkout.Problem {
            // The system's words alone where the path is already said.
            if case .system(_, let reason) = problem { diagnostics.error("cannot write \(output): \(reason)") } else { diagnostics.error("cannot write \(output): \(problem)") }
            return false
        } catch {
            diagnostics.error("cannot write \(output): \(ErrorText.describe(error))")
            return false
        }
    }

    /// What a report made outside a push describes: the checked-out commit and branch, and now.
    static func reportStamp(_ repository: Repository?) -> ReportStamp {
        ReportStamp(commit: try? repository?.commitID("HEAD"), branch: repository?.currentBranch, date: ReportStamp.now())
    }

    static func relative(_ path: String) -> String {
        FilePath.shown(path, from: CommandContext.now.here)
    }
}

extension TraceabilityFormat {
    /// The tests' report `prepush report` writes in this format when there is no catalog (a list of
    /// the tests, not scenarios), or nil when the matrix is written (HTML). A switch, not the raw
    /// value: a format added to either registry is a decision here, never a silent match of names.
    var testsFormat: ReportFormat? {
        switch self {
        case .markdown: return .markdown
        case .json: return .json
        case .junit: return .junit
        case .html: return nil
        }
    }
}
