internal import CGit2
import PrePushCore

/// A file a push adds or changes, with what changed in it on the new side.
package struct ChangedFile: Sendable, Equatable {
    /// How the file changed.
    package enum Change: String, Sendable, Equatable {
        case added, modified, renamed, copied
    }

    /// The path in the pushed commit.
    package let path: String
    /// The path before a rename or copy.
    package let oldPath: String?
    /// How it changed.
    package let change: Change
    /// New-side line numbers (1-based) of added lines, ascending; empty for an added file, whose
    /// every line is new (no diff is computed for it), and when line detail was not asked for.
    package let addedLines: [Int]
    /// Where lines were deleted without replacement, as the new-side line number after which they
    /// were (0: at the top), ascending. Deleting an identifier line leaves its trace here.
    package let removedAfterLines: [Int]
    /// Where modifier lines (lines starting with `.`) were replaced by other lines, as the new-side
    /// line number after which they were: the replaced `.accessibilityIdentifier(…)` of the node that
    /// ends there, when the lines that took its place belong to something else.
    package let replacedModifiersAfterLines: [Int]

    /// Creates a changed file.
    package init(path: String, oldPath: String?, change: Change, addedLines: [Int], removedAfterLines: [Int],
                replacedModifiersAfterLines: [Int] = []) {
        self.path = path
        self.oldPath = oldPath
        self.change = change
        self.addedLines = addedLines
        self.removedAfterLines = removedAfterLines
        self.replacedModifiersAfterLines = replacedModifiersAfterLines
    }

    /// Whether a node spanning lines `start...end` (1-based) touches an addition or a removal. A
    /// removal right after the node's last line counts: that is where a deleted trailing modifier
    /// (`.accessibilityIdentifier(…)`) was.
    package func touches(_ start: Int, _ end: Int) -> Bool {
        if change == .added { return true }
        return addedLines.contains { $0 >= start && $0 <= end } || removedAfterLines.contains { $0 >= start && $0 <= end }
            || replacedModifiersAfterLines.contains { $0 >= start && $0 <= end }
    }
}

/// What one push (or one `--base … --head …` range) sends.
package struct PushRange: Sendable, Equatable {
    /// The commit files are compared against; nil for the empty tree (a first push).
    package let base: String?
    /// The pushed commit.
    package let head: String
    /// The commits the push sends, newest first.
    package let commits: [String]
    /// Added, modified, renamed and copied text files (deleted and binary ones are left out).
    package let files: [ChangedFile]
    /// How the base was chosen, for `--verbose`.
    package let baseDescription: String
}

extension Repository {
    /// The range one ref line of a pre-push hook sends to `remote`; nil for a deletion.
    ///
    /// - An update whose remote id is here: commits in local not in remote; files from their merge
    ///   base (so a force push compares against what both sides share).
    /// - A new branch: commits no remote-tracking ref of `remote` has; files from where they leave
    ///   the remote's history (the merge base with its default branch), or the empty tree for a
    ///   first push to an empty remote.
    /// - A remote id not here (the remote moved on, a shallow clone): the merge base with the
    ///   remote-tracking branch of the same name, else the remote's default branch.
    /// `selecting` keeps only the files a caller will read, so no diff is computed for the others.
    package func pushRange(for update: PushUpdate, remote: String, lineDetail: Bool = true,
                          selecting: (@Sendable (String) -> Bool)? = nil) throws(GitError) -> PushRange? {
        guard !update.isDeletion else { return nil }
        let head = try objectID(update.localObjectID)
        let hideRemote = "refs/remotes/\(remote)/*"
        if !update.createsRemoteRef, let remoteID = try? objectID(update.remoteObjectID), hasCommit(remoteID) {
            let base = try mergeBase(head, remoteID)
            return try range(base: base, head: head, hiding: [remoteID], hidingGlob: nil, lineDetail: lineDetail, selecting: selecting,
                             description: "merge base \(short(base)) of \(short(head)) and the remote's \(short(remoteID))")
        }
        let branch = update.remoteRef.hasPrefix("refs/heads/") ? String(update.remoteRef.dropFirst(11)) : update.remoteRef
        var candidates: [(String, String)] = []
        if !update.createsRemoteRef { candidates.append(("refs/remotes/\(remote)/\(branch)", "the remote-tracking branch \(remote)/\(branch)")) }
        candidates.append(("refs/remotes/\(remote)/HEAD", "the remote's default branch"))
        for name in ["main", "master"] { candidates.append(("refs/remotes/\(remote)/\(name)", "\(remote)/\(name)")) }
        for (reference, label) in candidates {
            guard let target = try? referenceTarget(reference), let base = try? mergeBase(head, target) else { continue }
            let why = update.createsRemoteRef ? "a new branch" : "the remote's \(short(update.remoteObjectID)) is not here"
            return try range(base: base, head: head, hiding: [], hidingGlob: hideRemote, lineDetail: lineDetail, selecting: selecting,
                             description: "\(why): merge base \(short(base)) with \(label)")
        }
        return try range(base: nil, head: head, hiding: [], hidingGlob: hideRemote, lineDetail: lineDetail, selecting: selecting,
                         description: "nothing of \(remote) is known here: compared with the empty tree")
    }

    /// The range between two revisions (`--base REF --head REF` in CI): commits in head not in
    /// base, files from their merge base.
    package func range(base: String, head: String, lineDetail: Bool = true,
                      selecting: (@Sendable (String) -> Bool)? = nil) throws(GitError) -> PushRange {
        let headID = try commitID(head), baseID = try commitID(base)
        let mergeBase = try self.mergeBase(headID, baseID)
        return try range(base: mergeBase, head: headID, hiding: [baseID], hidingGlob: nil, lineDetail: lineDetail, selecting: selecting,
                         description: "merge base \(short(mergeBase)) of \(head) and \(base)")
    }

    /// The bytes of `path` in `commit`: what is pushed, not what is in the working tree.
    package func contents(of path: String, at commit: String) throws(GitError) -> [UInt8] {
        var object: OpaquePointer?
        try check(git_revparse_single(&object, handle, "\(commit):\(path)"), "git_revparse_single(\(commit):\(path))")
        defer { git_object_free(object) }
        guard git_object_type(object) == GIT_OBJECT_BLOB else { return [] }
        let size = Int(git_blob_rawsize(object))
        guard size > 0, let raw = git_blob_rawcontent(object) else { return [] }
        return Array(UnsafeRawBufferPointer(start: raw, count: size))
    }

    // MARK: - Pieces

    private func range(base: String?, head: String, hiding: [String], hidingGlob: String?, lineDetail: Bool,
                       selecting: (@Sendable (String) -> Bool)?, description: String) throws(GitError) -> PushRange {
        PushRange(base: base, head: head, commits: try commits(from: head, hiding: hiding, hidingGlob: hidingGlob),
                  files: try changedFiles(from: base, to: head, lineDetail: lineDetail, selecting: selecting), baseDescription: description)
    }

    private func commits(from head: String, hiding: [String], hidingGlob: String?) throws(GitError) -> [String] {
        var walk: OpaquePointer?
        try check(git_revwalk_new(&walk, handle), "git_revwalk_new")
        defer { git_revwalk_free(walk) }
        git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_TIME.rawValue)
        var oid = try oid(head)
        try check(git_revwalk_push(walk, &oid), "git_revwalk_push")
        for hidden in hiding {
            var hiddenOID = try self.oid(hidden)
            try check(git_revwalk_hide(walk, &hiddenOID), "git_revwalk_hide")
        }
        if let hidingGlob { try check(git_revwalk_hide_glob(walk, hidingGlob), "git_revwalk_hide_glob") }
        var result: [String] = []
        var next = git_oid()
        while git_revwalk_next(&next, walk) == 0 {
            result.append(Self.hex(next))
        }
        return result
    }

    private func changedFiles(from base: String?, to head: String, lineDetail: Bool,
                              selecting: (@Sendable (String) -> Bool)?) throws(GitError) -> [ChangedFile] {
        let diff = try treeDiff(from: base, to: head, finding: GIT_DIFF_FIND_RENAMES.rawValue | GIT_DIFF_FIND_COPIES.rawValue)
        defer { git_diff_free(diff) }

        var files: [ChangedFile] = []
        for index in 0..<git_diff_num_deltas(diff) {
            guard let delta = git_diff_get_delta(diff, index) else { continue }
            let change: ChangedFile.Change
            switch delta.pointee.status {
            case GIT_DELTA_ADDED: change = .added
            case GIT_DELTA_MODIFIED: change = .modified
            case GIT_DELTA_RENAMED: change = .renamed
            case GIT_DELTA_COPIED: change = .copied
            default: continue
            }
            let newPath = String(cString: delta.pointee.new_file.path)
            if let selecting, !selecting(newPath) { continue }
            let oldPath = change == .renamed || change == .copied ? String(cString: delta.pointee.old_file.path) : nil
            // An added file is new on every line, and without line detail only names are wanted:
            // neither needs its content loaded (binary files are then recognised by the check).
            if change == .added || !lineDetail {
                if delta.pointee.flags & GIT_DIFF_FLAG_BINARY.rawValue == 0 {
                    files.append(ChangedFile(path: newPath, oldPath: oldPath, change: change, addedLines: [], removedAfterLines: []))
                }
                continue
            }
            var patch: OpaquePointer?
            try check(git_patch_from_diff(&patch, diff, index), "git_patch_from_diff")
            defer { git_patch_free(patch) }
            // libgit2 knows a file is binary once its content is loaded, that is, now.
            guard let patch, let loaded = git_patch_get_delta(patch),
                  loaded.pointee.flags & GIT_DIFF_FLAG_BINARY.rawValue == 0 else { continue }
            // With no context lines every line of a hunk's new side was added, and a hunk with no new
            // side is a pure deletion after line `new_start`: the hunk headers say it all, so the
            // lines themselves are never visited.
            var added: [Int] = []
            var removedAfter: [Int] = []
            var replacedModifiersAfter: [Int] = []
            for hunkIndex in 0..<git_patch_num_hunks(patch) {
                var hunk: UnsafePointer<git_diff_hunk>?
                var lineCount = 0
                try check(git_patch_get_hunk(&hunk, &lineCount, patch, hunkIndex), "git_patch_get_hunk")
                guard let hunk else { continue }
                let start = Int(hunk.pointee.new_start), count = Int(hunk.pointee.new_lines)
                if count == 0 {
                    if removedAfter.last != start { removedAfter.append(start) }
                    continue
                }
                added.append(contentsOf: start..<(start + count))
                // A replacement: only its first removed line is read, to see whether a modifier went.
                if hunk.pointee.old_lines > 0, lineCount > 0 {
                    var line: UnsafePointer<git_diff_line>?
                    try check(git_patch_get_line_in_hunk(&line, patch, hunkIndex, 0), "git_patch_get_line_in_hunk")
                    if let line, UInt8(bitPattern: line.pointee.origin) == UInt8(ascii: "-"),
                       Self.startsWithModifier(line.pointee.content, length: Int(line.pointee.content_len)) {
                        replacedModifiersAfter.append(start - 1)
                    }
                }
            }
            files.append(ChangedFile(path: newPath, oldPath: oldPath, change: change, addedLines: added.sorted(),
                                     removedAfterLines: Array(Set(removedAfter)).sorted(),
                                     replacedModifiersAfterLines: Array(Set(replacedModifiersAfter)).sorted()))
        }
        return files
    }

    /// Whether a line's first non-blank byte is `.`: a modifier continuing the expression above.
    static func startsWithModifier(_ content: UnsafePointer<CChar>?, length: Int) -> Bool {
        guard let content else { return false }
        for index in 0..<length {
            switch UInt8(bitPattern: content[index]) {
            case UInt8(ascii: " "), UInt8(ascii: "\t"): continue
            case UInt8(ascii: "."): return true
            default: return false
            }
        }
        return false
    }

    func mergeBase(_ one: String, _ two: String) throws(GitError) -> String {
        var first = try oid(one), second = try oid(two), out = git_oid()
        try check(git_merge_base(&out, handle, &first, &second), "git_merge_base")
        return Self.hex(out)
    }

    private func referenceTarget(_ name: String) throws(GitError) -> String {
        var out = git_oid()
        try check(git_reference_name_to_id(&out, handle, name), "git_reference_name_to_id(\(name))")
        return Self.hex(out)
    }

    /// Whether the object exists here and is a commit.
    func hasCommit(_ id: String) -> Bool {
        guard var oid = try? oid(id) else { return false }
        var commit: OpaquePointer?
        guard git_commit_lookup(&commit, handle, &oid) == 0 else { return false }
        git_commit_free(commit)
        return true
    }

    /// A full object id from hex (the hook gives full ids; revisions go through `commitID`).
    private func objectID(_ text: String) throws(GitError) -> String {
        _ = try oid(text)
        return text
    }

    private func oid(_ text: String) throws(GitError) -> git_oid {
        var out = git_oid()
        try check(git_oid_fromstr(&out, text), "git_oid_fromstr(\(text))")
        return out
    }

    private func short(_ id: String) -> String { String(id.prefix(10)) }

    private static func hex(_ oid: git_oid) -> String {
        var copy = oid
        guard let text = git_oid_tostr_s(&copy) else { return "" }
        return String(cString: text)
    }
}

extension Repository {
    /// The ref line a plain `git push` would send from the current branch, and the remote it goes
    /// to: the branch's upstream (`branch.<name>.remote` and `.merge`), else `origin` and the same
    /// branch name. The remote side's id is its remote-tracking ref here, or zeros for a branch the
    /// remote does not have yet. Nil on a detached HEAD or an unborn branch.
    package func pushUpdateForCurrentBranch() throws(GitError) -> (remote: String, update: PushUpdate)? {
        var head: OpaquePointer?
        guard git_repository_head(&head, handle) == 0 else { return nil }
        defer { git_reference_free(head) }
        guard git_reference_is_branch(head) == 1, let fullName = git_reference_name(head) else { return nil }
        let localRef = String(cString: fullName)
        let branch = String(localRef.dropFirst("refs/heads/".count))
        let local = try commitID("HEAD")
        let remote = (try? configString("branch.\(branch).remote")) ?? nil
        let merge = (try? configString("branch.\(branch).merge")) ?? nil
        let remoteName = remote.flatMap { $0 == "." ? nil : $0 } ?? "origin"
        let remoteRef = merge ?? localRef
        let tracking = "refs/remotes/\(remoteName)/\(remoteRef.hasPrefix("refs/heads/") ? String(remoteRef.dropFirst(11)) : remoteRef)"
        let remoteID = (try? referenceTarget(tracking)) ?? String(repeating: "0", count: local.count)
        return (remoteName, PushUpdate(localRef: localRef, localObjectID: local, remoteRef: remoteRef, remoteObjectID: remoteID))
    }
}
