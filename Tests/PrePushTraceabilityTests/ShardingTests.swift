import Foundation
import PrePushCore
import PrePushResults
import PrePushTraceability
import Testing

/// The partition behind `prepush run --shard i/n`: every test in exactly one shard, balanced, the
/// same for the same inputs, and filters that name exactly a shard's tests.
@Suite struct ShardingTests {
    /// 2,000 tests in 200 classes (two targets; the last 10 types are Swift Testing suites).
    static let suite: [ShardedTest] = (0..<200).flatMap { type in
        (0..<10).map { test in
            let swiftTesting = type >= 190
            return ShardedTest(target: type < 120 ? "AppTests" : "MoreTests", typeName: String(format: "Class%03d", type),
                               name: swiftTesting ? String(format: "case%02d()", test) : String(format: "test%02d", test),
                               framework: swiftTesting ? .swiftTesting : .xctest)
        }
    }

    /// Durations from 0.05 s to about 12 s, spread unevenly (a few slow UI tests, many quick ones), fixed.
    static let durations: [String: Double] = {
        var seed: UInt64 = 42
        var table: [String: Double] = [:]
        for test in suite {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let unit = Double(seed >> 11) / Double(1 << 53)
            table[test.identifier] = 0.05 + 12 * unit * unit * unit
        }
        return table
    }()

    @Test func byCountEveryTestIsInExactlyOneShardAndTheShardsAreEqual() {
        let shards = TestSharding.partition(Self.suite, into: 4)
        #expect(shards.map(\.count) == [500, 500, 500, 500])
        let all = shards.flatMap { $0 }.map(\.identifier)
        #expect(all.count == 2000 && Set(all).count == 2000)
        #expect(Set(all) == Set(Self.suite.map(\.identifier)))
    }

    @Test func sizesDifferByAtMostOneForEveryCount() {
        for count in [1, 3, 7, 13, 64, 1999, 2000, 2001] {
            let sizes = TestSharding.partition(Self.suite, into: count).map(\.count)
            #expect(sizes.count == count)
            #expect(sizes.reduce(0, +) == 2000)
            #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1, "\(count) shards: \(sizes.min() ?? 0)...\(sizes.max() ?? 0)")
        }
    }

    @Test func theSameInputsGiveTheSameShardsInAnyOrder() {
        var generator = SystemRandomNumberGenerator()
        let shuffled = Self.suite.shuffled(using: &generator)
        let timed: (ShardedTest) -> Double? = { Self.durations[$0.identifier] }
        #expect(TestSharding.partition(shuffled, into: 4).map { $0.map(\.identifier) }
                == TestSharding.partition(Self.suite, into: 4).map { $0.map(\.identifier) })
        #expect(TestSharding.partition(shuffled, into: 4, duration: timed).map { $0.map(\.identifier) }
                == TestSharding.partition(Self.suite, into: 4, duration: timed).map { $0.map(\.identifier) })
    }

    @Test func withTimingsTheShardsTakeTimesWithinTenPercentOfEachOther() {
        let shards = TestSharding.partition(Self.suite, into: 4) { Self.durations[$0.identifier] }
        let loads = shards.map { $0.reduce(0) { $0 + Self.durations[$1.identifier]! } }
        let spread = (loads.max()! - loads.min()!) / loads.max()!
        #expect(spread <= 0.10, "loads \(loads)")
        #expect(Set(shards.flatMap { $0 }.map(\.identifier)).count == 2000)
        // By count the same durations are far less even: the timings are what balance them.
        let byCount = TestSharding.partition(Self.suite, into: 4).map { $0.reduce(0) { $0 + Self.durations[$1.identifier]! } }
        #expect((byCount.max()! - byCount.min()!) / byCount.max()! > spread)
    }

    @Test func testsWithoutATimeCountAsTheMeanOfThoseWithOne() {
        // Half the suite has times; the other half (new tests) must still spread over every shard.
        let half: (ShardedTest) -> Double? = { $0.target == "AppTests" ? Self.durations[$0.identifier] : nil }
        let shards = TestSharding.partition(Self.suite, into: 4, duration: half)
        for shard in shards { #expect(shard.contains { $0.target == "MoreTests" }) }
        #expect(shards.flatMap { $0 }.count == 2000)
    }

    @Test func theTestTargetIsReadFromTheFolders() {
        #expect(TestSharding.target(ofTestFile: "Tests/AppTests/LoginTests.swift") == "AppTests")
        #expect(TestSharding.target(ofTestFile: "Tests/AppTests/Snapshots/SnapshotTests/A.swift") == "AppTests")
        #expect(TestSharding.target(ofTestFile: "Packages/Chat/Tests/ChatTests/RowTests.swift") == "ChatTests")
        #expect(TestSharding.target(ofTestFile: "AppUITests/Flows/LoginFlow.swift") == "AppUITests")
        #expect(TestSharding.target(ofTestFile: "UITests/AgenticTodoUITests/LoginUITests.swift") == "AgenticTodoUITests")
        #expect(TestSharding.target(ofTestFile: "UITests/LoginUITests.swift") == "UITests")
        #expect(TestSharding.target(ofTestFile: "Checks/Login.swift") == "Checks")
    }

    @Test func aShardHoldingWholeTypesNamesEachTypeOnce() {
        let shards = TestSharding.partition(Self.suite, into: 4)
        let filters = TestSharding.filters(of: shards[0], among: Self.suite)
        // 500 tests by count: the first 50 types whole.
        #expect(filters.onlyTesting.split(separator: " ").count == 50)
        #expect(filters.onlyTesting.hasPrefix("-only-testing:AppTests/Class000 -only-testing:AppTests/Class001 "))
        #expect(filters.swiftTestFilter.hasPrefix(#"^AppTests\.Class000/[^/]+$|^AppTests\.Class001/[^/]+$|"#))
        #expect(filters.list.split(separator: "\n").count == 500)
        #expect(filters.list.hasPrefix("AppTests/Class000/test00\n"))
        let last = TestSharding.filters(of: shards[3], among: Self.suite)
        #expect(last.swiftTestFilter.hasSuffix(#"|^MoreTests\.Class199/[^/]+\("#))
        #expect(last.onlyTesting.hasSuffix("-only-testing:MoreTests/Class199"))
    }

    @Test func aSplitTypeIsNamedTestByTest() throws {
        let shards = TestSharding.partition(Self.suite, into: 3)
        // 2000 / 3: the first shard ends inside Class066.
        let filters = TestSharding.filters(of: shards[0], among: Self.suite)
        #expect(filters.onlyTesting.contains("-only-testing:AppTests/Class066/test05"))
        #expect(!filters.onlyTesting.contains("-only-testing:AppTests/Class066 "))
        #expect(filters.swiftTestFilter.contains(#"|^AppTests\.Class066/test05$"#))
        let regex = try Regex(filters.swiftTestFilter)
        // What swift test matches the filter against: `Target.Class/test` (XCTest).
        #expect("AppTests.Class066/test05".wholeMatch(of: regex) != nil)
        #expect("AppTests.Class066/test06".contains(regex) == false)
        #expect("AppTests.Class065/test09".contains(regex))
        #expect("AppTests.Class0650/test09".contains(regex) == false)
    }

    @Test func swiftTestingIdsAreMatchedUpToTheirSourcePlace() throws {
        let tests = [
            ShardedTest(target: "LibTests", typeName: "BetaSuite", name: "param(value:)", framework: .swiftTesting),
            ShardedTest(target: "LibTests", typeName: "BetaSuite", name: "first()", framework: .swiftTesting),
            ShardedTest(target: "LibTests", typeName: "BetaSuite.Inner", name: "deep()", framework: .swiftTesting),
            ShardedTest(target: "LibTests", typeName: nil, name: "freeFunction()", framework: .swiftTesting),
        ]
        let one = TestSharding.filters(of: [tests[0], tests[3]], among: tests)
        #expect(one.onlyTesting == "-only-testing:LibTests/BetaSuite/param(value:) -only-testing:LibTests/freeFunction()")
        let regex = try Regex(one.swiftTestFilter)
        // Swift Testing's ids as `swift test --filter` sees them: the source place follows the name.
        #expect("LibTests.BetaSuite/param(value:)/T.swift:10:4".contains(regex))
        #expect("LibTests.freeFunction()/T.swift:14:2".contains(regex))
        #expect(!"LibTests.BetaSuite/first()/T.swift:8:4".contains(regex))
        #expect(!"LibTests.BetaSuite/Inner/deep()/T.swift:11:20".contains(regex))
        // The nested suite whole: its own tests, not its parent's.
        let inner = try Regex(TestSharding.filters(of: [tests[2]], among: tests).swiftTestFilter)
        #expect("LibTests.BetaSuite/Inner/deep()/T.swift:11:20".contains(inner))
        #expect(!"LibTests.BetaSuite/first()/T.swift:8:4".contains(inner))
        #expect(TestSharding.filters(of: [tests[2]], among: tests).onlyTesting == "-only-testing:LibTests/BetaSuite/Inner")
    }

    @Test func aTypeHoldingANestedSuiteIsNeverNamedWhole() {
        let tests = [
            ShardedTest(target: "T", typeName: "Outer", name: "a()", framework: .swiftTesting),
            ShardedTest(target: "T", typeName: "Outer.Inner", name: "b()", framework: .swiftTesting),
        ]
        // -only-testing:T/Outer would run Inner's tests too, which belong to another shard.
        #expect(TestSharding.filters(of: [tests[0]], among: tests).onlyTesting == "-only-testing:T/Outer/a()")
    }

    @Test func shardsAreReadAsIndexOverCount() throws {
        #expect(try TestShard.parse("2/4").get() == TestShard(index: 2, count: 4))
        #expect(TestShard.parse("0/4") == .failure(.indexOutOfRange(index: 0, count: 4)))
        #expect(TestShard.parse("5/4") == .failure(.indexOutOfRange(index: 5, count: 4)))
        #expect(TestShard.parse("1/0") == .failure(.countOutOfRange(0)))
        #expect(TestShard.parse("two/4") == .failure(.notIndexOverCount("two/4")))
        #expect(TestShard.parse("2").map(\.count) == .failure(.notIndexOverCount("2")))
        #expect("\(ShardProblem.indexOutOfRange(index: 5, count: 4))" == "--shard 5/4: the index is counted from 1 and goes up to 4")
    }

    @Test func eachCISystemsParallelJobVariablesGiveTheShard() throws {
        func shard(_ environment: [String: String]) throws -> TestShard? { try TestShard.fromCI(environment: environment).get()?.shard }
        #expect(try shard(["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "4"]) == TestShard(index: 2, count: 4))
        #expect(try shard(["CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "4"]) == TestShard(index: 2, count: 4))
        #expect(try shard(["BUILDKITE_PARALLEL_JOB": "3", "BUILDKITE_PARALLEL_JOB_COUNT": "4"]) == TestShard(index: 4, count: 4))
        // CircleCI sets its variables on every job; a job that is not split is not a shard.
        #expect(try shard(["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "1"]) == nil)
        #expect(try shard([:]) == nil)
        let wrong = TestShard.fromCI(environment: ["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "4"])
        #expect(wrong.map { $0?.shard } == .failure(.badVariable(name: "CI_NODE_INDEX", value: "0", expected: "a whole number from 1 to 4 (CI_NODE_TOTAL=4)")))
        #expect("\(ShardProblem.badVariable(name: "CI_NODE_INDEX", value: "0", expected: "a whole number from 1 to 4 (CI_NODE_TOTAL=4)"))"
                == "CI_NODE_INDEX=\"0\" (from the environment): expected a whole number from 1 to 4 (CI_NODE_TOTAL=4)")
    }
}

/// Shards' results merged into the run of the whole suite.
@Suite struct ShardMergeTests {
    static func run(_ names: [String], shard: TestShard?, failing: Set<String> = [], wall: Double? = nil) -> TestRun {
        TestRun(results: names.map { UITestResult(suite: "App.Tests", name: $0, status: failing.contains($0) ? .failed : .passed, duration: 1,
                                                  failures: failing.contains($0) ? [TestFailure(message: "no", location: nil)] : []) },
                wallTime: wall, shard: shard)
    }

    @Test func threeShardsMakeTheWholeRunWithTheLongestWallTime() throws {
        let merged = try ResultsMerge.merge([
            ("1.json", Self.run(["a", "b"], shard: TestShard(index: 1, count: 3), wall: 10)),
            ("2.json", Self.run(["c"], shard: TestShard(index: 2, count: 3), failing: ["c"], wall: 12)),
            ("3.json", Self.run([], shard: TestShard(index: 3, count: 3), wall: 1)),
        ]).run
        #expect(merged.results.map(\.name) == ["a", "b", "c"])
        #expect(merged.runFailures.isEmpty)
        #expect(merged.wallTime == 12)
        #expect(merged.shard == nil)
        #expect(merged.hasFailures)
    }

    @Test func aMissingShardFailsTheMergedRun() throws {
        let merged = try ResultsMerge.merge([
            ("1.json", Self.run(["a"], shard: TestShard(index: 1, count: 4))),
            ("4.json", Self.run(["d"], shard: TestShard(index: 4, count: 4))),
        ])
        #expect(merged.run.runFailures == ["shards 2/4, 3/4 are missing: their results were not given, so the suite is not complete"])
        #expect(merged.added == merged.run.runFailures)
        #expect(merged.run.hasFailures)
    }

    @Test func aTestInTwoShardsARepeatedShardAndMixedSplitsAreErrors() {
        #expect(throws: ResultsMergeError.testInTwoShards(tests: ["App.Tests.b"], count: 1, first: "1.json", second: "2.json")) {
            try ResultsMerge.merge([("1.json", Self.run(["a", "b"], shard: TestShard(index: 1, count: 2))),
                                    ("2.json", Self.run(["b", "c"], shard: TestShard(index: 2, count: 2)))])
        }
        #expect(throws: ResultsMergeError.repeatedShard(TestShard(index: 1, count: 2)!, first: "x.json", again: "y.json")) {
            try ResultsMerge.merge([("x.json", Self.run(["a"], shard: TestShard(index: 1, count: 2))),
                                    ("y.json", Self.run(["b"], shard: TestShard(index: 1, count: 2)))])
        }
        #expect(throws: ResultsMergeError.differentSplits(first: "x.json", firstShard: TestShard(index: 1, count: 2)!,
                                                           other: "y.json", otherShard: TestShard(index: 2, count: 3)!)) {
            try ResultsMerge.merge([("x.json", Self.run(["a"], shard: TestShard(index: 1, count: 2))),
                                    ("y.json", Self.run(["b"], shard: TestShard(index: 2, count: 3)))])
        }
    }

    @Test func swiftTestingConsoleNamesWithoutASuiteAreNotCalledRepeats() throws {
        // Two suites' `works()` seen on the console: one name, two tests, in two shards.
        let first = TestRun(results: [UITestResult(suite: "", name: "works()", status: .passed, duration: 0)], shard: TestShard(index: 1, count: 2))
        let second = TestRun(results: [UITestResult(suite: "", name: "works()", status: .passed, duration: 0)], shard: TestShard(index: 2, count: 2))
        #expect(try ResultsMerge.merge([("1", first), ("2", second)]).run.results.count == 2)
    }

    @Test func filesThatAreNotShardsAddUpAsBefore() throws {
        let merged = try ResultsMerge.merge([("unit.xml", Self.run(["a"], shard: nil, wall: 2)), ("ui.xml", Self.run(["a"], shard: nil, wall: 3))]).run
        #expect(merged.results.count == 2)
        #expect(merged.wallTime == 5)
    }

    @Test func resultsJSONReadsBackWithItsShardAndRunFailures() throws {
        var run = Self.run(["a", "b"], shard: TestShard(index: 2, count: 5), failing: ["b"], wall: 3.5)
        run.runFailures = ["xcodebuild's summary says ** TEST FAILED **"]
        let text = JSONReporter().render(run)
        let read = try ResultsInput.parse(Array(text.utf8), file: "results.json")
        #expect(read.run.shard == TestShard(index: 2, count: 5))
        #expect(read.run.runFailures == run.runFailures)
        #expect(read.run.results == run.results)
        #expect(read.run.wallTime == 3.5)
        // And the same bytes again: nothing lost on the way round.
        #expect(JSONReporter().render(read.run) == text)
    }
}
