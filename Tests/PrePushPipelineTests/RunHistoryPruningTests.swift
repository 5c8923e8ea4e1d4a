import PrePushHistory
import PrePushTestSupport
import Testing

/// The history stops growing: recording a run beyond `keptRuns` forgets the oldest, results too.
@Suite struct RunHistoryPruningTests {
    @Test func theOldestRunsAreForgottenWithTheirResults() throws {
        let folder = try TemporaryDirectory()
        let history = try RunHistory(path: folder.url("history.sqlite"))
        history.keptRuns = 5
        for run in 1...8 {
            let tests = [RecordedTest(identifier: "A.steady", status: "passed", duration: Double(run), attempts: 1),
                         RecordedTest(identifier: "A.other", status: "failed", duration: 1, attempts: 1)]
            try history.record(RecordedRun(started: Double(run), tree: nil, commit: "c\(run)", stage: "unit", status: "failed",
                                           duration: 1, origin: "run", tests: tests))
        }
        let runs = try history.runs(limit: 100)
        #expect(runs.map(\.commit) == ["c8", "c7", "c6", "c5", "c4"])
        #expect(try history.results(of: "A.steady", limit: 100).map(\.test.duration) == [8, 7, 6, 5, 4])
        #expect(try history.results(of: "A.other", limit: 100).count == 5)
    }
}
