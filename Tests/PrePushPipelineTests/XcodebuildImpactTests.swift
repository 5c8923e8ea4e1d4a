import Foundation
import PrePushConfig
import PrePushCore
import PrePushGit
@testable import PrePushPipeline
import PrePushRunner
import PrePushTestSupport
import Testing

/// `selective: tests` on an `xcodebuild test` stage, the parts that run here (Linux): the reading of
/// a real `xccov view --report --json` (Tests/Fixtures/xccov, from croberts22/xccov_report), the
/// lines each function is given, and the argument lists of recording and of a selective push. The
/// recording itself needs a Mac and has not run on one yet (docs/selective-tests.md).
@Suite struct XccovReportTests {
    static let fixture = Fixtures.own + "/xccov/croberts22__xccov_report__xc_seed.json"
    static let root = "/Users/spacepyro/Projects/TurnipTime"
    static let controller = root + "/TurnipTime/View Controllers/PriceInputViewController.swift"

    static func functions() throws -> [XccovFunction] {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: fixture)))
        return try XccovReport.parse(bytes, source: fixture).get()
    }

    @Test func theCapturedReportGivesEveryFunctionItsFileStartAndCounts() throws {
        let functions = try Self.functions()
        #expect(functions.count == 2309)
        #expect(Set(functions.map(\.file)).count == 146)
        #expect(functions.first == XccovFunction(file: Self.root + "/TurnipTimeTests/CommonAlgorithmTests.swift",
                                                 name: "TurnipTimeTests.CommonAlgorithmTests.setUpWithError() throws -> ()",
                                                 lineNumber: 14, executableLines: 3, executionCount: 2))
        let executed = XccovReport.executed(functions)
        #expect(executed.count == 140)
        #expect(executed.contains("TurnipTime.PriceInputViewController.viewDidLoad() -> ()"))
        #expect(!executed.contains("Charts.AxisRendererBase.computeAxisValues(min: Swift.Double, max: Swift.Double) -> ()"))
    }

    @Test func aFunctionKeepsTheLinesCertainlyItsOwnAndReachesOverItsClosures() throws {
        let placed = XccovReport.placed(try Self.functions())
        func lines(_ name: String) -> ClosedRange<Int>? {
            placed.first { $0.key == name }.map { $0.startLine...$0.endLine }
        }
        // 38 executable lines from line 43: at least to 80; the next function starts on 82.
        #expect(lines("TurnipTime.PriceInputViewController.viewDidLoad() -> ()") == 43...80)
        // 127 executable lines from 91, its closures (100, 162, 169) inside.
        #expect(lines("Charts.AxisRendererBase.computeAxisValues(min: Swift.Double, max: Swift.Double) -> ()") == 91...217)
        // calcPosNegSum (12 lines from 124) holds a closure of 10 lines from 125 and an implicit one on 134.
        #expect(lines("Charts.BarChartDataEntry.calcPosNegSum() -> ()") == 124...135)
        #expect(lines("closure #1 (inout (Swift.Double, Swift.Double), Swift.Double) -> () in Charts.BarChartDataEntry.calcPosNegSum() -> ()") == 125...134)
        // A closure's own closure: the implicit closure on 265 lies in closure #1 (263–265) and in the function.
        #expect(lines("closure #1 (Charts.IChartDataSet) -> Swift.Bool in Charts.PieChartView.dataSetIndexForIndex(Swift.Double) -> Swift.Int") == 263...265)
        #expect(lines("Charts.PieChartView.dataSetIndexForIndex(Swift.Double) -> Swift.Int") == 261...266)
    }

    @Test func noTwoTopLevelFunctionsOfTheCapturedReportShareALine() throws {
        // What the ranges rest on: executable lines are lines of the body. On the real report, no range
        // of a member reaches into the next member's (a nested `… in Parent` name may, inside its parent).
        let placed = XccovReport.placed(try Self.functions())
        var overlapping: [String] = []
        var pairs = 0
        for (file, functions) in Dictionary(grouping: placed, by: \.file) {
            let members = functions.filter { !$0.key.replacing("(extension in ", with: "(").contains(" in ") }
                .sorted { $0.startLine < $1.startLine }
            for (first, second) in zip(members, members.dropFirst()) {
                pairs += 1
                if first.endLine >= second.startLine { overlapping.append("\(file):\(first.key)") }
            }
        }
        #expect(pairs == 1357)
        #expect(overlapping.isEmpty)
    }

    @Test func aChangeBetweenTwoFunctionsRunsEveryTestOfTheFile() throws {
        let functions = try Self.functions()
        let viewDidLoad = "TurnipTime.PriceInputViewController.viewDidLoad() -> ()"
        let setup = "TurnipTime.PriceInputViewController.(setup in _39024837E8EA2B554AEC3D55825EAE21)() -> ()"
        let tests = [ListedTest(listed: "TurnipTimeTests.LoadTests/testLoad", framework: .xctest),
                     ListedTest(listed: "TurnipTimeTests.SetupTests/testSetup", framework: .xctest)]
        let outcomes = [ImpactRecorder.TestOutcome(unknown: nil, executed: [viewDidLoad]), ImpactRecorder.TestOutcome(unknown: nil, executed: [setup])]
        let header = ImpactMap(stage: "unit", packageFolder: "", commit: "c", toolchain: "t", recorded: 0, seconds: 1, functions: [], tests: [])
        let map = ImpactMapBuilder.map(tests: tests, outcomes: outcomes, functions: XccovReport.placed(functions), repositoryRoot: Self.root,
                                       testFile: { _ in nil }, header: header)
        let graph = PackageGraph(targets: [.init(name: "TurnipTime", path: "TurnipTime", isTest: false, dependencies: []),
                                           .init(name: "TurnipTimeTests", path: "TurnipTimeTests", isTest: true, dependencies: ["TurnipTime"])])
        let file = "TurnipTime/View Controllers/PriceInputViewController.swift"
        func chosen(_ lines: ClosedRange<Int>) -> [String] {
            let change = OldSideChange(path: file, oldPath: file, kind: .modified, lines: [lines], wholeFile: false)
            guard case .tests(let chosen) = TestImpact.decide(.init(map: map, changes: [change], packageFolder: "", graph: graph, current: [],
                                                                   configurationFile: nil)) else { return ["everything"] }
            return chosen.listed
        }
        #expect(chosen(50...50) == ["TurnipTimeTests.LoadTests/testLoad"])
        #expect(chosen(100...100) == ["TurnipTimeTests.SetupTests/testSetup"])
        // Line 81 lies after viewDidLoad's 38 executable lines and before the next function (82): it
        // may be a declaration, so every test of the file runs, not only viewDidLoad's.
        #expect(chosen(81...81) == ["TurnipTimeTests.LoadTests/testLoad", "TurnipTimeTests.SetupTests/testSetup"])
    }

    @Test func aFileTheReportDoesNotHoldRunsEveryTestWhenItChanges() throws {
        let functions = try Self.functions()
        let controller = "TurnipTime/View Controllers/PriceInputViewController.swift"
        let standIns = XccovReport.standIns(sources: [controller, "TurnipTime/Widgets/NotGathered.swift"], report: functions, repositoryRoot: Self.root)
        #expect(standIns == [ExportedFunction(key: "(no coverage of TurnipTime/Widgets/NotGathered.swift in the report)",
                                              file: Self.root + "/TurnipTime/Widgets/NotGathered.swift", startLine: 1, endLine: Int(Int32.max))])
        let tests = [ListedTest(listed: "TurnipTimeTests.LoadTests/testLoad", framework: .xctest),
                     ListedTest(listed: "TurnipTimeTests.SetupTests/testSetup", framework: .xctest)]
        let everyTest = Set(standIns.map(\.key))
        let outcomes = [ImpactRecorder.TestOutcome(unknown: nil, executed: everyTest.union(["TurnipTime.PriceInputViewController.viewDidLoad() -> ()"])),
                        ImpactRecorder.TestOutcome(unknown: nil, executed: everyTest)]
        let header = ImpactMap(stage: "unit", packageFolder: "", commit: "c", toolchain: "t", recorded: 0, seconds: 1, functions: [], tests: [])
        let map = ImpactMapBuilder.map(tests: tests, outcomes: outcomes, functions: XccovReport.placed(functions) + standIns,
                                       repositoryRoot: Self.root, testFile: { _ in nil }, header: header)
        let graph = PackageGraph(targets: [.init(name: "TurnipTime", path: "TurnipTime", isTest: false, dependencies: [])])
        func chosen(_ file: String, _ line: Int) -> [String] {
            let change = OldSideChange(path: file, oldPath: file, kind: .modified, lines: [line...line], wholeFile: false)
            guard case .tests(let chosen) = TestImpact.decide(.init(map: map, changes: [change], packageFolder: "", graph: graph, current: [],
                                                                   configurationFile: nil)) else { return ["everything"] }
            return chosen.listed
        }
        #expect(chosen("TurnipTime/Widgets/NotGathered.swift", 12) == ["TurnipTimeTests.LoadTests/testLoad", "TurnipTimeTests.SetupTests/testSetup"])
        #expect(chosen(controller, 50) == ["TurnipTimeTests.LoadTests/testLoad"])
    }

    @Test func aReportInWhichNothingRanLeavesTheTestUnknown() throws {
        let functions = try Self.functions()
        let mapped = XcodebuildImpactRecorder.outcome(of: functions)
        #expect(mapped.unknown == nil && mapped.executed.count == 140)
        // The same report with every count at zero: coverage that was not gathered, not a test that reaches nothing.
        let nothing = functions.map { XccovFunction(file: $0.file, name: $0.name, lineNumber: $0.lineNumber, executableLines: $0.executableLines, executionCount: 0) }
        let unknown = XcodebuildImpactRecorder.outcome(of: nothing)
        #expect(unknown.unknown == "its coverage report shows no function executed (is coverage gathered for its targets?)")
        #expect(XcodebuildImpactRecorder.outcome(of: []).unknown != nil)
    }

    @Test func aDamagedReportSaysWhereAndWhatWasExpected() {
        func problem(_ json: String) -> String {
            guard case .failure(let error) = XccovReport.parse(Array(json.utf8), source: "one.xcresult") else { return "read" }
            return error.description
        }
        #expect(problem(#"{"targets": [{"files": [{"path": "/a.swift", "functions": [{"name": "f", "lineNumber": "3", "executableLines": 1, "executionCount": 0}]}]}]}"#)
                == "one.xcresult: not an xccov coverage report prepush can read: targets[0].files[0].functions[0].lineNumber: expected an integer, found something else")
        #expect(problem(#"{"targets": [{"files": [{"path": "/a.swift", "functions": [{"name": "f", "executableLines": 1, "executionCount": 0}]}]}]}"#)
                == "one.xcresult: not an xccov coverage report prepush can read: targets[0].files[0].functions[0].lineNumber: missing (every function needs name, lineNumber, executableLines and executionCount)")
        #expect(problem(#"{"targets": [{"files": [{"path": "/a.swift", "functions": [{"name": "f", "lineNumber": 0, "executableLines": 1, "executionCount": 0}]}]}]}"#)
                == "one.xcresult: not an xccov coverage report prepush can read: targets[0].files[0].functions[0] (f): expected lineNumber ≥ 1 and counts ≥ 0, found lineNumber 0, executableLines 1, executionCount 0")
        #expect(problem(#"{"coveredLines": 3}"#) == "one.xcresult: not an xccov coverage report prepush can read: targets: missing")
        #expect(problem("xccov: error: no coverage").hasPrefix("one.xcresult: not an xccov coverage report prepush can read: not JSON"))
    }
}

/// The `xcodebuild` argument lists of recording and of a selective push, built from a stage's command.
@Suite struct XcodebuildImpactTests {
    static let stage = #"set -o pipefail && xcodebuild test -scheme Lib-Package -destination 'platform=iOS Simulator,name=iPhone 15' -resultBundlePath .build/unit.xcresult -enableCodeCoverage NO -only-testing:LibTests -quiet | xcpretty"#

    @Test func recordingKeepsWhatTheStageBuildsAndSetsItsOwnBundleCoverageAndFolder() throws {
        let command = try XcodebuildImpact.parse(Self.stage).get()
        #expect(command.options == ["-scheme", "Lib-Package", "-destination", "platform=iOS Simulator,name=iPhone 15", "-quiet"])
        #expect(command.buildForTesting(derivedData: "/r/.git/prepush/impact-xcode/_root")
                == ["build-for-testing", "-scheme", "Lib-Package", "-destination", "platform=iOS Simulator,name=iPhone 15", "-quiet",
                    "-derivedDataPath", "/r/.git/prepush/impact-xcode/_root", "-enableCodeCoverage", "YES"])
        #expect(command.testWithoutBuilding(onlyTesting: ["LibTests/MathTests/testDouble"], derivedData: "/d", resultBundle: "/b/0.xcresult")
                == ["test-without-building", "-scheme", "Lib-Package", "-destination", "platform=iOS Simulator,name=iPhone 15", "-quiet",
                    "-derivedDataPath", "/d", "-enableCodeCoverage", "YES", "-parallel-testing-enabled", "NO",
                    "-only-testing:LibTests/MathTests/testDouble", "-resultBundlePath", "/b/0.xcresult"])
        #expect(XcodebuildImpact.coverageReport(bundle: "/b/0.xcresult") == ["xccov", "view", "--report", "--json", "/b/0.xcresult"])
        // `-scheme test` names a scheme, not an action; a value-less flag before an action is not its value.
        let named = try XcodebuildImpact.parse("xcodebuild -scheme test -skipPackageUpdates test -only-testing LibTests -test-iterations 3").get()
        #expect(named.options == ["-scheme", "test", "-skipPackageUpdates"])
        // Repetition flags take no value: the action after one is still an action.
        let repeated = try XcodebuildImpact.parse("xcodebuild -retry-tests-on-failure test -scheme A -run-tests-until-failure -quiet").get()
        #expect(repeated.options == ["-scheme", "A", "-quiet"])
    }

    @Test func aCommandRecordingCannotRunWithoutAShellIsRefusedWithTheReason() {
        func refusal(_ command: String) -> String {
            guard case .failure(let error) = XcodebuildImpact.parse(command) else { return "parsed" }
            return error.description
        }
        #expect(refusal(#"xcodebuild test -scheme App -destination "$DEST""#)
                == #"the xcodebuild stage cannot be recorded: "$DEST" needs a shell to expand; recording passes xcodebuild's words as they are: write the value out"#)
        #expect(refusal("cd App && xcodebuild test -scheme App").hasPrefix("the xcodebuild stage cannot be recorded: a cd before xcodebuild"))
        #expect(refusal("xcodebuild test-without-building -xctestrun App.xctestrun").hasPrefix("the xcodebuild stage cannot be recorded: it names no -scheme"))
        #expect(refusal("swift test") == "the xcodebuild stage cannot be recorded: the command does not run xcodebuild test or test-without-building")
        // A single-quoted dollar is text, and the values of options recording replaces are never read.
        #expect(refusal(#"xcodebuild test -scheme 'A$B' -resultBundlePath "$OUT""#) == "parsed")
    }

    @Test func aTestsSelectorIsItsListedNameWithTheModuleAsFirstComponent() {
        #expect(XcodebuildImpact.selector(listed: "LibTests.MathTests/testDouble") == "LibTests/MathTests/testDouble")
        #expect(XcodebuildImpact.selector(listed: "LibTests.Outer/Inner/run(x:)") == "LibTests/Outer/Inner/run(x:)")
        #expect(XcodebuildImpact.selector(listed: "LibTests.free()") == "LibTests/free()")
        #expect(XcodebuildImpact.listed(selector: "LibTests/MathTests/testDouble()", xctest: true) == "LibTests.MathTests/testDouble")
        #expect(XcodebuildImpact.listed(selector: "LibTests/Numbers/doubled()", xctest: false) == "LibTests.Numbers/doubled()")
        #expect(XcodebuildImpact.onlyTesting(["LibTests.MathTests/testDouble", "LibTests.Numbers/doubled()", "LibTests.Numbers/tripled(_:)"])
                == ["-only-testing:LibTests/MathTests/testDouble", "-only-testing:LibTests/Numbers/doubled",
                    "-only-testing:LibTests/Numbers/doubled()", "-only-testing:LibTests/Numbers/doubled()()",
                    "-only-testing:LibTests/Numbers/tripled(_:)"])
    }

    @Test func aSelectivePushAddsItsTestsAfterXcodebuildAndDropsTheStagesOwnOnlyTesting() {
        let onlyTesting = XcodebuildImpact.onlyTesting(["LibTests.MathTests/testDouble", "LibTests.Numbers/doubled()"])
        #expect(XcodebuildImpact.selectiveCommand(Self.stage, onlyTesting: onlyTesting)
                == #"set -o pipefail && xcodebuild '-only-testing:LibTests/MathTests/testDouble' '-only-testing:LibTests/Numbers/doubled' '-only-testing:LibTests/Numbers/doubled()' '-only-testing:LibTests/Numbers/doubled()()' test -scheme Lib-Package -destination 'platform=iOS Simulator,name=iPhone 15' -resultBundlePath .build/unit.xcresult -enableCodeCoverage NO -quiet | xcpretty"#)
        #expect(XcodebuildImpact.selectiveCommand("xcodebuild test -scheme A -only-testing LibTests", onlyTesting: ["-only-testing:LibTests/T/t"])
                == "xcodebuild '-only-testing:LibTests/T/t' test -scheme A")
        // A command that reads the variable gets the tests there; one without xcodebuild test is not changed here.
        #expect(XcodebuildImpact.selectiveCommand("xcodebuild test -scheme A $PREPUSH_ONLY_TESTING", onlyTesting: ["-only-testing:L/T/t"])
                == "xcodebuild test -scheme A $PREPUSH_ONLY_TESTING")
        #expect(XcodebuildImpact.selectiveCommand("xcodebuild build -scheme A", onlyTesting: ["-only-testing:L/T/t"]) == nil)
    }

    @Test func theStagesOwnOnlyAndSkipTestingSayWhichTestsItCanRun() throws {
        let scope = try #require(XcodebuildImpact.scope(of: "xcodebuild test -scheme A -only-testing:LibTests -only-testing OtherTests/ShoutTests -skip-testing:LibTests/Slow"))
        #expect(scope == XcodebuildImpact.Scope(only: ["LibTests", "OtherTests/ShoutTests"], skip: ["LibTests/Slow"]))
        #expect(scope.runs("LibTests.MathTests/testDouble"))
        #expect(scope.runs("OtherTests.ShoutTests/testShout"))
        #expect(!scope.runs("OtherTests.WhisperTests/testWhisper"))
        #expect(!scope.runs("LibTests.Slow/testLong"))
        // `LibTests/Math` names a class, not every class whose name begins so.
        #expect(!XcodebuildImpact.Scope(only: ["LibTests/Math"], skip: []).runs("LibTests.MathTests/testDouble"))
        // Swift Testing's forms: `doubled` names `doubled()`.
        #expect(XcodebuildImpact.Scope(only: ["LibTests/Numbers/doubled"], skip: []).runs("LibTests.Numbers/doubled()"))
        #expect(XcodebuildImpact.scope(of: "xcodebuild test -scheme A")?.runs("Any.Test/test") == true)
        #expect(XcodebuildImpact.scope(of: "swift test") == nil)
    }

    @Test func aPushThatChoosesNoTestStillBuildsTheTests() {
        #expect(XcodebuildImpact.buildForTestingCommand("xcodebuild -scheme test test -destination 'platform=macOS' | xcpretty")
                == "xcodebuild -scheme test build-for-testing -destination 'platform=macOS' | xcpretty")
        #expect(XcodebuildImpact.buildForTestingCommand("xcodebuild test-without-building -scheme A") == nil)
        #expect(XcodebuildImpact.isXcodebuildTestStage("set -o pipefail && xcodebuild test -scheme A | xcpretty"))
        #expect(!XcodebuildImpact.isXcodebuildTestStage("swift test"))
        #expect(!XcodebuildImpact.isXcodebuildTestStage("xcodebuild build -scheme A"))
    }

    @Test func recordingListsTheDiscoveredTestsAndKeepsOnesOnlyTheBundleShows() {
        let results = [UITestResult(suite: "MathTests", name: "testDouble()", status: .passed, duration: 0.1, selector: "LibTests/MathTests/testDouble()"),
                       UITestResult(suite: "MathTests", name: "testInherited()", status: .failed, duration: 0.1, selector: "LibTests/MathTests/testInherited()"),
                       UITestResult(suite: "Numbers", name: "doubled()", status: .passed, duration: 0.1, selector: "LibTests/Numbers/doubled()")]
        let (tests, unseen) = XcodebuildImpactRecorder.tests(discovered: ["LibTests.MathTests/testDouble", "LibTests.Numbers/doubled()"], results: results)
        #expect(tests.map(\.listed) == ["LibTests.MathTests/testDouble", "LibTests.Numbers/doubled()", "LibTests.MathTests/testInherited()"])
        #expect(tests.map(\.framework) == [.xctest, .swiftTesting, .swiftTesting])
        #expect(unseen == ["LibTests.MathTests/testInherited()"])
    }

    @Test func aParameterizedTestsArgumentsCountAsOneTestThatFailsIfOneFails() {
        let selector = "LibTests/Numbers/doubled(value:)"
        let passing = [UITestResult(suite: "Numbers", name: "doubled(value:) (1)", status: .passed, duration: 0.1, selector: selector),
                       UITestResult(suite: "Numbers", name: "doubled(value:) (2)", status: .passed, duration: 0.1, selector: selector)]
        let oneFails = passing + [UITestResult(suite: "Numbers", name: "doubled(value:) (3)", status: .failed, duration: 0.1, selector: selector)]
        #expect(XcodebuildImpactRecorder.collapsed(passing).map(\.name) == ["doubled(value:) (1)"])
        #expect(XcodebuildImpactRecorder.collapsed(oneFails).map(\.status) == [.failed])
        // Two tests are two tests: the filter ran more than the one, and recording says so.
        let two = [passing[0], UITestResult(suite: "Numbers", name: "tripled()", status: .passed, duration: 0.1, selector: "LibTests/Numbers/tripled()")]
        #expect(XcodebuildImpactRecorder.collapsed(two).count == 2)
        let test = ListedTest(listed: "LibTests.Numbers/doubled(value:)", framework: .swiftTesting)
        let exited = RunOutcome(termination: .exited(0), stopReason: nil, duration: 1)
        #expect(TestLauncher.judge(XcodebuildImpactRecorder.collapsed(passing), test: test, outcome: exited) == nil)
        #expect(TestLauncher.judge(XcodebuildImpactRecorder.collapsed(two), test: test, outcome: exited) == "its filter ran 2 tests, not one")
    }
}

/// A `selective: tests` xcodebuild stage in the plan: the chosen tests by `-only-testing:`.
@Suite struct XcodebuildImpactPlanTests {
    typealias F = ImpactFixture

    @Test func theStageRunsTheChosenTestsByOnlyTestingAndStillBuilds() throws {
        let yaml = "stages:\n  unit:\n    run: xcodebuild test -scheme Lib-Package -destination 'platform=macOS'\n    selective: tests\n"
        let configuration = try resolved(yaml)
        var plan = try PushPlanner.plan(configuration, skip: nil, onlyStages: [], changedFiles: { ["Sources/Lib/Lib.swift"] })
        let root = try #require(plan.stages.stages.first?.workingDirectory)
        var inputs = PushPlanner.SelectiveInputs(isolated: false, workingTreeMatches: true, treeRoot: root, configurationFile: ".prepush.yml",
                                                 sharded: false, changedFiles: { ["Sources/Lib/Lib.swift"] }, graph: { _ in .success(F.graph) },
                                                 mentions: { _, _ in false })
        inputs.impact = { _, _, _ in .success(ImpactPlanTests.oneFunction) }
        PushPlanner.select(&plan, inputs: inputs)
        let unit = try #require(plan.stages.stages.first)
        #expect(unit.command == "xcodebuild '-only-testing:LibTests/MathTests/testDouble' '-only-testing:LibTests/Numbers/doubled' '-only-testing:LibTests/Numbers/doubled()' '-only-testing:LibTests/Numbers/doubled()()' '-only-testing:OtherTests/ShoutTests/testCrash' test -scheme Lib-Package -destination 'platform=macOS'")
        #expect(unit.chosenTests == ["LibTests.MathTests/testDouble", "LibTests.Numbers/doubled()", "OtherTests.ShoutTests/testCrash"])
        #expect(unit.environment.contains(EnvironmentEntry(name: "PREPUSH_ONLY_TESTING", value: "-only-testing:LibTests/MathTests/testDouble -only-testing:LibTests/Numbers/doubled -only-testing:LibTests/Numbers/doubled() -only-testing:LibTests/Numbers/doubled()() -only-testing:OtherTests/ShoutTests/testCrash")))
        #expect(plan.notes == [.said("unit: selective: 3 of 6 tests (impact map of abc1234, 1 file changed)")])
    }

    func planned(_ command: String, reading: ImpactReading) throws -> PushPlan {
        let configuration = try resolved("stages:\n  unit:\n    run: \(command)\n    selective: tests\n")
        var plan = try PushPlanner.plan(configuration, skip: nil, onlyStages: [], changedFiles: { ["Sources/Lib/Lib.swift"] })
        let root = try #require(plan.stages.stages.first?.workingDirectory)
        var inputs = PushPlanner.SelectiveInputs(isolated: false, workingTreeMatches: true, treeRoot: root, configurationFile: ".prepush.yml",
                                                 sharded: false, changedFiles: { ["Sources/Lib/Lib.swift"] }, graph: { _ in .success(F.graph) },
                                                 mentions: { _, _ in false })
        inputs.impact = { _, _, _ in .success(reading) }
        PushPlanner.select(&plan, inputs: inputs)
        return plan
    }

    @Test func aStageThatRunsOneTargetIsGivenOnlyTheChosenTestsOfThatTarget() throws {
        let plan = try planned("xcodebuild test -scheme Lib-Package -only-testing:LibTests", reading: ImpactPlanTests.oneFunction)
        let unit = try #require(plan.stages.stages.first)
        // testCrash (OtherTests, unknown to the map) is chosen, but this stage never runs OtherTests.
        #expect(unit.chosenTests == ["LibTests.MathTests/testDouble", "LibTests.Numbers/doubled()"])
        #expect(unit.command == "xcodebuild '-only-testing:LibTests/MathTests/testDouble' '-only-testing:LibTests/Numbers/doubled' '-only-testing:LibTests/Numbers/doubled()' '-only-testing:LibTests/Numbers/doubled()()' test -scheme Lib-Package")
    }

    @Test func tooManyChosenTestsToNameRunByTheirSuites() throws {
        let many = (0...ImpactStep.maximumFilters).map { CurrentTest(listed: "LibTests.Many/test\($0)", target: "LibTests", file: "Tests/LibTests/Many.swift") }
        let reading = ImpactReading(map: F.map, changes: [F.modified("Sources/Lib/Lib.swift", 4...4)], current: F.current + many)
        let plan = try planned("xcodebuild test -scheme Lib-Package", reading: reading)
        let unit = try #require(plan.stages.stages.first)
        let arguments = unit.command.split(separator: " ").filter { $0.hasPrefix("'-only-testing:") }.sorted()
        #expect(arguments == ["'-only-testing:LibTests/Many'", "'-only-testing:LibTests/MathTests'", "'-only-testing:LibTests/Numbers'",
                              "'-only-testing:OtherTests/ShoutTests'"], "\(unit.command)")
        // Every chosen test is still wanted among the results: the suites run more, never fewer.
        #expect(unit.chosenTests.count == 404)
        #expect(unit.environment.contains { $0.name == "PREPUSH_TEST_FILTER" && $0.value.split(separator: "|").count == 4 })
        #expect(plan.notes == [.said("unit: selective: 404 of 407 tests (impact map of abc1234, 1 file changed); run by their 4 suites, every test of which runs (too many to name one by one)")])
    }

    @Test func tooManySuitesToNameRunByTheirTestTargets() throws {
        let reading = ImpactReading(map: F.map, changes: [F.modified("Sources/Lib/Lib.swift", 4...4)],
                                    current: F.current + ImpactPlanTests.suites(ImpactStep.maximumFilters + 1, "LibTests.Many"))
        let plan = try planned("xcodebuild test -scheme Lib-Package", reading: reading)
        let unit = try #require(plan.stages.stages.first)
        #expect(unit.command == "xcodebuild '-only-testing:LibTests' '-only-testing:OtherTests' test -scheme Lib-Package")
        #expect(unit.chosenTests.count == 404)
        #expect(unit.environment.contains(EnvironmentEntry(name: "PREPUSH_TEST_FILTER", value: "^LibTests\\.|^OtherTests\\.")))
        #expect(plan.notes == [.said("unit: selective: 404 of 407 tests (impact map of abc1234, 1 file changed); run by their 2 test targets, every test of which runs (too many to name one by one)")])
    }

    @Test func aStageThatRunsPartOfATargetIsNotWidenedToAllOfIt() throws {
        let many = (0...ImpactStep.maximumFilters).map { CurrentTest(listed: "LibTests.Many/test\($0)", target: "LibTests", file: "Tests/LibTests/Many.swift") }
        let reading = ImpactReading(map: F.map, changes: [F.modified("Sources/Lib/Lib.swift", 4...4)], current: F.current + many)
        // The stage runs two suites of LibTests: their suites fit, LibTests as a whole would not be the stage's.
        let suites = try planned("xcodebuild test -scheme Lib-Package -only-testing:LibTests/Many -only-testing:LibTests/MathTests", reading: reading)
        #expect(suites.stages.stages.first?.command == "xcodebuild '-only-testing:LibTests/Many' '-only-testing:LibTests/MathTests' test -scheme Lib-Package")
        // The stage names 401 tests one by one: chosen, they are too many, and their suite is more than the stage runs.
        let tests = try planned("xcodebuild test -scheme Lib-Package " + (0...ImpactStep.maximumFilters).map { "-only-testing:LibTests/Many/test\($0)" }.joined(separator: " "),
                                reading: reading)
        #expect(tests.notes.contains { $0 == .note("unit: selective: 401 of 407 tests chosen, more than one command can name (400 filters or skips, 96 KiB); their test targets run") },
                "\(tests.notes)")
    }

    @Test func aPushThatReachesNoTestBuildsForTesting() throws {
        // A change to Other.swift reaches only OtherTests, which this stage skips.
        let reading = ImpactReading(map: F.map, changes: [F.modified("Sources/Other/Other.swift", 2...2)], current: F.current)
        let plan = try planned("xcodebuild test -scheme Lib-Package -skip-testing:OtherTests", reading: reading)
        #expect(plan.stages.stages.first?.command == "xcodebuild build-for-testing -scheme Lib-Package -skip-testing:OtherTests")
        #expect(plan.notes == [.said("unit: selective: 0 of 6 tests (impact map of abc1234, 1 file changed); every target is built (build-for-testing), no test runs")])
        let prebuilt = try planned("xcodebuild test-without-building -scheme Lib-Package -skip-testing:OtherTests", reading: reading)
        #expect(prebuilt.stages.stages.first?.command == "xcodebuild test-without-building -scheme Lib-Package -skip-testing:OtherTests")
        #expect(prebuilt.notes == [.note("unit: selective: every test runs (0 of 6 tests chosen, and test-without-building has nothing to build)")])
    }
}
