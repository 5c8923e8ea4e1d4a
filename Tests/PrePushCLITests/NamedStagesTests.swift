import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// Stages of the team's own beside `unit` and `ui`: file order, their own settings, `paths:` against
/// what a real push changes, `parallel: true`, and the names `SKIP=` and `--stage` take.
/// Own process: `paths:` is matched against what a real `git push` changes, and a SIGINT to the binary
/// must stop every parallel stage.
@Suite struct NamedStagesTests {
    func repository(_ configuration: String) throws -> GitRepository {
        let repo = try GitRepository()
        try repo.write(configuration, to: ".prepush.yml")
        try repo.write("# App\n", to: "README.md")
        try repo.commitAll("config")
        return repo
    }

    func run(_ repo: GitRepository, _ arguments: [String] = [], environment extra: [String: String] = [:]) throws -> CommandResult {
        try InProcessCLI.run(["run", "--no-cache"] + arguments, in: repo.path, environment: repo.environment.merging(extra) { $1 })
    }

    func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test func namedStagesRunInFileOrderWithTheirOwnSettings() throws {
        let marker = "$PREPUSH_REPORTS_DIR/../../../order"
        let repo = try repository("""
        cache: false
        stages:
          lint:
            run: echo "lint $LINT_LEVEL $(basename "$PWD")" >> "\(marker)"
            env:
              LINT_LEVEL: strict
            workingDirectory: Sources
            timeout: 30
          unit:
            run: echo unit >> "\(marker)"
          snapshot:
            run: echo "snapshot $PREPUSH_STAGE" >> "\(marker)"

        """)
        try repo.write("struct A {}\n", to: "Sources/A.swift")
        try repo.commitAll("sources")
        let result = try run(repo)
        #expect(result.status == 0, "\(result)")
        #expect(lines(repo.root.url("order")) == ["lint strict Sources", "unit", "snapshot snapshot"])
        #expect(result.standardOutput.contains("prepush ▸ lint: echo \"lint $LINT_LEVEL"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("(timeout 30 s)"))
        #expect(result.standardOutput.contains("prepush: all stages passed (lint "), "\(result.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: repo.path + "/.prepush/reports/lint.log"))
        #expect(FileManager.default.fileExists(atPath: repo.path + "/.prepush/reports/snapshot.log"))

        let config = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(config.standardOutput.contains("lint.run "), "\(config.standardOutput)")
        #expect(config.standardOutput.contains("lint.timeout "))
    }

    @Test func aStageWithPathsRunsOnlyWhenThePushChangesAMatchingFile() throws {
        let ran = "\"$PREPUSH_REPORTS_DIR/../../../docs-ran\""
        let repo = try repository("""
        cache: false
        stages:
          docs:
            run: echo ran >> \(ran)
            paths: ["docs/**", "*.md"]
          unit:
            run: "true"

        """)
        #expect(try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).status == 0)
        let first = try repo.push()
        #expect(first.status == 0, "\(first)")
        #expect(lines(repo.root.url("docs-ran")).count == 1, "the first push sends README.md: \(first.combined)")

        try repo.write("struct A {}\n", to: "Sources/A.swift")
        try repo.commitAll("code only")
        let code = try repo.push()
        #expect(code.status == 0, "\(code)")
        #expect(lines(repo.root.url("docs-ran")).count == 1, "\(code.combined)")
        #expect(code.combined.contains("prepush – docs: skipped (no changed file matches paths: docs/**, *.md)"), "\(code.combined)")

        try repo.write("# Guide\n", to: "docs/guide/setup.txt")
        try repo.commitAll("docs")
        let docs = try repo.push()
        #expect(docs.status == 0, "\(docs)")
        #expect(lines(repo.root.url("docs-ran")).count == 2, "\(docs.combined)")
    }

    @Test func skipAndStageTakeTheNamesOfTheFile() throws {
        let repo = try repository("""
        stages:
          lint:
            run: echo lint >> ../ran
          unit:
            run: echo unit >> ../ran

        """)
        let skipped = try run(repo, environment: ["SKIP": "lint"])
        #expect(skipped.status == 0, "\(skipped)")
        #expect(skipped.standardOutput.contains("prepush – lint: skipped (SKIP=lint)"))
        #expect(lines(repo.root.url("ran")) == ["unit"])

        let only = try run(repo, ["--stage", "lint"])
        #expect(only.status == 0, "\(only)")
        #expect(lines(repo.root.url("ran")) == ["unit", "lint"])

        let unknown = try run(repo, environment: ["SKIP": "lnt"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("error: SKIP=\"lnt\" (from the environment): no stage named \"lnt\"; the stages are lint, unit and ui"), "\(unknown.standardError)")
        let unknownFlag = try run(repo, ["--stage", "lnt"])
        #expect(unknownFlag.status == 2)
        #expect(unknownFlag.standardError.contains("error: --stage: no stage named \"lnt\"; the stages are lint, unit and ui"), "\(unknownFlag.standardError)")

        // The data model's switches keep their meaning: SKIP_UI_TESTS leaves lint alone, --ui-tests-only does not.
        let skipUI = try run(repo, environment: ["SKIP_UI_TESTS": "1"])
        #expect(lines(repo.root.url("ran")) == ["unit", "lint", "lint", "unit"], "\(skipUI.combined)")
        let uiOnly = try run(repo, ["--ui-tests-only"])
        #expect(uiOnly.standardOutput.contains("prepush – lint: skipped (--ui-tests-only)"), "\(uiOnly.standardOutput)")
        #expect(lines(repo.root.url("ran")).count == 4)
    }

    @Test func aMisspeltUIStageAndABadNameAreErrorsWithTheirPlace() throws {
        let repo = try repository("stages:\n  uit:\n    run: x\n  \"a b\":\n    run: y\n")
        let result = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains(".prepush.yml:2:3: error: unknown key \"uit\" in stages; did you mean \"unit\"?"), "\(result.standardError)")
        #expect(result.standardError.contains(".prepush.yml:4:3: error: stages: \"a b\" is not a stage name"), "\(result.standardError)")
    }

    @Test func parallelStagesRunAtTheSameTimeAndTheirOutputIsNotInterleaved() throws {
        // Each stage waits for the other's file: run one after the other, the first would time out.
        let folder = "$PREPUSH_REPORTS_DIR/../../.."
        func waiting(_ own: String, _ other: String) -> String {
            "echo \(own) starts; touch \(folder)/\(own); n=0; while [ ! -f \(folder)/\(other) ]; do sleep 0.05; done; echo \(own) saw \(other)"
        }
        let repo = try repository("""
        cache: false
        stages:
          lint:
            run: \(waiting("lint", "build"))
            parallel: true
            timeout: 60
          build:
            run: \(waiting("build", "lint"))
            parallel: true
            timeout: 60
          unit:
            run: "true"

        """)
        let result = try run(repo)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("prepush ▸ lint and build side by side"), "\(result.standardOutput)")
        let output = result.standardOutput.split(separator: "\n").map(String.init)
        // Each stage's lines are one block, in file order.
        let lintStart = try #require(output.firstIndex { $0.hasPrefix("prepush ▸ lint:") })
        #expect(output[lintStart + 1].hasPrefix("prepush ✔ lint: passed"), "\(output)")
        #expect(output[lintStart + 2].hasPrefix("prepush ▸ build:"), "\(output)")
        #expect(output[lintStart + 3].hasPrefix("prepush ✔ build: passed"), "\(output)")
        #expect(try String(contentsOfFile: repo.path + "/.prepush/reports/lint.log", encoding: .utf8) == "lint starts\nlint saw build\n")
        #expect(try String(contentsOfFile: repo.path + "/.prepush/reports/build.log", encoding: .utf8) == "build starts\nbuild saw lint\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: repo.path + "/.prepush/reports").filter { $0.hasSuffix(".console") }.isEmpty)
    }

    @Test func aFailingParallelStageRefusesAfterItsNeighbourEndsAndLaterStagesDoNotRun() throws {
        let repo = try repository("""
        cache: false
        stages:
          lint:
            run: echo lint failed; exit 3
            parallel: true
          build:
            run: touch "$PREPUSH_REPORTS_DIR/../../../built"
            parallel: true
          unit:
            run: touch "$PREPUSH_REPORTS_DIR/../../../unit-ran"

        """)
        let result = try run(repo)
        #expect(result.status == 1, "\(result)")
        #expect(repo.root.exists("built"), "the neighbour ran to its end")
        #expect(!repo.root.exists("unit-ran"))
        #expect(result.standardOutput.contains("prepush: checks failed: lint: failed (exit 3)"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("(not run: unit)"))
    }

    @Test func anInterruptStopsEveryParallelStage() throws {
        let repo = try GitRepository()
        let first = repo.root.url("first.pid"), second = repo.root.url("second.pid")
        try repo.write("""
        cache: false
        stages:
          lint:
            run: sleep 300 & echo $! > '\(first)'; wait
            parallel: true
          build:
            run: sleep 300 & echo $! > '\(second)'; wait
            parallel: true

        """, to: ".prepush.yml")
        let running = try Command.start(PrepushBinary.path, ["run"], in: repo.path, environment: repo.environment)
        #expect(Processes.waitUntil { !Processes.pids(inFile: first).isEmpty && !Processes.pids(inFile: second).isEmpty }, "the stages never started")
        running.send(SIGINT)
        let result = try running.wait(upTo: 300)
        #expect(result.status == 130, "\(result)")
        #expect(result.standardOutput.contains("prepush ✘ lint: interrupted by SIGINT"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("prepush ✘ build: interrupted by SIGINT"), "\(result.standardOutput)")
        for pid in Processes.pids(inFile: first) + Processes.pids(inFile: second) {
            #expect(Processes.waitUntil(limit: 10) { !Processes.isAlive(pid) }, "stage process \(pid) is still running")
        }
    }
}
