internal import CGit2
import PrePushCore

/// A file that differs between two trees, with the lines of the old side the change touches: the
/// coordinates an impact map recorded on the old tree uses.
package struct OldSideChange: Sendable, Equatable {
    /// How the file changed.
    package enum Kind: String, Sendable, Equatable {
        case added, deleted, modified, renamed, copied
        /// A type change (a file became a symbolic link) or anything else git reports: read as "the whole file".
        case other
    }

    /// The path in the new tree (the old path for a deleted file).
    package let path: String
    /// The path in the old tree; nil for an added file.
    package let oldPath: String?
    /// How it changed.
    package let kind: Kind
    /// Old-side line ranges (1-based, inclusive) the change touches, ascending. A pure insertion
    /// after old line `n` counts as `n...n+1` (the lines around it; `1...1` at the top). Empty for an
    /// added file, and for a binary or renamed-only file (see `wholeFile`).
    package let lines: [ClosedRange<Int>]
    /// Whether the change cannot be told line by line (binary content, a type change, a deletion):
    /// every old line counts as touched.
    package let wholeFile: Bool

    /// Creates a change.
    package init(path: String, oldPath: String?, kind: Kind, lines: [ClosedRange<Int>], wholeFile: Bool) {
        self.path = path
        self.oldPath = oldPath
        self.kind = kind
        self.lines = lines
        self.wholeFile = wholeFile
    }
}

extension Repository {
    /// Whether `id` (full hex) names a commit this repository holds.
    package func containsCommit(_ id: String) -> Bool {
        hasCommit(id)
    }

    /// How many commits `head` has that `base` does not (`git rev-list --count base..head`), counting
    /// at most `limit`; nil when either is not here.
    package func commitCount(from base: String, to head: String, limit: Int) -> Int? {
        var walk: OpaquePointer?
        guard git_revwalk_new(&walk, handle) == 0 else { return nil }
        defer { git_revwalk_free(walk) }
        var headOID = git_oid(), baseOID = git_oid()
        guard git_oid_fromstr(&headOID, head) == 0, git_oid_fromstr(&baseOID, base) == 0,
              git_revwalk_push(walk, &headOID) == 0, git_revwalk_hide(walk, &baseOID) == 0 else { return nil }
        var count = 0
        var next = git_oid()
        while count < limit, git_revwalk_next(&next, walk) == 0 { count += 1 }
        return count
    }

    /// Every file that differs between the trees of commits `old` and `new` (renames found), with the
    /// old-side lines each change touches. Nothing is left out: a binary file, a deletion and a type
    /// change are `wholeFile`.
    package func oldSideChanges(from old: String, to new: String) throws(GitError) -> [OldSideChange] {
        // Hunk headers are read, not lines: with no context each hunk's old side is exactly what changed.
        let diff = try treeDiff(from: old, to: new, finding: GIT_DIFF_FIND_RENAMES.rawValue)
        defer { git_diff_free(diff) }

        var changes: [OldSideChange] = []
        for index in 0..<git_diff_num_deltas(diff) {
            guard let delta = git_diff_get_delta(diff, index) else { continue }
            let newPath = String(cString: delta.pointee.new_file.path)
            let oldPath = String(cString: delta.pointee.old_file.path)
            let kind: OldSideChange.Kind
            switch delta.pointee.status {
            case GIT_DELTA_ADDED: kind = .added
            case GIT_DELTA_DELETED: kind = .deleted
            case GIT_DELTA_MODIFIED: kind = .modified
            case GIT_DELTA_RENAMED: kind = .renamed
            case GIT_DELTA_COPIED: kind = .copied
            case GIT_DELTA_UNMODIFIED: continue
            default: kind = .other
            }
            switch kind {
            case .added:
                changes.append(OldSideChange(path: newPath, oldPath: nil, kind: kind, lines: [], wholeFile: false))
            case .deleted, .other:
                changes.append(OldSideChange(path: kind == .deleted ? oldPath : newPath, oldPath: oldPath, kind: kind, lines: [], wholeFile: true))
            case .modified, .renamed, .copied:
                let lines = try oldSideLines(diff, index)
                changes.append(OldSideChange(path: newPath, oldPath: oldPath, kind: kind, lines: lines ?? [], wholeFile: lines == nil))
            }
        }
        return changes
    }

    /// The diff between the trees of commits `old` (nil: an empty tree) and `new`, with no context
    /// lines (each hunk is exactly what changed) and renames (and copies, as `finding` says) found;
    /// `finding` nil looks for none, so no file's content is loaded (a rename is then a deletion and
    /// an addition). The caller frees it with `git_diff_free`.
    func treeDiff(from old: String?, to new: String, finding: UInt32?) throws(GitError) -> OpaquePointer? {
        let newTree = try peel(new, to: GIT_OBJECT_TREE)
        defer { git_object_free(newTree) }
        let oldTree = try old.map { commit throws(GitError) in try peel(commit, to: GIT_OBJECT_TREE) }
        defer { if let oldTree { git_object_free(oldTree) } }
        var options = git_diff_options()
        try check(git_diff_options_init(&options, UInt32(GIT_DIFF_OPTIONS_VERSION)), "git_diff_options_init")
        options.context_lines = 0
        var diff: OpaquePointer?
        try check(git_diff_tree_to_tree(&diff, handle, oldTree, newTree, &options), "git_diff_tree_to_tree")
        guard let finding else { return diff }
        var find = git_diff_find_options()
        do throws(GitError) {
            try check(git_diff_find_options_init(&find, UInt32(GIT_DIFF_FIND_OPTIONS_VERSION)), "git_diff_find_options_init")
            find.flags = finding
            try check(git_diff_find_similar(diff, &find), "git_diff_find_similar")
        } catch {
            git_diff_free(diff)
            throw error
        }
        return diff
    }

    /// The old-side ranges of one delta's hunks; nil for binary content.
    private func oldSideLines(_ diff: OpaquePointer?, _ index: Int) throws(GitError) -> [ClosedRange<Int>]? {
        var patch: OpaquePointer?
        try check(git_patch_from_diff(&patch, diff, index), "git_patch_from_diff")
        defer { git_patch_free(patch) }
        guard let patch, let loaded = git_patch_get_delta(patch),
              loaded.pointee.flags & GIT_DIFF_FLAG_BINARY.rawValue == 0 else { return nil }
        var ranges: [ClosedRange<Int>] = []
        for hunkIndex in 0..<git_patch_num_hunks(patch) {
            var hunk: UnsafePointer<git_diff_hunk>?
            var lineCount = 0
            try check(git_patch_get_hunk(&hunk, &lineCount, patch, hunkIndex), "git_patch_get_hunk")
            guard let hunk else { continue }
            ranges.append(Self.oldSide(start: Int(hunk.pointee.old_start), count: Int(hunk.pointee.old_lines)))
        }
        return ranges
    }

    /// The old lines a hunk touches: its removed lines, or for a pure insertion after old line
    /// `start` (git's convention for a hunk with no old side) the lines on either side of it, so an
    /// insertion inside a function's body touches that function.
    package static func oldSide(start: Int, count: Int) -> ClosedRange<Int> {
        count > 0 ? start...(start + count - 1) : max(1, start)...(start + 1)
    }
}
