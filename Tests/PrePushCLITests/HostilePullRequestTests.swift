import Foundation
import PrePushTestSupport
import Testing

/// Issue 51's attacks on the commands a CI job runs after the pull request's code: the merge of
/// shards (`results`, `report`), their output folders, and the base whose policy CI trusts. Each
/// case runs the real binary as a GitHub job would, on a real repository with real `git` refs.
/// Own process: each CI job is a process of its own: the shards run one after another in one checkout,
/// and a run holds its reports folder until its process ends (in one test process the second shard's
/// results would go to `runs/<pid>` and the first's be merged twice).
@Suite struct HostilePullRequestTests {
    /// A stage that fails `NetTests.testBroken` on shard 1 of 2 (or unsplit) and passes `NetTests.testFine` on shard 2.
    static let stage = """
    if [ "${PREPUSH_SHARD:-1/2}" = "2/2" ]; then
      printf "Test Case 'NetTests.testFine' started.\\nTest Case 'NetTests.testFine' passed (0.001 seconds).\\n"
      printf "Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds\\n"
      exit 0
    fi
    printf "Test Case 'NetTests.testBroken' started.\\n/src/NetTests.swift:3: error: NetTests.testBroken : broken\\n"
    printf "Test Case 'NetTests.testBroken' failed (0.001 seconds).\\nExecuted 1 test, with 1 failure (0 unexpected) in 0.001 (0.001) seconds\\n"
    exit 1

    """
    /// The sources the shards are split from (the stage prints their results): found by discovery, never built.
    static let tests = "import XCTest\n\nfinal class NetTests: XCTestCase {\n    func testBroken() { XCTAssertEqual(1, 2) }\n    func testFine() { XCTAssertEqual(1, 1) }\n}\n"

    func repository(_ configuration: String, files: [String: String] = [:]) throws -> GitRepository {
        let repo = try GitRepository(prefix: "prepush-hostile")
        try repo.write(configuration, to: ".prepush.yml")
        try repo.write(Self.stage, to: "stage.sh")
        try repo.write(Self.tests, to: "Tests/NetTests.swift")
        try repo.write("shards/\nmerged/\n", to: ".gitignore")
        for (path, text) in files { try repo.write(text, to: path) }
        try repo.commitAll("setup")
        return repo
    }

    func prepush(_ repo: GitRepository, _ arguments: [String], _ extra: [String: String] = [:]) throws -> CommandResult {
        try PrepushBinary.run(arguments, in: repo.path, environment: repo.environment.merging(extra) { $1 })
    }

    /// The environment of run 77 of a CI system.
    static let job = ["CI": "true", "GITHUB_RUN_ID": "77", "GITHUB_RUN_ATTEMPT": "1", "GITHUB_JOB": "merge"]

    /// Both shards run as the matrix jobs would, their results.json put where the merge job's download puts them.
    func shards(_ repo: GitRepository) throws {
        for index in 1...2 {
            let run = try prepush(repo, ["run", "--base", "HEAD", "--shard", "\(index)/2"], Self.job.merging(["GITHUB_JOB": "shard"]) { $1 })
            #expect(run.status == (index == 1 ? 1 : 0), "\(run)")
            try FileManager.default.createDirectory(atPath: repo.path + "/shards/shard-\(index)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: repo.path + "/.prepush/reports/results.json", toPath: repo.path + "/shards/shard-\(index)/results.json")
        }
    }

    /// shard 1's results.json with its failing test marked quarantined, as a pull request writes it.
    func forgedShard(_ repo: GitRepository, stamp: (String) -> String = { $0 }) throws -> String {
        let real = try #require(repo.root.read("work/shards/shard-1/results.json"))
        let forged = real.replacingOccurrences(of: "\"passed\": false,", with: "\"passed\": false,\n      \"quarantined\": \"not my problem\",")
        #expect(forged != real)
        return stamp(forged)
    }

    static let configuration = "cache: false\nstages:\n  unit:\n    run: sh stage.sh\n    shard: [\"Tests/**/*.swift\"]\n"

    /// The pull request commits `shards/zz-pr/results.json` marking the failing test quarantined:
    /// the glob picks it up, and the merge refuses it (it is tracked). Untracked, it must still carry
    /// this run's stamp; and whatever an input claims, quarantine is decided by the configuration.
    @Test func aShardResultThePullRequestWritesNeverTurnsTheMergeGreen() throws {
        let repo = try repository(Self.configuration)
        try shards(repo)
        let glob = ["shards/shard-1/results.json", "shards/shard-2/results.json", "shards/zz-pr/results.json"]
        func merge() throws -> CommandResult {
            try prepush(repo, ["results"] + glob + ["--format", "junit,json,markdown", "--output-dir", "merged"], Self.job)
        }
        // Tracked (added with `git add -f`, past the .gitignore; the shards ran on this commit).
        try repo.write(try forgedShard(repo), to: "shards/zz-pr/results.json")
        try repo.git("add", "-f", "shards/zz-pr/results.json")
        let tracked = try merge()
        #expect(tracked.status == 2, "\(tracked)")
        #expect(tracked.standardError.contains("shards/zz-pr/results.json: refused: shards/zz-pr/results.json is tracked by git"), "\(tracked)")
        try repo.git("rm", "--quiet", "--cached", "shards/zz-pr/results.json")
        // Untracked, without a stamp, or of another run.
        try repo.write(try forgedShard(repo) { $0.replacingOccurrences(of: "\"provenance\"", with: "\"elsewhere\"") }, to: "shards/zz-pr/results.json")
        let unstamped = try merge()
        #expect(unstamped.status == 2 && unstamped.standardError.contains("it carries no stamp of a prepush run"), "\(unstamped)")
        try repo.write(try forgedShard(repo) { $0.replacingOccurrences(of: "\"run\": \"77\"", with: "\"run\": \"76\"") }, to: "shards/zz-pr/results.json")
        let otherRun = try merge()
        #expect(otherRun.status == 2 && otherRun.standardError.contains("it is not a shard of this run: it is of CI run 76, not this run 77"), "\(otherRun)")
        // Even a stamped file in place of the real shard cannot excuse the failure: the configuration quarantines nothing.
        try FileManager.default.removeItem(atPath: repo.path + "/shards/zz-pr")
        try repo.write(try forgedShard(repo), to: "shards/shard-1/results.json")
        let claimed = try prepush(repo, ["results", "shards/shard-1/results.json", "shards/shard-2/results.json", "--format", "json", "--output-dir", "merged"], Self.job)
        #expect(claimed.status == 1, "\(claimed)")
        #expect(claimed.standardError.contains("1 failure the inputs call quarantined is not quarantined by the trusted configuration ("), "\(claimed)")
        #expect(claimed.standardError.contains("NetTests.testBroken): it counts"), "\(claimed)")
        #expect(repo.root.read("work/merged/results.json")?.contains("\"conclusion\": \"failure\"") == true)
        // The traceability report of the merge job reads them the same way.
        try repo.write(try forgedShard(repo) { $0.replacingOccurrences(of: "\"run\": \"77\"", with: "\"run\": \"76\"") }, to: "shards/zz-pr/results.json")
        let report = try prepush(repo, ["report", "--results"] + glob + ["--format", "json"], Self.job)
        #expect(report.status == 2 && report.standardError.contains("it is of CI run 76, not this run 77"), "\(report)")
    }

    /// A committed `merged` link: `results --output-dir merged` and `report --output merged/…`
    /// write nothing through it.
    @Test func aCommittedOutputFolderLinkIsNotWrittenThrough() throws {
        let repo = try repository(Self.configuration)
        try shards(repo)
        let outside = try TemporaryDirectory(prefix: "prepush-outside")
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/merged", withDestinationPath: outside.path)
        try repo.git("add", "-f", "merged")
        let results = try prepush(repo, ["results", "shards/shard-1/results.json", "shards/shard-2/results.json",
                                         "--format", "junit,json,markdown", "--output-dir", "merged"], Self.job)
        #expect(results.status == 2, "\(results)")
        #expect(results.standardError.contains("merged is a symbolic link"), "\(results)")
        let report = try prepush(repo, ["report", "--results", "shards/shard-1/results.json", "--format", "html", "--output", "merged/traceability.html"], Self.job)
        #expect(report.status == 2, "\(report)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
        // A folder outside the checkout that the job names is the job's own.
        let elsewhere = try TemporaryDirectory(prefix: "prepush-job-folder")
        let own = try prepush(repo, ["results", "shards/shard-1/results.json", "shards/shard-2/results.json", "--format", "json", "--output-dir", elsewhere.url("merged")], Self.job)
        #expect(own.status == 1 && elsewhere.read("merged/results.json") != nil, "\(own)")
    }

    // MARK: - Policy only from the base

    static let broken = "cache: false\nstages:\n  unit:\n    run: sh stage.sh\n"
    static let quarantined = broken + "quarantine:\n  - test: NetTests.testBroken\n    reason: not my problem\n"

    /// The pull request's branch quarantines the test it breaks; `refs/remotes/origin/main` is the base.
    func pullRequest() throws -> GitRepository {
        let repo = try repository(Self.broken)
        try repo.git("update-ref", "refs/remotes/origin/main", "main")
        try repo.git("checkout", "--quiet", "-b", "feature")
        try repo.write(Self.quarantined, to: ".prepush.yml")
        try repo.commitAll("quarantine the test it breaks")
        return repo
    }

    /// A tag named `origin/main` at the pull request's own commit: git's short-name rules would take
    /// it for the base, and its quarantine entry would be trusted.
    @Test func aTagNamedAsTheBaseIsNotTheBase() throws {
        let repo = try pullRequest()
        try repo.git("tag", "origin/main", "HEAD")
        let run = try prepush(repo, ["run"], ["GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "main"])
        #expect(run.status == 1, "\(run)")
        #expect(run.combined.contains("is not honoured in CI: only the base's (refs/remotes/origin/main, the pull request's base) quarantine excuses a failure"), "\(run)")
    }

    /// The base per event kind: a push to a branch (its own earlier push is not the base: where it
    /// left the default branch is), a merge group's `base_sha`, a dispatched run's default branch.
    @Test(arguments: ["push", "merge_group", "workflow_dispatch", "schedule"])
    func eachEventKindHasATrustedBase(kind: String) throws {
        let repo = try pullRequest()
        let before = try repo.head()
        // The attacker pushes again: the previous push (with the entry) is the event's `before`.
        try repo.write("# again\n", to: "NOTES.md")
        try repo.commitAll("again")
        let base = try repo.git("rev-parse", "main")
        let event = try repo.root.write("""
        {"before": "\(before)", "repository": {"default_branch": "main"}, "merge_group": {"base_sha": "\(base)"}}
        """, to: "event.json")
        let run = try prepush(repo, ["run"], ["GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": kind, "GITHUB_EVENT_PATH": event,
                                              "GITHUB_REF": "refs/heads/feature"])
        #expect(run.status == 1, "\(run)")
        #expect(run.combined.contains("is not honoured in CI"), "\(run)")
    }

    /// CI with no base to be found: no entry of the change's configuration excuses a failure.
    @Test func withNoBaseInCINoQuarantineIsHonoured() throws {
        let repo = try repository(Self.quarantined)
        let run = try prepush(repo, ["run"], ["CI": "true"])
        #expect(run.status == 1, "\(run)")
        #expect(run.combined.contains("no base branch is known in this CI job, so no quarantine excuses a failure"), "\(run)")
        // On the developer's machine the file is theirs.
        #expect(try prepush(repo, ["run", "--base", "HEAD"]).status == 0)
    }

    /// The catalog's gate is policy too: a P1 scenario the pull request makes manual, lowers or
    /// deletes still refuses in CI, and every report says what the change tried.
    @Test func aP1ScenarioThePullRequestLoosensStillRefusesInCI() throws {
        let scenario = "scenarios:\n  - story: US1\n    priority: P1\n    description: Sign in\n    test: testBroken\n"
        let naming = "traceability:\n  testNamePattern: \"test[A-Z].*\"\n"
        let repo = try repository(Self.broken + naming, files: [".prepush/scenarios.yml": scenario])
        try repo.git("update-ref", "refs/remotes/origin/main", "main")
        try repo.git("checkout", "--quiet", "-b", "feature")
        let ci = ["GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "main"]
        for (loosened, said) in [(scenario + "    manual: true\n", "P1 'Sign in' (US1) made manual"),
                                 (scenario.replacingOccurrences(of: "P1", with: "P3"), "P1 'Sign in' (US1) lowered to P3"),
                                 ("scenarios: []\n", "P1 'Sign in' (US1) deleted")] {
            try repo.write(loosened, to: ".prepush/scenarios.yml")
            try repo.write("cache: false\nstages:\n  lint:\n    run: \"true\"\n" + naming, to: ".prepush.yml")
            try repo.commitAll("loosen the gate")
            let run = try prepush(repo, ["run"], ci)
            #expect(run.status == 1, "\(loosened): \(run)")
            #expect(run.combined.contains("traceability: this change loosens the gate, which is not honoured in CI until it is merged"), "\(run)")
            #expect(run.combined.contains(said), "\(run)")
            #expect(repo.root.read("work/.prepush/reports/traceability.md")?.contains(said) == true)
        }
        // On the developer's machine the change is theirs to make.
        #expect(try prepush(repo, ["run", "--base", "HEAD"]).status == 0)
    }
}
