#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushGit
import PrePushRunner
import PrePushTraceability

/// Runs the plan's stages, one at a time or a `parallel:` group together, each under its timeout,
/// taking a stage's cached pass when its inputs are unchanged and keeping a new pass. The first stage
/// that does not pass stops the run and gives the refusal.
struct StageRunner {
    let context: PushContext
    let configuration: ResolvedConfiguration
    let workspace: Workspace
    let signals: SignalWatcher?
    /// Whether the UI stage runs on a Mac over ssh.
    let runsRemotely: Bool
    /// The verdict cache, the tree the run tests and the configuration file's bytes; nil when no
    /// verdict is used or kept (cache off, or the working tree differs from the commit).
    let verdicts: (cache: VerdictCache, tree: String, configuration: [UInt8]?)?
    /// The verdicts this run stored itself; any other entry that appears while a stage runs is the
    /// stage's, and is removed whether or not this run uses the cache (the next run may).
    let ownVerdicts = VerdictCache.OwnVerdicts()
    let verdictFolder: VerdictCache
    /// The tests in the sources, for results the console named without their suite.
    let identities: IdentitySource

    init(context: PushContext, configuration: ResolvedConfiguration, workspace: Workspace, signals: SignalWatcher?, runsRemotely: Bool) {
        self.context = context
        self.configuration = configuration
        self.workspace = workspace
        self.signals = signals
        self.runsRemotely = runsRemotely
        verdictFolder = VerdictCache(repository: context.repository)
        let discovery = TraceabilityStep(configuration.traceability, root: context.root)
        identities = IdentitySource { TestIdentities(inventory: discovery.testInventory(platform: .host)) }
        // A verdict is only worth keeping for a run that tested exactly a commit's tree.
        if configuration.cache, workspace.workingTreeMatches, let tree = try? context.repository.treeID(of: context.pushedCommit) {
            let file = configuration.configurationFile.map { FilePath.absolute($0, base: context.request.here) }
            verdicts = (verdictFolder, tree, file.flatMap { try? FileReading.read($0, limit: ConfigurationFile.maximumBytes).get() })
        } else {
            verdicts = nil
        }
    }

    /// Runs the stages in order; returns every result and the refusal, if one stage did not pass.
    func run(_ plan: StagePlan) -> (results: [StageResult], refusal: Refusal?) {
        var results: [StageResult] = []
        for group in plan.groups {
            if let signal = signals?.lastReceivedSignal {
                return (results, .interrupted(stage: nil, before: group[0].kind.rawValue, signal: StageResult.signalName(signal)))
            }
            let groupResults = group.count == 1
                ? [runStage(group[0], output: context.diagnostics, inParallel: false)]
                : ParallelStages.run(group, diagnostics: context.diagnostics, folder: workspace.reportsDirectory) { stage, output in
                    runStage(stage, output: output, inParallel: true)
                }
            results += groupResults
            // The first stage of the group (in file order) that did not pass decides the verdict.
            guard let result = groupResults.first(where: { $0.status != .passed }) else {
                if let refusal = SelectiveRunCheck.refusal(group, groupResults) { return (results, refusal) }
                if let refusal = flakyRefusal(group, groupResults) { return (results, refusal) }
                continue
            }
            if case .interrupted = result.status {
                return (results, .interrupted(stage: result.kind.rawValue, before: nil, signal: nil))
            }
            let notRun = plan.stages.drop { $0.kind != group.last!.kind }.dropFirst().map(\.kind.rawValue)
            return (results, .stage(summary: result.summary, notRun: Array(notRun)))
        }
        // A stage that exited 0 while its tests failed (`swift test | tee log` hides the runner's
        // status) is refused all the same: the tests' verdict is the runner's.
        if let hiding = results.first(where: { $0.status == .passed && $0.cachedFrom == nil && hasUnquarantinedFailures($0.tests) }) {
            return (results, .hiddenFailures(stage: hiding.kind.rawValue, failingTests: hiding.tests.failing.count))
        }
        return (results, nil)
    }

    /// The flaky tests of stages that passed, said as their policy asks: a warning naming each with
    /// its attempts (`warn`), a refusal (`refuse`), or nothing beyond the reports (`allow`).
    private func flakyRefusal(_ group: [StageSettings], _ groupResults: [StageResult]) -> Refusal? {
        for (stage, result) in zip(group, groupResults) where result.cachedFrom == nil {
            let flaky = result.tests.results.filter { $0.judgement == .flaky }
            guard !flaky.isEmpty, stage.flaky != .allow else { continue }
            let named = flaky.map { "\($0.testIdentifier) (passed on attempt \($0.attempts))" }
            if stage.flaky == .refuse {
                context.console.line("prepush ✘ \(stage.kind.rawValue): flaky: \(named.joined(separator: ", "))", tone: .bad)
                return .flaky(stage: stage.kind.rawValue, tests: flaky.count)
            }
            context.diagnostics.warning("\(stage.kind.rawValue): \(TextFormatting.count(flaky.count, "flaky test")) failed and then passed: \(named.joined(separator: ", ")) (flaky: refuse would refuse the push: docs/flaky-tests.md)")
        }
        return nil
    }

    /// Whether `tests` show a failure that no `quarantine:` entry covers.
    private func hasUnquarantinedFailures(_ tests: TestRun) -> Bool {
        let failing = tests.results.filter { !$0.passed }
        return !tests.runFailures.isEmpty || (tests.counted?.failed ?? 0) > failing.count
            || failing.contains { configuration.quarantine.reason(for: $0.testIdentifier) == nil }
    }

    /// A stage whose only failures are quarantined tests passes: they ran and are reported, and
    /// the run says which failed and why they are quarantined. A timeout, a crash or a failure of
    /// any other test keeps the stage failed, and so does a non-zero exit that quarantined test
    /// failures alone do not explain (`Self.unexcused`).
    private func quarantined(_ result: StageResult, diagnostics: Diagnostics) -> StageResult {
        let quarantine = configuration.quarantine
        let failing = result.tests.results.filter { !$0.passed }
        guard !quarantine.isEmpty, !failing.isEmpty, !hasUnquarantinedFailures(result.tests) else { return result }
        switch result.status {
        case .failed, .passed: break
        default: return result
        }
        if result.status != .passed, let why = Self.unexcused(result) {
            diagnostics.note("\(result.kind.rawValue): \(Self.exitDescription(result.status)) \(why); quarantine excuses test failures only, so the stage fails")
            return result
        }
        let named = failing.map { "\($0.testIdentifier) (\(quarantine.reason(for: $0.testIdentifier) ?? ""))" }
        diagnostics.note("\(result.kind.rawValue): \(TextFormatting.count(failing.count, "quarantined test")) failed: \(named.joined(separator: ", ")); quarantined tests are reported and never refuse (quarantine: in the configuration)")
        guard result.status != .passed else { return result }
        var passed = StageResult(kind: result.kind, status: .passed, duration: result.duration, logPath: result.logPath, tests: result.tests)
        passed.runningWhenStopped = result.runningWhenStopped
        return passed
    }

    /// Why a failed stage whose failing tests are all quarantined is still not excused, or nil when
    /// those failures alone explain its exit: a runner said how its run ended (its closing summary,
    /// or a results file it wrote) and the stage printed no compiler or tool error. Test output
    /// printed by a build that failed (the compiler quoting a source line) or by a script that then
    /// fails on its own never makes a stage pass.
    static func unexcused(_ result: StageResult) -> String? {
        if result.evidence.errorLines > 0 {
            let first = result.evidence.firstError.map { ": \(TextFormatting.shortened($0, to: 120))" } ?? ""
            return "with \(TextFormatting.count(result.evidence.errorLines, "compiler or tool error")) besides its tests\(first)"
        }
        if !result.evidence.runnerClosed {
            return "and no test runner said how its run ended (no closing summary, no results file)"
        }
        return nil
    }

    /// `exited 1`, `was killed by signal 9`.
    static func exitDescription(_ status: StageStatus) -> String {
        switch status {
        case .failed(.exited(let code)): return "exited \(code)"
        case .failed(.signaled(let signal)): return "was killed by signal \(signal)"
        default: return "failed"
        }
    }

    /// Runs one stage (or takes its cached pass), printing to `output`.
    func runStage(_ stage: StageSettings, output diagnostics: Diagnostics, inParallel: Bool) -> StageResult {
        let output = diagnostics.console
        let environment = context.request.environment
        var cacheKey: String?
        // A pass of the tests selection chose is not the stage's pass: it is neither kept nor taken.
        if let verdicts, !stage.narrowedBySelection {
            let key = self.cacheKey(stage, verdicts: verdicts)
            switch verdicts.cache.lookup(key) {
            case .hit(let entry):
                let rerun = context.isHook ? "\(ConfigurationResolver.Variable.cache)=0 git push" : "--no-cache"
                output.line("prepush ✔ \(stage.kind.rawValue): already passed on tree \(verdicts.tree.prefix(7)) at \(VerdictCache.time(entry.passedAt)) (cached; \(rerun) to run it)", tone: .good)
                var result = StageResult(kind: stage.kind, status: .passed, duration: 0, logPath: "", tests: entry.tests)
                result.cachedFrom = entry.passedAt
                return result
            case .unreadable(let path, let reason):
                diagnostics.warning("the cached verdict \(path) cannot be read (\(reason)); the stage runs")
            case .miss:
                break
            }
            cacheKey = key
        }
        let verdictsBefore = verdictFolder.snapshot()
        // The tests' identities are found while the stage runs, for results that will need them.
        identities.prefetch()
        var execution = StageExecution(
            stage: stage, reportsDirectory: workspace.reportsDirectory, baseEnvironment: environment,
            verbose: configuration.hook.verbose, diagnostics: diagnostics, signals: signals,
            killGracePeriod: context.request.killGracePeriod
        )
        execution.repositoryRoot = context.repository.workingDirectory ?? ""
        execution.watchesSignalFlag = inParallel
        execution.identities = identities
        execution.launcher = context.request.launcher
        if stage.kind == .ui, let remote = configuration.remote, let export = workspace.export {
            execution.remote = RemoteStageContext(
                session: RemoteSession(target: remote.connection, environment: environment, scratchFolder: export),
                mode: configuration.hook.syncMode, tree: FilePath.join(export, "tree"), results: remote.results)
        }
        var result = execution.run()
        if stage.retry > 0 || stage.retriesInfrastructure {
            var retries = Retries(stage: stage, reportsDirectory: workspace.reportsDirectory, diagnostics: diagnostics) { settings, logName, tests in
                var again = execution
                again.stage = settings
                again.logName = logName
                again.selectedTests = tests
                return again.run()
            }
            retries.quarantine = configuration.quarantine
            result = retries.run(after: result)
        }
        result = quarantined(result, diagnostics: diagnostics)
        let planted = verdictFolder.discardForeign(since: verdictsBefore, own: ownVerdicts)
        if !planted.isEmpty {
            diagnostics.warning("\(stage.kind.rawValue): discarded \(TextFormatting.count(planted.count, "cached verdict")) that appeared or changed in \(verdictFolder.verdictsFolder) while the stage ran; only prepush records a pass")
        }
        // A pass with a flaky test is not kept: under `flaky: refuse` the same tree must be refused
        // again, and under `warn` the next push should see the flakiness again, not a cached pass.
        if result.status == .passed, !result.tests.hasFailures, !result.tests.results.contains(where: { $0.judgement == .flaky }), let cacheKey, let verdicts {
            let entry = VerdictCache.Entry(key: cacheKey, stage: stage.kind.rawValue, tree: verdicts.tree,
                                           passedAt: Date().timeIntervalSince1970, duration: result.duration, tests: result.tests)
            if let problem = verdicts.cache.store(entry, own: ownVerdicts) { diagnostics.warning(problem) }
        }
        return result
    }

    /// The verdict-cache key of a stage: its settings, the tree, the environment it reads, the
    /// configuration file, the Mac it runs on and the toolchain.
    private func cacheKey(_ stage: StageSettings, verdicts: (cache: VerdictCache, tree: String, configuration: [UInt8]?)) -> String {
        let environment = StageExecution.environment(for: stage, base: context.request.environment, reportsDirectory: workspace.reportsDirectory)
        let remote = stage.kind == .ui && runsRemotely
            ? configuration.remote.map { "\($0.connection.user ?? "")@\($0.connection.host):\($0.connection.port)\($0.connection.path)" } : nil
        // The folder counts relative to the tree it runs in: the working tree, or the export.
        let treeRoot = configuration.isolated ? workspace.export.map { FilePath.join($0, "tree") } : nil
        return VerdictCache.key(stage: stage, tree: verdicts.tree, repositoryRoot: treeRoot ?? context.repository.workingDirectory ?? "",
                                environment: context.request.environment, configurationBytes: verdicts.configuration, remote: remote,
                                toolchain: verdicts.cache.toolchainIdentity(environment: environment))
    }
}
