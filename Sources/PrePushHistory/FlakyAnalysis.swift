import PrePushCore

/// A test the history shows as flaky, and why.
package struct FlakyTest: Sendable, Equatable {
    /// The test's identifier.
    package let identifier: String
    /// Runs of it among those looked at.
    package let runs: Int
    /// Runs in which it failed (every attempt).
    package let failures: Int
    /// Runs in which it failed and then passed on a retry.
    package let passedOnRetry: Int
    /// Trees on which it both passed and failed.
    package let treesWithBoth: Int
    /// Changes between passing and failing from one run of a tree to the next run of the same tree.
    package let flips: Int
    /// Failures on trees where it also passed: failures a change to the code does not explain.
    package var sameTreeFailures: Int = 0
    /// Trees it ran on.
    package var trees: Int = 0

    /// Same-tree failures and retried passes per run: how often it does not pass at once for no
    /// reason the code gives. A failure on one tree and a pass on the next is a break and its fix.
    package var rate: Double { runs == 0 ? 0 : Double(sameTreeFailures + passedOnRetry) / Double(runs) }

    /// Why it is listed, in words.
    package var reasons: [String] {
        var reasons: [String] = []
        if treesWithBoth > 0 { reasons.append("passed and failed on the same tree (\(treesWithBoth == 1 ? "1 tree" : "\(treesWithBoth) trees"))") }
        if passedOnRetry > 0 { reasons.append("passed on a retry \(passedOnRetry == 1 ? "once" : "\(passedOnRetry) times")") }
        if flips >= 2 { reasons.append("flipped \(flips) times") }
        return reasons
    }
}

/// Which tests are flaky, from their recent results: a test that passed and failed on the same
/// tree (the same tested inputs), or passed only on a retry within one run. A failure on one tree
/// and a pass on another is a change that broke or fixed it, never flakiness: a run without a tree
/// (an imported results file) is evidence only through its retries.
package enum FlakyAnalysis {
    package static func flaky(_ results: [(run: Int, tree: String?, test: RecordedTest)]) -> [FlakyTest] {
        var byTest: [String: [(tree: String?, test: RecordedTest)]] = [:]
        for result in results { byTest[result.test.identifier, default: []].append((result.tree, result.test)) }
        var found: [FlakyTest] = []
        for (identifier, history) in byTest {
            var judgementsByTree: [String: [FlakyJudgement]] = [:]
            for entry in history {
                if let tree = entry.tree { judgementsByTree[tree, default: []].append(entry.test.judgement) }
            }
            let mixedTrees = judgementsByTree.filter { FlakyJudgement.mixed($0.value) }
            // A flip is a change between an outright pass and anything else from one run of a tree to the next.
            let flips = mixedTrees.values.reduce(0) { sum, runs in sum + zip(runs, runs.dropFirst()).filter { ($0 == .passed) != ($1 == .passed) }.count }
            var test = FlakyTest(identifier: identifier, runs: history.count,
                                 failures: history.filter { $0.test.judgement == .broken }.count,
                                 passedOnRetry: history.filter { $0.test.judgement == .flaky }.count,
                                 treesWithBoth: mixedTrees.count, flips: flips)
            test.sameTreeFailures = history.filter { entry in entry.test.judgement == .broken && entry.tree.map { mixedTrees[$0] != nil } == true }.count
            test.trees = judgementsByTree.count
            if !test.reasons.isEmpty { found.append(test) }
        }
        return found.sorted { ($0.rate, $1.identifier) > ($1.rate, $0.identifier) }
    }
}
