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
package enum PullRequestComment {
    /// GitHub's longest comment body, in characters; a longer report is cut with a note.
    static let bodyLimit = 65_000

    /// Why no comment was made.
    package struct Problem: Error, CustomStringConvertible {
        package let description: String
        /// GitHub answered and refused (exit 1), rather than the job giving nothing to post to (exit 2).
        package var refusedByGitHub = false
    }

    /// What a pull request's event file says of it.
    struct Event: Decodable {
        struct PullRequest: Decodable { let number: Int }
        let pull_request: PullRequest?
        let number: Int?
    }

    /// A comment as the API lists it: its author decides whether it is this job's to update.
    struct Listed: Decodable {
        struct Author: Decodable { let login: String? }
        let id: Int
        let body: String?
        let user: Author?
    }

    /// The token's own identity as `GET /user` answers it.
    struct Identity: Decodable { let login: String }

    /// The login GitHub gives comments written with a workflow's `GITHUB_TOKEN`, which cannot ask `GET /user`.
    static let actionsBot = "github-actions[bot]"

    /// At most this many pages of comments are read (100 each): a pull request's 10,000th comment.
    static let pageLimit = 100

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
        guard let repository = environment["GITHUB_REPOSITORY"], repository.contains("/"),
              repository.allSatisfy({ $0.isLetter || $0.isNumber || "-_./".contains($0) }), !repository.contains("..") else {
            return .failure(Problem(description: "GITHUB_REPOSITORY is not set: prepush comment runs in a GitHub Actions job"))
        }
        guard let path = environment["GITHUB_EVENT_PATH"], case .success(let bytes) = FileReading.read(path, limit: 16 * 1024 * 1024),
              let event = try? JSONDecoder().decode(Event.self, from: Data(bytes)), let number = event.pull_request?.number ?? event.number else {
            return .failure(Problem(description: "the event (GITHUB_EVENT_PATH) is not a pull request's: there is nothing to comment on"))
        }
        guard let token = environment["GITHUB_TOKEN"], !token.isEmpty, !token.contains(where: { $0.isNewline }) else {
            return .failure(Problem(description: "GITHUB_TOKEN is not set: give it to the step (env: GITHUB_TOKEN: ${{ github.token }}) with pull-requests: write"))
        }
        let api = environment["GITHUB_API_URL"] ?? "https://api.github.com"
        guard isAcceptedAPI(api) else {
            return .failure(Problem(description: "GITHUB_API_URL \(api) is not an https URL: the token goes to GitHub's API only"))
        }
        let job = [environment["GITHUB_WORKFLOW"], environment["GITHUB_JOB"]].compactMap { $0 }.joined(separator: " / ")
        let marker = "<!-- prepush:comment \(job.replacing("--", with: "- -").filter { !$0.isNewline }) -->"
        return .success(Target(api: api.hasSuffix("/") ? String(api.dropLast()) : api, repository: repository,
                               number: number, token: token, marker: marker))
    }

    /// An API base the token may go to: https, or plain http on the loopback (a local stand-in).
    static func isAcceptedAPI(_ url: String) -> Bool {
        if url.hasPrefix("https://") { return url.count > 8 && !url.contains("@") && !url.contains(where: { $0.isWhitespace }) }
        return ["http://127.0.0.1:", "http://localhost:", "http://[::1]:"].contains { url.hasPrefix($0) }
    }

    /// Posts `markdown` (the job's report) as the job's comment, or updates the job's own comment
    /// (one this token's identity wrote, with the job's marker); returns the line to say. `keep`
    /// keeps the body for a follow-up when GitHub refuses it, and says where.
    package static func post(_ markdown: String, environment: [String: String], keep: (String) -> String) -> Result<String, Problem> {
        let target: Target
        switch Self.target(environment: environment) {
        case .success(let found): target = found
        case .failure(let problem): return .failure(problem)
        }
        var text = markdown
        if text.count > bodyLimit { text = String(text.prefix(bodyLimit)) + "\n\n> cut here: a comment holds 65,536 characters; the whole report is in the job's reports.\n" }
        let body = target.marker + "\n" + text
        let client = Client(api: target.api, token: target.token)
        let comments = "\(target.api)/repos/\(target.repository)/issues/\(target.number)/comments"
        do {
            let own = try ownComment(target: target, client: client, comments: comments)
            let existing: Int
            switch own {
            case .failure(let response): return fallback(response, body: body, keep: keep)
            case .success(let found): existing = found ?? -1
            }
            let payload = try JSONEncoder().encode(["body": body])
            if existing >= 0 {
                let sent = try client.request("PATCH", "\(target.api)/repos/\(target.repository)/issues/comments/\(existing)", body: payload)
                if sent.status == 200 { return .success("prepush: updated its comment on pull request #\(target.number)") }
                // Its comment was deleted since it was listed: a new one.
                guard sent.status == 404 else { return fallback(sent, body: body, keep: keep) }
            }
            let sent = try client.request("POST", comments, body: payload)
            guard sent.status == 201 || sent.status == 200 else { return fallback(sent, body: body, keep: keep) }
            return .success("prepush: commented on pull request #\(target.number)")
        } catch {
            return .failure(Problem(description: "the comment was not sent: \(error)"))
        }
    }

    /// The id of the comment this job wrote before (its marker, and written by this token's
    /// identity: a comment anyone else starts with the marker is not adopted), reading every page;
    /// nil when there is none; the response when the listing was refused.
    static func ownComment(target: Target, client: Client, comments: String) throws -> Result<Int?, Response> {
        let me = try client.request("GET", "\(target.api)/user", body: nil)
        let login = me.status == 200 ? (try? JSONDecoder().decode(Identity.self, from: Data(me.body)))?.login ?? actionsBot : actionsBot
        var url: String? = comments + "?per_page=100"
        var pages = 0
        while let next = url, pages < pageLimit {
            let listed = try client.request("GET", next, body: nil)
            guard listed.status == 200 else { return .failure(listed) }
            let page = (try? JSONDecoder().decode([Listed].self, from: Data(listed.body))) ?? []
            if let own = page.first(where: { $0.body?.hasPrefix(target.marker) == true && $0.user?.login == login }) { return .success(own.id) }
            url = listed.next.flatMap { $0.hasPrefix(target.api + "/") ? $0 : nil }
            pages += 1
        }
        return .success(nil)
    }

    /// A refused request: a read-only token (a fork's pull request) or a rate limit. The body is kept
    /// for a follow-up workflow, and the step does not fail for a comment; the line says it was not posted.
    static func fallback(_ response: Response, body: String, keep: (String) -> String) -> Result<String, Problem> {
        let place = keep(body)
        switch response.status {
        case 403 where response.rateLimited, 429:
            return .success("prepush: note: GitHub's rate limit refused the comment (HTTP \(response.status)); it was not posted; \(place)")
        case 401, 403, 404:
            return .success("prepush: note: the token cannot comment here (HTTP \(response.status): a fork's pull request gets a read-only token); it was not posted; \(place): "
                            + "upload it as an artifact and post it from a workflow_run workflow (docs/ci.md)")
        default:
            return .failure(Problem(description: "GitHub answered HTTP \(response.status) to the comment; it was not posted; \(place)", refusedByGitHub: true))
        }
    }

    struct Response: Error {
        let status: Int
        let body: [UInt8]
        let rateLimited: Bool
        /// The `Link` header's `rel="next"` page, if any.
        let next: String?
    }

    struct CurlFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// Requests to GitHub's API through curl, the token only ever towards `api`.
    struct Client {
        let api: String
        let token: String

        /// One request. curl reads no configuration of the user's (`-q` first, `HOME` a private
        /// folder, nothing else of the job's environment but `PATH`: a stage of the pull request
        /// ran in this job and could have written `~/.curlrc` or exported `CURL_HOME`), and the
        /// token goes in a header file only this user can read, never on a command line another
        /// process could list.
        func request(_ method: String, _ url: String, body: Data?) throws -> Response {
            guard url.hasPrefix(api + "/") else { throw CurlFailed(description: "refused to send the token to \(url), outside \(api)") }
            var template = Array(FilePath.join("/tmp", "prepush-comment-XXXXXX").utf8CString)
            guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
                throw CurlFailed(description: "cannot make a private folder: \(String(cString: strerror(errno)))")
            }
            let folder = String(cString: made)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let headers = FilePath.join(folder, "headers"), dumped = FilePath.join(folder, "response-headers")
            try AtomicFile.write("Authorization: Bearer \(token)\nAccept: application/vnd.github+json\nX-GitHub-Api-Version: 2022-11-28\n"
                                 + "User-Agent: prepush\nContent-Type: application/json\n", to: headers, permissions: 0o600)
            var arguments = ["-q", "-sS", "--proto", "=https,http", "--max-redirs", "0", "--max-time", "30", "-X", method,
                             "-H", "@" + headers, "-D", dumped, "-o", "-", "-w", "\n%{http_code}"]
            if let body {
                let file = FilePath.join(folder, "body")
                try AtomicFile.write([UInt8](body), to: file, permissions: 0o600)
                arguments += ["--data-binary", "@" + file]
            }
            let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": folder]
            let ran = try CommandOutput.run(ProcessSpec(executable: "curl", arguments: arguments + ["--", url], environment: environment),
                                            timeout: 60, outputLimit: 32 * 1024 * 1024)
            guard let newline = ran.standardOutput.lastIndex(of: 10), let status = Int(String(decoding: ran.standardOutput[(newline + 1)...], as: UTF8.self)),
                  status > 0 else {
                let said = String(decoding: ran.standardError, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "no answer"
                throw CurlFailed(description: "curl failed: \(said)")
            }
            let responseHeaders = (try? String(contentsOfFile: dumped, encoding: .utf8)) ?? ""
            return Response(status: status, body: Array(ran.standardOutput[..<newline]),
                            rateLimited: responseHeaders.lowercased().contains("x-ratelimit-remaining: 0"), next: Self.nextPage(responseHeaders))
        }

        /// The `rel="next"` URL of a `Link` header: `<https://…?page=2>; rel="next", <…>; rel="last"`.
        static func nextPage(_ headers: String) -> String? {
            for line in headers.split(whereSeparator: \.isNewline) where line.lowercased().hasPrefix("link:") {
                for part in line.dropFirst(5).split(separator: ",") where part.contains("rel=\"next\"") {
                    guard let open = part.firstIndex(of: "<"), let close = part.firstIndex(of: ">"), open < close else { continue }
                    return String(part[part.index(after: open)..<close])
                }
            }
            return nil
        }
    }
}
