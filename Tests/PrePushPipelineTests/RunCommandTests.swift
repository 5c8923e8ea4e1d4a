import Foundation
import PrePushTestSupport
import Testing

/// `prepush run`'s stages, notes and verdicts for the configurations the command line's tests set
/// up, run in-process (`InProcess`): what the flags mean is the command line's (CommandLineTests).
@Suite struct RunCommandTests {
    @Test func withNothingConfiguredThereIsNothingToRun() throws {
        let repo = try GitRepository()
        let result = try InProcess.run(["run"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("prepush – unit: not configured (set stages.unit.run in .prepush.yml)"))
        #expect(result.standardOutput.contains("prepush: nothing to run"))
    }

    /// A UI stage on Linux: the shell's `xcodebuild: not found` (exit 127) alone does not say what
    /// to do; the note names SKIP=ui, --skip-ui-tests and remote:.
    @Test func aUIStageWithoutXcodebuildSaysWhatToDo() throws {
        let repo = try GitRepository()
        try repo.write("stages:\n  ui:\n    run: xcodebuild test -scheme App -destination 'platform=iOS Simulator,name=iPhone 16'\n", to: ".prepush.yml")
        try repo.commitAll("a UI stage")
        let result = try InProcess.run(["run"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1, "\(result)")
        #expect(result.combined.contains("xcodebuild: not found"), "\(result)")
        #expect(result.combined.contains("prepush: note: xcodebuild is not on this machine: it needs macOS with Xcode. Here, skip the ui stage (SKIP=ui or --skip-ui-tests); or run it on a Mac with remote: in .prepush.yml (docs/remote-testing.md)"), "\(result)")
    }

    @Test func aCleanWorkingTreeGetsNoNote() throws {
        let repo = try GitRepository()
        try repo.write("stages:\n  unit:\n    run: 'true'\n", to: ".prepush.yml")
        try repo.commitAll("config")
        let result = try InProcess.run(["run"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0)
        #expect(!result.standardOutput.contains("working tree differs"))
    }

    @Test func anEnvironmentValueNamesItsVariable() throws {
        let repo = try GitRepository()
        try repo.write("stages:\n  ui:\n    run: touch '\(repo.root.url("ran"))'\n", to: ".prepush.yml")
        var environment = repo.environment
        environment["UI_TEST_TIMEOUT"] = "abc"
        let result = try InProcess.run(["run"], in: repo.path, environment: environment)
        #expect(result.status == 2)
        #expect(result.standardError == "error: UI_TEST_TIMEOUT=\"abc\" is not a whole number of seconds\n")
        #expect(!repo.root.exists("ran"))
    }

    @Test func isolatedStagesSeeThePushedCommitNotTheWorkingTree() throws {
        let repo = try GitRepository()
        let seen = repo.root.url("seen.txt")
        try repo.write("committed\n", to: "state.txt")
        try repo.write("stages:\n  unit:\n    run: cat state.txt > '\(seen)'; ls >> '\(seen)'\n", to: ".prepush.yml")
        try repo.commitAll("state")
        try repo.write("edited\n", to: "state.txt")
        try repo.write("x\n", to: "untracked.txt")

        let plain = try InProcess.run(["run"], in: repo.path, environment: repo.environment)
        #expect(plain.status == 0)
        #expect(plain.standardOutput.contains("prepush: note: the working tree differs from HEAD (changed: state.txt, untracked: untracked.txt); local stages run in the working tree, and no cached verdict is used or kept"), "\(plain)")
        #expect(try String(contentsOfFile: seen, encoding: .utf8).hasPrefix("edited\n"))

        let isolated = try InProcess.run(["run", "--isolated"], in: repo.path, environment: repo.environment)
        #expect(isolated.status == 0, "\(isolated)")
        let text = try String(contentsOfFile: seen, encoding: .utf8)
        #expect(text.hasPrefix("committed\n"))
        #expect(!text.contains("untracked.txt"))
        #expect(!isolated.standardOutput.contains("working tree differs"))
        #expect(try String(contentsOfFile: repo.path + "/state.txt", encoding: .utf8) == "edited\n", "the user's edit is untouched")
    }

    @Test func verboseStreamsTheStageOutput() throws {
        let repo = try GitRepository()
        try repo.write("stages:\n  unit:\n    run: printf 'streamed-to-%s\\n' stdout; printf 'streamed-to-%s\\n' stderr >&2\n", to: ".prepush.yml")
        let quiet = try InProcess.run(["run"], in: repo.path, environment: repo.environment)
        #expect(!quiet.combined.contains("streamed-to-stdout") && !quiet.combined.contains("streamed-to-stderr"))
        let verbose = try InProcess.run(["run", "--verbose"], in: repo.path, environment: repo.environment)
        #expect(verbose.standardOutput.contains("streamed-to-stdout\n"))
        #expect(verbose.standardError.contains("streamed-to-stderr\n"))
        var environment = repo.environment
        environment["UI_TEST_VERBOSE"] = "1"
        #expect(try InProcess.run(["run"], in: repo.path, environment: environment).standardOutput.contains("streamed-to-stdout"))
    }

    @Test func uiTestsOnlySkipsTheUnitStage() throws {
        let repo = try GitRepository()
        try repo.write("stages:\n  unit:\n    run: touch '\(repo.root.url("unit"))'\n  ui:\n    run: touch '\(repo.root.url("ui"))'\n", to: ".prepush.yml")
        let result = try InProcess.run(["run", "--ui-tests-only"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        #expect(!repo.root.exists("unit"))
        #expect(repo.root.exists("ui"))
        #expect(result.standardOutput.contains("prepush – unit: skipped (--ui-tests-only)"))
    }
}
