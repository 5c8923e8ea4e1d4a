import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// In CI the pull request is the attacker: it controls the sources, the tests and all they print,
/// and every stage can write anywhere the user can (`.git/prepush` included). Each case is an attack
/// from that side, run by `prepush run` on a real repository: nothing it does may turn a
/// failed stage green, forge a workflow command, vouch for a tree or delete outside the repository.
@Suite struct PullRequestAttackTests {
    /// A repository whose configuration (the trusted one, in this story) is `configuration`, committed.
    func repository(_ configuration: String, files: [String: String] = [:]) throws -> GitRepository {
        let repo = try GitRepository()
        try repo.write(configuration, to: ".prepush.yml")
        for (path, text) in files { try repo.write(text, to: path) }
        try repo.commitAll("setup")
        return repo
    }

    func run(_ repo: GitRepository, _ arguments: [String] = ["--base", "HEAD"], environment extra: [String: String] = [:]) throws -> CommandResult {
        try InProcessCLI.run(["run"] + arguments, in: repo.path, environment: repo.environment.merging(extra) { $1 })
    }

    static let quarantine = """
    quarantine:
      - test: NetTests.testFlakyNetwork
        reason: the network in CI is slow

    """

    // MARK: - Quarantine excuses test failures, nothing else

    /// A source line that carries a quarantined test's failure text next to a type error: the real
    /// compiler quotes the line, in its Swift style and in its LLVM style. The build failed; no test ran.
    @Test(arguments: ["", " -diagnostic-style llvm"])
    func aBuildErrorQuotingAQuarantinedFailureFailsTheStage(style: String) throws {
        let source = """
        func add(_ a: Int, _ b: Int) -> Int {
            return a + b + undefinedThing // Test Case 'NetTests.testFlakyNetwork' failed (0.001 seconds)
        }
        func sub(_ a: Int) -> Int {
            return a - missingToo //xTest Case 'NetTests.testFlakyNetwork' failed (0.001 seconds)
        }

        """
        let repo = try repository("stages:\n  unit:\n    run: swiftc -typecheck\(style) Net.swift\n" + Self.quarantine, files: ["Net.swift": source])
        let result = try run(repo)
        #expect(result.status == 1, "\(result)")
        #expect(!result.combined.contains("quarantined test failed"), "\(result)")
        #expect(!result.combined.contains("all stages passed"), "\(result)")
        #expect(result.combined.contains("Net.swift:2:20: error: cannot find 'undefinedThing' in scope"), "\(result)")
    }

    /// A stage that prints a quarantined test's failure (and no runner's closing summary), then fails
    /// for a reason of its own.
    @Test func aStageThatFailsForAnotherReasonIsNotExcusedByAQuarantinedFailure() throws {
        let script = """
        printf "Test Case 'NetTests.testFlakyNetwork' started.\\n"
        printf "/src/NetTests.swift:3: error: NetTests.testFlakyNetwork : XCTAssertTrue failed\\n"
        printf "Test Case 'NetTests.testFlakyNetwork' failed (0.001 seconds).\\n"
        echo "coverage below 80%" >&2
        exit 1

        """
        let repo = try repository("stages:\n  unit:\n    run: sh stage.sh\n" + Self.quarantine, files: ["stage.sh": script])
        let result = try run(repo)
        #expect(result.status == 1, "\(result)")
        #expect(result.combined.contains("prepush: note: unit: exited 1 and no test runner said how its run ended (no closing summary, no results file); quarantine excuses test failures only, so the stage fails"), "\(result)")
        #expect(!result.combined.contains("all stages passed"), "\(result)")

        // With a tool's own error beside an otherwise excusable run, the same.
        let withError = script.replacingOccurrences(of: "echo \"coverage below 80%\" >&2", with: """
        printf "Executed 1 test, with 1 failure (0 unexpected) in 0.001 (0.001) seconds\\n"
        echo "error: link command failed with exit code 1" >&2
        """)
        try repo.write(withError, to: "stage.sh")
        try repo.commitAll("a tool error")
        let linked = try run(repo)
        #expect(linked.status == 1, "\(linked)")
        #expect(linked.combined.contains("prepush: note: unit: exited 1 with 1 compiler or tool error besides its tests: error: link command failed with exit code 1; quarantine excuses test failures only"), "\(linked)")

        // The runner's own word, and nothing else wrong: the quarantine holds.
        let excusable = script.replacingOccurrences(of: "echo \"coverage below 80%\" >&2", with: """
        printf "Executed 1 test, with 1 failure (0 unexpected) in 0.001 (0.001) seconds\\n"
        """)
        try repo.write(excusable, to: "stage.sh")
        try repo.commitAll("only the quarantined test fails")
        let excused = try run(repo)
        #expect(excused.status == 0, "\(excused)")
        #expect(excused.combined.contains("prepush: note: unit: 1 quarantined test failed: NetTests.testFlakyNetwork (the network in CI is slow)"), "\(excused)")
    }

    /// `quarantine: [{test: "*"}]` in the branch's own configuration would turn any failure green.
    @Test func aQuarantineOfEveryTestIsALocatedError() throws {
        let repo = try repository("stages:\n  unit:\n    run: \"true\"\nquarantine:\n  - test: \"*\"\n    reason: ok\n  - test: \"*.*\"\n    reason: ok\n  - test: \"Net*.*\"\n    reason: a suite\n")
        let result = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains(".prepush.yml:5:11: error: quarantine.test: \"*\" matches every test"), "\(result)")
        #expect(result.standardError.contains(".prepush.yml:7:11: error: quarantine.test: \"*.*\" matches every test"), "\(result)")
        #expect(!result.standardError.contains(":9:"), "a pattern that names a suite is kept: \(result)")
    }

    /// A pull request that breaks a test and quarantines it in the same change: in CI only the base
    /// branch's quarantine excuses a failure.
    @Test func aQuarantineEntryThePullRequestAddsIsNotHonouredInCI() throws {
        let script = """
        printf "Test Case 'NetTests.testBroken' started.\\n/src/NetTests.swift:3: error: NetTests.testBroken : broken\\n"
        printf "Test Case 'NetTests.testBroken' failed (0.001 seconds).\\nExecuted 1 test, with 1 failure (0 unexpected) in 0.001 (0.001) seconds\\n"
        exit 1

        """
        let base = "stages:\n  unit:\n    run: sh stage.sh\nquarantine:\n  - test: NetTests.testFlaky\n    reason: known flaky\n"
        let repo = try repository(base, files: ["stage.sh": "exit 0\n"])
        try repo.git("checkout", "--quiet", "-b", "feature")
        try repo.write(script, to: "stage.sh")
        try repo.write(base + "  - test: NetTests.testBroken\n    reason: not my problem\n", to: ".prepush.yml")
        try repo.commitAll("break a test and quarantine it")

        let ci = try run(repo, ["--base", "main"], environment: ["CI": "true"])
        #expect(ci.status == 1, "\(ci)")
        #expect(ci.combined.contains("prepush: warning: quarantine: 1 entry that this change adds to .prepush.yml (\"NetTests.testBroken\") is not honoured in CI: only the base's (refs/heads/main) quarantine excuses a failure"), "\(ci)")
        // A GitHub pull request job that names no --base: the base is the event's.
        try repo.git("update-ref", "refs/remotes/origin/main", "main")
        let github = try run(repo, [], environment: ["GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "main"])
        #expect(github.status == 1, "\(github)")
        #expect(github.combined.contains("is not honoured in CI: only the base's (refs/remotes/origin/main, the pull request's base) quarantine excuses a failure"), "\(github)")
        // On the developer's machine the file is their own: the entry holds.
        let local = try run(repo, ["--base", "main"])
        #expect(local.status == 0, "\(local)")
        // Once the base has the entry (merged, reviewed), CI honours it too.
        try repo.git("checkout", "--quiet", "main")
        try repo.git("merge", "--quiet", "--ff-only", "feature")
        try repo.git("checkout", "--quiet", "-b", "next")
        let merged = try run(repo, ["--base", "main"], environment: ["CI": "true"])
        #expect(merged.status == 0, "\(merged)")
        #expect(!merged.combined.contains("not honoured in CI"), "\(merged)")
    }

    // MARK: - No line break forges a workflow command

    @Test func aCarriageReturnInAFailureMessageStartsNoWorkflowCommand() throws {
        let script = #"""
        printf "Test Case 'NetTests.testFirst' started.\n"
        printf "/src/NetTests.swift:3: error: NetTests.testFirst : first\r::add-mask::x\r::error file=a.swift,line=1::forged\302\205::warning::nel\342\200\250::notice::ls\n"
        printf "Test Case 'NetTests.testFirst' failed (0.001 seconds).\n"
        printf "Executed 1 test, with 1 failure (0 unexpected) in 0.001 (0.001) seconds\n"
        exit 1

        """#
        let repo = try repository("stages:\n  unit:\n    run: sh stage.sh\n", files: ["stage.sh": script])
        let result = try run(repo, environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status == 1, "\(result)")
        // The Actions runner starts a line at CR as well as LF; NEL and U+2028 are separators too.
        let separators: Set<Character> = ["\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"]
        let lines = result.standardOutput.split(whereSeparator: { separators.contains($0) })
        for line in lines {
            let trimmed = line.drop(while: { $0.isWhitespace })
            #expect(!trimmed.hasPrefix("::add-mask") && !trimmed.hasPrefix("::error file=a.swift") && !trimmed.hasPrefix("::warning::nel")
                    && !trimmed.hasPrefix("::notice::ls"), "a forged command: \(line.debugDescription)")
        }
        // prepush's own annotation for the failure is still there, its message escaped as GitHub documents.
        #expect(result.standardOutput.contains("::error file=/src/NetTests.swift,line=3,title=NetTests.testFirst::first%0D::add-mask::x%0D::error"), "\(result.standardOutput)")
        // And a person reading the log sees the characters, escaped.
        #expect(result.standardOutput.contains(#"first\r:"# + "\u{200B}" + #":add-mask::x\r:"# + "\u{200B}" + #":error file=a.swift,line=1::forged\u{85}"#),
                "\(result.standardOutput)")
    }

    /// A JUnit file brought into the history with a test name holding a carriage return: `flaky`
    /// and the `quarantine:` lines it suggests print it escaped, and the YAML reads back the name.
    @Test func aCarriageReturnInAnImportedNameForgesNothingInFlaky() throws {
        let repo = try repository("stages:\n  unit:\n    run: \"true\"\n")
        // Failed and then passed on a retry in one run: flaky without a tree to compare.
        for (index, fails) in [false].enumerated() {
            let outcome = fails ? "<failure message=\"boom\"/>" : "<flakyFailure message=\"boom\"/>"
            try repo.root.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites><testsuite name="NetTests" tests="1">
            <testcase classname="NetTests" name="testFlaky&#13;::error file=a.swift,line=1::forged" time="0.1">\(outcome)</testcase>
            </testsuite></testsuites>

            """, to: "run\(index).xml")
            let imported = try InProcessCLI.run(["history", "import", repo.root.url("run\(index).xml")], in: repo.path, environment: repo.environment)
            #expect(imported.status == 0, "\(imported)")
        }
        let environment = repo.environment.merging(["GITHUB_ACTIONS": "true"]) { $1 }
        for arguments in [["flaky"], ["flaky", "--suggest"]] {
            let shown = try InProcessCLI.run(arguments, in: repo.path, environment: environment)
            #expect(shown.status == 0, "\(shown)")
            #expect(shown.standardOutput.contains("testFlaky"), "\(arguments): \(shown)")
            for line in shown.standardOutput.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
                #expect(!line.drop(while: { $0.isWhitespace }).hasPrefix("::"), "\(arguments): a forged command: \(line.debugDescription)")
            }
        }
        let suggested = try InProcessCLI.run(["flaky", "--suggest"], in: repo.path, environment: repo.environment)
        #expect(suggested.standardOutput.contains(#"- test: "NetTests.testFlaky\r::error file=a.swift,line=1::forged""#), "\(suggested)")
    }

    // MARK: - The verdict cache and the history are out of a stage's reach

    /// A stage that stores a pass for its own tree under `.git/prepush/verdicts` and then fails. The
    /// entry is the real one (saved from an honest pass of the same tree, configuration and command),
    /// so only how it got there tells it apart.
    @Test func aVerdictAStageWroteIsDiscardedAndTheNextPushRunsTheStage() throws {
        let script = """
        if [ -n "$PLANT" ]; then mkdir -p .git/prepush/verdicts && cp "$PLANT"/*.json .git/prepush/verdicts/; exit 1; fi
        if [ -n "$FAIL" ]; then exit 1; fi
        exit 0

        """
        let repo = try repository("stages:\n  unit:\n    run: sh stage.sh\n", files: ["stage.sh": script])
        #expect(try run(repo, []).status == 0)
        let verdicts = repo.path + "/.git/prepush/verdicts"
        let saved = repo.root.url("saved")
        try FileManager.default.copyItem(atPath: verdicts, toPath: saved)
        #expect(try InProcessCLI.run(["cache", "clear"], in: repo.path, environment: repo.environment).status == 0)

        let planting = try run(repo, [], environment: ["PLANT": saved])
        #expect(planting.status == 1, "\(planting)")
        #expect(planting.combined.contains("prepush: warning: unit: discarded 1 cached verdict that appeared or changed in "), "\(planting)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: verdicts)) ?? []).filter { $0.hasSuffix(".json") }.isEmpty)

        let next = try run(repo, [], environment: ["FAIL": "1"])
        #expect(next.status == 1, "the stage ran and failed; not a cached pass: \(next)")
        #expect(!next.combined.contains("already passed on tree"), "\(next)")
    }

    @Test func inCIOnlyTheJobsOwnEnvironmentTurnsTheCacheOn() throws {
        let repo = try repository("cache: true\nstages:\n  unit:\n    run: \"true\"\n")
        func cacheSetting(_ extra: [String: String]) throws -> String {
            let shown = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment.merging(extra) { $1 })
            return shown.standardOutput.split(separator: "\n").first { $0.hasPrefix("cache") }.map(String.init) ?? shown.combined
        }
        #expect(try cacheSetting([:]).contains("true"))
        let ci = try cacheSetting(["CI": "true"])
        #expect(ci.contains("false") && ci.contains("off in CI unless PREPUSH_CACHE=1"), "\(ci)")
        #expect(try cacheSetting(["GITHUB_ACTIONS": "true"]).contains("false"))
        #expect(try cacheSetting(["CI": "true", "PREPUSH_CACHE": "1"]).contains("true"))
        // In CI a pass is neither taken from nor kept in the cache.
        #expect(try run(repo, [], environment: ["CI": "true"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.git/prepush/verdicts"))
    }

    /// A stage adds a recursive trigger (and a view) to the run history; recording the run must
    /// neither fire it nor spin: the file is moved aside as one prepush did not make.
    @Test func aTriggerAStagePlantsInTheHistoryNeverRuns() throws {
        let plant = """
        import sqlite3, sys
        db = sqlite3.connect(sys.argv[1])
        db.executescript('''
            CREATE TRIGGER IF NOT EXISTS spin AFTER INSERT ON runs BEGIN
                INSERT INTO runs (started, stage, status, duration, origin) VALUES (new.started + 1, new.stage, new.status, 0, 'spin');
            END;
            CREATE VIEW IF NOT EXISTS everything AS SELECT * FROM runs;
        ''')
        db.commit()

        """
        let script = """
        if [ -f .git/prepush/history.sqlite ]; then python3 plant.py .git/prepush/history.sqlite || exit 3; fi
        exit 0

        """
        let repo = try repository("stages:\n  unit:\n    run: sh stage.sh\n", files: ["stage.sh": script, "plant.py": plant])
        #expect(try run(repo, ["--no-cache"]).status == 0)
        let planted = try run(repo, ["--no-cache"])
        #expect(planted.status == 0, "\(planted)")
        #expect(planted.combined.contains("that prepush did not make"), "\(planted)")
        #expect(planted.combined.contains("trigger spin"), "\(planted)")
        let history = try InProcessCLI.run(["history"], in: repo.path, environment: repo.environment)
        #expect(history.status == 0, "\(history)")
        #expect(!history.combined.contains("spin"), "\(history)")
    }

    // MARK: - The reports folder

    /// The pull request commits prepush's mark and a `runs` link to a folder outside the repository
    /// that looks like an ended run's.
    @Test func aCommittedReportsMarkAndARunsLinkDeleteNothingOutside() throws {
        let outside = try TemporaryDirectory()
        try outside.write("not prepush's\n", to: "4242/.lock")
        try outside.write("keep me\n", to: "4242/precious.txt")
        let repo = try repository("stages:\n  unit:\n    run: \"true\"\n",
                                  files: [".prepush/reports/.gitignore": "# Written by prepush: reports are build output.\n*\n"])
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/.prepush/reports/runs", withDestinationPath: outside.path)
        try repo.git("add", "-f", ".prepush/reports/runs", ".prepush/reports/.gitignore")
        try repo.commitAll("a reports folder of our own")
        let tracked = try run(repo, [])
        #expect(tracked.status != 0, "\(tracked)")
        #expect(tracked.combined.contains(".prepush/reports/.gitignore is tracked by git: the folder is the repository's, not one prepush made"), "\(tracked)")
        #expect(FileManager.default.fileExists(atPath: outside.url("4242/precious.txt")))

        // Untracked (a clone that had it once): the link is never followed.
        try repo.git("rm", "--quiet", "--cached", "-r", ".prepush/reports")
        try repo.commitAll("untrack")
        let untracked = try run(repo, [])
        #expect(untracked.status == 0, "\(untracked)")
        #expect(FileManager.default.fileExists(atPath: outside.url("4242/precious.txt")))
    }

    @Test func aReportsFolderInsideGitsOwnFolderIsALocatedError() throws {
        let repo = try repository("reports:\n  directory: .git/refs/heads/pp\nstages:\n  unit:\n    run: \"true\"\n")
        let result = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains(".prepush.yml:2:14: error: reports.directory: \".git/refs/heads/pp\" is inside .git, git's own folder"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.git/refs/heads/pp"))
    }
}

/// Ceilings no configuration lifts: what a pull request's files and test output cost is bounded.
/// Own process: the bound is the binary's peak resident memory, read by Python as its only child's
/// (`RUSAGE_CHILDREN`); run inside the test process it would be mixed with the test run's own heap.
@Suite struct CeilingTests {
    /// prepush's peak memory (KB) running `arguments` in `repo`, measured by Python as its only child.
    func peakKB(_ arguments: [String], in repo: GitRepository) throws -> (kb: Int, output: String) {
        let script = """
        import resource, subprocess, sys
        done = subprocess.run(sys.argv[1:], capture_output=True, text=True, errors="replace")
        print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        print(done.stdout + done.stderr)
        """
        let result = try Command.run("python3", ["-c", script, PrepushBinary.path] + arguments, in: repo.path, environment: repo.environment)
        let lines = result.standardOutput.split(separator: "\n", maxSplits: 1).map(String.init)
        return (try #require(Int(lines.first ?? ""), "\(result)"), lines.count > 1 ? lines[1] : "")
    }

    @Test func aTwentyMegabyteTestSourceIsSkippedWithANote() throws {
        let repo = try GitRepository()
        var source = "import XCTest\nfinal class BigTests: XCTestCase {\n"
        var index = 0
        while source.utf8.count < 20_000_000 {
            source += "    func test_big_\(index)() { XCTAssertEqual(\(index), \(index), \"value \(index) matches\") }\n"
            index += 1
        }
        try repo.write(source + "}\n", to: "Tests/BigTests/BigTests.swift")
        try repo.write("stories:\n  US1: one\nscenarios:\n  - story: US1\n    priority: P1\n    description: d\n    test: test_big_1\n", to: ".prepush/scenarios.yml")
        try repo.write("traceability:\n  tests: [\"Tests/**\"]\nstages:\n  unit:\n    run: \"true\"\n", to: ".prepush.yml")
        try repo.commitAll("a generated test source")
        let run = try peakKB(["run", "--base", "HEAD"], in: repo)
        #expect(run.kb < 200_000, "prepush peaked at \(run.kb) KB")
        #expect(run.output.contains("prepush: note: traceability: 1 test file not read: Tests/BigTests/BigTests.swift (is 20.0 MB, over the limit of 2000 KB; not read)"), "\(run.output)")
    }

    @Test func aTwentyFiveMegabyteViewIsNotCheckedAndNoSizeLiftsTheCeiling() throws {
        let repo = try GitRepository()
        let row = "        Button { tap() } label: { Image(systemName: \"star\") }\n"
        let view = "import SwiftUI\nstruct BigView: View {\n    var body: some View {\n    VStack {\n" + String(repeating: row, count: 25_000_000 / row.utf8.count) + "    }\n    }\n}\n"
        try repo.write(view, to: "App/Views/BigView.swift")
        try repo.commitAll("a huge view")
        let checked = try peakKB(["a11y", "--all"], in: repo)
        #expect(checked.kb < 200_000, "prepush peaked at \(checked.kb) KB")
        #expect(checked.output.contains("App/Views/BigView.swift: 25.0 MB, over the 1000 KB limit (accessibility.maxFileSize); not checked"), "\(checked.output)")

        try repo.write("accessibility:\n  maxFileSize: 1000MB\n", to: ".prepush.yml")
        let lifted = try InProcessCLI.run(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(lifted.status == 2, "\(lifted)")
        #expect(lifted.standardError.contains(".prepush.yml:2:16: error: accessibility.maxFileSize: \"1000MB\" is over the 2000 KB that prepush reads of any source file, a ceiling no configuration lifts"), "\(lifted)")
    }

    @Test func eightThousandUnknownRuleNamesGiveFiftyErrors() throws {
        let repo = try GitRepository()
        let rules = (0..<8_000).map { "rule-number-\($0): off" }.joined(separator: ", ")
        try repo.write("accessibility:\n  rules: {\(rules)}\n", to: ".prepush.yml")
        try repo.commitAll("rules")
        let shown = try peakKB(["config"], in: repo)
        #expect(shown.kb < 100_000, "prepush peaked at \(shown.kb) KB")
        #expect(shown.output.components(separatedBy: "unknown key \"rule-number-").count - 1 == 50, "\(shown.output.prefix(2000))")
        #expect(shown.output.contains(".prepush.yml: error: and 7950 more errors (the first 50 are shown)"), "\(shown.output.suffix(500))")
    }

    /// Failing tests with 60 KB names each (a test source can name them so), with a retry.
    @Test func testsWithHugeNamesCostBoundedMemoryAndReports() throws {
        let repo = try GitRepository()
        try repo.write("""
        import sys
        for i in range(500):
            name = "test" + "x" * 60000 + str(i)
            print(f"Test Case 'LongTests.{name}' started.")
            print(f"/src/LongTests.swift:3: error: LongTests.{name} : failed")
            print(f"Test Case 'LongTests.{name}' failed (0.001 seconds).")
        print("Executed 500 tests, with 500 failures (0 unexpected) in 0.001 (0.001) seconds")
        sys.exit(1)

        """, to: "gen.py")
        try repo.write("stages:\n  unit:\n    run: python3 gen.py\n    retry: 1\n", to: ".prepush.yml")
        try repo.commitAll("long names")
        let run = try peakKB(["run", "--base", "HEAD"], in: repo)
        #expect(run.kb < 300_000, "prepush peaked at \(run.kb) KB")
        #expect(run.output.contains("prepush: tests: 0 passed, 500 failed"), "\(run.output.suffix(1000))")
        for report in ["junit.xml", "results.json", "results.md"] {
            let size = try FileManager.default.attributesOfItem(atPath: repo.path + "/.prepush/reports/" + report)[.size] as? Int ?? .max
            #expect(size < 5_000_000, "\(report): \(size) bytes")
        }
    }
}
