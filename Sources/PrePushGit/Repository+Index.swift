internal import CGit2
import PrePushCore

/// A tracked file as git's index last recorded it: its blob and the stamp it had then.
package struct IndexedFile: Sendable {
    /// The blob id of the content git recorded.
    package let blob: String
    /// Size (git keeps its low 32 bits) and modification time when git recorded it.
    package let stamp: FileStamp
}

extension Repository {
    /// The index's entries (stage 0) by path, and the index file's own modification time in
    /// seconds: an entry whose file changed in the second the index was written is not to be
    /// trusted by its stamp ("racily clean", as git calls it). Nil when there is no index.
    package func indexedFiles() -> (files: [String: IndexedFile], written: Int)? {
        var index: OpaquePointer?
        guard git_repository_index(&index, handle) == 0, let index else { return nil }
        defer { git_index_free(index) }
        guard let path = git_index_path(index), let written = FileSystem.stamp(of: String(cString: path)) else { return nil }
        var files: [String: IndexedFile] = [:]
        let count = git_index_entrycount(index)
        files.reserveCapacity(count)
        var text = [CChar](repeating: 0, count: 41)
        for position in 0..<count {
            guard let entry = git_index_get_byindex(index, position), (UInt32(entry.pointee.flags) >> 12) & 3 == 0 else { continue }
            var id = entry.pointee.id
            git_oid_tostr(&text, text.count, &id)
            let stamp = FileStamp(size: Int(entry.pointee.file_size), seconds: Int(entry.pointee.mtime.seconds),
                                  nanoseconds: Int(entry.pointee.mtime.nanoseconds))
            files[String(cString: entry.pointee.path)] = IndexedFile(blob: String(cString: text), stamp: stamp)
        }
        return (files, written.seconds)
    }

    /// Whether git's index tracks the file at `path` (absolute, or relative to the working tree):
    /// such a file is the repository's (a pull request's, in CI), never one prepush wrote.
    package func isTracked(_ path: String) -> Bool {
        guard let root = workingDirectory else { return false }
        let relative = FilePath.relative(FilePath.absolute(path, base: root), to: root)
        guard !relative.hasPrefix("../"), relative != ".." else { return false }
        var index: OpaquePointer?
        guard git_repository_index(&index, handle) == 0, let index else { return false }
        defer { git_index_free(index) }
        return git_index_get_bypath(index, relative, 0) != nil
    }
}
