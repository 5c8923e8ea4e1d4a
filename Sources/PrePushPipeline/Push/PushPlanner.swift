import PrePushConfig
import PrePushCore
import PrePushResults
import PrePushTraceability

/// Something the planner has to say, as data: the pipeline writes it through `Diagnostics`.
enum PlanNote: Equatable {
    /// `prepush: note: …`
    case note(String)
    /// `prepush: warning: …`
    case warning(String)
    /// `prepush – stage: reason`: a stage left out.
    case leftOut(stage: String, reason: String)
    /// `prepush: …`: what the plan does to a stage.
    case said(String)
}

/// What a push runs: the stages in order (with what the planner changed in them), why the others do
/// not run, what to say, and the files the stages read (a shard's test list).
struct PushPlan {
    /// The stages and why the others do not run.
    var stages: StagePlan
    /// What to say, in order.
    var notes: [PlanNote] = []
    /// `selective:`'s summary for each stage it narrowed, said again in a passing verdict.
    var selectiveSummaries: [StageKind: String] = [:]
    /// Files to write before the stages run: path and contents.
    var files: [(path: String, contents: String)] = []
    /// Whether no stage is configured at all (rather than every configured one left out).
    var noneConfigured: Bool {
        stages.stages.isEmpty && stages.notRunningInOrder.allSatisfy { $0.1.hasPrefix("not configured") }
    }
}

/// The plan of a push as pure functions of what they are given: the configuration, the request, the
/// files the push changes, the package graph, the tests found for a shard. Nothing here reads the
/// repository or starts a process; `PushContext` gathers the inputs.
enum PushPlanner {
    /// The stages the configuration, `SKIP=`, `--stage` and `paths:` leave; `changedFiles` is read
    /// only when a stage has `paths:`.
    static func plan(_ configuration: ResolvedConfiguration, skip: String?, onlyStages: [String],
                     changedFiles: () -> [String]?) throws(PipelineError) -> PushPlan {
        var plan = PushPlan(stages: StagePlan(configuration))
        // `SKIP=ui,unit git push` (pre-commit's convention) and `prepush run --stage unit`.
        let named = Set((skip ?? "").split(separator: ",").map { TextFormatting.trimmed(String($0)) }.filter { !$0.isEmpty })
        // An unknown name is an error that says where the name came from.
        for (names, origin) in [(named, "SKIP=\"\(Diagnostic.excerpt(skip ?? ""))\" (from the environment)"), (Set(onlyStages), "--stage")] {
            let unknown = names.subtracting(plan.stages.names)
            guard unknown.isEmpty else { throw .unknownStage(origin: origin, names: unknown.sorted(), known: plan.stages.names) }
        }
        plan.stages.skip(named, because: "skipped (SKIP=\(skip ?? ""))")
        if !onlyStages.isEmpty {
            plan.stages.skip(Set(plan.stages.names).subtracting(onlyStages), because: "not asked for (--stage)")
        }
        // A stage with `paths:` runs only when the push changes a file they match.
        if plan.stages.stages.contains(where: { !$0.paths.isEmpty }) {
            if let files = changedFiles() {
                plan.stages.keepOnlyStagesMatching(changedFiles: files)
            } else {
                plan.notes.append(.note("cannot tell which files this push changes; stages with paths: run"))
            }
        }
        // "Not configured" is for `prepush config` and `init` to say, not every push; what was
        // left out by a choice (SKIP, paths, a flag) is said.
        let sayNotConfigured = configuration.hook.verbose || plan.noneConfigured
        for (kind, reason) in plan.stages.notRunningInOrder where sayNotConfigured || !reason.hasPrefix("not configured") {
            plan.notes.append(.leftOut(stage: kind.rawValue, reason: reason))
        }
        return plan
    }

    /// The tests a shard splits, found in the sources of each `shard:` stage, and `--timings`' durations.
    struct ShardInputs {
        /// Every test each `shard:` stage holds, and the globs they were found with (for messages).
        var tests: [StageKind: (all: [ShardedTest], globs: [String])] = [:]
        /// Seconds per test by `TestIdentifierKey`, from `--timings`.
        var timings: [String: Double]?
        /// Where `timings` came from, for the plan's note: the file, or the run history.
        var timingsSource: String?
        /// What reading them has to say.
        var notes: [String] = []
    }

    /// Gives each `shard:` stage its part of the tests (`PREPUSH_TEST_FILTER`, `PREPUSH_ONLY_TESTING`,
    /// `PREPUSH_TEST_LIST`, and the command's own filter where prepush knows it), and leaves the other
    /// stages to shard 1.
    static func shard(_ plan: inout PushPlan, _ request: ShardRequest, inputs: ShardInputs, configuredToShard: Bool,
                      reportsDirectory: String, root: String) throws(PipelineError) {
        let shard = request.shard
        let sharded = plan.stages.stages.filter { $0.shardTests != nil }
        // A `shard:` stage left out of this run (SKIP=, --stage) still makes it a part of a split.
        guard !sharded.isEmpty || configuredToShard else { throw .shard(ShardStep.noShardStage(request.origin)) }
        for note in inputs.notes { plan.notes.append(.said(note)) }
        for stage in sharded {
            let name = stage.kind.rawValue
            let found = inputs.tests[stage.kind] ?? ([], [])
            guard !found.all.isEmpty else {
                throw .shard("\(name): shard: no tests found in \(found.globs.joined(separator: ", ")) (under \(root)), so there is nothing to split")
            }
            let duration: ((ShardedTest) -> Double?)? = inputs.timings.map { known in
                { test in known[TestIdentifierKey.key(suite: test.typeName ?? test.target, name: test.name)] }
            }
            let mine = TestSharding.partition(found.all, into: shard.count, duration: duration)[shard.index - 1]
            guard !mine.isEmpty else {
                let reason = "skipped (shard \(shard) holds none of its \(found.all.count) tests)"
                plan.stages.skip([name], because: reason)
                plan.notes.append(.leftOut(stage: name, reason: reason))
                continue
            }
            let filters = TestSharding.filters(of: mine, among: found.all)
            let longest = max(filters.swiftTestFilter.utf8.count, filters.onlyTesting.utf8.count)
            guard longest <= ShardStep.variableLimit else {
                throw .shard("\(name): shard \(shard) names \(mine.count) tests in \(longest / 1024) KiB, more than one variable can carry (128 KiB); split into more shards")
            }
            let listPath = FilePath.join(reportsDirectory, "\(name).shard-tests.txt")
            plan.files.append((listPath, filters.list))
            let command = ShardStep.commandRunningShard(stage.command)
            plan.stages.replace(stage.kind, with: stage.running(command ?? stage.command, adding: ShardStep.variables(filters, list: listPath, shard: shard)))
            let basis = inputs.timings == nil ? "by count" : "by the durations in \(inputs.timingsSource ?? "")"
            plan.notes.append(.said("\(name): shard \(shard) (\(request.origin)): \(mine.count) of \(found.all.count) tests, \(basis)"))
            if command == nil && !ShardStep.variables.contains(where: { stage.command.contains($0) }) {
                plan.notes.append(.warning("\(name): the command is not a swift test or xcodebuild test prepush can add the shard's tests to, and names none of $\(ShardStep.variables.joined(separator: ", $")): unless it reads one, every shard runs every test"))
            }
        }
        if shard.index != 1 {
            let reason = "skipped (not split: it runs on shard 1/\(shard.count) only)"
            let unsplit = plan.stages.stages.filter { $0.shardTests == nil }.map(\.kind.rawValue)
            for name in unsplit { plan.notes.append(.leftOut(stage: name, reason: reason)) }
            plan.stages.skip(Set(unsplit), because: reason)
        }
    }

    /// What `selective:` needs to know about the push and where the stages run.
    struct SelectiveInputs {
        /// Stages run on an export of the pushed commit.
        var isolated: Bool
        /// The working tree holds exactly the pushed commit (always true for an isolated run's export).
        var workingTreeMatches: Bool
        /// The folder the stages' working directories are in: the repository, or the export's tree.
        var treeRoot: String
        /// The configuration file's path relative to the repository, when there is one.
        var configurationFile: String?
        /// Whether this run is a shard.
        var sharded: Bool
        /// The files the push changes; nil when that cannot be told.
        var changedFiles: () -> [String]?
        /// The package graph of a stage (`swift package describe`), or why it cannot be had.
        var graph: (StageSettings) -> Result<PackageGraph, SelectionProblem>
        /// Whether the sources of a target (its folder) name any of the words.
        var mentions: (_ folder: String, _ words: [String]) -> Bool
        /// What could read a changed file outside the targets of the package at a folder (absolute) with a graph.
        var readers: (_ packageRoot: String, _ graph: PackageGraph) -> FileReaders = { FileReaders(packageRoot: $0, graph: $1) }
        /// Why selection is off for this run (`--no-selective`, `PREPUSH_SELECTIVE=0`, CI); nil when on.
        var turnedOff: String? = nil
        /// For `selective: tests`: the impact map and what changed since it, for a stage and its
        /// package folder and graph, or why test targets run instead.
        var impact: (StageSettings, String, PackageGraph) -> Result<ImpactReading, SelectionProblem> = { _, _, _ in
            .failure(SelectionProblem(description: "no impact map is read here"))
        }
    }

    /// Narrows each `selective: true` stage to the test targets the push can affect.
    static func select(_ plan: inout PushPlan, inputs: SelectiveInputs) {
        for stage in plan.stages.stages where stage.selective {
            let name = stage.kind.rawValue
            if let turnedOff = inputs.turnedOff {
                plan.notes.append(.note("\(name): selective: every test runs (\(turnedOff))"))
                continue
            }
            if inputs.sharded && stage.shardTests != nil {
                plan.notes.append(.note("\(name): selective: off in a sharded run (each shard runs its part of every test)"))
                continue
            }
            guard inputs.isolated || inputs.workingTreeMatches else {
                plan.notes.append(.note("\(name): selective: every test runs (the working tree has changes the pushed commits do not show)"))
                continue
            }
            guard let files = inputs.changedFiles() else {
                plan.notes.append(.note("\(name): selective: every test runs (cannot tell what the push changes)"))
                continue
            }
            let graph: PackageGraph
            switch inputs.graph(stage) {
            case .success(let read): graph = read
            case .failure(let problem):
                plan.notes.append(.warning("\(name): selective: every test runs (\(problem))"))
                continue
            }
            // The package's folder in the repository, wherever the stage runs (the working tree or an export).
            let packageFolder = FilePath.relative(stage.workingDirectory, to: inputs.treeRoot)
            let readers = inputs.readers(stage.workingDirectory, graph)
            let selection = SelectiveTests.select(changed: files, packageFolder: packageFolder, graph: graph,
                                                  configurationFile: inputs.configurationFile, mentions: { target, names in
                inputs.mentions(FilePath.join(stage.workingDirectory, target.path), names)
            }, reader: readers.reader(of:inPackage:))
            if stage.selectivity == .tests, case .only = selection {
                switch inputs.impact(stage, packageFolder, graph) {
                case .success(let reading):
                    if applyImpact(stage, reading: reading, packageFolder: packageFolder, graph: graph,
                                   configurationFile: inputs.configurationFile, readers: readers, plan: &plan) { continue }
                case .failure(let problem):
                    plan.notes.append(.note("\(name): selective: test targets instead of tests (\(problem))"))
                }
            }
            apply(selection, to: stage, graph: graph, plan: &plan)
        }
    }

    private static func apply(_ selection: SelectiveTests.Selection, to stage: StageSettings, graph: PackageGraph, plan: inout PushPlan) {
        let name = stage.kind.rawValue
        switch selection {
        case .all(let reason):
            plan.notes.append(.note("\(name): selective: every test runs (\(reason))"))
        case .none(let reason):
            plan.stages.skip([name], because: "skipped (selective: \(reason))")
            plan.notes.append(.leftOut(stage: name, reason: "skipped (selective: \(reason))"))
        case .only(let tests, let changed, let leftOut):
            let shownChanged = TextFormatting.list(changed)
            let total = graph.targets.filter(\.isTest).count
            // Said again in the verdict: a passing push names what it did not test.
            plan.selectiveSummaries[stage.kind] = "\(leftOut) of \(total) test targets left out, none reaches \(shownChanged)"
            if tests.isEmpty {
                // Nothing to test, but a type error anywhere must still refuse: build what a full run builds.
                plan.stages.replace(stage.kind, with: stage.narrowed(to: SelectiveTests.buildEverything, adding: []))
                plan.notes.append(.said("\(name): selective: no test target depends on \(shownChanged); every target is built (\(SelectiveTests.buildEverything)), no test runs"))
                return
            }
            let filter = SelectiveTests.filter(tests)
            let command = SelectiveTests.command(stage.command, filterArgument: ShellQuoting.quoted(filter))
            plan.stages.replace(stage.kind, with: stage.narrowed(to: command ?? stage.command, adding: [EnvironmentEntry(name: "PREPUSH_TEST_FILTER", value: filter)]))
            plan.notes.append(.said("\(name): selective: \(tests.count) of \(total) test targets (\(TextFormatting.list(tests))), for changes in \(shownChanged)"
                                    + (command == nil ? "; the command does not end in swift test, so it gets them as $PREPUSH_TEST_FILTER" : "")))
        }
    }
}
