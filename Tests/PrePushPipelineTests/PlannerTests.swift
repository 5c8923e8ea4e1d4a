import Foundation
import PrePushConfig
import PrePushCore
@testable import PrePushPipeline
import PrePushTestSupport
import PrePushTraceability
import Testing

/// A configuration resolved from `.prepush.yml` text in a temporary folder: what the planner is
/// given, with no git repository and no process.
func resolved(_ file: String, environment: [String: String] = [:], flags: ConfigurationFlags = ConfigurationFlags()) throws -> ResolvedConfiguration {
    let folder = try TemporaryDirectory()
    try folder.write(file, to: ".prepush.yml")
    return try ConfigurationResolver.resolve(ConfigurationRequest(flags: flags, environment: environment,
                                                                  repositoryRoot: folder.path, currentDirectory: folder.path))
}

let threeStages = """
stages:
  lint:
    run: swiftlint
  unit:
    run: swift test
  ui:
    run: ./ui-tests.sh
    paths: ["App/**", "UITests/**"]
"""

@Suite struct PlannerTests {
    @Test func stagesRunInFileOrderAndSkipLeavesOutTheNamedOnes() throws {
        let configuration = try resolved(threeStages)
        let plan = try PushPlanner.plan(configuration, skip: "lint", onlyStages: [], changedFiles: { ["App/Home.swift"] })
        #expect(plan.stages.stages.map(\.kind.rawValue) == ["unit", "ui"])
        #expect(plan.notes == [.leftOut(stage: "lint", reason: "skipped (SKIP=lint)")])
    }

    @Test func pathsLeaveOutAStageWhoseFilesThePushDoesNotChange() throws {
        let configuration = try resolved(threeStages)
        let plan = try PushPlanner.plan(configuration, skip: nil, onlyStages: [], changedFiles: { ["Sources/Model.swift", "README.md"] })
        #expect(plan.stages.stages.map(\.kind.rawValue) == ["lint", "unit"])
        #expect(plan.notes == [.leftOut(stage: "ui", reason: "skipped (no changed file matches paths: App/**, UITests/**)")])
    }

    @Test func changedFilesAreReadOnlyWhenAStageHasPaths() throws {
        let configuration = try resolved("stages:\n  unit:\n    run: swift test\n")
        var reads = 0
        let plan = try PushPlanner.plan(configuration, skip: nil, onlyStages: [], changedFiles: { reads += 1; return [] })
        #expect(reads == 0)
        #expect(plan.stages.stages.map(\.kind.rawValue) == ["unit"])
    }

    @Test func unknownPushedFilesRunEveryStageWithPathsAndSaySo() throws {
        let plan = try PushPlanner.plan(try resolved(threeStages), skip: nil, onlyStages: [], changedFiles: { nil })
        #expect(plan.stages.stages.map(\.kind.rawValue) == ["lint", "unit", "ui"])
        #expect(plan.notes == [.note("cannot tell which files this push changes; stages with paths: run")])
    }

    @Test func onlyStagesLeavesOutTheRest() throws {
        let plan = try PushPlanner.plan(try resolved(threeStages), skip: nil, onlyStages: ["ui"], changedFiles: { ["App/A.swift"] })
        #expect(plan.stages.stages.map(\.kind.rawValue) == ["ui"])
        #expect(plan.notes == [.leftOut(stage: "lint", reason: "not asked for (--stage)"), .leftOut(stage: "unit", reason: "not asked for (--stage)")])
    }

    @Test func anUnknownStageNameIsAnErrorNamingWhereItCameFrom() throws {
        let configuration = try resolved(threeStages)
        #expect(throws: PipelineError.self) { try PushPlanner.plan(configuration, skip: "lnit", onlyStages: [], changedFiles: { [] }) }
        do {
            _ = try PushPlanner.plan(configuration, skip: nil, onlyStages: ["uii"], changedFiles: { [] })
            Issue.record("an unknown --stage was accepted")
        } catch {
            #expect(error.lines == ["error: --stage: no stage named \"uii\"; the stages are lint, unit and ui"])
            #expect(error.exitStatus == .usage)
        }
    }

    @Test func noStageConfiguredIsSaidAndNotConfiguredStagesAreQuietOtherwise() throws {
        let empty = try PushPlanner.plan(try resolved("verbose: false\n"), skip: nil, onlyStages: [], changedFiles: { [] })
        #expect(empty.noneConfigured)
        #expect(empty.notes.count == 2)
        let unitOnly = try PushPlanner.plan(try resolved("stages:\n  unit:\n    run: swift test\n"), skip: nil, onlyStages: [], changedFiles: { [] })
        #expect(!unitOnly.noneConfigured)
        #expect(unitOnly.notes.isEmpty, "the UI stage is not configured, and a push does not say so every time")
    }

    @Test func parallelStagesFormOneGroup() throws {
        let configuration = try resolved("""
        stages:
          lint:
            run: swiftlint
            parallel: true
          build:
            run: swift build
            parallel: true
          unit:
            run: swift test
        """)
        let plan = try PushPlanner.plan(configuration, skip: nil, onlyStages: [], changedFiles: { [] })
        #expect(plan.stages.groups.map { $0.map(\.kind.rawValue) } == [["lint", "build"], ["unit"]])
    }
}

@Suite struct ShardPlanTests {
    static let tests = (1...6).map { ShardedTest(target: "AppTests", typeName: "T\($0)", name: "test\($0)", framework: .xctest) }

    func planned(_ index: Int, of count: Int) throws -> PushPlan {
        let configuration = try resolved("stages:\n  lint:\n    run: swiftlint\n  unit:\n    run: swift test\n    shard: true\n")
        var plan = try PushPlanner.plan(configuration, skip: nil, onlyStages: [], changedFiles: { [] })
        let request = ShardRequest(shard: try #require(TestShard(index: index, count: count)), origin: "--shard \(index)/\(count)", explicit: true, timingsFile: nil)
        var inputs = PushPlanner.ShardInputs()
        inputs.tests[.unit] = (Self.tests, ["Tests/**/*.swift"])
        try PushPlanner.shard(&plan, request, inputs: inputs, configuredToShard: true, reportsDirectory: "/reports", root: "/repo")
        return plan
    }

    @Test func eachShardGetsItsPartAndTheUnsplitStagesRunOnTheFirstOnly() throws {
        let first = try planned(1, of: 2), second = try planned(2, of: 2)
        #expect(first.stages.stages.map(\.kind.rawValue) == ["lint", "unit"])
        #expect(second.stages.stages.map(\.kind.rawValue) == ["unit"])
        #expect(second.notes.contains(.leftOut(stage: "lint", reason: "skipped (not split: it runs on shard 1/2 only)")))
        let lists = [first, second].map { $0.files.map(\.contents).joined() }
        let listed = lists.flatMap { $0.split(separator: "\n").map(String.init) }
        #expect(listed.count == 6, "every test in exactly one shard: \(lists)")
        #expect(Set(listed).count == 6)
        let unit = try #require(first.stages.stages.last)
        #expect(unit.command == "swift test --filter \"$PREPUSH_TEST_FILTER\"")
        #expect(unit.environment.map(\.name) == ["PREPUSH_TEST_FILTER", "PREPUSH_ONLY_TESTING", "PREPUSH_TEST_LIST", "PREPUSH_SHARD"])
        #expect(first.files.map(\.path) == ["/reports/unit.shard-tests.txt"])
    }

    @Test func aShardWithoutAShardStageIsAnError() throws {
        var plan = try PushPlanner.plan(try resolved("stages:\n  unit:\n    run: swift test\n"), skip: nil, onlyStages: [], changedFiles: { [] })
        let request = ShardRequest(shard: try #require(TestShard(index: 1, count: 2)), origin: "--shard 1/2", explicit: true, timingsFile: nil)
        do {
            try PushPlanner.shard(&plan, request, inputs: .init(), configuredToShard: false, reportsDirectory: "/r", root: "/repo")
            Issue.record("a split with nothing to split was accepted")
        } catch {
            #expect(error.description.hasPrefix("--shard 1/2: no stage has shard: in the configuration"))
        }
    }
}

@Suite struct SelectivePlanTests {
    /// App ← AppTests, Model ← ModelTests, and Model ← App.
    static let graph = PackageGraph(targets: [
        .init(name: "Model", path: "Sources/Model", isTest: false, dependencies: []),
        .init(name: "App", path: "Sources/App", isTest: false, dependencies: ["Model"]),
        .init(name: "AppTests", path: "Tests/AppTests", isTest: true, dependencies: ["App"]),
        .init(name: "ModelTests", path: "Tests/ModelTests", isTest: true, dependencies: ["Model"]),
    ])

    func planned(changed: [String]?, workingTreeMatches: Bool = true) throws -> PushPlan {
        let configuration = try resolved("stages:\n  unit:\n    run: swift test\n    selective: true\n")
        var plan = try PushPlanner.plan(configuration, skip: nil, onlyStages: [], changedFiles: { changed })
        let root = try #require(plan.stages.stages.first?.workingDirectory)
        PushPlanner.select(&plan, inputs: .init(isolated: false, workingTreeMatches: workingTreeMatches, treeRoot: root,
                                                configurationFile: ".prepush.yml", sharded: false, changedFiles: { changed },
                                                graph: { _ in .success(Self.graph) }, mentions: { _, _ in false }))
        return plan
    }

    @Test func aChangeToAppRunsOnlyTheTestsThatReachIt() throws {
        let plan = try planned(changed: ["Sources/App/View.swift"])
        let unit = try #require(plan.stages.stages.first)
        #expect(unit.command == "swift test --filter '^(AppTests)\\.'")
        #expect(plan.selectiveSummaries[.unit] == "1 of 2 test targets left out, none reaches App")
    }

    @Test func aChangeToModelRunsBoth() throws {
        let unit = try #require(try planned(changed: ["Sources/Model/Item.swift"]).stages.stages.first)
        #expect(unit.command.contains("AppTests") && unit.command.contains("ModelTests"), "\(unit.command)")
    }

    @Test func aWorkingTreeThatDiffersRunsEveryTest() throws {
        let plan = try planned(changed: ["Sources/App/View.swift"], workingTreeMatches: false)
        #expect(plan.stages.stages.first?.command == "swift test")
        #expect(plan.notes == [.note("unit: selective: every test runs (the working tree has changes the pushed commits do not show)")])
    }

    @Test func unknownChangesRunEveryTest() throws {
        let plan = try planned(changed: nil)
        #expect(plan.stages.stages.first?.command == "swift test")
        #expect(plan.notes == [.note("unit: selective: every test runs (cannot tell what the push changes)")])
    }
}

/// How a `shard:` stage's command is given its part of the tests.
@Suite struct ShardCommandTests {
    @Test func theShardsTestsGoWhereTheRunnerReadsThem() {
        #expect(ShardStep.commandRunningShard("swift test --parallel") == "swift test --parallel --filter \"$PREPUSH_TEST_FILTER\"")
        #expect(ShardStep.commandRunningShard("xcodebuild test -scheme App -destination 'platform=iOS Simulator,name=My test phone' | xcbeautify")
            == "xcodebuild $PREPUSH_ONLY_TESTING test -scheme App -destination 'platform=iOS Simulator,name=My test phone' | xcbeautify")
        // A scheme named `test` is not the test action: this command only builds.
        #expect(ShardStep.commandRunningShard("xcodebuild -scheme test build") == nil)
        // A command that reads a variable already is left as it is.
        #expect(ShardStep.commandRunningShard("./ui.sh \"$PREPUSH_TEST_LIST\"") == nil)
    }
}
