internal import CGit2
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Repository {
    /// The id of the tree a revision's commit records: two commits with the same content (a rebase
    /// that lands on an identical tree, a tag on a verified commit) share it.
    package func treeID(of revision: String) throws(GitError) -> String {
        let tree = try peel(revision, to: GIT_OBJECT_TREE)
        defer { git_object_free(tree) }
        guard let id = git_object_id(tree), let text = git_oid_tostr_s(id) else {
            throw .libgit2(function: "git_oid_tostr_s", code: -1, message: "no object id")
        }
        return String(cString: text)
    }

    /// The git folder shared by all worktrees (`.git` of the main worktree): what prepush keeps
    /// about the repository, rather than about one checkout, lives here.
    package var commonDirectory: String {
        let path = String(cString: git_repository_commondir(handle))
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// git's object hash of `bytes` (as a blob): a content hash with no dependency beyond libgit2.
    package static func contentHash(_ bytes: [UInt8]) -> String {
        GitLibrary.initialize()
        var id = git_oid()
        let code = bytes.withUnsafeBytes { git_odb_hash(&id, $0.baseAddress, $0.count, GIT_OBJECT_BLOB) }
        guard code == 0, let text = git_oid_tostr_s(&id) else { return "" }
        return String(cString: text)
    }
}
