/// A test the history shows as flaky, and why.
public struct FlakyTest: Sendable, Equatable {
    /// The test's identifier.
    public let identifier: String
    /// Runs of it among those looked at.
    public let runs: Int
    /// Runs in which it failed (every attempt).
    public let failures: Int
    /// Runs in which it failed and then passed on a retry.
    public let passedOnRetry: Int
    /// Trees on which it both passed and failed.
    public let treesWithBoth: Int
    /// Changes between passing and failing from one run to the next.
    public let flips: Int

    /// Failures and retried passes per run: how often it does not pass at once.
    public var rate: Double { runs == 0 ? 0 : Double(failures + passedOnRetry) / Double(runs) }

    /// Why it is listed, in words.
    public var reasons: [String] {
        var reasons: [String] = []
        if treesWithBoth > 0 { reasons.append("passed and failed on the same tree (\(treesWithBoth == 1 ? "1 tree" : "\(treesWithBoth) trees"))") }
        if passedOnRetry > 0 { reasons.append("passed on a retry \(passedOnRetry == 1 ? "once" : "\(passedOnRetry) times")") }
        if flips >= 2 { reasons.append("flipped \(flips) times") }
        return reasons
    }
}

/// Which tests are flaky, from their recent results: a test that passed and failed on the same
/// tree, passed only on a retry, or flipped between passing and failing at least twice (once is a
/// change that broke or fixed it, not flakiness).
public enum FlakyAnalysis {
    public static func flaky(_ results: [(run: Int, tree: String?, test: RecordedTest)]) -> [FlakyTest] {
        var byTest: [String: [(tree: String?, test: RecordedTest)]] = [:]
        for result in results { byTest[result.test.identifier, default: []].append((result.tree, result.test)) }
        var found: [FlakyTest] = []
        for (identifier, history) in byTest {
            var outcomesByTree: [String: Set<Bool>] = [:]
            for entry in history {
                if let tree = entry.tree { outcomesByTree[tree, default: []].insert(entry.test.passed && !entry.test.isFlaky) }
            }
            let outcomes = history.map { $0.test.passed && !$0.test.isFlaky }
            let flips = zip(outcomes, outcomes.dropFirst()).filter { $0 != $1 }.count
            let test = FlakyTest(identifier: identifier, runs: history.count,
                                 failures: history.filter { !$0.test.passed }.count,
                                 passedOnRetry: history.filter { $0.test.isFlaky }.count,
                                 treesWithBoth: outcomesByTree.values.filter { $0.count == 2 }.count, flips: flips)
            if !test.reasons.isEmpty { found.append(test) }
        }
        return found.sorted { ($0.rate, $1.identifier) > ($1.rate, $0.identifier) }
    }
}
