import PrePushCore

/// One earlier result of a test, as the run history holds it (PrePushHistory reads the database;
/// this module only needs the values).
package struct PastResult: Sendable, Equatable {
    /// The run's number in the history, in the order the runs were recorded.
    package let run: Int
    /// The tree the run tested.
    package let tree: String?
    /// `passed`, `failed`, `skipped`, `unfinished`, `expectedFailure` or `flaky`.
    package let status: String

    /// Creates a result.
    package init(run: Int, tree: String?, status: String) {
        self.run = run
        self.tree = tree
        self.status = status
    }
}

/// How a scenario's tests did on one tree: the worst of them; flaky when a retry saved it, or when
/// it failed and passed on the same tree.
package struct HistoryMark: Sendable, Equatable {
    /// The tree (its id), nil when the run recorded none.
    package let tree: String?
    /// passed, failed or skipped.
    package let status: ScenarioStatus
    /// Whether it passed only on a retry.
    package let flaky: Bool
}

extension TraceabilityMatrix {
    /// How many trees a scenario's strip shows, oldest first.
    package static let historyLength = 10

    /// Gives every scenario its strip from the run history (`past` by test identifier, such as
    /// `LibraryTests.FineTests.sync()`): per tree, the worst result of its linked tests.
    package mutating func attachHistory(_ past: [String: [PastResult]]) {
        var byKey: [String: [PastResult]] = [:]
        for (identifier, results) in past { byKey[Self.historyKey(identifier: identifier), default: []] += results }
        histories = rows.map { row in
            let keys = Set(row.links.compactMap(Self.historyKey(link:)))
            let results = keys.flatMap { byKey[$0] ?? [] }
            return Self.marks(results)
        }
    }

    /// The strip of one scenario: runs in order, a mark per tree (consecutive runs of one tree
    /// make one: the worst, or flaky when they failed and passed), the last `historyLength`.
    static func marks(_ results: [PastResult]) -> [HistoryMark] {
        var runs: [(run: Int, tree: String?, status: ScenarioStatus, flaky: Bool)] = []
        for result in results.sorted(by: { $0.run < $1.run }) {
            let status: ScenarioStatus = ["failed", "unfinished"].contains(result.status) ? .failed : result.status == "skipped" ? .skipped : .passed
            let flaky = result.status == "flaky"
            if let last = runs.last, last.run == result.run {
                let worse = status.severity < last.status.severity
                runs[runs.count - 1] = (last.run, last.tree, worse ? status : last.status, last.flaky || flaky)
            } else {
                runs.append((result.run, result.tree, status, flaky))
            }
        }
        var marks: [HistoryMark] = []
        for run in runs {
            if let last = marks.last, last.tree == run.tree, run.tree != nil {
                // Failed and passed on one tree is flaky (FlakyAnalysis's rule); else the worst.
                let flipped = Set([last.status, run.status]) == [.failed, .passed]
                let status = flipped ? .passed : run.status.severity < last.status.severity ? run.status : last.status
                marks[marks.count - 1] = HistoryMark(tree: last.tree, status: status, flaky: flipped || ((last.flaky || run.flaky) && status == .passed))
            } else {
                marks.append(HistoryMark(tree: run.tree, status: run.status, flaky: run.flaky && run.status == .passed))
            }
        }
        return Array(marks.suffix(historyLength))
    }

    /// `failing since tree 1a2b3c4 (3 trees)` when the latest trees all failed.
    static func failingSince(_ marks: [HistoryMark]) -> String? {
        let failing = marks.reversed().prefix { $0.status == .failed }
        guard let first = failing.last, marks.last?.status == .failed else { return nil }
        let tree = first.tree.map { "tree \($0.prefix(7))" } ?? "an unrecorded tree"
        return "failing since \(tree)" + (failing.count > 1 ? " (\(failing.count) trees)" : "")
    }

    /// `FineTests.sync`: a test's type (its last part) and function, the same however a reader
    /// qualified it (`LibraryTests.FineTests.sync()`, `FineTests/sync()`).
    static func historyKey(identifier: String) -> String {
        let bare = bareName(identifier)
        let parts = bare.split(separator: ".")
        return parts.suffix(2).joined(separator: ".")
    }

    static func historyKey(link: LinkedTest) -> String? {
        if let result = link.result { return historyKey(identifier: result.testIdentifier) }
        guard let test = link.test else { return nil }
        let type = test.typeName.flatMap { $0.split(separator: ".").last.map(String.init) }
        return (type.map { "\($0)." } ?? "") + test.name
    }

    /// The strip as characters, oldest first: ✅ passed, ⚠️ flaky, ❌ failed, ⏭️ skipped.
    static func stripText(_ marks: [HistoryMark]) -> String {
        marks.map { mark in mark.status == .failed ? "❌" : mark.status == .skipped ? "⏭️" : mark.flaky ? "⚠️" : "✅" }.joined()
    }
}
