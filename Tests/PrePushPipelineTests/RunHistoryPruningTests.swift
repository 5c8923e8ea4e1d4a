@testable import PrePushHistory
import PrePushCore
import PrePushTraceability
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

/// A test is found in the history however the user spells it; a name several tests end in is not
/// one test's history.
@Suite struct RunHistoryLookupTests {
    @Test func everySpellingFindsTheTestAndAShortNameFindsEveryCandidate() throws {
        let folder = try TemporaryDirectory()
        let history = try RunHistory(path: folder.url("history.sqlite"))
        let tests = ["Render.XibTests/compileXib()", "Render.NibTests/compileXib()", "Shop.CacheTests.cacheWarmup()", "CheckoutTests.testPays"]
            .map { RecordedTest(identifier: $0, status: "passed", duration: 1, attempts: 1) }
        try history.record(RecordedRun(started: 1, tree: "t", commit: "c", stage: "unit", status: "passed", duration: 1, origin: "run", tests: tests))
        for spelling in ["cacheWarmup", "cacheWarmup()", "CacheTests/cacheWarmup", "Shop.CacheTests.cacheWarmup()"] {
            #expect(try history.results(of: spelling, limit: 10).map(\.test.identifier) == ["Shop.CacheTests.cacheWarmup()"], "\(spelling)")
        }
        #expect(try history.results(of: "testPays", limit: 10).count == 1)
        #expect(try history.results(of: "CheckoutTests/testPays", limit: 10).count == 1)
        #expect(try history.results(of: "warmup", limit: 10).isEmpty)
    }
}

/// Flaky means failed and passed on the same tree, or passed on a retry: a break on one tree and
/// its fix on the next is not flakiness, however often that happens.
@Suite struct FlakyAnalysisTests {
    func entry(_ run: Int, _ tree: String?, _ status: String, attempts: Int = 1, _ name: String = "A.test") -> (run: Int, tree: String?, test: RecordedTest) {
        (run, tree, RecordedTest(identifier: name, status: status, duration: 0.1, attempts: attempts))
    }

    @Test func aBreakFollowedByAFixIsNotFlaky() {
        // 16 tests failed on tree A and passed on tree B, then broke and were fixed again on C and D.
        let history = (0..<16).flatMap { index in
            [entry(1, "A", "failed", "T\(index)"), entry(2, "B", "passed", "T\(index)"),
             entry(3, "C", "failed", "T\(index)"), entry(4, "D", "passed", "T\(index)")]
        }
        #expect(FlakyAnalysis.flaky(history).isEmpty)
    }

    @Test func failedAndPassedOnOneTreeIsFlakyAndCountedThere() throws {
        let history = [entry(1, "A", "failed"), entry(2, "B", "failed"), entry(3, "B", "passed"), entry(4, "C", "passed")]
        let found = try #require(FlakyAnalysis.flaky(history).first)
        #expect(found.treesWithBoth == 1 && found.trees == 3)
        #expect(found.sameTreeFailures == 1, "the failure on A is a break, not flakiness")
        #expect(found.rate == 0.25)
        #expect(found.reasons == ["passed and failed on the same tree (1 tree)"])
    }

    @Test func aRetryThatPassedIsFlakyWithoutATree() throws {
        let history = [entry(1, nil, "flaky", attempts: 2), entry(2, nil, "passed")]
        let found = try #require(FlakyAnalysis.flaky(history).first)
        #expect(found.passedOnRetry == 1 && found.reasons == ["passed on a retry once"])
        // Imported runs with no tree that fail and pass by turns prove nothing about flakiness.
        #expect(FlakyAnalysis.flaky([entry(1, nil, "failed"), entry(2, nil, "passed"), entry(3, nil, "failed")]).isEmpty)
    }
}

/// A history an older prepush wrote names a test as its output did: `addsOnTheSecondTry()` from
/// Swift Testing's console, `CheckoutTests.testTotals` from XCTest's on Linux. The first run
/// recorded after renames each name that stands for one test of the sources to that test's
/// identity, once; a name four suites share stays as it was.
@Suite struct RunHistoryMigrationTests {
    @Test func namesOfOneTestTakeItsIdentityAndSharedNamesStay() throws {
        let folder = try TemporaryDirectory()
        let path = folder.url("history.sqlite")
        do {
            // The version 1 schema, as prepush wrote it before tests had one identity.
            let old = try SQLiteConnection(path: path)
            try old.execute(RunHistory.schema + "PRAGMA user_version = 1;", "make a version 1 history")
            try old.execute("INSERT INTO runs (id, started, tree, commit_id, stage, status, duration, origin) VALUES (1, 1, 't', 'c', 'unit', 'passed', 1, 'push')", "a run")
            for name in ["addsOnTheSecondTry()", "CheckoutTests.testTotals", "compileXib()", "RenderTests.BasketTests.addsOnTheSecondTry()"] {
                try old.execute("INSERT INTO results (run, test, status, duration, attempts) VALUES (1, '\(name)', 'passed', 1, 1)", "a result")
            }
        }
        let history = try RunHistory(path: path)
        #expect(history.namesNeedMigration)
        let inventory = TestInventory(tests: [
            DiscoveredTest(name: "addsOnTheSecondTry", typeName: "BasketTests", framework: .swiftTesting, location: SourceLocation(file: "Tests/RenderTests/BasketTests.swift", line: 5, column: 5)),
            DiscoveredTest(name: "testTotals", typeName: "CheckoutTests", framework: .xctest, location: SourceLocation(file: "Tests/RenderTests/CheckoutTests.swift", line: 4, column: 5)),
            DiscoveredTest(name: "compileXib", typeName: "XibRenderer", framework: .swiftTesting, location: SourceLocation(file: "Tests/RenderTests/XibRendererTests.swift", line: 6, column: 5)),
            DiscoveredTest(name: "compileXib", typeName: "NibRenderer", framework: .swiftTesting, location: SourceLocation(file: "Tests/RenderTests/NibRendererTests.swift", line: 6, column: 5)),
        ])
        try history.migrateNames(TestIdentities(inventory: inventory).identityOfShortName)
        #expect(!history.namesNeedMigration)
        #expect(try history.results(of: "addsOnTheSecondTry", limit: 10).map(\.test.identifier) == ["RenderTests.BasketTests.addsOnTheSecondTry()", "RenderTests.BasketTests.addsOnTheSecondTry()"])
        #expect(try history.results(of: "testTotals", limit: 10).map(\.test.identifier) == ["RenderTests.CheckoutTests.testTotals"])
        #expect(try history.results(of: "compileXib", limit: 10).map(\.test.identifier) == ["compileXib()"])
        // A new history has nothing to migrate.
        #expect(!(try RunHistory(path: folder.url("new.sqlite"))).namesNeedMigration)
    }
}
