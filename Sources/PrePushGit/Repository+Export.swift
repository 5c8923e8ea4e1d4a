internal import CGit2
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

extension Repository {
    /// The commit a revision names (`HEAD`, a branch, an object id), as 40 or 64 hex digits.
    package func commitID(_ revision: String) throws(GitError) -> String {
        let commit = try peel(revision, to: GIT_OBJECT_COMMIT)
        defer { git_object_free(commit) }
        guard let id = git_object_id(commit), let text = git_oid_tostr_s(id) else {
            throw .libgit2(function: "git_oid_tostr_s", code: -1, message: "no object id")
        }
        return String(cString: text)
    }

    /// The object a revision names, peeled to `type` (a commit, a tree). The caller frees it with
    /// `git_object_free`.
    func peel(_ revision: String, to type: git_object_t) throws(GitError) -> OpaquePointer {
        var object: OpaquePointer?
        try check(git_revparse_single(&object, handle, revision), "git_revparse_single(\(revision))")
        defer { git_object_free(object) }
        var peeled: OpaquePointer?
        try check(git_object_peel(&peeled, object, type), "git_object_peel")
        guard let peeled else { throw .libgit2(function: "git_object_peel", code: -1, message: "\(revision) has no such object") }
        return peeled
    }

    /// Writes the tree of `commit` into `folder` (created if needed) without touching the
    /// repository's index or working tree: what is tested is exactly what is pushed, with no
    /// uncommitted changes and no untracked files.
    package func exportTree(of commit: String, to folder: String) throws(GitError) {
        let tree = try peel(commit, to: GIT_OBJECT_TREE)
        defer { git_object_free(tree) }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .libgit2(function: "mkdir", code: -1, message: "cannot create \(folder): \(error)")
        }
        var options = git_checkout_options()
        try check(git_checkout_options_init(&options, UInt32(GIT_CHECKOUT_OPTIONS_VERSION)), "git_checkout_options_init")
        options.checkout_strategy = GIT_CHECKOUT_FORCE.rawValue | GIT_CHECKOUT_DONT_UPDATE_INDEX.rawValue
        let code: Int32 = folder.withCString { path in
            options.target_directory = path
            return git_checkout_tree(handle, tree, &options)
        }
        try check(code, "git_checkout_tree")
    }

    /// Whether the working tree differs from `commit`: another HEAD, changed or untracked files.
    package func workingTreeDiffers(from commit: String) throws(GitError) -> Bool {
        try !workingTreeDifferences(from: commit, limit: 1).isEmpty
    }

    /// How the working tree differs from `commit`, at most `limit` entries: `untracked: a.txt`,
    /// `changed: b.swift`, or `HEAD is not the commit`. Empty when it matches.
    package func workingTreeDifferences(from commit: String, limit: Int = 3) throws(GitError) -> [String] {
        guard !isBare else { return [] }
        if try commitID("HEAD") != commitID(commit) { return ["HEAD is not \(commit.prefix(12))"] }
        var options = git_status_options()
        try check(git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)), "git_status_options_init")
        options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        options.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED.rawValue | GIT_STATUS_OPT_EXCLUDE_SUBMODULES.rawValue
        var list: OpaquePointer?
        try check(git_status_list_new(&list, handle, &options), "git_status_list_new")
        defer { git_status_list_free(list) }
        var found: [String] = []
        for index in 0..<min(git_status_list_entrycount(list), limit) {
            guard let entry = git_status_byindex(list, index)?.pointee else { continue }
            let delta = entry.index_to_workdir ?? entry.head_to_index
            let path = delta.flatMap { $0.pointee.new_file.path ?? $0.pointee.old_file.path }.map { String(cString: $0) } ?? "?"
            found.append((entry.status.rawValue & GIT_STATUS_WT_NEW.rawValue != 0 ? "untracked: " : "changed: ") + path)
        }
        return found
    }
}

extension Repository {
    /// Whether the full reference name (`refs/remotes/origin/main`) exists; never a short name's
    /// guess (a tag named `origin/main` is not `refs/remotes/origin/main`).
    package func hasReference(_ fullName: String) -> Bool {
        var reference: OpaquePointer?
        guard fullName.hasPrefix("refs/"), git_reference_lookup(&reference, handle, fullName) == 0 else { return false }
        git_reference_free(reference)
        return true
    }

    /// The target of a symbolic reference (`refs/remotes/origin/HEAD` → `refs/remotes/origin/main`), or nil.
    package func symbolicTarget(_ fullName: String) -> String? {
        var reference: OpaquePointer?
        guard git_reference_lookup(&reference, handle, fullName) == 0, let reference else { return nil }
        defer { git_reference_free(reference) }
        guard git_reference_type(reference) == GIT_REFERENCE_SYMBOLIC, let target = git_reference_symbolic_target(reference) else { return nil }
        return String(cString: target)
    }

    /// The best common ancestor of two commits (full object names or full reference names).
    package func mergeBase(of one: String, and two: String) throws(GitError) -> String {
        try mergeBase(commitID(one), commitID(two))
    }
}
