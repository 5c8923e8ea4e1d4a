import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// `prepush run` does what the hook does: the view check of what a push would send, then the
/// stages; and one validation of the configuration for every command.
/// Own process: `prepush run` is held against what a real `git push` through the installed hook refuses.
@Suite struct RunIsTheHookTests {
    let view = """
    import SwiftUI
    struct HomeView: View {
        var body: some View {
            VStack {
                Button("Add") { add() }
                    .accessibilityIdentifier("home_button_add")
            }
        }
    }
    """

    func repository() throws -> GitRepository {
        let repo = try GitRepository()
        try repo.write(view, to: "App/Views/HomeView.swift")
        try repo.write("stages:\n  unit:\n    run: touch '\(repo.root.url("stage-ran"))'\n", to: ".prepush.yml")
        try repo.commitAll("views")
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        return repo
    }

    @Test func runRefusesWhatThePushWouldRefuseAndThePushAgrees() throws {
        let repo = try repository()
        // An icon-only button, committed and not pushed yet.
        try repo.write("""
        import SwiftUI
        struct HomeView: View {
            var body: some View {
                VStack {
                    Button("Add") { add() }
                        .accessibilityIdentifier("home_button_add")
                    Button { add() } label: { Image(systemName: "plus") }
                        .accessibilityIdentifier("home_button_plus")
                }
            }
        }
        """, to: "App/Views/HomeView.swift")
        try repo.commitAll("an icon button")
        let run = try InProcess.run(["run"], in: repo.path, environment: repo.environment)
        #expect(run.status == 1, "\(run)")
        #expect(run.standardOutput.contains("[icon-button-missing-label]"), "\(run)")
        #expect(run.standardOutput.contains("prepush: checks failed: 1 accessibility finding in the views this branch changes (no stage ran)"))
        #expect(!repo.root.exists("stage-ran"))

        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).checked()
        let push = try repo.push()
        #expect(push.status != 0)
        #expect(push.combined.contains("[icon-button-missing-label]"))
    }

    @Test func runChecksOnlyWhatTheBranchAddsToItsUpstream() throws {
        let repo = try repository()
        // The pushed view is untouched; an unrelated file changes: nothing to find, the stage runs.
        try repo.write("notes\n", to: "NOTES.md")
        try repo.commitAll("notes")
        let run = try InProcess.run(["run"], in: repo.path, environment: repo.environment)
        #expect(run.status == 0, "\(run)")
        #expect(repo.root.exists("stage-ran"))
    }

    @Test func baseChoosesTheRangeOfTheCheck() throws {
        let repo = try repository()
        let base = try repo.head()
        try repo.write(view.replacingOccurrences(of: "\n                .accessibilityIdentifier(\"home_button_add\")", with: ""), to: "App/Views/HomeView.swift")
        try repo.commitAll("the identifier dropped")
        try repo.git("push", "--quiet", "--no-verify", "origin", "main")
        // Pushed already: nothing left to check against the upstream, but --base names the range.
        let againstUpstream = try InProcess.run(["run"], in: repo.path, environment: repo.environment)
        #expect(againstUpstream.status == 0, "\(againstUpstream)")
        let withBase = try InProcess.run(["run", "--base", base], in: repo.path, environment: repo.environment)
        #expect(withBase.status == 1, "\(withBase)")
        #expect(withBase.standardOutput.contains("App/Views/HomeView.swift:5:13: error: Button has no .accessibilityIdentifier"), "\(withBase)")
        let headOnly = try InProcessCLI.run(["run", "--head", "HEAD"], in: repo.path, environment: repo.environment)
        #expect(headOnly.status == 2)
        #expect(headOnly.standardError.contains("--head goes with --base"))
    }

    @Test(arguments: [["config"], ["run"]])
    func everyUnknownRuleIdIsReportedAtOnceWithItsPlace(command: [String]) throws {
        let repo = try GitRepository()
        try repo.write("""
        stages:
          unit:
            run: "true"
        accessibility:
          rules:
            missing-identifer: warning
            icon-button-missing-label: error
            no-such-rule: off

        """, to: ".prepush.yml")
        try repo.commitAll("config")
        let result = try InProcessCLI.run(command, in: repo.path, environment: repo.environment)
        #expect(result.status == 2, "\(result)")
        let errors = result.standardError
        #expect(errors.contains(".prepush.yml:6:5: error:"), "\(errors)")
        #expect(errors.contains("missing-identifer"))
        #expect(errors.contains("missing-identifier"), "a did-you-mean: \(errors)")
        #expect(errors.contains(".prepush.yml:8:5: error:"), "\(errors)")
        #expect(errors.contains("no-such-rule"))
        #expect(!errors.contains("icon-button-missing-label"), "a known rule is no error")
    }
}

@Suite struct FailureOutputTests {
    @Test func aFailedBuildShowsTheCompilersErrorsBeforeTheLogTail() throws {
        let repo = try GitRepository()
        try repo.write("""
        stages:
          unit:
            run: |
              echo 'Compiling App'; echo '/src/App/Model.swift:12:9: error: cannot find value in scope' >&2
              i=0; while [ $i -lt 30 ]; do echo "chatter $i"; i=$((i+1)); done; exit 1

        """, to: ".prepush.yml")
        try repo.commitAll("config")
        let run = try InProcess.run(["run"], in: repo.path, environment: repo.environment)
        #expect(run.status == 1)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let verdict = try #require(lines.firstIndex { $0.hasPrefix("prepush ✘ unit: failed (exit 1)") })
        #expect(lines[verdict + 1] == "   /src/App/Model.swift:12:9: error: cannot find value in scope", "\(run.standardOutput)")
        #expect(lines[verdict + 2].hasPrefix("   │ "))
    }

    @Test func failingTestsComeFirstAndTheChatterIsNotShown() throws {
        let repo = try GitRepository()
        let log = Fixtures.shared + "/console/xcbeautify__TestData__MixedTestLog_6_0_Linux.txt"
        try repo.write("stages:\n  unit:\n    run: cat '\(log)'; exit 1\n", to: ".prepush.yml")
        try repo.commitAll("config")
        let run = try InProcess.run(["run"], in: repo.path, environment: repo.environment)
        #expect(run.status == 1)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let verdict = try #require(lines.firstIndex { $0.hasPrefix("prepush ✘ unit: failed (exit 1)") })
        #expect(lines[verdict + 1].contains("error: CaptureGroupTests.testForceFailure: XCTAssertTrue failed - True is never false."), "\(run.standardOutput)")
        #expect(!run.standardOutput.contains("   │ "), "no log tail when the failing tests explain the failure")
        #expect(run.standardOutput.contains("   └ full log: "))
    }
}

/// Choosing stages by name: `SKIP=` (pre-commit's convention) and `prepush run --stage`.
/// Own process: `SKIP=` is set on a real `git push`, and reaches the installed hook through git.
@Suite struct StageChoiceTests {
    func repository() throws -> GitRepository {
        let repo = try GitRepository()
        try repo.write("stages:\n  unit:\n    run: touch '\(repo.root.url("unit-ran"))'\n  ui:\n    run: touch '\(repo.root.url("ui-ran"))'\n", to: ".prepush.yml")
        try repo.commitAll("two stages")
        return repo
    }

    @Test func skipNamesStagesToLeaveOutOfAPush() throws {
        let repo = try repository()
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).checked()
        let push = try repo.push(environment: ["SKIP": "ui"])
        #expect(push.status == 0, "\(push)")
        #expect(push.combined.contains("prepush – ui: skipped (SKIP=ui)"), "\(push)")
        #expect(repo.root.exists("unit-ran") && !repo.root.exists("ui-ran"))
    }

    @Test func stageRunsOnlyTheNamedOnesAndAnUnknownNameIsAnError() throws {
        let repo = try repository()
        let only = try InProcess.run(["run", "--stage", "ui"], in: repo.path, environment: repo.environment)
        #expect(only.status == 0, "\(only)")
        #expect(only.standardOutput.contains("prepush – unit: not asked for (--stage)"), "\(only)")
        #expect(repo.root.exists("ui-ran") && !repo.root.exists("unit-ran"))
        var environment = repo.environment
        environment["SKIP"] = "lint"
        let unknown = try InProcess.run(["run"], in: repo.path, environment: environment)
        #expect(unknown.status == 2)
        #expect(unknown.standardError == "error: SKIP=\"lint\" (from the environment): no stage named \"lint\"; the stages are unit and ui\n", "\(unknown)")
        // Skipping the one configured stage says so, without a "not configured" line for the other.
        let single = try GitRepository()
        try single.write("stages:\n  unit:\n    run: 'true'\n", to: ".prepush.yml")
        try single.commitAll("one stage")
        let skipped = try InProcess.run(["run"], in: single.path, environment: single.environment.merging(["SKIP": "unit"]) { $1 })
        #expect(skipped.status == 0, "\(skipped)")
        #expect(skipped.standardOutput.contains("prepush – unit: skipped (SKIP=unit)"), "\(skipped)")
        #expect(!skipped.standardOutput.contains("not configured"), "\(skipped)")
        #expect(skipped.standardOutput.contains("prepush: nothing to run: every configured stage is skipped"), "\(skipped)")
    }
}
