#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushRunner

/// `prepush comment`: one pull-request comment per workflow and job, created the first time and
/// updated after (found by a hidden marker, never duplicated), through GitHub's REST API with
/// `GITHUB_TOKEN`. The requests go through `curl`, which every hosted runner has: the binary links
/// no HTTP or TLS stack (the hook's start-up stays free of it). On a fork the token is read-only:
/// the body is written to a file for a `workflow_run` follow-up to post, and the step does not fail.
public enum PullRequestComment {
    /// GitHub's longest comment body, in characters; a longer report is cut with a note.
    static let bodyLimit = 65_000

    /// Why no comment was made.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// What a pull request's event file says of it.
    struct Event: Decodable {
        struct PullRequest: Decodable { let number: Int }
        let pull_request: PullRequest?
        let number: Int?
    }

    /// A comment as the API lists it.
    struct Listed: Decodable {
        let id: Int
        let body: String?
    }

    /// Where the comment goes, from the GitHub Actions environment.
    struct Target {
        let api: String
        let repository: String
        let number: Int
        let token: String
        let marker: String
    }

    /// The target of this job's comment, or why there is none.
    static func target(environment: [String: String]) -> Result<Target, Problem> {
        guard let repository = environment["GITHUB_REPOSITORY"], repository.contains("/") else {
            return .failure(Problem(description: "GITHUB_REPOSITORY is not set: prepush comment runs in a GitHub Actions job"))
        }
        guard let path = environment["GITHUB_EVENT_PATH"], case .success(let bytes) = FileReading.read(path, limit: 16 * 1024 * 1024),
              let event = try? JSONDecoder().decode(Event.self, from: Data(bytes)), let number = event.pull_request?.number ?? event.number else {
            return .failure(Problem(description: "the event (GITHUB_EVENT_PATH) is not a pull request's: there is nothing to comment on"))
        }
        guard let token = environment["GITHUB_TOKEN"], !token.isEmpty else {
            return .failure(Problem(description: "GITHUB_TOKEN is not set: give it to the step (env: GITHUB_TOKEN: ${{ github.token }}) with pull-requests: write"))
        }
        let job = [environment["GITHUB_WORKFLOW"], environment["GITHUB_JOB"]].compactMap { $0 }.joined(separator: " / ")
        let marker = "<!-- prepush:comment \(job.replacing("--", with: "- -")) -->"
        return .success(Target(api: environment["GITHUB_API_URL"] ?? "https://api.github.com", repository: repository,
                               number: number, token: token, marker: marker))
    }

    /// Posts `markdown` (the job's report) as the job's comment, or updates it; returns the lines to say.
    public static func post(_ markdown: String, environment: [String: String], fallbackFile: String) -> Result<String, Problem> {
        let target: Target
        switch Self.target(environment: environment) {
        case .success(let found): target = found
        case .failure(let problem): return .failure(problem)
        }
        var text = markdown
        if text.count > bodyLimit { text = String(text.prefix(bodyLimit)) + "\n\n> cut here: a comment holds 65,536 characters; the whole report is in the job's reports.\n" }
        let body = target.marker + "\n" + text
        let comments = "\(target.api)/repos/\(target.repository)/issues/\(target.number)/comments"
        do {
            let listed = try request("GET", comments + "?per_page=100", body: nil, token: target.token)
            guard listed.status == 200 else { return fallback(listed, body: body, file: fallbackFile) }
            let existing = (try? JSONDecoder().decode([Listed].self, from: Data(listed.body)))?
                .first { $0.body?.hasPrefix(target.marker) == true }?.id
            let payload = try JSONEncoder().encode(["body": body])
            let sent = try existing.map { try request("PATCH", "\(target.api)/repos/\(target.repository)/issues/comments/\($0)", body: payload, token: target.token) }
                ?? request("POST", comments, body: payload, token: target.token)
            guard sent.status == 200 || sent.status == 201 else { return fallback(sent, body: body, file: fallbackFile) }
            return .success("prepush: \(existing == nil ? "commented on" : "updated its comment on") pull request #\(target.number)")
        } catch {
            return .failure(Problem(description: "the comment was not sent: \(error)"))
        }
    }

    /// A refused request: a read-only token (a fork's pull request) or a rate limit. The body is kept
    /// for a follow-up workflow, and the step does not fail for a comment.
    static func fallback(_ response: Response, body: String, file: String) -> Result<String, Problem> {
        let kept = (try? AtomicFile.write(body, to: file)) != nil
        let place = kept ? "its body is in \(file)" : "its body could not be written to \(file)"
        switch response.status {
        case 403 where response.rateLimited, 429:
            return .success("prepush: note: GitHub's rate limit refused the comment (HTTP \(response.status)); \(place)")
        case 401, 403, 404:
            return .success("prepush: note: the token cannot comment here (HTTP \(response.status): a fork's pull request gets a read-only token); \(place): "
                            + "upload it as an artifact and post it from a workflow_run workflow (docs/ci.md)")
        default:
            return .failure(Problem(description: "GitHub answered HTTP \(response.status) to the comment; \(place)"))
        }
    }

    struct Response {
        let status: Int
        let body: [UInt8]
        let rateLimited: Bool
    }

    struct CurlFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// One request through curl. The token goes in a header file only this user can read, never on
    /// a command line another process could list.
    static func request(_ method: String, _ url: String, body: Data?, token: String) throws -> Response {
        let folder = FilePath.join(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp", "prepush-comment-\(getpid())")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let headers = FilePath.join(folder, "headers"), dumped = FilePath.join(folder, "response-headers")
        try AtomicFile.write("Authorization: Bearer \(token)\nAccept: application/vnd.github+json\nX-GitHub-Api-Version: 2022-11-28\n"
                             + "User-Agent: prepush\nContent-Type: application/json\n", to: headers, permissions: 0o600)
        var arguments = ["-sS", "--max-time", "30", "-X", method, "-H", "@" + headers, "-D", dumped, "-o", "-", "-w", "\n%{http_code}"]
        if let body {
            let file = FilePath.join(folder, "body")
            try AtomicFile.write([UInt8](body), to: file, permissions: 0o600)
            arguments += ["--data-binary", "@" + file]
        }
        let ran = try CommandOutput.run(ProcessSpec(executable: "curl", arguments: arguments + [url], environment: ProcessInfo.processInfo.environment),
                                        timeout: 60, outputLimit: 32 * 1024 * 1024)
        guard let newline = ran.standardOutput.lastIndex(of: 10), let status = Int(String(decoding: ran.standardOutput[(newline + 1)...], as: UTF8.self)),
              status > 0 else {
            let said = String(decoding: ran.standardError, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "no answer"
            throw CurlFailed(description: "curl failed: \(said)")
        }
        let responseHeaders = (try? String(contentsOfFile: dumped, encoding: .utf8))?.lowercased() ?? ""
        return Response(status: status, body: Array(ran.standardOutput[..<newline]), rateLimited: responseHeaders.contains("x-ratelimit-remaining: 0"))
    }
}
