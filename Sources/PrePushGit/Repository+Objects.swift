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

    /// The paths of `base`'s tree that `selecting` keeps and that `head`'s tree no longer holds as
    /// they were (modified, deleted, moved or retyped), in path order: what a push takes away from
    /// those files is read at `base`. Only subtrees that differ are visited and renames are not looked
    /// for, so the cost follows the change, not the repository, and no content is loaded. `deleted`:
    /// `head` has no file at the path (deleted, or moved: renames are not looked for).
    package func changedOrDeletedFiles(from base: String, to head: String, selecting: (String) -> Bool) throws(GitError) -> [(path: String, deleted: Bool)] {
        let diff = try treeDiff(from: base, to: head, finding: nil)
        defer { git_diff_free(diff) }
        var paths: [(path: String, deleted: Bool)] = []
        for index in 0..<git_diff_num_deltas(diff) {
            guard let delta = git_diff_get_delta(diff, index), delta.pointee.status != GIT_DELTA_ADDED,
                  let old = delta.pointee.old_file.path else { continue }
            let path = String(cString: old)
            if selecting(path) { paths.append((path, delta.pointee.status == GIT_DELTA_DELETED)) }
        }
        return paths
    }

    /// The regular files of `commit`'s tree whose path `selecting` keeps, each with its blob id
    /// (40 or 64 hex digits), in the tree's order: what the push holds, whatever the working tree
    /// does. Symbolic links and submodules are left out: a link's blob is a path, never followed.
    package func files(at commit: String, selecting: (String) -> Bool) throws(GitError) -> [(path: String, blob: String)] {
        let tree = try peel(commit, to: GIT_OBJECT_TREE)
        defer { git_object_free(tree) }
        var found: [(path: String, blob: String)] = []
        try collectFiles(tree, prefix: "", selecting: selecting, into: &found)
        return found
    }

    private func collectFiles(_ tree: OpaquePointer, prefix: String, selecting: (String) -> Bool,
                              into found: inout [(path: String, blob: String)]) throws(GitError) {
        for index in 0..<git_tree_entrycount(tree) {
            guard let entry = git_tree_entry_byindex(tree, index), let name = git_tree_entry_name(entry),
                  let id = git_tree_entry_id(entry) else { continue }
            let path = prefix + String(cString: name)
            let mode = git_tree_entry_filemode(entry)
            if mode == GIT_FILEMODE_TREE {
                var subtree: OpaquePointer?
                try check(git_tree_lookup(&subtree, handle, id), "git_tree_lookup(\(path))")
                defer { git_tree_free(subtree) }
                guard let subtree else { continue }
                try collectFiles(subtree, prefix: path + "/", selecting: selecting, into: &found)
            } else if mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE, selecting(path),
                      let text = git_oid_tostr_s(id) {
                found.append((path, String(cString: text)))
            }
        }
    }
}
