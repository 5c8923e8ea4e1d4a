import Foundation
import PrePushConfig
import PrePushCore
import PrePushGit
@testable import PrePushPipeline
import PrePushResults
import PrePushTestSupport
import PrePushTraceability
import Testing

/// A package of two libraries and their tests, its impact map, and the tests its sources hold.
enum ImpactFixture {
    /// Lib ← LibTests, Other ← OtherTests.
    static let graph = PackageGraph(targets: [
        .init(name: "Lib", path: "Sources/Lib", isTest: false, dependencies: []),
        .init(name: "Other", path: "Sources/Other", isTest: false, dependencies: []),
        .init(name: "LibTests", path: "Tests/LibTests", isTest: true, dependencies: ["Lib"]),
        .init(name: "OtherTests", path: "Tests/OtherTests", isTest: true, dependencies: ["Other"]),
    ])

    /// `double` on lines 3–5 and `triple` on 8–10 of Lib.swift (line 1 an import, 6–7 between them);
    /// `shout` on 1–4 of Other.swift; a test helper on 20–22 of MathTests.swift.
    static let functions = [
        ImpactMap.Function(file: "Sources/Lib/Lib.swift", name: "double(_:)", startLine: 3, endLine: 5),
        ImpactMap.Function(file: "Sources/Lib/Lib.swift", name: "triple(_:)", startLine: 8, endLine: 10),
        ImpactMap.Function(file: "Sources/Other/Other.swift", name: "shout(_:)", startLine: 1, endLine: 4),
        ImpactMap.Function(file: "Tests/LibTests/MathTests.swift", name: "helper()", startLine: 20, endLine: 22),
    ]

    static let tests = [
        ImpactMap.Test(identifier: "LibTests.MathTests.testDouble", listed: "LibTests.MathTests/testDouble",
                       file: "Tests/LibTests/MathTests.swift", functions: [0, 3]),
        ImpactMap.Test(identifier: "LibTests.MathTests.testTriple", listed: "LibTests.MathTests/testTriple",
                       file: "Tests/LibTests/MathTests.swift", functions: [1]),
        ImpactMap.Test(identifier: "LibTests.Numbers.doubled()", listed: "LibTests.Numbers/doubled()",
                       file: "Tests/LibTests/Numbers.swift", functions: [0]),
        ImpactMap.Test(identifier: "LibTests.Numbers.tripled(_:)", listed: "LibTests.Numbers/tripled(_:)",
                       file: "Tests/LibTests/Numbers.swift", functions: [1]),
        ImpactMap.Test(identifier: "OtherTests.ShoutTests.testShout", listed: "OtherTests.ShoutTests/testShout",
                       file: "Tests/OtherTests/ShoutTests.swift", functions: [2]),
        ImpactMap.Test(identifier: "OtherTests.ShoutTests.testCrash", listed: "OtherTests.ShoutTests/testCrash",
                       file: "Tests/OtherTests/ShoutTests.swift", functions: [], unknown: "it crashed while recording"),
    ]

    static let map = ImpactMap(stage: "unit", packageFolder: "", commit: "abc1234def5678900000000000000000000000000", toolchain: "Swift version 6.3.1",
                               recorded: 0, seconds: 1, functions: functions, tests: tests)

    /// The tests the sources hold now: those the map knows.
    static let current = tests.map { test in
        CurrentTest(listed: test.listed!, target: String(test.listed!.prefix { $0 != "." }), file: test.file!)
    }

    static func modified(_ path: String, _ lines: ClosedRange<Int>...) -> OldSideChange {
        OldSideChange(path: path, oldPath: path, kind: .modified, lines: lines, wholeFile: false)
    }

    /// Nothing in the package reads a file outside the targets.
    static let noReader: @Sendable (String, String?) -> String? = { _, _ in nil }

    static func decide(_ changes: [OldSideChange], map: ImpactMap = map, current: [CurrentTest] = current,
                       reader: @escaping (String, String?) -> String? = noReader,
                       testFileReader: @escaping (String, String) -> String? = { _, _ in "not checked" }) -> TestImpact.Decision {
        TestImpact.decide(.init(map: map, changes: changes, packageFolder: "", graph: graph, current: current, configurationFile: ".prepush.yml",
                                reader: reader, testFileReader: testFileReader))
    }

    /// The names chosen, or the reason every test runs.
    static func chosen(_ changes: [OldSideChange], map: ImpactMap = map, current: [CurrentTest] = current,
                       reader: @escaping (String, String?) -> String? = noReader,
                       testFileReader: @escaping (String, String) -> String? = { _, _ in "not checked" }) -> [String] {
        switch decide(changes, map: map, current: current, reader: reader, testFileReader: testFileReader) {
        case .tests(let chosen): return chosen.listed
        case .all(let reason): return ["all: \(reason)"]
        }
    }
}

@Suite struct ImpactSelectionTests {
    typealias F = ImpactFixture

    @Test func anEditInsideAFunctionRunsTheTestsThatExecutedItAndTheUnknownOnes() {
        #expect(F.chosen([F.modified("Sources/Lib/Lib.swift", 4...4)])
                == ["LibTests.MathTests/testDouble", "LibTests.Numbers/doubled()", "OtherTests.ShoutTests/testCrash"])
    }

    @Test func aPureInsertionInsideABodyCountsTheLinesAroundIt() {
        // git's hunk `@@ -9,0 +10 @@`: inserted after old line 9, inside triple.
        let range = Repository.oldSide(start: 9, count: 0)
        #expect(range == 9...10)
        #expect(F.chosen([F.modified("Sources/Lib/Lib.swift", range)]).contains("LibTests.Numbers/tripled(_:)"))
        #expect(!F.chosen([F.modified("Sources/Lib/Lib.swift", range)]).contains("LibTests.MathTests/testDouble"))
        #expect(Repository.oldSide(start: 0, count: 0) == 1...1)
        #expect(Repository.oldSide(start: 4, count: 3) == 4...6)
    }

    @Test func aChangeOutsideEveryBodyRunsEveryTestOfTheFile() {
        // Line 1 (an import) and line 6–7 (a stored property between the functions).
        for lines in [1...1, 6...7, 5...6] {
            #expect(F.chosen([F.modified("Sources/Lib/Lib.swift", lines)])
                    == ["LibTests.MathTests/testDouble", "LibTests.MathTests/testTriple", "LibTests.Numbers/doubled()",
                        "LibTests.Numbers/tripled(_:)", "OtherTests.ShoutTests/testCrash"], "\(lines)")
        }
    }

    @Test func aChangedTestFileRunsEveryTestDefinedInIt() {
        // Line 21 of MathTests.swift is in the recorded helper: the file's tests, and those that ran the helper.
        #expect(F.chosen([F.modified("Tests/LibTests/MathTests.swift", 21...21)])
                == ["LibTests.MathTests/testDouble", "LibTests.MathTests/testTriple", "OtherTests.ShoutTests/testCrash"])
    }

    @Test func manifestResourcesConfigurationAndLooseFilesRunEverything() {
        for path in ["Package.swift", "Package.resolved", "Sources/Lib/data.json", ".prepush.yml", "scripts/gen.sh", "Sources/Lib/Info.plist"] {
            let decision = F.decide([F.modified(path, 1...1)])
            guard case .all(let reason) = decision else { Issue.record("\(path): \(decision)"); continue }
            #expect(reason.hasPrefix(path), "\(reason)")
        }
    }

    @Test func aTestTargetsSnapshotRunsThatTargetsTestsWhenNothingElseCanReadIt() {
        // swift-argument-parser's replay: a changed snapshot of a test target ran every test.
        let snapshot = F.modified("Tests/LibTests/Snapshots/testDouble.1.txt", 1...1)
        #expect(F.chosen([snapshot], testFileReader: { _, _ in nil })
                == ["LibTests.MathTests/testDouble", "LibTests.MathTests/testTriple", "LibTests.Numbers/doubled()", "LibTests.Numbers/tripled(_:)",
                    "OtherTests.ShoutTests/testCrash"])
        // Another target's file names it: every test.
        guard case .all(let reason) = F.decide([snapshot], testFileReader: { path, owner in
            #expect(path == "Tests/LibTests/Snapshots/testDouble.1.txt" && owner == "LibTests")
            return "OtherTests names testdouble"
        }) else { Issue.record("not every test"); return }
        #expect(reason == "Tests/LibTests/Snapshots/testDouble.1.txt changed and OtherTests names testdouble")
        // A library's resource is not a test target's: every test, as before.
        #expect(F.chosen([F.modified("Sources/Lib/data.json", 1...1)], testFileReader: { _, _ in nil }).first?.hasPrefix("all: Sources/Lib/data.json") == true)
        // A file moved from one test target to another reaches both.
        let moved = OldSideChange(path: "Tests/OtherTests/Fixtures/a.json", oldPath: "Tests/LibTests/Fixtures/a.json", kind: .renamed, lines: [], wholeFile: true)
        #expect(Set(F.chosen([moved], testFileReader: { _, _ in nil })).isSuperset(of: ["LibTests.Numbers/doubled()", "OtherTests.ShoutTests/testShout"]))
    }

    @Test func documentationAloneRunsOnlyWhatTheMapCannotVouchFor() {
        #expect(F.chosen([F.modified("README.md", 1...3), F.modified("docs/guide.md", 1...1)]) == ["OtherTests.ShoutTests/testCrash"])
    }

    @Test func ciSettingsGitMetadataAndLintSettingsNoTestReadsChooseNothing() {
        // Each of these ran every test before (a file of no target), and kept doing so on every later
        // push until the map was recorded again: the map's tree is what a push is compared with.
        for path in [".github/workflows/ci.yml", ".github/dependabot.yml", ".spi.yml", ".gitignore", ".swiftlint.yml", "CONTRIBUTING.md"] {
            #expect(F.chosen([F.modified(path, 1...1), F.modified("Sources/Lib/Lib.swift", 9...9)])
                    == ["LibTests.MathTests/testTriple", "LibTests.Numbers/tripled(_:)", "OtherTests.ShoutTests/testCrash"], "\(path)")
        }
    }

    @Test func aFileATestCanReadRunsEveryTest() {
        let reader: (String, String?) -> String? = { path, _ in
            path == "README.md" ? "Tests/LibTests/ReadmeTests.swift names readme, so a test may read it" : nil
        }
        #expect(F.chosen([F.modified("README.md", 1...1)], reader: reader)
                == ["all: README.md changed and Tests/LibTests/ReadmeTests.swift names readme, so a test may read it"])
        #expect(F.chosen([F.modified(".github/workflows/ci.yml", 1...1)], reader: reader) == ["OtherTests.ShoutTests/testCrash"])
        // Inputs made without a reader never take a file outside the targets for unread.
        let unchecked = TestImpact.decide(.init(map: F.map, changes: [F.modified(".github/workflows/ci.yml", 1...1)], packageFolder: "",
                                                graph: F.graph, current: F.current, configurationFile: ".prepush.yml"))
        #expect(unchecked == .all(reason: ".github/workflows/ci.yml changed and not checked"))
        // A kind a build step may read runs everything whatever the reader says.
        #expect(F.chosen([F.modified("scripts/gen.sh", 1...1)]) == ["all: scripts/gen.sh, in no target, changed"])
    }

    @Test func aTestTheMapDoesNotKnowRuns() {
        let current = F.current + [CurrentTest(listed: "LibTests.Numbers/halved()", target: "LibTests", file: "Tests/LibTests/Numbers.swift")]
        #expect(F.chosen([F.modified("Sources/Other/Other.swift", 2...2)], current: current)
                == ["LibTests.Numbers/halved()", "OtherTests.ShoutTests/testCrash", "OtherTests.ShoutTests/testShout"])
    }

    @Test func aDeletedTestIsNotChosenButOneDiscoveryMissesInAnUnchangedFileIs() {
        // testTriple is gone from MathTests.swift, which changed: it was deleted.
        let withoutTriple = F.current.filter { $0.listed != "LibTests.MathTests/testTriple" }
        let deleted = F.decide([F.modified("Sources/Lib/Lib.swift", 9...9), F.modified("Tests/LibTests/MathTests.swift", 2...2)], current: withoutTriple)
        guard case .tests(let chosen) = deleted else { Issue.record("\(deleted)"); return }
        #expect(!chosen.listed.contains("LibTests.MathTests/testTriple"))
        #expect(chosen.total == 5)
        // tripled(_:) is not found now but Numbers.swift did not change: discovery missed it, it runs.
        let missed = F.current.filter { $0.listed != "LibTests.Numbers/tripled(_:)" }
        #expect(F.chosen([F.modified("Sources/Lib/Lib.swift", 9...9)], current: missed).contains("LibTests.Numbers/tripled(_:)"))
    }

    @Test func aNewSourceFileRunsTheTestsOfTheTargetsThatDependOnIt() {
        let added = OldSideChange(path: "Sources/Other/Loud.swift", oldPath: nil, kind: .added, lines: [], wholeFile: false)
        #expect(F.chosen([added]) == ["OtherTests.ShoutTests/testCrash", "OtherTests.ShoutTests/testShout"])
        // The sources are read only where test files changed: the map's tests are enough.
        #expect(F.chosen([added], current: []) == ["OtherTests.ShoutTests/testCrash", "OtherTests.ShoutTests/testShout"])
    }

    @Test func aDeletedOrBinarySourceRunsEveryTestOfIt() {
        let deleted = OldSideChange(path: "Sources/Other/Other.swift", oldPath: "Sources/Other/Other.swift", kind: .deleted, lines: [], wholeFile: true)
        #expect(F.chosen([deleted]) == ["OtherTests.ShoutTests/testCrash", "OtherTests.ShoutTests/testShout"])
        let renamed = OldSideChange(path: "Sources/Lib/Math.swift", oldPath: "Sources/Lib/Lib.swift", kind: .renamed, lines: [4...4], wholeFile: false)
        #expect(F.chosen([renamed]).count == 5)
    }

    @Test func aChosenTestWithoutAListedNameRunsEverything() {
        var map = F.map
        map.tests[0].listed = nil
        guard case .all(let reason) = F.decide([F.modified("Sources/Lib/Lib.swift", 4...4)], map: map) else {
            Issue.record("expected every test"); return
        }
        #expect(reason.contains("LibTests.MathTests.testDouble"))
    }

    @Test func theTotalCountsEveryTestOnce() {
        guard case .tests(let chosen) = F.decide([F.modified("Sources/Lib/Lib.swift", 4...4)]) else { Issue.record("expected tests"); return }
        #expect(chosen.total == 6)
        #expect(chosen.changedFiles == 1)
        #expect(chosen.reasons == ["executed a changed function": 2, "unknown to the map": 1])
    }

    @Test func coverageOfALineRangeByFunctionBodies() {
        #expect(TestImpact.covers([3...5], 4...4))
        #expect(!TestImpact.covers([3...5], 5...6))
        #expect(TestImpact.covers([3...4, 5...6], 3...6))
        #expect(!TestImpact.covers([3...4, 6...6], 3...6))
    }
}

@Suite struct ImpactFilterTests {
    @Test func eachTestGetsAnExactFilterWithoutAnEndAnchor() {
        #expect(ImpactStep.filter("LibTests.MathTests/testDouble") == #"^LibTests\.MathTests/testDouble\b"#)
        #expect(ImpactStep.filter("LibTests.Numbers/tripled(_:)") == #"^LibTests\.Numbers/tripled\(_:\)"#)
        #expect(ImpactStep.filter("LibTests.freeTriple()") == #"^LibTests\.freeTriple\(\)"#)
        #expect(ImpactStep.filter("LibTests.Numbers/doubled()/Numbers.swift:4:6") == #"^LibTests\.Numbers/doubled\(\)"#)
        for name in ["A.B/c", "A.B/c(d:)", "A.e()"] { #expect(!ImpactStep.filter(name).contains("$")) }
    }

    @Test func oneFilterPerSuiteMatchesExactlyTheTestsItGroups() throws {
        let listed = ["A.B/c", "A.B/d(e:)", "A.f()", "A.g()", "A.B/Inner/h()", "A.B/cc"]
        let groups = ImpactStep.groups(listed)
        #expect(groups == [#"^A\.B/Inner/h\(\)"#, #"^A\.B/(c\b|cc\b|d\(e:\))"#, #"^A\.(f\(\)|g\(\))"#])
        let regexes = try groups.map { try Regex($0) }
        // Swift Testing's ids end in a source location; XCTest's in the name.
        for id in ["A.B/c", "A.B/cc", "A.B/d(e:)/B.swift:3:4", "A.f()/A.swift:1:2", "A.g()/A.swift:9:2", "A.B/Inner/h()/B.swift:1:1"] {
            #expect(regexes.contains { (try? $0.firstMatch(in: id)) != nil }, "\(id)")
        }
        for id in ["A.B/ccc", "A.B/d(x:)/B.swift:1:1", "A.ff()/A.swift:1:1", "A.B/Inner/hh()/B.swift:1:1", "XA.B/c"] {
            #expect(!regexes.contains { (try? $0.firstMatch(in: id)) != nil }, "\(id)")
        }
    }

    @Test func theSkipCommandNamesEachTestNotChosen() {
        #expect(ImpactStep.command("swift test --parallel", skipping: ["A.B/c", "A.B/d()"]) == #"swift test --parallel --skip '^A\.B/(c\b|d\(\))'"#)
        #expect(ImpactStep.command("swift test --skip slow", skipping: ["A.B/c"]) == nil)
        #expect(ImpactStep.command("swift build && swift test --skip-build", skipping: ["A.B/c"]) == #"swift build && swift test --skip-build --skip '^A\.B/c\b'"#)
        #expect(ImpactStep.command("make test", skipping: ["A.B/c"]) == nil)
        #expect(ImpactStep.command("swift test", skipping: []) == nil)
    }

    @Test func theCommandNamesEachChosenTest() {
        #expect(ImpactStep.command("swift test --parallel", running: ["A.B/c", "A.d()"])
                == #"swift test --parallel --filter '^A\.B/c\b' --filter '^A\.d\(\)'"#)
        #expect(ImpactStep.command("make test", running: ["A.B/c"]) == nil)
    }

    @Test func listedNamesFromTheSources() {
        let place = PrePushCore.SourceLocation(file: "Tests/LibTests/N.swift", line: 1, column: 1)
        #expect(ImpactStep.listedName(DiscoveredTest(name: "testA", typeName: "MathTests", framework: .xctest, location: place), target: "LibTests")
                == "LibTests.MathTests/testA")
        #expect(ImpactStep.listedName(DiscoveredTest(name: "t", typeName: "Outer.Inner", framework: .swiftTesting, location: place,
                                                     parameterLabels: ["_"]), target: "LibTests") == "LibTests.Outer/Inner/t(_:)")
        #expect(ImpactStep.listedName(DiscoveredTest(name: "free", typeName: nil, framework: .swiftTesting, location: place), target: "LibTests")
                == "LibTests.free()")
    }

    @Test func aRunOfFewerTestsThanChosenRefuses() {
        var stage = StageSettings(kind: .unit, command: "swift test", timeout: 60, environment: [], workingDirectory: "/")
        stage = stage.narrowed(to: "swift test --filter x", adding: [], chosen: ["LibTests.MathTests/testDouble", "LibTests.Numbers/doubled()"])
        #expect(stage.narrowedBySelection)
        let one = TestRun(results: [UITestResult(suite: "MathTests", name: "testDouble", status: .passed, duration: 0.1)])
        let short = StageResult(kind: .unit, status: .passed, duration: 1, logPath: "", tests: one)
        #expect(SelectiveRunCheck.refusal([stage], [short])
                == .selectionNotRun(stage: "unit", chosen: 2, ran: 1, missing: ["LibTests.Numbers/doubled()"]))
        let both = TestRun(results: one.results + [UITestResult(suite: "Numbers", name: "doubled()", status: .passed, duration: 0.1)])
        #expect(SelectiveRunCheck.refusal([stage], [StageResult(kind: .unit, status: .passed, duration: 1, logPath: "", tests: both)]) == nil)
        // Two tests ran, but not the chosen doubled(): one filter's over-match does not hide it.
        let other = TestRun(results: one.results + [UITestResult(suite: "LibTests.MathTests", name: "testDoubleTwice", status: .passed, duration: 0.1)])
        #expect(SelectiveRunCheck.refusal([stage], [StageResult(kind: .unit, status: .passed, duration: 1, logPath: "", tests: other)])
                == .selectionNotRun(stage: "unit", chosen: 2, ran: 2, missing: ["LibTests.Numbers/doubled()"]))
        // Results named as the push's results.json names them: module, suite, name.
        #expect(SelectiveRunCheck.notRun(["LibTests.freeTriple()", "LibTests.Numbers/tripled(_:)"],
                                         in: [UITestResult(suite: "LibTests", name: "freeTriple()", status: .passed, duration: 0),
                                              UITestResult(suite: "LibTests.Numbers", name: "tripled(_:)", status: .passed, duration: 0)]) == [])
        #expect(Verdict.reason(.selectionNotRun(stage: "unit", chosen: 2, ran: 0, missing: ["A.b()"]), hook: true)
                == "unit: selective: chose 2 tests, ran 0, not run: A.b() (a filter that matched nothing; PREPUSH_SELECTIVE=0 runs every test)")
    }
}

/// `selective: tests` in the plan: the line it prints, what the verdict says, and when it steps back.
@Suite struct ImpactPlanTests {
    typealias F = ImpactFixture

    func planned(environment: [String: String] = [:], flags: ConfigurationFlags = ConfigurationFlags(), changed: [String] = ["Sources/Lib/Lib.swift"],
                 reading: Result<ImpactReading, SelectionProblem>) throws -> PushPlan {
        let configuration = try resolved("stages:\n  unit:\n    run: swift test\n    selective: tests\n", environment: environment, flags: flags)
        var plan = try PushPlanner.plan(configuration, skip: nil, onlyStages: [], changedFiles: { changed })
        let root = try #require(plan.stages.stages.first?.workingDirectory)
        var inputs = PushPlanner.SelectiveInputs(isolated: false, workingTreeMatches: true, treeRoot: root, configurationFile: ".prepush.yml",
                                                 sharded: false, changedFiles: { changed }, graph: { _ in .success(F.graph) },
                                                 mentions: { _, _ in false })
        inputs.turnedOff = configuration.selectionEnabled ? nil : "selective off"
        inputs.impact = { _, _, _ in reading }
        PushPlanner.select(&plan, inputs: inputs)
        return plan
    }

    static let oneFunction = ImpactReading(map: F.map, changes: [F.modified("Sources/Lib/Lib.swift", 4...4)], current: F.current)

    @Test func theStageRunsExactlyTheChosenTestsAndSaysHowMany() throws {
        let plan = try planned(reading: .success(Self.oneFunction))
        let unit = try #require(plan.stages.stages.first)
        #expect(unit.command == #"swift test --filter '^LibTests\.MathTests/testDouble\b' --filter '^LibTests\.Numbers/doubled\(\)' --filter '^OtherTests\.ShoutTests/testCrash\b'"#)
        #expect(unit.chosenTests.count == 3 && unit.narrowedBySelection)
        #expect(plan.notes == [.said("unit: selective: 3 of 6 tests (impact map of abc1234, 1 file changed)")])
        #expect(plan.selectiveSummaries[.unit]
                == "3 of 6 tests not run: the impact map of abc1234, 1 file changed shows the change does not reach them (ran: 2 executed a changed function, 1 unknown to the map)")
    }

    @Test func withoutAMapTestTargetsRunAndThePushSaysSo() throws {
        let plan = try planned(reading: .failure(SelectionProblem(description: "no impact map is recorded for unit (prepush impact record)")))
        #expect(plan.stages.stages.first?.command == "swift test --filter '^(LibTests)\\.'")
        #expect(plan.notes.first == .note("unit: selective: test targets instead of tests (no impact map is recorded for unit (prepush impact record))"))
    }

    /// `count` new tests, each in a suite of its own (one filter each).
    static func suites(_ count: Int, _ prefix: String) -> [CurrentTest] {
        (0..<count).map { CurrentTest(listed: "\(prefix)\($0)/test", target: "LibTests", file: "Tests/LibTests/Many.swift") }
    }

    @Test func manyChosenTestsOfOneSuiteAreOneFilter() throws {
        let many = (0..<(ImpactStep.maximumFilters + 1)).map { CurrentTest(listed: "LibTests.Many/test\($0)", target: "LibTests", file: "Tests/LibTests/Many.swift") }
        let reading = ImpactReading(map: F.map, changes: [F.modified("Sources/Lib/Lib.swift", 4...4)], current: F.current + many)
        let plan = try planned(reading: .success(reading))
        let unit = try #require(plan.stages.stages.first)
        #expect(unit.command.hasPrefix(#"swift test --filter '^LibTests\.Many/(test0\b|test1\b|test10\b|test100\b|"#), "\(unit.command)")
        #expect(unit.command.components(separatedBy: " --filter ").count == 5 && unit.chosenTests.count == 404)
        #expect(plan.notes == [.said("unit: selective: 404 of 407 tests (impact map of abc1234, 1 file changed)")])
    }

    @Test func moreSuitesThanOneCommandCanFilterRunBySkippingTheOthers() throws {
        let reading = ImpactReading(map: F.map, changes: [F.modified("Sources/Lib/Lib.swift", 4...4)],
                                    current: F.current + Self.suites(ImpactStep.maximumFilters + 1, "LibTests.Many"))
        let plan = try planned(reading: .success(reading))
        let unit = try #require(plan.stages.stages.first)
        #expect(unit.command == #"swift test --skip '^LibTests\.MathTests/testTriple\b' --skip '^LibTests\.Numbers/tripled\(_:\)' --skip '^OtherTests\.ShoutTests/testShout\b'"#)
        // The check after the run still wants every chosen test among the results.
        #expect(unit.chosenTests.count == 404)
        #expect(plan.notes == [.said("unit: selective: 404 of 407 tests (impact map of abc1234, 1 file changed); run by skipping the 3 others (tests the map does not know run too)")])
    }

    @Test func whenNeitherFiltersNorSkipsFitTheirTestTargetsRun() throws {
        // 401 suites chosen (new tests), 401 more the map knows and the change does not reach.
        let quiet = Self.suites(ImpactStep.maximumFilters + 1, "OtherTests.Quiet")
        let known = quiet.map { ImpactMap.Test(identifier: $0.listed.replacing("/", with: "."), listed: $0.listed, file: $0.file, functions: [2]) }
        let map = ImpactMap(stage: "unit", packageFolder: "", commit: F.map.commit, toolchain: F.map.toolchain, recorded: 0, seconds: 1,
                            functions: F.functions, tests: F.tests + known)
        let reading = ImpactReading(map: map, changes: [F.modified("Sources/Lib/Lib.swift", 4...4)],
                                    current: F.current + quiet + Self.suites(ImpactStep.maximumFilters + 1, "LibTests.Many"))
        let plan = try planned(reading: .success(reading))
        #expect(plan.stages.stages.first?.command == "swift test --filter '^(LibTests)\\.'")
        #expect(plan.notes.contains(.note("unit: selective: 404 of 808 tests chosen, more than one command can name (400 filters or skips, 96 KiB); their test targets run")))
    }

    @Test func aManifestChangeRunsEveryTest() throws {
        let reading = ImpactReading(map: F.map, changes: [F.modified("Package.swift", 3...3)], current: F.current)
        let plan = try planned(reading: .success(reading))
        #expect(plan.stages.stages.first?.command == "swift test")
        #expect(plan.notes == [.note("unit: selective: every test runs (Package.swift changed)")])
    }

    /// Counts the reads of the pushed test files (each a swift-syntax parse in a real push).
    final class Reads: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var made: Int { lock.withLock { count } }
        func read() -> [CurrentTest] {
            lock.withLock { count += 1 }
            return F.current
        }
    }

    @Test func aChangeThatRunsEveryTestReadsNoTestFileAndOneThatChoosesReadsThemOnce() throws {
        let everything = Reads()
        let manifest = ImpactReading(map: F.map, changes: [F.modified("Tests/LibTests/MathTests.swift", 2...2), F.modified("Package.swift", 3...3)],
                                     readCurrent: { everything.read() })
        let all = try planned(reading: .success(manifest))
        #expect(all.notes == [.note("unit: selective: every test runs (Package.swift changed)")])
        #expect(everything.made == 0)
        let some = Reads()
        let oneFunction = ImpactReading(map: F.map, changes: [F.modified("Sources/Lib/Lib.swift", 4...4)], readCurrent: { some.read() })
        let chosen = try planned(reading: .success(oneFunction))
        #expect(chosen.stages.stages.first?.chosenTests.count == 3)
        #expect(some.made == 1)
    }

    @Test func theMapsAgeAndToolchainAreSaid() throws {
        var reading = Self.oneFunction
        reading.notes = ["the impact map of abc1234 is more than 100 commits old (impactMapAge); it is used, record it again"]
        let plan = try planned(reading: .success(reading))
        #expect(plan.notes.first == .note("unit: selective: the impact map of abc1234 is more than 100 commits old (impactMapAge); it is used, record it again"))
        #expect(plan.stages.stages.first?.chosenTests.count == 3)
    }

    @Test(arguments: [(["CI": "true"], false), (["PREPUSH_SELECTIVE": "0"], false), (["CI": "true", "PREPUSH_SELECTIVE": "1"], true)])
    func selectionIsOffInCIAndWhenTurnedOff(environment: [String: String], narrows: Bool) throws {
        let plan = try planned(environment: environment, reading: .success(Self.oneFunction))
        #expect((plan.stages.stages.first?.command != "swift test") == narrows, "\(environment)")
    }

    @Test func theNoSelectiveFlagRunsEverything() throws {
        var flags = ConfigurationFlags()
        flags.noSelective = true
        let plan = try planned(flags: flags, reading: .success(Self.oneFunction))
        #expect(plan.stages.stages.first?.command == "swift test")
        #expect(plan.notes == [.note("unit: selective: every test runs (selective off)")])
    }

    @Test func configurationShowsTheSelectionAndRefusesOtherWords() throws {
        let configuration = try resolved("stages:\n  unit:\n    run: swift test\n    selective: tests\n    impactMapAge: 20\n")
        #expect(configuration.unitStage?.selectivity == .tests)
        #expect(configuration.unitStage?.impactMapAge == 20)
        #expect(configuration.rendered().contains("unit.selective"))
        #expect(try resolved("stages:\n  unit:\n    run: swift test\n    selective: yes\n").unitStage?.selectivity == .targets)
        do {
            _ = try resolved("stages:\n  unit:\n    run: swift test\n    selective: functions\n")
            Issue.record("expected an error")
        } catch let error as ConfigurationError {
            #expect(error.rendered.hasPrefix(#".prepush.yml:4:16: error: stages.unit.selective: "functions" is not a selection (expected true, false or tests)"#),
                    "\(error.rendered)")
        }
    }
}
