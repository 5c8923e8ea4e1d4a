import Foundation
import PrePushCore
@testable import PrePushPipeline
import PrePushRunner
import PrePushTestSupport
import Testing

/// The pure parts of `prepush impact record`: what `swift test list` says, the filter that runs
/// one test, the join of profile names to `llvm-cov export`'s functions, and which files are the
/// repository's own. The whole of it runs on a real package in `ImpactRecordTests`.
@Suite struct ImpactRecordingPartsTests {
    @Test func theListNamesEachTestAsTheHistoryDoes() {
        let tests = ListedTest.parse("""
        CoreTests.ArithmeticTests/testAdd
        GreeterTests.GreeterTests/doubles(value:)
        GreeterTests.Outer/Inner/run()
        GreeterTests.free()
        CoreTests.ArithmeticTests/testAdd

        """)
        #expect(tests.map(\.identifier) == ["CoreTests.ArithmeticTests.testAdd", "GreeterTests.GreeterTests.doubles(value:)",
                                            "GreeterTests.Outer/Inner.run()", "GreeterTests.free()"])
        #expect(tests.map(\.framework) == [.xctest, .swiftTesting, .swiftTesting, .swiftTesting])
    }

    @Test func aSwiftTestingFilterIsEscapedAndEndsAtTheSourceLocation() throws {
        let test = ListedTest(listed: "Mod.Suite/doubles(value:)", framework: .swiftTesting)
        #expect(test.swiftTestingFilter == #"^Mod\.Suite/doubles\(value:\)/"#)
        let filter = try Regex(test.swiftTestingFilter)
        // Swift Testing matches the id with its source location; a `$` would match nothing.
        #expect("Mod.Suite/doubles(value:)/File.swift:3:20".contains(filter))
        #expect(!"Mod.Suite/doubles(value:other:)/File.swift:9:2".contains(filter))
        #expect(!"Mod.Suite".contains(filter))
        let xctest = ListedTest(listed: "Mod.Case/testA", framework: .xctest)
        #expect(xctest.swiftPMFilter == #"^Mod\.Case/testA$"#)
        #expect(!"Mod.Case/testAB".contains(try Regex(xctest.swiftPMFilter)))
    }

    @Test func profileNamesJoinExportNamesWithoutTheirFilePrefix() {
        #expect(ExportedFunction.key("/src/Sources/greet/main.swift:greet_main") == "greet_main")
        #expect(ExportedFunction.key("runner.swift:$s18ImpactPackageTests6RunnerV4mainyyFZ") == "$s18ImpactPackageTests6RunnerV4mainyyFZ")
        #expect(ExportedFunction.key("$s4Core3addyS2i_SitF") == "$s4Core3addyS2i_SitF")
        #expect(ExportedFunction.key("ns::Type::run") == "ns::Type::run")
        #expect(ExportedFunction.key("file.cpp:ns::run") == "ns::run")
    }

    @Test func theExportGivesEachFunctionItsFileAndTheLinesOfItsOwnRegions() throws {
        // Trimmed from `llvm-cov export -format=text` of the package in ImpactRecordTests (LLVM 21, Swift 6.3.1).
        let json = """
        {"data":[{"files":[],"functions":[
          {"count":2,"filenames":["/p/Sources/Core/Arithmetic.swift"],"name":"$s4Core3addyS2i_SitF","regions":[[1,44,3,2,2,0,0,0]]},
          {"count":1,"filenames":["/p/Tests/T.swift","/p/Sources/Macro.swift"],"name":"t.swift:$s1T1fyyF","regions":[[17,37,28,6,1,0,0,0],[25,26,28,6,1,0,0,0],[90,1,99,1,1,1,0,0]]}
        ],"totals":{}}],"type":"llvm.coverage.json.export","version":"3.0.1"}
        """
        let functions = try ExportedFunction.parse(Array(json.utf8)).get()
        #expect(functions == [ExportedFunction(key: "$s4Core3addyS2i_SitF", file: "/p/Sources/Core/Arithmetic.swift", startLine: 1, endLine: 3),
                              ExportedFunction(key: "$s1T1fyyF", file: "/p/Tests/T.swift", startLine: 17, endLine: 28)])
        #expect(throws: ImpactError.self) { try ExportedFunction.parse(Array("{\"data\": 3}".utf8)).get() }
    }

    @Test func onlyTheRepositorysOwnFilesAreKept() {
        #expect(ImpactMapBuilder.ownFile("/repo/Sources/Core/A.swift", repositoryRoot: "/repo") == "Sources/Core/A.swift")
        #expect(ImpactMapBuilder.ownFile("/repo/.build/checkouts/dep/Sources/D.swift", repositoryRoot: "/repo") == nil)
        #expect(ImpactMapBuilder.ownFile("/repo/.git/prepush/impact-build/_root/x/runner.swift", repositoryRoot: "/repo") == nil)
        #expect(ImpactMapBuilder.ownFile("/opt/swift/usr/lib/swift/Core.swift", repositoryRoot: "/repo") == nil)
        #expect(ImpactMapBuilder.ownFile("/repository/A.swift", repositoryRoot: "/repo") == nil)
    }

    @Test func theMapHoldsEachExecutedFunctionOnceAndNothingForAnUnknownTest() {
        let tests = [ListedTest(listed: "M.C/testA", framework: .xctest), ListedTest(listed: "M.C/testB", framework: .xctest),
                     ListedTest(listed: "M.S/run()", framework: .swiftTesting)]
        let outcomes = [ImpactRecorder.TestOutcome(unknown: nil, executed: ["a", "b", "dependency"]),
                        ImpactRecorder.TestOutcome(unknown: "failed while recording", executed: ["a"]),
                        ImpactRecorder.TestOutcome(unknown: nil, executed: ["a"])]
        let functions = [ExportedFunction(key: "a", file: "/r/Sources/A.swift", startLine: 1, endLine: 4),
                         ExportedFunction(key: "b", file: "/r/Sources/B.swift", startLine: 2, endLine: 9),
                         ExportedFunction(key: "dependency", file: "/r/.build/checkouts/d/D.swift", startLine: 1, endLine: 2)]
        let header = ImpactMap(stage: "unit", packageFolder: "", commit: "c", toolchain: "t", recorded: 0, seconds: 1, functions: [], tests: [])
        let map = ImpactMapBuilder.map(tests: tests, outcomes: outcomes, functions: functions, repositoryRoot: "/r",
                                       testFile: { $0 == "M.C.testA" ? "Tests/MTests/C.swift" : nil }, header: header)
        #expect(map.functions.map(\.file).sorted() == ["Sources/A.swift", "Sources/B.swift"])
        #expect(map.tests.map(\.identifier) == ["M.C.testA", "M.C.testB", "M.S.run()"])
        #expect(map.tests.map { $0.functions.count } == [2, 0, 1])
        #expect(map.tests.map(\.unknown) == [nil, "failed while recording", nil])
        #expect(map.tests.map(\.file) == ["Tests/MTests/C.swift", nil, nil])
        #expect(map.tests(covering: "Sources/A.swift") == ["M.C.testA", "M.S.run()"])
    }

    @Test func aTestRunIsJudgedByItsOwnResultsNotItsExitStatusAlone() {
        let test = ListedTest(listed: "M.S/run()", framework: .swiftTesting)
        let passed = RunOutcome(termination: .exited(0), stopReason: nil, duration: 1)
        #expect(TestLauncher.judge([], test: test, outcome: passed)?.hasPrefix("ran no test: its filter matched nothing") == true)
        #expect(TestLauncher.judge([UITestResult(suite: "M.S", name: "run()", status: .passed, duration: 0)], test: test, outcome: passed) == nil)
        let failed = UITestResult(suite: "M.S", name: "run()", status: .failed, duration: 0, failures: [TestFailure(message: "Expectation failed\nmore", location: nil)])
        #expect(TestLauncher.judge([failed], test: test, outcome: RunOutcome(termination: .exited(1), stopReason: nil, duration: 1))
                == "failed while recording: Expectation failed")
        #expect(TestLauncher.judge([UITestResult(suite: "M.S", name: "run()", status: .skipped, duration: 0, skipReason: "Linux")], test: test, outcome: passed)
                == "skipped while recording (Linux)")
    }

    #if os(Linux)
    /// The launcher run on a stand-in bundle (a script): how each end of a test's process is said.
    @Test(arguments: [
        ("echo \"Test Case 'C.testA' started at 2026-01-01 10:00:00.000\"; echo \"Test Case 'C.testA' passed (0.001 seconds)\"", nil),
        ("exit 0", "ran no test: its filter matched nothing (exit 0)"),
        ("kill -SEGV $$", "crashed (signal 11)"),
        ("exec sleep 30", "timed out after 1.0 s"),
    ] as [(String, String?)])
    func eachEndOfATestsProcessIsSaid(script: String, said: String?) throws {
        // The bundle is `sh`, given the test's name as its argument: the script is read from a file of
        // that name, never executed (a file written and executed while other tests fork is "busy").
        let folder = try TemporaryDirectory()
        try folder.write(script + "\n", to: "M.C/testA")
        let launcher = TestLauncher(bundle: "/bin/sh", scratchPath: folder.path, packageRoot: folder.path,
                                    environment: ProcessInfo.processInfo.environment, timeout: 1)
        let reason = launcher.run(ListedTest(listed: "M.C/testA", framework: .xctest), folder: folder.path)
        #expect(reason == said, "\(reason ?? "nil")")
    }
    #endif

    @Test func aStageRunsSwiftTestWhenAStepIsSwiftTest() {
        #expect(ImpactRun.runsSwiftTest("swift build --build-tests && swift test --skip-build"))
        #expect(ImpactRun.runsSwiftTest("swift test"))
        #expect(!ImpactRun.runsSwiftTest("xcodebuild test -scheme App"))
        #expect(!ImpactRun.runsSwiftTest("swiftlint"))
    }
}
