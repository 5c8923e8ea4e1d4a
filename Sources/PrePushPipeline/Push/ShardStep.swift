#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushHistory
import PrePushResults
import PrePushTraceability

/// What `prepush run` was asked to shard: `--shard i/n`, or a CI system's parallel-job variables.
package struct ShardRequest: Sendable {
    /// Which part of the split this run is.
    package let shard: TestShard
    /// Where it came from, for messages: `--shard 2/4` or `CI_NODE_INDEX=2, CI_NODE_TOTAL=4`.
    package let origin: String
    /// Given with `--shard` (then a configuration with no `shard:` stage is an error); a CI's
    /// variables are only used where a stage has `shard:`.
    package let explicit: Bool
    /// `--timings FILE`: an earlier run's results.json whose durations balance the shards, or
    /// `history` for the run history's.
    package let timingsFile: String?

    /// Creates a request.
    package init(shard: TestShard, origin: String, explicit: Bool, timingsFile: String?) {
        self.shard = shard
        self.origin = origin
        self.explicit = explicit
        self.timingsFile = timingsFile
    }

    /// `--shard i/n` (already validated), else the CI's parallel-job variables; `--timings` only
    /// with one of them. Nil: the run is not split.
    static func resolve(argument: String?, timings: String?, environment: [String: String]) throws(PipelineError) -> ShardRequest? {
        var found: ShardRequest?
        if let argument, case .success(let parsed) = TestShard.parse(argument) {
            found = ShardRequest(shard: parsed, origin: "--shard \(parsed)", explicit: true, timingsFile: timings)
        } else {
            switch TestShard.fromCI(environment: environment) {
            case .success(let fromCI?): found = ShardRequest(shard: fromCI.shard, origin: fromCI.variables, explicit: false, timingsFile: timings)
            case .success(nil): break
            case .failure(let problem): throw .shard("\(problem)")
            }
        }
        if timings != nil && found == nil { throw .shard("--timings balances shards: it goes with --shard i/n (or a CI's parallel-job variables)") }
        return found
    }
}

/// One CI job's part of a suite split over a matrix: each stage with `shard:` gets its part of the
/// tests found in the sources through `PREPUSH_TEST_FILTER` (`swift test --filter`),
/// `PREPUSH_ONLY_TESTING` (`xcodebuild test`'s `-only-testing:` arguments) and `PREPUSH_TEST_LIST`
/// (a file, one test a line), and the other stages run on the first shard only, so the merged
/// results hold every test once. No scheduler: every job computes the same partition by itself.
enum ShardStep {
    /// The variables a stage command reads its shard's tests from.
    static let variables = ["PREPUSH_TEST_FILTER", "PREPUSH_ONLY_TESTING", "PREPUSH_TEST_LIST"]

    /// The longest value given to a stage in one variable, in bytes: Linux refuses a single
    /// argument or variable over 128 KiB (`MAX_ARG_STRLEN`) when it starts the command.
    static let variableLimit = 120_000

    /// The error when no stage says which tests to split.
    static func noShardStage(_ origin: String) -> String {
        "\(origin): no stage has shard: in the configuration, so nothing says which tests to split (set shard: true on the stage that runs them: docs/ci.md)"
    }

    /// What a shard stage gets: its filters, its list file and the shard.
    static func variables(_ filters: ShardFilters, list: String, shard: TestShard) -> [EnvironmentEntry] {
        [
            EnvironmentEntry(name: "PREPUSH_TEST_FILTER", value: filters.swiftTestFilter),
            EnvironmentEntry(name: "PREPUSH_ONLY_TESTING", value: filters.onlyTesting),
            EnvironmentEntry(name: "PREPUSH_TEST_LIST", value: list),
            EnvironmentEntry(name: "PREPUSH_SHARD", value: shard.description),
        ]
    }

    /// Reads what the planner needs to split the plan's `shard:` stages: `--timings` and the tests
    /// each holds, found in the sources (only those compiled where the stage runs: one under
    /// `#if os(macOS)` never runs on Linux). Nothing is read when no stage is split.
    /// `history` is the run history's path and the commit being tested, for `--timings history`.
    static func gather(_ request: ShardRequest, stages: [StageSettings], discovery: TraceabilityStep,
                       history: (path: String, commit: String?)) throws(PipelineError) -> PushPlanner.ShardInputs {
        var inputs = PushPlanner.ShardInputs()
        let sharded = stages.filter { $0.shardTests != nil }
        guard !sharded.isEmpty else { return inputs }
        if request.timingsFile == historyWord {
            switch historyTimings(history.path, excludingCommit: history.commit) {
            case .success(let read) where !read.isEmpty:
                inputs.timings = read
                inputs.timingsSource = "the run history (\(TextFormatting.count(read.count, "test")), runs of other commits)"
            case .success:
                inputs.notes.append("--timings history: the run history holds no passed test of another commit; the shards are split by count")
            case .failure(let problem): throw .shard("--timings history: \(problem)")
            }
        } else if let file = request.timingsFile {
            switch readTimings(file) {
            case .success(let read): inputs.timings = read
            case .failure(let problem): throw .shard("--timings \(file): \(problem)")
            }
            inputs.timingsSource = file
        }
        for stage in sharded {
            let globs = (stage.shardTests ?? []).isEmpty ? discovery.tests : (stage.shardTests ?? []).map(Glob.init)
            let inventory = discovery.testInventory(globs: globs, platform: BuildPlatform.of(command: stage.command))
            if let skipped = TraceabilityStep.skippedNote(inventory) { inputs.notes.append("\(stage.kind.rawValue): shard: \(skipped)") }
            let all = TestSharding.tests(in: inventory)
            inputs.tests[stage.kind] = (all, globs.map(\.pattern))
        }
        return inputs
    }

    /// The command with the shard's tests added: `--filter "$PREPUSH_TEST_FILTER"` after a final
    /// `swift test`, or `$PREPUSH_ONLY_TESTING` after the `xcodebuild` of an `xcodebuild test`
    /// (its options may come in any order, so this works before a `| xcbeautify` too); nil when the
    /// command already reads one of the variables, or is neither.
    static func commandRunningShard(_ command: String) -> String? {
        guard !variables.contains(where: { command.contains($0) }) else { return nil }
        if let filtered = SelectiveTests.command(command, filterArgument: "\"$PREPUSH_TEST_FILTER\"") { return filtered }
        guard let (tokens, xcodebuild, _) = XcodebuildRetry.invocation(in: command) else { return nil }
        let after = tokens[xcodebuild].range.upperBound
        return command[..<after] + " $PREPUSH_ONLY_TESTING" + command[after...]
    }

    /// What `--timings` takes for the run history (a file of that name is given as `./history`).
    static let historyWord = "history"

    /// Seconds per test, by `TestIdentifierKey`, from the run history at `path`: each test's latest
    /// passing run of another commit than `commit`. Runs of the commit being tested are left out so
    /// that each shard of it, recording its own run, leaves the next one the same durations.
    static func historyTimings(_ path: String, excludingCommit commit: String?) -> Result<[String: Double], ShardTimingsProblem> {
        guard FileManager.default.fileExists(atPath: path) else { return .success([:]) }
        do {
            var timings: [String: Double] = [:]
            for (test, seconds) in try RunHistory(path: path).latestDurations(excludingCommit: commit) {
                let key = TestIdentifierKey.key(test)
                timings[key] = max(timings[key] ?? 0, seconds)
            }
            return .success(timings)
        } catch {
            return .failure(ShardTimingsProblem(description: "the run history \(path) cannot be read: \(error)"))
        }
    }

    /// Seconds per test from an earlier run's results (any format `prepush results` reads), by
    /// `TestIdentifierKey`; a key met twice keeps the longer time.
    static func readTimings(_ file: String) -> Result<[String: Double], ShardTimingsProblem> {
        guard FileManager.default.isReadableFile(atPath: file) else {
            return .failure(ShardTimingsProblem(description: FileManager.default.fileExists(atPath: file) ? "cannot be read" : "no such file"))
        }
        let run: TestRun
        do {
            run = try ResultsInput.parse(file: file).run
        } catch {
            return .failure(ShardTimingsProblem(description: "\(error)"))
        }
        guard !run.results.isEmpty else { return .failure(ShardTimingsProblem(description: "no test results in it")) }
        var timings: [String: Double] = [:]
        for test in run.results {
            let key = TestIdentifierKey.key(suite: test.suite, name: test.name)
            timings[key] = max(timings[key] ?? 0, test.duration)
        }
        return .success(timings)
    }
}

/// Why `--timings` cannot be used.
struct ShardTimingsProblem: Error, CustomStringConvertible {
    let description: String
}
