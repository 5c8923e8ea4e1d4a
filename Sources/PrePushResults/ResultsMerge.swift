#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// Why inputs cannot be merged into one run.
public enum ResultsMergeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Shards of different splits (`1/4` and `2/3`).
    case differentSplits(first: String, firstShard: TestShard, other: String, otherShard: TestShard)
    /// The same shard given twice.
    case repeatedShard(TestShard, first: String, again: String)
    /// Tests reported by two shards: the split was not a partition (a stage ran every test in each shard).
    case testInTwoShards(tests: [String], count: Int, first: String, second: String)

    public var description: String {
        switch self {
        case .differentSplits(let first, let firstShard, let other, let otherShard):
            return "\(first) is shard \(firstShard) but \(other) is shard \(otherShard): they are not parts of one split"
        case .repeatedShard(let shard, let first, let again):
            return "shard \(shard) is given twice: \(first) and \(again)"
        case .testInTwoShards(let tests, let count, let first, let second):
            let more = count > tests.count ? " and \(count - tests.count) more" : ""
            return "\(count) test\(count == 1 ? " is" : "s are") in two shards (\(first) and \(second)): \(tests.joined(separator: ", "))\(more); "
                + "each shard must run only its own tests (the stage command takes them from $PREPUSH_TEST_FILTER or $PREPUSH_ONLY_TESTING: docs/ci.md)"
        }
    }
}

extension ResultsMerge {
    /// `inputs` without each summary (a run that names its failing tests and counts the rest:
    /// `xcresulttool get test-results summary`) whose whole run is also given (its `tests` output,
    /// as xcresultparser reads the two together): the same tests would count twice. A summary is
    /// that run's when the run has exactly the tests it counts, at least the failures, and every
    /// test it names failed there (at least once: a retry may have passed).
    static func withoutSummariesOfGivenRuns(_ inputs: [(file: String, run: TestRun)]) -> [(file: String, run: TestRun)] {
        guard inputs.count > 1, inputs.contains(where: { $0.run.counted != nil && $0.run.shard == nil }) else { return inputs }
        let whole = inputs.filter { $0.run.counted == nil && $0.run.shard == nil && !$0.run.results.isEmpty }
        return inputs.filter { input in
            guard let counted = input.run.counted, input.run.shard == nil else { return true }
            let named = Set(input.run.results.filter { !$0.passed }.map(\.name))
            let ofGivenRun = whole.contains { candidate in
                // A test that failed and passed on a retry may be counted failed by the summary.
                let failedOnce = candidate.run.results.filter { !$0.passed || !$0.failures.isEmpty }
                return candidate.run.results.count == counted.tests && failedOnce.count >= counted.failed
                    && named.isSubset(of: Set(failedOnce.map(\.name)))
            }
            return !ofGivenRun
        }
    }
}

/// Joins the runs of several inputs into one: shards of a CI matrix (their results.json say which
/// shard they are) into the run of the whole suite, or files of one run read one after another.
public enum ResultsMerge {
    /// The merged run. Among inputs that are shards: all must be parts of one split, each shard
    /// once, and no test in two of them (errors); a shard not given is a failure of the run, so a
    /// merged report with a part missing never passes. Shards ran at the same time: the wall time
    /// is the longest; other inputs ran one after another: their wall times add up. `added` are the
    /// failures the merge itself found (missing shards), also in the run's `runFailures`.
    public static func merge(_ inputs: [(file: String, run: TestRun)]) throws(ResultsMergeError) -> (run: TestRun, added: [String]) {
        let inputs = withoutSummariesOfGivenRuns(inputs)
        // One plain input is the run: appending it to an empty one would copy every result (11 MB
        // for 100,000 tests, the peak of `prepush results` on a big JUnit file).
        if inputs.count == 1, inputs[0].run.shard == nil { return (inputs[0].run, []) }
        var merged = TestRun()
        var shardFiles: [TestShard: String] = [:]
        var split: (file: String, shard: TestShard)?
        var owner: [String: String] = [:]
        var shardWall: Double?
        var serialWall: Double? = 0
        var added: [String] = []
        for (file, run) in inputs {
            if let shard = run.shard {
                if let split, split.shard.count != shard.count {
                    throw .differentSplits(first: split.file, firstShard: split.shard, other: file, otherShard: shard)
                }
                if let earlier = shardFiles[shard] { throw .repeatedShard(shard, first: earlier, again: file) }
                split = split ?? (file, shard)
                shardFiles[shard] = file
                var twice: [String] = []
                var otherFile = ""
                // Swift Testing's console names a test by its function only (no suite): six suites'
                // `emitModule()` are one name, so such names cannot show a repeat (the event stream names them whole).
                for test in run.results where !test.suite.isEmpty {
                    if let earlier = owner[test.testIdentifier], earlier != file {
                        twice.append(test.testIdentifier)
                        otherFile = earlier
                    } else {
                        owner[test.testIdentifier] = file
                    }
                }
                if !twice.isEmpty {
                    throw .testInTwoShards(tests: Array(twice.prefix(5)), count: twice.count, first: otherFile, second: file)
                }
                shardWall = max(shardWall ?? 0, run.elapsed)
            } else {
                serialWall = run.wallTime.flatMap { wall in serialWall.map { $0 + wall } }
            }
            merged.results += run.results
            merged.runFailures += run.runFailures
            merged.toolchain = merged.toolchain ?? run.toolchain
            // A shard's refusal and quarantined failures stay what that run said of them.
            if let errors = run.buildErrors { merged.buildErrors = (merged.buildErrors ?? []) + errors }
            if let logs = run.buildLogs { merged.buildLogs = (merged.buildLogs ?? []) + logs }
            if let refusal = run.refusal { merged.refusal = merged.refusal.map { "\($0); \(refusal)" } ?? refusal }
            // One incomplete input makes the whole incomplete; allowed only where each one was.
            if let incomplete = run.incomplete {
                merged.incomplete = merged.incomplete.map { "\($0); \(file): \(incomplete)" } ?? "\(file): \(incomplete)"
                merged.incompleteAllowed = (merged.incompleteAllowed ?? true) && run.incompleteAllowed == true
            }
            if let quarantined = run.quarantined { merged.quarantined = (merged.quarantined ?? [:]).merging(quarantined) { first, _ in first } }
            if let counted = run.counted {
                let sum = merged.counted
                merged.counted = TestCounts(tests: (sum?.tests ?? 0) + counted.tests, failed: (sum?.failed ?? 0) + counted.failed,
                                            skipped: (sum?.skipped ?? 0) + counted.skipped)
            }
        }
        if let split {
            let missing = (1...split.shard.count).filter { TestShard(index: $0, count: split.shard.count).map { shardFiles[$0] == nil } ?? false }
            if !missing.isEmpty {
                let named = missing.map { "\($0)/\(split.shard.count)" }
                added.append("shard\(missing.count == 1 ? "" : "s") \(named.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") missing: \(missing.count == 1 ? "its" : "their") results were not given, so the suite is not complete")
                merged.runFailures += added
            }
        }
        if split != nil, inputs.allSatisfy({ $0.run.shard != nil }) {
            merged.wallTime = shardWall
        } else if split == nil {
            merged.wallTime = serialWall
        }
        return (merged, added)
    }
}
