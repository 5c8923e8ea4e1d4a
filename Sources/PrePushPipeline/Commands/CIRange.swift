#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The range a CI job checks, read from the CI system's environment: what `prepush a11y` checks
/// when it is given no files, range or `--all`.
package struct CIRange: Sendable, Equatable {
    /// The revision the range starts from.
    package let base: String
    /// The revision it ends at.
    package let head: String
    /// Where it came from, for the log.
    package let origin: String

    /// Creates a range.
    package init(base: String, head: String, origin: String) {
        self.base = base
        self.head = head
        self.origin = origin
    }

    /// GitHub Actions (a pull request's base branch; a push's `before`), GitLab CI (a merge
    /// request's target branch; a push's `CI_COMMIT_BEFORE_SHA`) and Jenkins (a pull request's
    /// `CHANGE_TARGET`). Nil when none of them says.
    package static func detect(environment: [String: String]) -> CIRange? {
        func value(_ name: String) -> String? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            return text
        }
        if environment["GITHUB_ACTIONS"] == "true" {
            let event = value("GITHUB_EVENT_NAME") ?? ""
            if event.hasPrefix("pull_request"), let base = value("GITHUB_BASE_REF") {
                return CIRange(base: "refs/remotes/origin/\(base)", head: "HEAD", origin: "GitHub \(event) into \(base)")
            }
            if event == "push", let path = value("GITHUB_EVENT_PATH"), let before = pushBefore(eventFile: path) {
                if !isZero(before) { return CIRange(base: before, head: "HEAD", origin: "GitHub push since \(before.prefix(12))") }
                if let branch = defaultBranch(eventFile: path) {
                    return CIRange(base: "refs/remotes/origin/\(branch)", head: "HEAD", origin: "GitHub push of a new branch, from \(branch)")
                }
            }
            return nil
        }
        if environment["GITLAB_CI"] == "true" {
            if let target = value("CI_MERGE_REQUEST_TARGET_BRANCH_NAME") {
                return CIRange(base: "refs/remotes/origin/\(target)", head: "HEAD", origin: "GitLab merge request into \(target)")
            }
            if let before = value("CI_COMMIT_BEFORE_SHA"), !isZero(before) {
                return CIRange(base: before, head: "HEAD", origin: "GitLab push since \(before.prefix(12))")
            }
            if let branch = value("CI_DEFAULT_BRANCH") {
                return CIRange(base: "refs/remotes/origin/\(branch)", head: "HEAD", origin: "GitLab push of a new branch, from \(branch)")
            }
            return nil
        }
        if value("JENKINS_URL") != nil, let target = value("CHANGE_TARGET") {
            return CIRange(base: "refs/remotes/origin/\(target)", head: "HEAD", origin: "Jenkins change into \(target)")
        }
        return nil
    }

    static func isZero(_ id: String) -> Bool { id.allSatisfy { $0 == "0" } }

    struct PushEvent: Decodable {
        struct Repository: Decodable {
            let defaultBranch: String?
            enum CodingKeys: String, CodingKey { case defaultBranch = "default_branch" }
        }
        let before: String?
        let repository: Repository?
    }

    static func event(_ path: String) -> PushEvent? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(PushEvent.self, from: data)
    }

    static func pushBefore(eventFile: String) -> String? { event(eventFile)?.before }
    static func defaultBranch(eventFile: String) -> String? { event(eventFile)?.repository?.defaultBranch }
}
