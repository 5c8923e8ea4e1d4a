#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushGit

/// The revision whose policy a CI run trusts: what can make CI green (quarantine, the catalog's
/// gate) comes from it, and what the change adds is said and not honoured. Chosen per event kind,
/// always as a full reference name or an object id, never a short name git could resolve to a tag
/// the pull request pushed (`origin/main` the tag beats `refs/remotes/origin/main` in git's rules).
struct TrustedBase: Equatable {
    /// What the policy is read from.
    enum Source: Equatable {
        /// A full reference name or a full object id.
        case revision(String)
        /// The run tests the default branch itself (a push to it): its own files are the policy.
        case ownHead
        /// CI with no base to be found: no entry of the change's files is honoured.
        case none
    }

    let source: Source
    /// How the base was chosen, for the messages (`refs/remotes/origin/main, the pull request's base`).
    let said: String

    /// The trusted base of a run, or nil outside CI (the developer's own files are theirs).
    /// `given` is the job's `--base`.
    static func resolve(given: String?, environment: [String: String], repository: Repository) -> TrustedBase? {
        guard ConfigurationResolver.runsInCI(environment) else { return nil }
        if let given { return TrustedBase(source: .revision(fullName(given, in: repository)), said: fullName(given, in: repository)) }
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let event = value("GITHUB_ACTIONS") == "true" ? GitHubEvent.read(value("GITHUB_EVENT_PATH")) : nil
        let defaultBranch = event?.repository?.defaultBranch ?? value("CI_DEFAULT_BRANCH")
            ?? repository.symbolicTarget("refs/remotes/origin/HEAD").map { String($0.dropFirst("refs/remotes/origin/".count)) }
        func remote(_ branch: String, _ why: String) -> TrustedBase {
            TrustedBase(source: .revision("refs/remotes/origin/\(branch)"), said: "refs/remotes/origin/\(branch), \(why)")
        }
        /// A push to `branch`: the default branch is its own policy; another branch's is where it left the default one.
        func pushed(_ branch: String?) -> TrustedBase? {
            guard let defaultBranch else { return nil }
            if branch == defaultBranch { return TrustedBase(source: .ownHead, said: "the default branch \(defaultBranch) itself") }
            guard let base = try? repository.mergeBase(of: "HEAD", and: "refs/remotes/origin/\(defaultBranch)") else { return nil }
            return TrustedBase(source: .revision(base), said: "\(base.prefix(12)), where this branch left \(defaultBranch)")
        }
        var found: TrustedBase?
        if value("GITHUB_ACTIONS") == "true" {
            let kind = value("GITHUB_EVENT_NAME") ?? ""
            if kind.hasPrefix("pull_request"), let base = value("GITHUB_BASE_REF") {
                found = remote(base, "the pull request's base")
            } else if kind == "merge_group", let sha = event?.mergeGroup?.baseSHA, isObjectID(sha) {
                found = TrustedBase(source: .revision(sha), said: "\(sha.prefix(12)), the merge group's base")
            } else if kind == "push" {
                let ref = value("GITHUB_REF") ?? ""
                found = pushed(ref.hasPrefix("refs/heads/") ? String(ref.dropFirst(11)) : nil)
            } else if let defaultBranch {
                found = remote(defaultBranch, "the default branch (\(kind.isEmpty ? "no event" : kind))")
            }
        } else if value("GITLAB_CI") == "true" {
            if let target = value("CI_MERGE_REQUEST_TARGET_BRANCH_NAME") {
                found = remote(target, "the merge request's target")
            } else {
                found = pushed(value("CI_COMMIT_BRANCH"))
            }
        } else if value("JENKINS_URL") != nil, let target = value("CHANGE_TARGET") {
            found = remote(target, "the change's target")
        }
        if found == nil, let defaultBranch { found = remote(defaultBranch, "the default branch") }
        if let found, case .revision(let revision) = found.source, !exists(revision, in: repository) {
            return TrustedBase(source: .none, said: "\(revision) is not in this clone (fetch it: actions/checkout with fetch-depth: 0)")
        }
        return found ?? TrustedBase(source: .none, said: "no base branch is known in this CI job")
    }

    /// A job's `--base` as a full name: an object id or `refs/…` as it is; else the first of
    /// `refs/heads/X`, `refs/remotes/X`, `refs/remotes/origin/X` that exists; else as given.
    static func fullName(_ name: String, in repository: Repository) -> String {
        if name.hasPrefix("refs/") || isObjectID(name) { return name }
        return ["refs/heads/\(name)", "refs/remotes/\(name)", "refs/remotes/origin/\(name)"].first(where: repository.hasReference) ?? name
    }

    static func isObjectID(_ text: String) -> Bool {
        (text.count == 40 || text.count == 64) && text.allSatisfy(\.isHexDigit)
    }

    static func exists(_ revision: String, in repository: Repository) -> Bool {
        (try? repository.commitID(revision)) != nil
    }

    /// The bytes of the repository file at `path` (root-relative) in the base: `.success(nil)` when
    /// the base has no such file, or when there is no base to read from (`.none`).
    func contents(of path: String, in repository: Repository) -> [UInt8]? {
        guard case .revision(let revision) = source else { return nil }
        return try? repository.contents(of: path, at: revision)
    }

    /// What a GitHub event file says of the repository and a merge group.
    struct GitHubEvent: Decodable {
        struct Repository: Decodable {
            let defaultBranch: String?
            enum CodingKeys: String, CodingKey { case defaultBranch = "default_branch" }
        }
        struct MergeGroup: Decodable {
            let baseSHA: String?
            enum CodingKeys: String, CodingKey { case baseSHA = "base_sha" }
        }
        let repository: Repository?
        let mergeGroup: MergeGroup?
        enum CodingKeys: String, CodingKey {
            case repository
            case mergeGroup = "merge_group"
        }

        static func read(_ path: String?) -> GitHubEvent? {
            guard let path, case .success(let bytes) = FileReading.read(path, limit: 16 * 1024 * 1024) else { return nil }
            return try? JSONDecoder().decode(GitHubEvent.self, from: Data(bytes))
        }
    }
}
