import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// A repository with `.prepush.yml` committed and prepush's hook installed.
func installedRepository(_ config: String) throws -> GitRepository {
    let repo = try GitRepository()
    try repo.write(config, to: ".prepush.yml")
    try repo.commitAll("Add prepush configuration")
    let install = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)
    #expect(install.status == 0, "\(install)")
    return repo
}

/// Own process: a real `git push` runs the installed hook as git does: the ref lines on its stdin, the
/// variables git sets for hooks, and its exit status deciding whether the remote moves.
@Suite struct HookPushTests {
    @Test func aPushRunsBothStagesAndTheRemoteMoves() throws {
        let repo = try GitRepository()
        try repo.write("""
        stages:
          unit:
            run: touch '\(repo.root.url("unit-ran"))'
          ui:
            run: touch '\(repo.root.url("ui-ran"))'

        """, to: ".prepush.yml")
        try repo.commitAll("config")
        #expect(try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).status == 0)

        let push = try repo.push()
        #expect(push.status == 0, "\(push)")
        #expect(repo.root.exists("unit-ran"))
        #expect(repo.root.exists("ui-ran"))
        #expect(try repo.remoteHead() == repo.head())
        #expect(push.combined.contains("prepush ✔ unit: passed in"))
        #expect(push.combined.contains("prepush ✔ ui: passed in"))
        // Reports stay out of the user's way: nothing new shows in git status.
        #expect(try repo.git("status", "--porcelain").isEmpty)
    }

    @Test func aFailingUnitStageRefusesThePushAndSkipsTheUIStage() throws {
        let repo = try GitRepository()
        try repo.write("""
        stages:
          unit:
            run: 'echo "XCTAssertEqual failed: 1 is not 2"; exit 3'
          ui:
            run: touch '\(repo.root.url("ui-ran"))'

        """, to: ".prepush.yml")
        try repo.commitAll("config")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)

        let push = try repo.push()
        #expect(push.status != 0)
        #expect(try repo.remoteHead() == nil, "the remote ref must not exist after a refused first push")
        #expect(!repo.root.exists("ui-ran"))
        #expect(push.combined.contains("prepush ✘ unit: failed (exit 3)"))
        #expect(push.combined.contains("   │ XCTAssertEqual failed: 1 is not 2"), "the end of the failing output is shown")
        #expect(push.combined.contains("push refused: unit: failed (exit 3)"))
        #expect(push.combined.contains("(not run: ui)"))
        #expect(push.combined.contains("git push --no-verify"))
    }

    @Test func aFailingUIStageRefusesAnUpdateAndTheRemoteStays() throws {
        let repo = try installedRepository("stages:\n  ui:\n    run: test -f ok\n")
        try repo.write("x", to: "ok")
        try repo.commitAll("ok")
        #expect(try repo.push().status == 0)
        let before = try repo.remoteHead()
        try repo.git("rm", "--quiet", "ok")
        try repo.commitAll("remove ok")
        let push = try repo.push()
        #expect(push.status != 0)
        #expect(try repo.remoteHead() == before)
        #expect(push.combined.contains("ui: failed (exit 1)"))
    }

    @Test func aTimedOutStageRefusesThePushAndItsBackgroundProcessIsGone() throws {
        let repo = try GitRepository()
        let pidFile = repo.root.url("ui.pid")
        try repo.write("""
        stages:
          ui:
            run: sleep 300 & echo $! > '\(pidFile)'; wait
            timeout: 1

        """, to: ".prepush.yml")
        try repo.commitAll("config")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)

        let push = try repo.push()
        #expect(push.status != 0)
        #expect(try repo.remoteHead() == nil)
        #expect(push.combined.contains("prepush ✘ ui: timed out after 1 s"))
        #expect(push.combined.contains("push refused: ui: timed out after 1 s"))
        let pid = try #require(Processes.pids(inFile: pidFile).first)
        #expect(Processes.waitUntil { !Processes.isAlive(pid) }, "the stage's background sleep \(pid) survived the timeout")
    }

    @Test func aPushThatOnlyDeletesRefsRunsNothing() throws {
        let marker = "unit-ran"
        let repo = try GitRepository()
        try repo.write("stages:\n  unit:\n    run: touch '\(repo.root.url(marker))'\n", to: ".prepush.yml")
        try repo.commitAll("config")
        try repo.git("branch", "feature")
        try repo.git("push", "--quiet", "origin", "main", "feature")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)

        let push = try repo.push(":feature")
        #expect(push.status == 0, "\(push)")
        #expect(push.combined.contains("the push only deletes refs; nothing to check"))
        #expect(!repo.root.exists(marker))
        #expect(try repo.remoteHead("feature") == nil)
    }

    @Test func aConfigurationErrorRefusesThePushBeforeAnythingRuns() throws {
        let repo = try GitRepository()
        try repo.write("stages:\n  unit:\n    run: touch '\(repo.root.url("ran"))'\n    timeout: soon\n", to: ".prepush.yml")
        try repo.commitAll("config")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)

        // The hook's own verdict, in-process: nothing here needs the remote.
        let push = try InProcessCLI.hook(repo)
        #expect(push.status != 0)
        #expect(!repo.root.exists("ran"))
        #expect(push.standardError.contains("""
        .prepush.yml:4:14: error: stages.unit.timeout: "soon" is not a whole number of seconds
            timeout: soon
                     ^
        """))
    }

    @Test func prepushSkipLetsAPushThroughEvenWithABrokenConfiguration() throws {
        let repo = try GitRepository()
        try repo.write("stages: [\n", to: ".prepush.yml")
        try repo.commitAll("broken config")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)

        #expect(try repo.push().status != 0)
        let push = try repo.push(environment: ["PREPUSH_SKIP": "1"])
        #expect(push.status == 0, "\(push)")
        #expect(push.combined.contains("PREPUSH_SKIP is set; skipping all stages"))
        #expect(try repo.remoteHead() == repo.head())
    }

    @Test func anEscapeHatchWordItDoesNotKnowStillLetsThePushThrough() throws {
        let repo = try GitRepository()
        try repo.write("stages:\n  unit:\n    run: exit 1\n", to: ".prepush.yml")
        try repo.commitAll("a failing stage")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)
        let push = try repo.push(environment: ["PREPUSH_SKIP": "please"])
        #expect(push.status == 0, "\(push)")
        #expect(push.combined.contains("prepush: note: PREPUSH_SKIP=\"please\" is not true/false, yes/no or 1/0; taken as set (use PREPUSH_SKIP=1)"))
        #expect(try repo.remoteHead() == repo.head())
    }

    @Test func skipUITestsFromTheEnvironmentSkipsTheUIStage() throws {
        let repo = try GitRepository()
        try repo.write("stages:\n  unit:\n    run: touch '\(repo.root.url("unit"))'\n  ui:\n    run: touch '\(repo.root.url("ui"))'\n", to: ".prepush.yml")
        try repo.commitAll("config")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)

        let push = try InProcessCLI.hook(repo, environment: ["SKIP_UI_TESTS": "yes"])
        #expect(push.status == 0)
        #expect(repo.root.exists("unit"))
        #expect(!repo.root.exists("ui"))
        #expect(push.combined.contains("prepush – ui: skipped (environment SKIP_UI_TESTS)"))
    }

    @Test func stagesDoNotSeeTheVariablesGitSetsForHooks() throws {
        let repo = try GitRepository()
        let dump = repo.root.url("env.txt")
        try repo.write("stages:\n  unit:\n    run: env > '\(dump)'\n    env:\n      EXTRA: from-config\n", to: ".prepush.yml")
        try repo.commitAll("config")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)

        #expect(try repo.push(environment: ["GIT_INDEX_FILE": ".git/index", "GIT_SSH_COMMAND": "ssh -v"]).status == 0)
        let variables = try String(contentsOfFile: dump, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(variables.contains("PREPUSH_STAGE=unit"))
        #expect(variables.contains("EXTRA=from-config"))
        #expect(variables.contains("GIT_SSH_COMMAND=ssh -v"), "transport settings are kept")
        #expect(!variables.contains { $0.hasPrefix("GIT_INDEX_FILE=") || $0.hasPrefix("GIT_DIR=") })
    }

    @Test func theWholeOutputIsLoggedWhileTheTerminalGetsASummary() throws {
        let repo = try installedRepository("stages:\n  unit:\n    run: for i in 1 2 3; do echo line-$i; done; echo oops >&2\n")
        let push = try InProcessCLI.hook(repo)
        #expect(push.status == 0)
        #expect(!push.combined.contains("line-2"), "a passing stage's output is not printed without --verbose")
        let log = try String(contentsOfFile: repo.path + "/.prepush/reports/unit.log", encoding: .utf8)
        #expect(log.contains("line-1\nline-2\nline-3\n"))
        #expect(log.contains("oops\n"))
    }
}
