#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushAccessibility
import PrePushConfig
import PrePushCore
import PrePushGit
import PrePushHistory
import PrePushResults
import PrePushTraceability
import PrePushRunner
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// What git passed to the pre-push hook.
package struct HookInvocation: Sendable, Equatable {
    /// The remote's name (or its URL when the push named no remote).
    package let remoteName: String
    /// The remote's URL.
    package let remoteURL: String
    /// The ref lines read from standard input; nil when standard input was a terminal (run by hand).
    package let updates: [PushUpdate]?

    /// Creates an invocation.
    package init(remoteName: String, remoteURL: String, updates: [PushUpdate]?) {
        self.remoteName = remoteName
        self.remoteURL = remoteURL
        self.updates = updates
    }
}

/// One run of the pipeline, from the hook or from `prepush run`.
package struct PipelineRequest: Sendable {
    /// The command-line flags.
    package var flags: ConfigurationFlags
    /// prepush's environment.
    package var environment: [String: String]
    /// Set when git runs prepush as its pre-push hook.
    package var hook: HookInvocation?
    /// Seconds from the first signal to SIGKILL when a stage is stopped.
    package var killGracePeriod: Double
    /// For `prepush run --base REF [--head REF]`: the range the accessibility check reads instead of
    /// what a push of the current branch would send.
    package var checkRange: (base: String, head: String)?
    /// For `prepush run --stage NAME`: only these stages run (empty: all).
    package var onlyStages: [String] = []
    /// `--quiet`: only the verdict, failures and warnings are printed.
    package var quiet = false
    /// `prepush run --shard i/n` (or a CI's parallel-job variables): this run is one part of a split suite.
    package var shard: ShardRequest?
    /// `prepush run --shard`'s argument and `--timings FILE`, read into `shard` when the run starts
    /// (with the CI's variables when there is no argument).
    package var shardArgument: String?
    package var timingsFile: String?
    /// Where the run happens when it is not the process's own folder (a run inside another
    /// program, such as a test): the repository is found from it, paths are shown from it, and
    /// process-wide `GIT_DIR`-style variables are not read.
    package var currentDirectory: String?
    /// What starts a stage's command: a process group under its timeout, unless a test gives a
    /// launcher that plays a stage's output and ending back.
    package var launcher: any StageLauncher = ProcessGroupLauncher()

    /// The folder the run treats as the current one.
    var here: String { currentDirectory ?? CommandContext.now.here }

    /// Creates a request.
    package init(flags: ConfigurationFlags, environment: [String: String], hook: HookInvocation?, killGracePeriod: Double = 3) {
        self.flags = flags
        self.environment = environment
        self.hook = hook
        self.killGracePeriod = killGracePeriod
    }
}

/// The path of one push (docs/architecture.md), as its steps: the context and configuration, the
/// accessibility check, the catalog, the plan, the workspace, the stages, the reports, the verdict.
/// Each step is a type of its own under `Push/`; this reads as the order they come in.
package enum Pipeline {
    /// Runs the pipeline and returns the exit status; everything the user should see goes to `console`.
    package static func run(_ request: PipelineRequest, console: Console, signals: SignalWatcher?) -> ExitStatus {
        GitLibrary.initialize()
        var console = console
        // The run's environment decides, not only the process's: test names and messages are the pull request's.
        if request.environment["GITHUB_ACTIONS"] == "true" { console.neutralisesWorkflowCommands = true }
        if request.quiet || BooleanWord.parse(request.environment["PREPUSH_QUIET"] ?? "") == true { console.quiet = true }
        let diagnostics = Diagnostics(console: console)
        let status: ExitStatus
        do {
            var request = request
            if request.hook == nil, request.shard == nil {
                request.shard = try ShardRequest.resolve(argument: request.shardArgument, timings: request.timingsFile, environment: request.environment)
            }
            status = try push(request, diagnostics: diagnostics, signals: signals).render(hook: request.hook != nil, console: console)
        } catch {
            diagnostics.error(error)
            status = error.exitStatus
        }
        // The step's outputs end as its exit status does: `conclusion` is the run's own verdict.
        ReportPublisher(environment: request.environment).setOutputs([("conclusion", status.conclusion)])
        return status

    }

    /// Runs as git's pre-push hook: `refLines` is its standard input (nil when that is a terminal:
    /// run by hand), a malformed line an error with its place (exit 2).
    package static func runHook(remote: String, url: String, refLines: [UInt8]?, flags: ConfigurationFlags, quiet: Bool,
                               environment: [String: String], console: Console, signals: @autoclosure () -> SignalWatcher?) -> ExitStatus {
        var updates: [PushUpdate]?
        if let refLines {
            do {
                updates = try PushUpdate.parseHookInput(String(decoding: refLines, as: UTF8.self))
            } catch {
                Diagnostics(console: console).error(describing: error)
                return .usage
            }
        }
        GitLibrary.initialize()
        var request = PipelineRequest(flags: flags, environment: environment, hook: HookInvocation(remoteName: remote, remoteURL: url, updates: updates))
        request.quiet = quiet
        return run(request, console: console, signals: signals())
    }

    /// The steps of one push, ending in its verdict; a `PipelineError` ends it with exit 2.
    static func push(_ request: PipelineRequest, diagnostics: Diagnostics, signals: SignalWatcher?) throws(PipelineError) -> Verdict {
        if let nothing = nothingToCheck(request, diagnostics: diagnostics) { return nothing }
        // 1. The repository and the configuration.
        let (context, settings) = try open(request, diagnostics: diagnostics)
        var configuration = settings
        // In CI what can make the run green is the trusted base's policy, read once for quarantine and the gate.
        let base = TrustedBase.resolve(given: request.checkRange?.base, environment: request.environment, repository: context.repository)
        QuarantineTrust.apply(&configuration, context: context, base: base)
        // The policy the change makes that stays honoured (accessibility severities, the baseline) is listed for review.
        let accessibilityChanges = AccessibilityPolicyChanges.list(configuration, base: base, repository: context.repository, here: request.here)
        for change in accessibilityChanges { diagnostics.note("policy change: \(change)") }
        // 2. Before any stage: the accessibility of the views this push changes.
        if let refusal = try context.checkAccessibility(try accessibilityStep(configuration, context), verbose: configuration.hook.verbose) {
            return .refused(refusal)
        }
        // 3. The scenario catalog, read before any stage runs: a broken one is said at once.
        var traceability = TraceabilityStep(configuration.traceability, root: context.root, quarantine: configuration.quarantine)
        var traced = try traceability.isActive ? catalog(traceability) : nil
        if let read = traced {
            context.probeToolchain()
            // In CI what can turn the gate green is the base's policy: the change's loosening is said, not honoured.
            let trusted = GatePolicyTrust.apply(read.catalog, step: &traceability, base: base, repository: context.repository,
                                                configurationFile: configuration.configurationFile, here: request.here)
            traceability.policyChanges = trusted.changes.map { $0 + " (not honoured)" } + accessibilityChanges
            GatePolicyTrust.say(trusted.changes, base: base, diagnostics: diagnostics)
            traced = (trusted.catalog, read.inventory)
        }
        // 4. The plan: which stages, and why the others do not run.
        var plan = try PushPlanner.plan(configuration, skip: request.environment["SKIP"], onlyStages: request.onlyStages,
                                        changedFiles: context.changedFiles)
        // A CI's parallel-job variables split only a configuration that says which stage to split.
        let shard = request.shard.flatMap { $0.explicit || configuration.stagesToShard ? $0 : nil }
        if shard != nil, traced != nil {
            // One shard sees a part of the tests: the matrix and its gate belong to the merge job.
            traced = nil
            diagnostics.note("traceability: a shard holds part of the tests; the merge job's prepush report --results shard-*/results.json gives the matrix and the gate")
        }
        say(&plan.notes, diagnostics)
        guard !plan.stages.stages.isEmpty else {
            return try nothingToRun(plan, traced.map { (traceability, $0) }, configuration: configuration, context: context)
        }
        // 5. The workspace: the reports folder, and the tree the stages run in.
        var workspace = try Workspace.claimReports(configuration.reportsDirectory, diagnostics: diagnostics,
                                                   isTracked: { context.repository.isTracked($0) })
        configuration.reportsDirectory = workspace.reportsDirectory
        defer { workspace.cleanUp() }
        let runsRemotely = configuration.remote != nil && plan.stages.stages.contains { $0.kind == .ui }
        try workspace.prepareTree(of: context.pushedCommit, repository: context.repository,
                                  exports: configuration.isolated || runsRemotely,
                                  runsInWorkingTree: !configuration.isolated && plan.stages.stages.contains { !($0.kind == .ui && runsRemotely) },
                                  cache: configuration.cache, temporary: request.environment["TMPDIR"] ?? "/tmp", diagnostics: diagnostics)
        if configuration.isolated, let export = workspace.export {
            plan.stages.rebase(onto: FilePath.join(export, "tree"), root: context.repository.workingDirectory ?? "")
        }
        // 6. The plan narrowed: this shard's tests, the test targets the push can affect.
        if let shard {
            let history = (RunHistory.path(commonDirectory: context.repository.commonDirectory), try? context.repository.commitID(context.pushedCommit))
            let inputs = try ShardStep.gather(shard, stages: plan.stages.stages, discovery: traceability, history: history)
            try PushPlanner.shard(&plan, shard, inputs: inputs, configuredToShard: configuration.stagesToShard,
                                  reportsDirectory: workspace.reportsDirectory, root: traceability.root)
            say(&plan.notes, diagnostics)
        }
        PushPlanner.select(&plan, inputs: selectiveInputs(configuration, context, workspace, sharded: shard != nil))
        say(&plan.notes, diagnostics)
        try workspace.write(plan.files)
        // 7. The stages, each remembered in the run history.
        let runner = StageRunner(context: context, configuration: configuration, workspace: workspace, signals: signals, runsRemotely: runsRemotely)
        let (results, refusal) = runner.run(plan.stages)
        RunRecorder.record(results, context: context, workspace: workspace, identities: runner.identities, diagnostics: diagnostics)
        // 8. The traceability gate, then the reports, whatever happened to the stages: each states the verdict.
        let judged = traced.map { RunReports.judgeTraceability(traceability, $0, stages: results, stamp: context.reportStamp(),
                                                               history: context.historyPath, environment: request.environment) }
        let gate: Refusal? = judged.flatMap { $0.violations.isEmpty ? nil : .traceability(scenarios: $0.violations.count, priorities: traceability.gate.blocking.sorted().map(\.rawValue)) }
        let checkout = context.checkout, provenance = context.provenance
        var written = RunReports.publishTests(results, shard: shard?.shard, toolchain: context.toolchainProbe?.toolchain,
                                              refusal: (refusal ?? gate).map { Verdict.reason($0, hook: context.isHook) },
                                              provenance: provenance, checkout: checkout,
                                              repositoryRoot: context.repository.workingDirectory ?? "",
                                              configuration: configuration, environment: request.environment, diagnostics: diagnostics)
        if let judged {
            written += RunReports.publishTraceability(traceability, judged, configuration: configuration, checkout: checkout,
                                                      environment: request.environment, diagnostics: diagnostics)
        }
        RunReports.recordProvenance(written, folder: workspace.reportsDirectory, provenance: provenance, shard: shard?.shard,
                                    checkout: checkout, diagnostics: diagnostics)
        RunReports.sayReports(written, from: context.request.here, console: context.console)
        // 9. The verdict.
        if let refusal = refusal ?? gate { return .refused(refusal) }
        return passed(results, plan: plan)
    }

    /// An empty push, a push of deletions only, or `PREPUSH_SKIP`: nothing to check. The escape
    /// hatch works even when the configuration is broken, and never blocks.
    static func nothingToCheck(_ request: PipelineRequest, diagnostics: Diagnostics) -> Verdict? {
        if let updates = request.hook?.updates {
            if updates.isEmpty { return .nothingToCheck("nothing is being pushed; nothing to check") }
            if updates.allSatisfy(\.isDeletion) { return .nothingToCheck("the push only deletes refs; nothing to check") }
        }
        let skipAll = ConfigurationResolver.skipAllRequested(environment: request.environment)
        if let note = skipAll.note { diagnostics.note(note) }
        return skipAll.skip ? .nothingToCheck("\(ConfigurationResolver.Variable.skipAll) is set; skipping all stages") : nil
    }

    /// Opens the repository and resolves the configuration; says the configuration's notes.
    static func open(_ request: PipelineRequest, diagnostics: Diagnostics) throws(PipelineError) -> (PushContext, ResolvedConfiguration) {
        let repository: Repository
        do {
            repository = try request.currentDirectory.map { try Repository.discover(from: $0) } ?? CommandContext.now.openRepository()
        } catch {
            throw .repository(ErrorText.describe(error))
        }
        let configuration: ResolvedConfiguration
        do {
            configuration = try resolveConfiguration(flags: request.flags, environment: request.environment, repository: repository,
                                                     currentDirectory: request.here)
        } catch let error as ConfigurationError {
            throw .configuration(error)
        } catch {
            throw .repository(ErrorText.describe(error))
        }
        for note in configuration.notes { diagnostics.note(note) }
        return (PushContext(request: request, repository: repository, diagnostics: diagnostics), configuration)
    }

    /// The accessibility check as the configuration sets it.
    static func accessibilityStep(_ configuration: ResolvedConfiguration, _ context: PushContext) throws(PipelineError) -> AccessibilityStep {
        do {
            return try AccessibilityStep(configuration, root: context.root)
        } catch {
            throw .configuration(error)
        }
    }

    /// The catalog and the tests found in the sources.
    static func catalog(_ traceability: TraceabilityStep) throws(PipelineError) -> (catalog: ScenarioCatalog, inventory: TestInventory) {
        do {
            return try traceability.prepare()
        } catch {
            throw .catalog(error)
        }
    }

    /// Writes the plan's notes and empties them.
    static func say(_ notes: inout [PlanNote], _ diagnostics: Diagnostics) {
        for note in notes {
            switch note {
            case .note(let text): diagnostics.note(text)
            case .warning(let text): diagnostics.warning(text)
            case .leftOut(let stage, let reason): diagnostics.stageLeftOut(stage, reason)
            case .said(let text): diagnostics.say(text)
            }
        }
        notes = []
    }

    /// No stage runs: without results the catalog can still be missing tests, and the gate says so.
    static func nothingToRun(_ plan: PushPlan, _ traced: (TraceabilityStep, (catalog: ScenarioCatalog, inventory: TestInventory))?,
                             configuration: ResolvedConfiguration, context: PushContext) throws(PipelineError) -> Verdict {
        guard let (traceability, catalog) = traced else { return .nothingToRun(noneConfigured: plan.noneConfigured) }
        // The "nothing to run" line is the verdict's, said once at the end (issue 38: it was said here too).
        do {
            try Workspace.prepareReportsDirectory(configuration.reportsDirectory, isTracked: { context.repository.isTracked($0) })
        } catch {
            throw .reportsFolder(error.description)
        }
        let judged = RunReports.judgeTraceability(traceability, catalog, stages: [], stamp: context.reportStamp(), history: context.historyPath,
                                                  environment: context.request.environment)
        let written = RunReports.publishTraceability(traceability, judged, configuration: configuration, checkout: context.checkout,
                                                     environment: context.request.environment, diagnostics: context.diagnostics)
        RunReports.recordProvenance(written, folder: configuration.reportsDirectory, provenance: context.provenance, shard: nil,
                                    checkout: context.checkout, diagnostics: context.diagnostics)
        RunReports.sayReports(written, from: context.request.here, console: context.console)
        guard judged.violations.isEmpty else {
            return .refused(.traceability(scenarios: judged.violations.count, priorities: traceability.gate.blocking.sorted().map(\.rawValue)))
        }
        return .nothingToRun(noneConfigured: plan.noneConfigured)
    }

    /// What `selective:` reads, from where the stages run.
    static func selectiveInputs(_ configuration: ResolvedConfiguration, _ context: PushContext, _ workspace: Workspace,
                                sharded: Bool) -> PushPlanner.SelectiveInputs {
        let root = context.repository.workingDirectory ?? ""
        let environment = context.request.environment
        let cacheFolder = FilePath.join(context.repository.commonDirectory, "prepush/packages")
        var inputs = PushPlanner.SelectiveInputs(
            isolated: configuration.isolated, workingTreeMatches: workspace.workingTreeMatches,
            treeRoot: workspace.treeRoot(isolated: configuration.isolated, repositoryRoot: root),
            configurationFile: configuration.configurationFile.map { FilePath.relative(FilePath.absolute($0, base: context.request.here), to: root) },
            sharded: sharded, changedFiles: context.changedFiles,
            graph: { stage in
                PackageGraph.load(packageRoot: stage.workingDirectory, cacheFolder: cacheFolder,
                                  environment: StageExecution.environment(for: stage, base: environment, reportsDirectory: workspace.reportsDirectory))
            },
            mentions: SelectiveTests.sources(in:mention:))
        if !configuration.selectionEnabled {
            let origin = configuration.settings.last { $0.name == "selective" }.map { "\($0.origin)" } ?? "turned off"
            inputs.turnedOff = "selective off: \(origin)"
        }
        let treeRoot = inputs.treeRoot
        inputs.impact = { stage, packageFolder, graph in
            ImpactStep.read(stage: stage, packageFolder: packageFolder, graph: graph, repository: context.repository,
                            pushedCommit: context.pushedCommit, root: treeRoot) {
                VerdictCache(repository: context.repository).toolchainIdentity(environment: environment)
            }
        }
        return inputs
    }

    /// The verdict of a run whose stages passed: each stage with its time (or cached), and what
    /// `selective:` left out.
    static func passed(_ results: [StageResult], plan: PushPlan) -> Verdict {
        guard !results.isEmpty else {
            // Every stage was left out after the plan was made (selective, shards): say which and why.
            return .passedWithoutStages(reasons: plan.stages.notRunningInOrder.filter { !$0.1.hasPrefix("not configured") }.map { "\($0.0.rawValue) \($0.1)" })
        }
        return .passed(stages: results.map { result in
            "\(result.kind.rawValue) \(result.cachedFrom == nil ? TextFormatting.duration(result.duration) : "cached")"
                + (plan.selectiveSummaries[result.kind].map { ": \($0)" } ?? "")
        })
    }

    /// Opens the repository as git would (honouring `GIT_DIR` in hooks) and resolves the configuration.
    package static func resolveConfiguration(flags: ConfigurationFlags, environment: [String: String],
                                            repository given: Repository? = nil, currentDirectory: String? = nil) throws -> ResolvedConfiguration {
        let repository = try given ?? CommandContext.now.openRepository()
        let root = try repository.requireWorkingDirectory()
        var request = ConfigurationRequest(flags: flags, environment: environment, repositoryRoot: root,
                                           currentDirectory: currentDirectory ?? CommandContext.now.here)
        request.knownAccessibilityRules = AccessibilityStep.ruleIDs
        return try ConfigurationResolver.resolve(request)
    }
}
