import Foundation
import PrePushTestSupport
import Testing

/// `prepush comment` against a local stand-in for GitHub's REST API (Tests/Fixtures/github-api):
/// one comment per workflow and job, created and then updated, never duplicated; a fork's read-only
/// token and a rate limit keep the body in a file without failing the step.
@Suite(.serialized, .timeLimit(.minutes(2))) struct CommentTests {
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

    /// A repository with a report, and the environment of a pull request's job.
    static func job(api: String) throws -> (GitRepository, [String: String]) {
        let repo = try GitRepository(prefix: "prepush-comment")
        try repo.root.write("## ✅ Tests passed\n\n| tests | passed |\n| ---: | ---: |\n| 3 | 3 |\n", to: "work/.prepush/reports/results.md")
        let event = try repo.root.write(#"{"action": "synchronize", "number": 7, "pull_request": {"number": 7}}"#, to: "event.json")
        var environment = repo.environment
        environment["GITHUB_ACTIONS"] = "true"
        environment["GITHUB_REPOSITORY"] = "o/r"
        environment["GITHUB_API_URL"] = api
        environment["GITHUB_EVENT_PATH"] = event
        environment["GITHUB_TOKEN"] = "secret-token"
        environment["GITHUB_WORKFLOW"] = "CI"
        environment["GITHUB_JOB"] = "tests"
        return (repo, environment)
    }

    static func state(_ api: String) throws -> [[String: Any]] {
        let listed = try Command.run("curl", ["-sS", api + "/state"], environment: ProcessInfo.processInfo.environment)
        return try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]], "\(listed)")
    }

    @Test func theJobsCommentIsCreatedThenUpdatedNeverDuplicated() throws {
        let (server, api) = try Self.standIn("ok")
        defer { server.send(SIGKILL); _ = server.wait() }
        let (repo, environment) = try Self.job(api: api)
        let first = try PrepushBinary.run(["comment"], in: repo.path, environment: environment)
        #expect(first.status == 0 && first.standardOutput == "prepush: commented on pull request #7\n", "\(first)")
        try repo.root.write("## ❌ 1 of 3 tests failed\n", to: "work/.prepush/reports/results.md")
        let second = try PrepushBinary.run(["comment"], in: repo.path, environment: environment)
        #expect(second.status == 0 && second.standardOutput == "prepush: updated its comment on pull request #7\n", "\(second)")
        let comments = try Self.state(api)
        #expect(comments.count == 1)
        #expect((comments.first?["body"] as? String) == "<!-- prepush:comment CI / tests -->\n## ❌ 1 of 3 tests failed\n")
        // Another job of the workflow has its own comment.
        var other = environment
        other["GITHUB_JOB"] = "ui"
        #expect(try PrepushBinary.run(["comment"], in: repo.path, environment: other).standardOutput == "prepush: commented on pull request #7\n")
        #expect(try Self.state(api).count == 2)
    }

    @Test func aForksReadOnlyTokenKeepsTheBodyForAFollowUpAndTheStepPasses() throws {
        let (server, api) = try Self.standIn("fork")
        defer { server.send(SIGKILL); _ = server.wait() }
        let (repo, environment) = try Self.job(api: api)
        let run = try PrepushBinary.run(["comment"], in: repo.path, environment: environment)
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.hasPrefix("prepush: note: the token cannot comment here (HTTP 403: a fork's pull request gets a read-only token); its body is in .prepush/reports/comment.md"), "\(run)")
        #expect(repo.root.read("work/.prepush/reports/comment.md")?.hasPrefix("<!-- prepush:comment CI / tests -->\n## ✅ Tests passed") == true)
        #expect(try Self.state(api).isEmpty)
    }

    @Test func aRateLimitIsSaidAndTheStepPasses() throws {
        let (server, api) = try Self.standIn("ratelimit")
        defer { server.send(SIGKILL); _ = server.wait() }
        let (repo, environment) = try Self.job(api: api)
        let run = try PrepushBinary.run(["comment"], in: repo.path, environment: environment)
        #expect(run.status == 0 && run.standardOutput.hasPrefix("prepush: note: GitHub's rate limit refused the comment (HTTP 403)"), "\(run)")
    }

    @Test func outsideAPullRequestsJobThereIsNothingToCommentOn() throws {
        let (repo, environment) = try Self.job(api: "http://127.0.0.1:9")
        var push = environment
        push["GITHUB_EVENT_PATH"] = try repo.root.write(#"{"ref": "refs/heads/main"}"#, to: "push.json")
        let run = try PrepushBinary.run(["comment"], in: repo.path, environment: push)
        #expect(run.status == 2 && run.standardError.contains("is not a pull request's"), "\(run)")
        var noToken = environment
        noToken["GITHUB_TOKEN"] = nil
        let tokenless = try PrepushBinary.run(["comment"], in: repo.path, environment: noToken)
        #expect(tokenless.status == 2 && tokenless.standardError.contains("GITHUB_TOKEN is not set"), "\(tokenless)")
    }
}
