import Foundation
import PrePushCore
import PrePushPipeline
import PrePushTestSupport
import Testing

/// `Pipeline.run` inside the test process on a real repository: what a push says and how it
/// exits for each way a stage can end, the stages played back (`PlayedStage`) so that a timeout
/// or a signal costs nothing to set up. Real processes, real timeouts and real signals are the
/// CLI tests' and the runner's.
@Suite struct PipelineRunTests {
    /// A repository with one committed view and a unit and a UI stage.
    func repository(stages: String = "stages:\n  unit:\n    run: swift test\n    timeout: 120\n  ui:\n    run: xcodebuild test -scheme App\n") throws -> GitRepository {
        let repo = try GitRepository()
        try repo.write("import SwiftUI\nstruct A: View { var body: some View { Text(\"A\") } }\n", to: "App/A.swift")
        try repo.write(stages, to: ".prepush.yml")
        try repo.commitAll("a view")
        return repo
    }

    func run(_ repo: GitRepository, _ stage: PlayedStage, configure: (inout PipelineRequest) -> Void = { _ in }) throws -> CommandResult {
        try InProcess.run(in: repo.path, environment: repo.environment, base: "HEAD", launcher: stage, configure: configure)
    }

    @Test func aPassingStageSaysItsTestsAndPasses() throws {
        let repo = try repository()
        let log = "Test Suite 'All tests' started at 2026-11-26 10:00:00.000\nTest Case '-[ATests.ATests testA]' started.\nTest Case '-[ATests.ATests testA]' passed (0.001 seconds).\nTest Suite 'All tests' passed at 2026-11-26 10:00:00.010.\n\t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds\n"
        let result = try run(repo, PlayedStage(output: log, ending: .exited(0)))
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("prepush ✔ unit: passed in"), "\(result)")
        #expect(result.standardOutput.contains("prepush: tests: 2 passed"), "both stages played the same test: \(result)")
        #expect(result.standardError.isEmpty, "\(result)")
    }

    @Test func aTimeoutRefusesAndNamesTheLimit() throws {
        let repo = try repository()
        let result = try run(repo, PlayedStage(output: "Test Case '-[ATests.ATests testHangs]' started.\n", ending: .timedOut))
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.contains("prepush ✘ unit: timed out after 120 s"), "\(result)")
        #expect(result.standardOutput.contains("ATests.testHangs"), "the test that was running is named: \(result)")
        #expect(!result.standardOutput.contains("prepush ▸ ui:"), "no stage runs after a refusal: \(result)")
    }

    @Test func aSignalAndAnExitStatusAreSaidAsTheyHappened() throws {
        let killed = try run(try repository(), PlayedStage(output: "", ending: .signalled(SIGKILL)))
        #expect(killed.status == 1 && killed.standardOutput.contains("prepush ✘ unit: failed (killed by signal 9)"), "\(killed)")
        let failed = try run(try repository(), PlayedStage(output: "", ending: .exited(3)))
        #expect(failed.status == 1 && failed.standardOutput.contains("prepush ✘ unit: failed (exit 3)"), "\(failed)")
    }

    @Test func aCommandThatCannotStartIsSaid() throws {
        let result = try run(try repository(), PlayedStage(output: "", ending: .cannotStart))
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.contains("prepush ✘ unit: could not start: cannot start /bin/sh: No such file or directory"), "\(result)")
    }

    /// A UI stage on Linux: the shell finds no xcodebuild (exit 127); the push says what to do.
    @Test func xcodebuildMissingSaysHowToSkipOrRunOnAMac() throws {
        let repo = try repository(stages: "stages:\n  ui:\n    run: xcodebuild test -scheme App\n")
        let result = try run(repo, PlayedStage(output: "/bin/sh: 1: xcodebuild: not found\n", ending: .exited(127)))
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.contains("xcodebuild is not on this machine: it needs macOS with Xcode. Here, skip the ui stage (SKIP=ui or --skip-ui-tests)"), "\(result)")
    }

    /// `SKIP=unit,ui` leaves nothing to run: said once, and the run passes.
    @Test func skippingEveryStageLeavesNothingToRun() throws {
        let repo = try repository()
        var environment = repo.environment
        environment["SKIP"] = "unit,ui"
        let result = try InProcess.run(in: repo.path, environment: environment, base: "HEAD", launcher: PlayedStage(output: "", ending: .exited(1)))
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.components(separatedBy: "prepush: nothing to run: every configured stage is skipped").count == 2, "\(result)")
    }

    /// A configuration error ends the run before any stage, with its place, on standard error.
    @Test func aBadConfigurationEndsTheRunWithItsPlace() throws {
        let repo = try repository(stages: "stages:\n  unit:\n    run: swift test\n    timeout: soon\n")
        let result = try run(repo, PlayedStage(output: "", ending: .exited(0)))
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.hasPrefix(".prepush.yml:4:14: error: stages.unit.timeout: \"soon\" is not a whole number of seconds"), "\(result)")
        #expect(!result.standardOutput.contains("prepush ▸"), "\(result)")
    }

    /// `--shard` with no stage to split, and `--timings` with no shard: usage errors, exit 2.
    @Test func shardArgumentsAreCheckedBeforeAnythingRuns() throws {
        let repo = try repository()
        let timings = try InProcess.run(in: repo.path, environment: repo.environment, base: "HEAD", launcher: PlayedStage(output: "", ending: .exited(0))) {
            $0.timingsFile = "results.json"
        }
        #expect(timings.status == 2 && timings.standardError == "error: --timings balances shards: it goes with --shard i/n (or a CI's parallel-job variables)\n", "\(timings)")
    }
}
