#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushAccessibility
import PrePushConfig
import PrePushCore
import PrePushGit
import PrePushResults
import PrePushTraceability
import PrePushRunner
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// What git passed to the pre-push hook.
public struct HookInvocation: Sendable, Equatable {
    /// The remote's name (or its URL when the push named no remote).
    public let remoteName: String
    /// The remote's URL.
    public let remoteURL: String
    /// The ref lines read from standard input; nil when standard input was a terminal (run by hand).
    public let updates: [PushUpdate]?

    /// Creates an invocation.
    public init(remoteName: String, remoteURL: String, updates: [PushUpdate]?) {
        self.remoteName = remoteName
        self.remoteURL = remoteURL
        self.updates = updates
    }
}

/// One run of the pipeline, from the hook or from `prepush run`.
public struct PipelineRequest: Sendable {
    /// The command-line flags.
    public var flags: ConfigurationFlags
    /// prepush's environment.
    public var environment: [String: String]
    /// Set when git runs prepush as its pre-push hook.
    public var hook: HookInvocation?
    /// Seconds from the first signal to SIGKILL when a stage is stopped.
    public var killGracePeriod: Double
    /// For `prepush run --base REF [--head REF]`: the range the accessibility check reads instead of
    /// what a push of the current branch would send.
    public var checkRange: (base: String, head: String)?
    /// For `prepush run --stage NAME`: only these stages run (empty: all).
    public var onlyStages: [String] = []
    /// `--quiet`: only the verdict, failures and warnings are printed.
    public var quiet = false
    /// `prepush run --shard i/n` (or a CI's parallel-job variables): this run is one part of a split suite.
    public var shard: ShardRequest?

    /// Creates a request.
    public init(flags: ConfigurationFlags, environment: [String: String], hook: HookInvocation?, killGracePeriod: Double = 3) {
        self.flags = flags
        self.environment = environment
        self.hook = hook
        self.killGracePeriod = killGracePeriod
    }
}

/// The path of one push (ARCHITECTURE.md), as far as it is built: configuration, then the unit and
/// UI stages in order, following the data model's pre-push state machine.
public enum Pipeline {
    /// Runs the pipeline and returns the exit status; everything the user should see goes to `console`.
    public static func run(_ request: PipelineRequest, console: Console, signals: SignalWatcher?) -> ExitStatus {
        var console = console
        if request.quiet || (try? ValueParsers.boolean(request.environment["PREPUSH_QUIET"] ?? "").get()) == true { console.quiet = true }
        let refusal = request.hook == nil ? "checks failed" : "push refused"

        if let updates = request.hook?.updates {
            if updates.isEmpty {
                console.line("prepush: nothing is being pushed; nothing to check")
                return .success
            }
            if updates.allSatisfy(\.isDeletion) {
                console.line("prepush: the push only deletes refs; nothing to check")
                return .success
            }
        }

        // The escape hatch works even when the configuration is broken, and never blocks.
        let skipAll = ConfigurationResolver.skipAllRequested(environment: request.environment)
        if let note = skipAll.note { console.line("prepush: note: \(note)") }
        if skipAll.skip {
            console.line("prepush: \(ConfigurationResolver.Variable.skipAll) is set; skipping all stages")
            return .success
        }

        var configuration: ResolvedConfiguration
        let repository: Repository
        do {
            repository = try Repository.openFromEnvironment()
            configuration = try resolveConfiguration(flags: request.flags, environment: request.environment, repository: repository)
        } catch {
            console.error("\(error)")
            return .usage
        }
        for note in configuration.notes { console.line("prepush: note: \(note)") }

        // First, before any stage: the accessibility of the views this push changes (for `prepush run`,
        // what a push of the current branch would send, or --base).
        let step: AccessibilityStep
        do {
            step = try AccessibilityStep(configuration.accessibility, configurationFile: configuration.configurationFile,
                                         root: repository.workingDirectory ?? FileManager.default.currentDirectoryPath)
        } catch {
            console.error("\(error)")
            return .usage
        }
        if let status = checkAccessibility(request, step: step, repository: repository, verbose: configuration.hook.verbose,
                                           refusal: refusal, console: console) {
            return status
        }

        // The scenario catalog is read before any stage runs: a broken one is said at once.
        let traceability = TraceabilityStep(configuration.traceability, root: repository.workingDirectory ?? FileManager.default.currentDirectoryPath)
        var traced: (catalog: ScenarioCatalog, inventory: TestInventory)?
        if traceability.isActive {
            do {
                traced = try traceability.prepare()
            } catch {
                console.error("\(error)")
                console.error("prepush: the scenario catalog has problems (check it alone with: prepush scenarios lint)")
                return .usage
            }
        }

        var plan = StagePlan(configuration)
        // A CI's parallel-job variables split only a configuration that says which stage to split.
        let shard = request.shard.flatMap { wanted in
            wanted.explicit || configuration.stagesToShard ? wanted : nil
        }
        if shard != nil, traced != nil {
            // One shard sees a part of the tests: the matrix and its gate belong to the merge job.
            traced = nil
            console.line("prepush: note: traceability: a shard holds part of the tests; the merge job's prepush report --results shard-*/results.json gives the matrix and the gate")
        }
        // `SKIP=ui,unit git push` (pre-commit's convention) and `prepush run --stage unit`.
        let named = Set((request.environment["SKIP"] ?? "").split(separator: ",").map { TextFormatting.trimmed(String($0)) }.filter { !$0.isEmpty })
        // An unknown name is an error that says where the name came from.
        for (names, origin) in [(named, "SKIP=\"\(Diagnostic.excerpt(request.environment["SKIP"] ?? ""))\" (from the environment)"),
                                (Set(request.onlyStages), "--stage")] {
            let unknown = names.subtracting(plan.names)
            guard unknown.isEmpty else {
                console.error("error: \(origin): no stage named \(unknown.sorted().map { "\"\($0)\"" }.joined(separator: ", ")); the stages are \(TextFormatting.list(plan.names))")
                return .usage
            }
        }
        plan.skip(named, because: "skipped (SKIP=\(request.environment["SKIP"] ?? ""))")
        if !request.onlyStages.isEmpty {
            plan.skip(Set(plan.names).subtracting(request.onlyStages), because: "not asked for (--stage)")
        }
        // What the push changes, read once for `paths:` and `selective:`.
        var pushedFilesRead: [String]??
        func pushedFiles() -> [String]? {
            if let pushedFilesRead { return pushedFilesRead }
            let files = changedFiles(request, repository: repository, console: console)
            pushedFilesRead = .some(files)
            return files
        }
        // A stage with `paths:` runs only when the push changes a file they match.
        if plan.stages.contains(where: { !$0.paths.isEmpty }) {
            if let files = pushedFiles() {
                plan.keepOnlyStagesMatching(changedFiles: files)
            } else {
                console.line("prepush: note: cannot tell which files this push changes; stages with paths: run")
            }
        }
        // "Not configured" is for `prepush config` and `init` to say, not every push; what was
        // left out by a choice (SKIP, paths, a flag) is said.
        let noneConfigured = plan.stages.isEmpty && plan.notRunningInOrder.allSatisfy { $0.1.hasPrefix("not configured") }
        let sayNotConfigured = configuration.hook.verbose || noneConfigured
        for (kind, reason) in plan.notRunningInOrder where sayNotConfigured || !reason.hasPrefix("not configured") {
            console.line("prepush – \(kind.rawValue): \(reason)")
        }
        guard !plan.stages.isEmpty else {
            console.line(noneConfigured ? "prepush: nothing to run: no stage is configured (see docs/configuration.md)"
                                        : "prepush: nothing to run: every configured stage is skipped")
            // Without results the catalog can still be missing tests: the gate says so.
            guard let traced else { return .success }
            do {
                try prepareReportsDirectory(configuration.reportsDirectory)
            } catch {
                console.error("error: reports folder: \(ErrorText.reason(error))")
                return .usage
            }
            let (violations, written) = publishTraceability(traceability, traced, results: [], configuration: configuration,
                                                            environment: request.environment, console: console)
            sayReports(written, console: console)
            guard violations.isEmpty else {
                console.line("prepush: \(refusal): \(violations.count) scenario\(violations.count == 1 ? "" : "s") without a test (traceability gate)", tone: .bad)
                return .failure
            }
            return .success
        }
        do {
            try prepareReportsDirectory(configuration.reportsDirectory)
            // Two pushes at once in one worktree must not splice each other's logs and reports.
            let claimed = try ReportsFolderClaim.claim(configuration.reportsDirectory)
            if let other = claimed.busyWith {
                console.line("prepush: another prepush run\(other.map { " (pid \($0))" } ?? "") is writing to \(configuration.reportsDirectory); this run's logs and reports go to \(claimed.folder)")
            }
            configuration.reportsDirectory = claimed.folder
        } catch {
            console.error("error: reports folder: \(ErrorText.reason(error))")
            return .usage
        }

        removeStaleReports(in: configuration.reportsDirectory)

        // What is tested is what is pushed: an export of the pushed commit for isolated and remote runs.
        let commit = request.hook?.updates?.first { !$0.isDeletion }?.localObjectID ?? "HEAD"
        let runsRemotely = configuration.remote != nil && plan.stages.contains { $0.kind == .ui }
        var export: String?
        if configuration.isolated || runsRemotely {
            // Only a run that exports lists the temporary folder (which can hold thousands of entries)
            // for the exports of killed runs.
            ExportFolder.removeLeftovers(in: request.environment["TMPDIR"] ?? "/tmp")
            let folder = ExportFolder.path(in: request.environment["TMPDIR"] ?? "/tmp")
            do {
                try repository.exportTree(of: commit, to: FilePath.join(folder, "tree"))
                export = folder
            } catch {
                console.error("error: cannot export \(commit) for an isolated or remote run: \(ErrorText.reason(error))")
                return .usage
            }
        }
        defer { if let export { try? FileManager.default.removeItem(atPath: export) } }
        let runsInWorkingTree = !configuration.isolated && plan.stages.contains { !($0.kind == .ui && runsRemotely) }
        var workingTreeMatches = true
        if configuration.isolated, let export {
            plan.rebase(onto: FilePath.join(export, "tree"), root: repository.workingDirectory ?? "")
        } else if runsInWorkingTree {
            // Only worth a status scan when a stage runs in the working tree.
            let differences = try? repository.workingTreeDifferences(from: commit)
            workingTreeMatches = differences?.isEmpty == true
            if let differences, !differences.isEmpty {
                let what = commit == "HEAD" ? "HEAD" : "the pushed commit \(commit.prefix(12))"
                // Which files, and that no verdict is used or kept: a stray untracked file otherwise reads as a cache that stopped working.
                let cache = configuration.cache ? ", and no cached verdict is used or kept" : ""
                console.line("prepush: note: the working tree differs from \(what) (\(differences.joined(separator: ", "))); local stages run in the working tree\(cache) (--isolated runs them on the commit)")
            }
        }
        // A verdict is only worth keeping for a run that tested exactly a commit's tree.
        var verdicts: (cache: VerdictCache, tree: String, configuration: [UInt8]?)?
        if configuration.cache, workingTreeMatches, let tree = try? repository.treeID(of: commit) {
            let file = configuration.configurationFile.map { FilePath.absolute($0, base: FileManager.default.currentDirectoryPath) }
            verdicts = (VerdictCache(repository: repository), tree, file.flatMap { try? FileReading.read($0, limit: ConfigurationFile.maximumBytes).get() })
        }

        if let shard, let status = ShardStep.apply(shard, to: &plan, configuredToShard: configuration.stagesToShard, discovery: traceability,
                                                   reportsDirectory: configuration.reportsDirectory, console: console) {
            return status
        }

        // `selective: true`: a `swift test` stage runs only the test targets the push can affect.
        var selectiveVerdicts: [StageKind: String] = [:]
        for stage in plan.stages where stage.selective {
            if shard != nil && stage.shardTests != nil {
                console.line("prepush: note: \(stage.kind.rawValue): selective: off in a sharded run (each shard runs its part of every test)")
                continue
            }
            let root = repository.workingDirectory ?? ""
            // The package's folder in the repository, wherever the stage runs (the working tree or an export).
            let treeRoot = configuration.isolated ? export.map { FilePath.join($0, "tree") } ?? root : root
            let packageFolder = FilePath.relative(stage.workingDirectory, to: treeRoot)
            guard configuration.isolated || workingTreeMatches else {
                console.line("prepush: note: \(stage.kind.rawValue): selective: every test runs (the working tree has changes the pushed commits do not show)")
                continue
            }
            guard let files = pushedFiles() else {
                console.line("prepush: note: \(stage.kind.rawValue): selective: every test runs (cannot tell what the push changes)")
                continue
            }
            let graph: PackageGraph
            switch PackageGraph.load(packageRoot: stage.workingDirectory, cacheFolder: FilePath.join(repository.commonDirectory, "prepush/packages"),
                                     environment: StageExecution.environment(for: stage, base: request.environment, reportsDirectory: configuration.reportsDirectory)) {
            case .success(let read): graph = read
            case .failure(let problem):
                console.line("prepush: warning: \(stage.kind.rawValue): selective: every test runs (\(problem))", tone: .warning)
                continue
            }
            let configurationFile = configuration.configurationFile.map {
                FilePath.relative(FilePath.absolute($0, base: FileManager.default.currentDirectoryPath), to: root)
            }
            let selection = SelectiveTests.select(changed: files, packageFolder: packageFolder, graph: graph, configurationFile: configurationFile) { target, names in
                SelectiveTests.sources(in: FilePath.join(stage.workingDirectory, target.path), mention: names)
            }
            switch selection {
            case .all(let reason):
                console.line("prepush: note: \(stage.kind.rawValue): selective: every test runs (\(reason))")
            case .none(let reason):
                plan.skip([stage.kind.rawValue], because: "skipped (selective: \(reason))")
                console.line("prepush – \(stage.kind.rawValue): skipped (selective: \(reason))")
            case .only(let tests, let changed, let leftOut):
                let shownChanged = TextFormatting.list(changed)
                let total = graph.targets.filter(\.isTest).count
                // Said again in the verdict: a passing push names what it did not test.
                selectiveVerdicts[stage.kind] = "\(leftOut) of \(total) test targets left out, none reaches \(shownChanged)"
                if tests.isEmpty {
                    // Nothing to test, but a type error anywhere must still refuse: build what a full run builds.
                    plan.replace(stage.kind, with: stage.running(SelectiveTests.buildEverything, adding: []))
                    console.line("prepush: \(stage.kind.rawValue): selective: no test target depends on \(shownChanged); every target is built (\(SelectiveTests.buildEverything)), no test runs")
                    continue
                }
                let filter = SelectiveTests.filter(tests)
                let variable = EnvironmentEntry(name: "PREPUSH_TEST_FILTER", value: filter)
                let command = SelectiveTests.command(stage.command, filterArgument: "'\(filter)'")
                plan.replace(stage.kind, with: stage.running(command ?? stage.command, adding: [variable]))
                console.line("prepush: \(stage.kind.rawValue): selective: \(tests.count) of \(total) test targets (\(TextFormatting.list(tests))), for changes in \(shownChanged)"
                             + (command == nil ? "; the command does not end in swift test, so it gets them as $PREPUSH_TEST_FILTER" : ""))
            }
        }

        /// Runs one stage (or takes its cached pass), printing to `output`.
        func runStage(_ stage: StageSettings, output: Console, inParallel: Bool) -> StageResult {
            var cacheKey: String?
            if let verdicts {
                let environment = StageExecution.environment(for: stage, base: request.environment, reportsDirectory: configuration.reportsDirectory)
                let remote = stage.kind == .ui && runsRemotely ? configuration.remote.map { "\($0.connection.user ?? "")@\($0.connection.host):\($0.connection.port)\($0.connection.path)" } : nil
                // The folder counts relative to the tree it runs in: the working tree, or the export.
                let treeRoot = configuration.isolated ? export.map { FilePath.join($0, "tree") } : nil
                let key = VerdictCache.key(stage: stage, tree: verdicts.tree, repositoryRoot: treeRoot ?? repository.workingDirectory ?? "",
                                           environment: request.environment, configurationBytes: verdicts.configuration, remote: remote,
                                           toolchain: verdicts.cache.toolchainIdentity(environment: environment))
                switch verdicts.cache.lookup(key) {
                case .hit(let entry):
                    let rerun = request.hook == nil ? "--no-cache" : "\(ConfigurationResolver.Variable.cache)=0 git push"
                    output.line("prepush ✔ \(stage.kind.rawValue): already passed on tree \(verdicts.tree.prefix(7)) at \(VerdictCache.time(entry.passedAt)) (cached; \(rerun) to run it)", tone: .good)
                    var result = StageResult(kind: stage.kind, status: .passed, duration: 0, logPath: "", tests: entry.tests)
                    result.cachedFrom = entry.passedAt
                    return result
                case .unreadable(let path, let reason):
                    output.line("prepush: warning: the cached verdict \(path) cannot be read (\(reason)); the stage runs", tone: .warning)
                case .miss:
                    break
                }
                cacheKey = key
            }
            var execution = StageExecution(
                stage: stage, reportsDirectory: configuration.reportsDirectory, baseEnvironment: request.environment,
                verbose: configuration.hook.verbose, console: output, signals: signals,
                killGracePeriod: request.killGracePeriod
            )
            execution.repositoryRoot = repository.workingDirectory ?? ""
            execution.watchesSignalFlag = inParallel
            if stage.kind == .ui, let remote = configuration.remote, let export {
                execution.remote = RemoteStageContext(
                    session: RemoteSession(target: remote.connection, environment: request.environment, scratchFolder: export),
                    mode: configuration.hook.syncMode, tree: FilePath.join(export, "tree"), results: remote.results)
            }
            let result = execution.run()
            if result.status == .passed, !result.tests.hasFailures, let cacheKey, let verdicts {
                let entry = VerdictCache.Entry(key: cacheKey, stage: stage.kind.rawValue, tree: verdicts.tree,
                                               passedAt: Date().timeIntervalSince1970, duration: result.duration, tests: result.tests)
                if let problem = verdicts.cache.store(entry) { output.line("prepush: warning: \(problem)", tone: .warning) }
            }
            return result
        }

        var results: [StageResult] = []
        var verdict: (status: ExitStatus, line: String)?
        for group in plan.groups {
            if let signal = signals?.lastReceivedSignal {
                verdict = (.interrupted, "prepush: interrupted by \(StageResult.signalName(signal)) before the \(group[0].kind.rawValue) stage started")
                break
            }
            let groupResults = group.count == 1
                ? [runStage(group[0], output: console, inParallel: false)]
                : ParallelStages.run(group, console: console, folder: configuration.reportsDirectory) { stage, output in
                    runStage(stage, output: output, inParallel: true)
                }
            results += groupResults
            // The first stage of the group (in file order) that did not pass decides the verdict.
            guard let result = groupResults.first(where: { $0.status != .passed }) else { continue }
            switch result.status {
            case .passed:
                continue
            case .interrupted:
                verdict = (.interrupted, "prepush: interrupted; the \(result.kind.rawValue) stage and every process it started were stopped")
            case .failed, .timedOut, .couldNotStart:
                let skipped = plan.stages.drop { $0.kind != group.last!.kind }.dropFirst().map(\.kind.rawValue)
                let notRun = skipped.isEmpty ? "" : " (not run: \(skipped.joined(separator: ", ")))"
                verdict = (.failure, "prepush: \(refusal): \(result.summary)\(notRun)")
            }
            break
        }
        // A stage that exited 0 while its tests failed (`swift test | tee log` hides the runner's
        // status) is refused all the same: the tests' verdict is the runner's.
        if verdict == nil, let hiding = results.first(where: { $0.status == .passed && $0.cachedFrom == nil && $0.tests.hasFailures }) {
            let failing = hiding.tests.failing.count
            let what = failing > 0 ? "\(failing) failing test\(failing == 1 ? "" : "s")" : "a failed test run"
            verdict = (.failure, "prepush: \(refusal): \(hiding.kind.rawValue): exited 0, but its results show \(what) (a command that ignores its tests' failures, such as swift test | tee log, hides the runner's exit status)")
        }
        // Whatever happened to the stages, the tests they showed are reported, before the verdict.
        var written = publishTests(results, shard: shard?.shard, repositoryRoot: repository.workingDirectory ?? "", configuration: configuration,
                                   environment: request.environment, console: console)
        if let traced {
            let (violations, traceabilityReports) = publishTraceability(traceability, traced, results: results.flatMap(\.tests.results),
                                                                        configuration: configuration, environment: request.environment, console: console)
            written += traceabilityReports
            sayReports(written, console: console)
            if verdict == nil, !violations.isEmpty {
                let priorities = traceability.gate.blocking.sorted().map(\.rawValue).joined(separator: "/")
                verdict = (.failure, "prepush: \(refusal): \(violations.count) \(priorities) scenario\(violations.count == 1 ? "" : "s") failing or without a test (traceability gate)")
            }
        } else {
            sayReports(written, console: console)
        }
        guard let verdict else {
            let ran = results.map { result in
                "\(result.kind.rawValue) \(result.cachedFrom == nil ? StageResult.seconds(result.duration) : "cached")"
                    + (selectiveVerdicts[result.kind].map { ": \($0)" } ?? "")
            }
            if ran.isEmpty {
                // Every stage was left out after the plan was made (selective, shards): say which and why.
                let why = plan.notRunningInOrder.filter { !$0.1.hasPrefix("not configured") }.map { "\($0.0.rawValue) \($0.1)" }
                console.line("prepush: passed; no stage ran (\(why.isEmpty ? "none is configured" : why.joined(separator: "; ")))", tone: .verdict)
            } else {
                console.line("prepush: all stages passed (\(ran.joined(separator: ", ")))", tone: .verdict)
            }
            return .success
        }
        console.line(verdict.line, tone: .bad)
        if verdict.status == .failure && request.hook != nil { console.line("prepush: to push once without checks: git push --no-verify") }
        return verdict.status
    }

    /// The ranges the accessibility check reads: each ref line of a push; for `prepush run`, `--base`
    /// or what `git push` of the current branch would send.
    static func accessibilityRanges(_ request: PipelineRequest, step: AccessibilityStep, repository: Repository,
                                    console: Console) -> [PushRange]? {
        let selecting: @Sendable (String) -> Bool = { step.selects($0) }
        if let checkRange = request.checkRange {
            do {
                return [try repository.range(base: checkRange.base, head: checkRange.head, selecting: selecting)]
            } catch {
                console.error("error: cannot compute the range \(checkRange.base)..\(checkRange.head): \(ErrorText.reason(error))")
                return nil
            }
        }
        let updates: [(remote: String, update: PushUpdate)]
        if let pushed = pushedUpdates(request, repository: repository) {
            updates = pushed
        } else {
            // An unborn branch has nothing to push; a detached HEAD has no upstream to compare with.
            if repository.isHeadDetached { console.line("prepush: note: HEAD is not on a branch; the accessibility check needs --base REF here") }
            updates = []
        }
        var ranges: [PushRange] = []
        var checked: Set<[String]> = []
        for (remote, update) in updates {
            // Several refs pushing the same commit from the same remote state are one check.
            guard checked.insert([update.localObjectID, update.remoteObjectID]).inserted else { continue }
            do {
                if let range = try repository.pushRange(for: update, remote: remote, selecting: selecting) { ranges.append(range) }
            } catch {
                console.error("prepush: warning: cannot compute what \(update.remoteRef) sends (\(ErrorText.reason(error))); the accessibility check skips it")
            }
        }
        return ranges
    }

    /// The ref lines of the push; for `prepush run`, what `git push` of the current branch would
    /// send; nil when there is no current branch to push (an unborn or detached HEAD).
    static func pushedUpdates(_ request: PipelineRequest, repository: Repository) -> [(remote: String, update: PushUpdate)]? {
        if let hook = request.hook { return (hook.updates ?? []).map { (hook.remoteName, $0) } }
        guard let current = try? repository.pushUpdateForCurrentBranch() else { return nil }
        return [current]
    }

    /// Every file the push (or, for `prepush run`, a push of the current branch, or `--base`) changes;
    /// nil when that cannot be told (a detached HEAD with no `--base`, an unreadable range).
    static func changedFiles(_ request: PipelineRequest, repository: Repository, console: Console) -> [String]? {
        if let checkRange = request.checkRange {
            return (try? repository.range(base: checkRange.base, head: checkRange.head, lineDetail: false))?.files.map(\.path)
        }
        guard let updates = pushedUpdates(request, repository: repository) else { return nil }
        var files: Set<String> = []
        for (remote, update) in updates where !update.isDeletion {
            guard let range = try? repository.pushRange(for: update, remote: remote, lineDetail: false) else { return nil }
            for file in range.files {
                files.insert(file.path)
                if let old = file.oldPath { files.insert(old) }
            }
        }
        return files.sorted()
    }

    /// Runs the accessibility check over the push's ranges and prints its findings; returns an exit
    /// status when the run must end here (findings of severity error, or a range that cannot be read).
    static func checkAccessibility(_ request: PipelineRequest, step: AccessibilityStep, repository: Repository, verbose: Bool,
                                   refusal: String, console: Console) -> ExitStatus? {
        guard let ranges = accessibilityRanges(request, step: step, repository: repository, console: console) else { return .usage }
        var findings: [AccessibilityFinding] = []
        for range in ranges {
            if verbose { console.line("prepush: accessibility: \(range.commits.count) commits; base: \(range.baseDescription)") }
            let result = step.check(range, in: repository, allLines: request.flags.allLines)
            // Ranges of different refs can share files: each finding is reported once.
            findings += result.findings.filter { !findings.contains($0) }
            for note in result.notes { console.line("prepush: note: \(note)") }
        }
        for finding in findings { console.line(AccessibilityStep.line(finding), tone: finding.severity == .error ? .bad : .warning) }
        if request.environment["GITHUB_ACTIONS"] == "true" {
            for finding in findings { console.command(AccessibilityStep.annotation(finding)) }
        }
        let blocking = findings.filter { $0.severity == .error }.count
        guard blocking > 0 else { return nil }
        let scope = request.hook == nil ? "the views this branch changes" : "the views this push changes"
        console.line("prepush: \(refusal): \(blocking) accessibility finding\(blocking == 1 ? "" : "s") in \(scope) (no stage ran)", tone: .bad)
        if request.hook != nil { console.line("prepush: to push once without checks: git push --no-verify") }
        return .failure
    }

    /// Writes the traceability reports of a run and lists what the gate refuses; returns the refusals.
    static func publishTraceability(_ step: TraceabilityStep, _ traced: (catalog: ScenarioCatalog, inventory: TestInventory),
                                    results: [UITestResult], configuration: ResolvedConfiguration,
                                    environment: [String: String], console: Console) -> (violations: [String], written: [String]) {
        let published = step.publish(catalog: traced.catalog, inventory: traced.inventory, results: results,
                                     folder: configuration.reportsDirectory, environment: environment, console: console)
        for violation in published.violations { console.line("   error: \(violation)", tone: .bad) }
        return published
    }

    /// One line for every report written, paths relative to the current folder where they are inside it.
    static func sayReports(_ paths: [String], console: Console) {
        guard !paths.isEmpty else { return }
        let here = FileManager.default.currentDirectoryPath
        let shown = paths.map { path in
            let relative = FilePath.relative(path, to: here)
            return relative.hasPrefix("/") || relative.hasPrefix("..") ? path : relative
        }
        console.line("prepush: reports: \(shown.joined(separator: ", "))")
    }

    /// Report files of an earlier run, which must not pass for this run's.
    static func removeStaleReports(in folder: String) {
        for format in [ReportFormat.junit, .json, .markdown] {
            try? FileManager.default.removeItem(atPath: FilePath.join(folder, format.fileName))
        }
        // A stage's log from an earlier run would pass for this run's when the stage does not run now.
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where entry.hasSuffix(".log") {
            try? FileManager.default.removeItem(atPath: FilePath.join(folder, entry))
        }
        for format in TraceabilityFormat.allCases {
            try? FileManager.default.removeItem(atPath: FilePath.join(folder, "traceability.\(format.fileExtension)"))
        }
    }

    /// How many failing tests are listed on the terminal.
    static let listedFailures = 10

    /// Writes junit.xml, results.json and results.md when the stages showed any tests, lists the
    /// failing ones compiler-style, and in GitHub Actions prints annotations and the step summary.
    /// Returns the paths written.
    @discardableResult
    static func publishTests(_ stages: [StageResult], shard: TestShard? = nil, repositoryRoot: String, configuration: ResolvedConfiguration,
                             environment: [String: String], console: Console) -> [String] {
        // Places from the repository root in the reports too, as the console shows them.
        let places = SourcePlaces(root: repositoryRoot)
        let results = stages.flatMap(\.tests.results).map { $0.status == .passed && !$0.isFlaky ? $0 : $0.placingFailures(places.relativePath) }
        // The stages ran one after another; the tests inside them in parallel, so the wall time is the stages'.
        var run = TestRun(results: results, runFailures: stages.flatMap(\.tests.runFailures),
                          wallTime: stages.map(\.duration).reduce(0, +), shard: shard)
        // Tests a stage's runner counted whose lines its console lost: in the counts, with no name.
        let unnamed = stages.reduce(0) { sum, stage in sum + max(0, (stage.tests.counted?.tests ?? 0) - stage.tests.results.count) }
        if unnamed > 0 { run.counted = TestCounts(tests: results.count + unnamed, failed: run.failing.count, skipped: run.count(.skipped)) }
        for failure in run.runFailures { console.line("   error: the test run failed: \(failure)", tone: .bad) }
        // A shard always leaves its results.json, even an empty one: the merge job counts the shards.
        guard !run.results.isEmpty || shard != nil else { return [] }
        let publisher = ReportPublisher(environment: environment)
        var counts = ["\(run.count(.passed) + unnamed) passed", "\(run.count(.failed)) failed"]
        if run.count(.skipped) > 0 { counts.append("\(run.count(.skipped)) skipped") }
        let expected = run.count(.expectedFailure)
        if expected > 0 { counts.append("\(expected) expected failure\(expected == 1 ? "" : "s")") }
        if run.count(.unfinished) > 0 { counts.append("\(run.count(.unfinished)) unfinished") }
        let flaky = run.results.filter(\.isFlaky).count
        if flaky > 0 { counts.append("\(flaky) flaky") }
        console.line("prepush: tests: \(counts.joined(separator: ", "))")
        // A failed stage listed its failing tests itself; a stage that passed with failing tests
        // (its command ignores them, and the verdict refuses it) has them listed here.
        let unlisted = stages.filter { $0.status == .passed }.flatMap(\.tests.failing)
        for test in unlisted.prefix(listedFailures) {
            let place = test.failureLocation.map { $0.column > 0 ? "\($0): " : "\($0.file):\($0.line): " } ?? ""
            console.line("   \(place)error: \(test.testIdentifier): \(test.failureMessage ?? "failed")", tone: .bad)
        }
        var written: [String] = []
        do {
            written = try publisher.writeReports(run, to: configuration.reportsDirectory)
        } catch {
            console.error("prepush: warning: could not write the reports to \(configuration.reportsDirectory): \(ErrorText.describe(error))")
        }
        let annotations = publisher.annotations(run)
        if !annotations.isEmpty { FileSystem.write(annotations, to: console.output) }
        try? publisher.appendStepSummary(run)
        return written
    }

    /// Opens the repository as git would (honouring `GIT_DIR` in hooks) and resolves the configuration.
    public static func resolveConfiguration(flags: ConfigurationFlags, environment: [String: String],
                                            repository given: Repository? = nil) throws -> ResolvedConfiguration {
        let repository = try given ?? Repository.openFromEnvironment()
        let root = try repository.requireWorkingDirectory()
        var request = ConfigurationRequest(flags: flags, environment: environment, repositoryRoot: root,
                                           currentDirectory: FileManager.default.currentDirectoryPath)
        request.knownAccessibilityRules = AccessibilityStep.ruleIDs
        return try ConfigurationResolver.resolve(request)
    }

    /// The first line of the `.gitignore` prepush writes into its reports folder; it marks the folder as prepush's.
    static let reportsFolderMark = "# Written by prepush: reports are build output."

    /// Why a reports folder is not used.
    struct ReportsFolderProblem: Error, CustomStringConvertible {
        let description: String
    }

    /// Creates the reports folder; a `.gitignore` of `*` inside keeps reports out of `git status`
    /// without touching the user's own ignore files. A folder that is a symlink, or that already
    /// holds files prepush did not write (`Sources`, say), is refused: that `*` would hide the
    /// user's files from git, and the reports would overwrite theirs.
    static func prepareReportsDirectory(_ path: String) throws(ReportsFolderProblem) {
        if RepositoryPath.isSymbolicLink(path) {
            throw ReportsFolderProblem(description: "\(path) is a symbolic link; give the reports a real folder")
        }
        let ignore = FilePath.join(path, ".gitignore")
        if FileSystem.isDirectory(path) {
            let marked = (try? FileReading.read(ignore, limit: 4096).get())
                .map { String(decoding: $0, as: UTF8.self).hasPrefix(reportsFolderMark) } ?? false
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            if !marked, !entries.isEmpty {
                let named = entries.sorted().prefix(3).joined(separator: ", ") + (entries.count > 3 ? ", …" : "")
                throw ReportsFolderProblem(description: "\(path) already holds files prepush did not write (\(named)); give the reports a new or empty folder")
            }
            if marked { return }
        } else if FileManager.default.fileExists(atPath: path) {
            throw ReportsFolderProblem(description: "\(path) is a file, not a folder")
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try Data("\(reportsFolderMark)\n*\n".utf8).write(to: URL(fileURLWithPath: ignore), options: .atomic)
        } catch {
            throw ReportsFolderProblem(description: "cannot create \(path): \(ErrorText.describe(error))")
        }
    }
}

/// Which stages run, in order, and why the others do not.
struct StagePlan {
    var stages: [StageSettings] = []
    var notRunning: [(StageKind, String)] = []

    /// Moves every stage's working directory from the working tree into an export of the commit.
    mutating func rebase(onto tree: String, root: String) {
        stages = stages.map { stage in
            stage.moved(to: FilePath.absolute(FilePath.relative(stage.workingDirectory, to: root), base: tree))
        }
    }

    /// Leaves out the stages named in `names`, saying why.
    mutating func skip(_ names: Set<String>, because reason: String) {
        for stage in stages where names.contains(stage.kind.rawValue) { notRunning.append((stage.kind, reason)) }
        stages.removeAll { names.contains($0.kind.rawValue) }
    }

    /// Every stage name the configuration knows, configured or not: what `SKIP=` and `--stage` may name.
    var names: [String] = []

    /// The stages that do not run, in the stages' order.
    var notRunningInOrder: [(StageKind, String)] {
        notRunning.enumerated().sorted { lhs, rhs in
            let left = names.firstIndex(of: lhs.element.0.rawValue) ?? 0, right = names.firstIndex(of: rhs.element.0.rawValue) ?? 0
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    init(_ configuration: ResolvedConfiguration) {
        // File order; `unit` first and `ui` after it where the file does not place them.
        var order = configuration.stageOrder
        if !order.contains(.unit) { order.insert(.unit, at: 0) }
        if !order.contains(.ui) { order.insert(.ui, at: (order.firstIndex(of: .unit) ?? -1) + 1) }
        names = order.map(\.rawValue)
        for kind in order {
            switch kind {
            case .unit: addUnit(configuration)
            case .ui: addUI(configuration)
            default:
                if configuration.hook.uiTestsOnly {
                    notRunning.append((kind, "skipped (--ui-tests-only)"))
                } else if configuration.customStagesSkippedByFile.contains(kind) {
                    notRunning.append((kind, "skipped (skip: true in the configuration)"))
                } else if let stage = configuration.customStages.first(where: { $0.kind == kind }) {
                    stages.append(stage)
                }
            }
        }
    }

    /// The stages in runs: consecutive stages with `parallel: true` run together, every other stage alone.
    var groups: [[StageSettings]] {
        var groups: [[StageSettings]] = []
        for stage in stages {
            if stage.parallel, let last = groups.last, last.allSatisfy(\.parallel) {
                groups[groups.count - 1].append(stage)
            } else {
                groups.append([stage])
            }
        }
        return groups
    }

    /// Puts `stage` in the place of the stage of the same name.
    mutating func replace(_ kind: StageKind, with stage: StageSettings) {
        if let index = stages.firstIndex(where: { $0.kind == kind }) { stages[index] = stage }
    }

    /// Leaves out the stages with `paths:` that match no file the push changes, saying so.
    mutating func keepOnlyStagesMatching(changedFiles: [String]) {
        let idle = stages.filter { stage in
            guard !stage.paths.isEmpty else { return false }
            let globs = stage.paths.map(Glob.init)
            return !changedFiles.contains { file in globs.contains { $0.matches(file) } }
        }
        for stage in idle { notRunning.append((stage.kind, "skipped (no changed file matches paths: \(stage.paths.joined(separator: ", ")))")) }
        stages.removeAll { stage in idle.contains { $0.kind == stage.kind } }
    }

    private mutating func addUnit(_ configuration: ResolvedConfiguration) {
        if configuration.hook.uiTestsOnly {
            notRunning.append((.unit, "skipped (--ui-tests-only)"))
        } else if configuration.unitStageSkippedByFile {
            notRunning.append((.unit, "skipped (skip: true in the configuration)"))
        } else if let unit = configuration.unitStage {
            stages.append(unit)
        } else {
            notRunning.append((.unit, "not configured (set stages.unit.run in \(ConfigurationResolver.defaultFileName))"))
        }
    }

    private mutating func addUI(_ configuration: ResolvedConfiguration) {
        if configuration.hook.skipUITests {
            let origin = configuration.settings.first { $0.name == "skipUITests" }?.origin
            notRunning.append((.ui, "skipped (\(origin.map(\.description) ?? "skipUITests"))"))
        } else if let ui = configuration.uiStage {
            stages.append(ui)
        } else {
            notRunning.append((.ui, "not configured (set stages.ui.run in \(ConfigurationResolver.defaultFileName))"))
        }
    }
}

/// The right to write a reports folder, held (with `flock`) until the process ends. A second run in
/// the same worktree does not wait for the first: it writes into `runs/<pid>` inside the folder and
/// says so, so each run's log path holds its own output.
enum ReportsFolderClaim {
    /// Lock files kept open for the life of the process: closing one would release its lock. Only
    /// the pipeline's own thread claims folders, once per run, so this needs no lock of its own.
    nonisolated(unsafe) private static var held: [Int32] = []

    /// The folder this run writes, and the pid of the run that holds `folder` when it is not this one.
    static func claim(_ folder: String) throws(Pipeline.ReportsFolderProblem) -> (folder: String, busyWith: Int32??) {
        if try lock(folder) {
            removeFinishedRuns(in: FilePath.join(folder, "runs"))
            return (folder, nil)
        }
        let holder = (try? FileReading.read(FilePath.join(folder, ".lock"), limit: 64).get())
            .flatMap { Int32(TextFormatting.trimmed(String(decoding: $0, as: UTF8.self))) }
        let own = FilePath.join(FilePath.join(folder, "runs"), String(getpid()))
        try Pipeline.prepareReportsDirectory(own)
        _ = try lock(own)
        return (own, .some(holder))
    }

    /// Takes the folder's lock without waiting; false when another process holds it.
    private static func lock(_ folder: String) throws(Pipeline.ReportsFolderProblem) -> Bool {
        let path = FilePath.join(folder, ".lock")
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            throw Pipeline.ReportsFolderProblem(description: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return false
        }
        _ = ftruncate(fd, 0)
        FileSystem.write("\(getpid())\n", to: fd)
        held.append(fd)
        return true
    }

    /// Removes the folders of earlier concurrent runs that have ended (their lock is free).
    private static func removeFinishedRuns(in runs: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: runs) else { return }
        for entry in entries where Int32(entry) != nil && Int32(entry) != getpid() {
            let folder = FilePath.join(runs, entry)
            let fd = open(FilePath.join(folder, ".lock"), O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { try? FileManager.default.removeItem(atPath: folder) }
        }
    }
}

/// The export of the pushed commit for isolated and remote runs, named after the run's pid so that
/// the next run can remove one a killed run left behind.
enum ExportFolder {
    static let prefix = "prepush-export-"

    /// A new export folder's path in `temporary`.
    static func path(in temporary: String) -> String {
        FilePath.join(temporary, "\(prefix)\(getpid())-\(UUID().uuidString.prefix(8))")
    }

    /// Removes export folders whose run is no longer alive (`kill -9`, a crash); a folder of a live
    /// run, or one whose pid cannot be told, is left alone.
    static func removeLeftovers(in temporary: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: temporary) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            let rest = entry.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: FilePath.join(temporary, entry))
            }
        }
    }
}
