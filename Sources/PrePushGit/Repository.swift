internal import CGit2
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import PrePushCore

/// libgit2's process-wide set-up, done once and explicitly by the program (not hidden in an initialiser).
package enum GitLibrary {
    // Swift runs a global's initialiser exactly once, thread-safely; `initialize()` is what touches it.
    nonisolated(unsafe) private static var initialized = false
    private static let once: Void = {
        git_libgit2_init()
        initialized = true
    }()

    /// Initialises libgit2. Safe to call more than once and from several threads. It costs a few
    /// milliseconds (libgit2 loads its TLS certificates), so commands that need no repository skip it.
    package static func initialize() {
        _ = once
    }

    /// Starts `initialize()` on another thread and returns at once; a later `initialize()` waits
    /// for it. A command that will open a repository calls this first, so libgit2's set-up
    /// overlaps argument parsing and reading the hook's input on a second core.
    package static func beginInitializing() {
        began = true
        DispatchQueue.global(qos: .userInitiated).async { initialize() }
    }

    nonisolated(unsafe) private static var began = false

    /// Waits for a set-up `beginInitializing()` started. The process must not exit while libgit2's
    /// set-up runs on the other thread: exit's clean-up then tears down what that thread is using
    /// (a hook given malformed ref lines exits at once, and crashed with SIGSEGV about once in 300
    /// runs). Call it on every way out of a process that began initialising.
    package static func settle() {
        if began { initialize() }
    }

    static var isInitialized: Bool { initialized }
}

/// An open repository. Owns its libgit2 handle and frees it when released. A libgit2 repository
/// handle must not be used from two threads at once; keep each `Repository` on one task.
package final class Repository {
    let handle: OpaquePointer

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        git_repository_free(handle)
    }

    /// Opens the repository that contains `path`, searching parent folders as git does.
    package static func discover(from path: String) throws(GitError) -> Repository {
        guard GitLibrary.isInitialized else { throw .notInitialized }
        var handle: OpaquePointer?
        let code = git_repository_open_ext(&handle, path, 0, nil)
        if code == GIT_ENOTFOUND.rawValue { throw .notARepository(path: path) }
        try check(code, "git_repository_open_ext")
        guard let handle else { throw .notARepository(path: path) }
        return Repository(handle: handle)
    }

    /// Opens the repository the way git itself does in a hook: honouring `GIT_DIR`, `GIT_WORK_TREE`,
    /// `GIT_CEILING_DIRECTORIES`, `GIT_INDEX_FILE`, `GIT_OBJECT_DIRECTORY` and their kin, and otherwise
    /// searching upward from the current folder.
    package static func openFromEnvironment() throws(GitError) -> Repository {
        guard GitLibrary.isInitialized else { throw .notInitialized }
        let environment = ProcessInfo.processInfo.environment
        if let workTree = environment["GIT_WORK_TREE"], !workTree.isEmpty {
            // libgit2 (1.5 at least) answers "GIT_WORK_TREE unimplemented" to OPEN_FROM_ENV, so do
            // what git does: open GIT_DIR (or discover it) and use the named working tree.
            let repository: Repository
            if let gitDirectory = environment["GIT_DIR"], !gitDirectory.isEmpty {
                var handle: OpaquePointer?
                let code = git_repository_open_ext(&handle, gitDirectory, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue, nil)
                if code == GIT_ENOTFOUND.rawValue { throw .notARepository(path: gitDirectory) }
                try check(code, "git_repository_open_ext")
                guard let handle else { throw .notARepository(path: gitDirectory) }
                repository = Repository(handle: handle)
            } else {
                repository = try discover(from: FileManager.default.currentDirectoryPath)
            }
            let absolute = FilePath.absolute(workTree, base: FileManager.default.currentDirectoryPath)
            try check(git_repository_set_workdir(repository.handle, absolute, 0), "git_repository_set_workdir")
            return repository
        }
        var handle: OpaquePointer?
        let code = git_repository_open_ext(&handle, nil, GIT_REPOSITORY_OPEN_FROM_ENV.rawValue, nil)
        if code == GIT_ENOTFOUND.rawValue { throw .notARepository(path: FileManager.default.currentDirectoryPath) }
        try check(code, "git_repository_open_ext")
        guard let handle else { throw .notARepository(path: FileManager.default.currentDirectoryPath) }
        return Repository(handle: handle)
    }

    /// The working tree's root, without a trailing slash; nil for a bare repository.
    package var workingDirectory: String? {
        git_repository_workdir(handle).map { Self.withoutTrailingSlash(String(cString: $0)) }
    }

    /// The working tree's root, or an error naming the repository when it is bare.
    package func requireWorkingDirectory() throws(GitError) -> String {
        guard let directory = workingDirectory else { throw .bareRepository(path: gitDirectory) }
        return directory
    }

    /// The repository's git folder (`.git`, or the worktree's folder under `.git/worktrees`).
    package var gitDirectory: String {
        Self.withoutTrailingSlash(String(cString: git_repository_path(handle)))
    }

    /// Whether HEAD names a commit rather than a branch.
    package var isHeadDetached: Bool { git_repository_head_detached(handle) == 1 }

    /// The branch HEAD is on (`main`), nil for a detached or unborn HEAD.
    package var currentBranch: String? {
        var head: OpaquePointer?
        guard git_repository_head(&head, handle) == 0 else { return nil }
        defer { git_reference_free(head) }
        guard git_reference_is_branch(head) == 1, let name = git_reference_shorthand(head) else { return nil }
        return String(cString: name)
    }

    /// Whether the repository has no working tree.
    package var isBare: Bool { git_repository_is_bare(handle) == 1 }

    /// The folder git runs hooks from: `core.hooksPath` when set (relative to the folder hooks run
    /// in: the working tree root, or the git folder of a bare repository), else the common git
    /// folder's `hooks`, shared by all worktrees.
    package func hooksDirectory() throws(GitError) -> String {
        if let configured = try configPath("core.hooksPath"), !configured.isEmpty {
            if configured.hasPrefix("/") { return Self.withoutTrailingSlash(configured) }
            let base = workingDirectory ?? gitDirectory
            return FilePath.absolute(configured, base: base)
        }
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        try check(git_repository_item_path(&buffer, handle, GIT_REPOSITORY_ITEM_HOOKS), "git_repository_item_path")
        return Self.withoutTrailingSlash(String(cString: buffer.ptr))
    }

    /// A configuration value read as a path (`~/` expanded), or nil when the key is not set.
    package func configPath(_ key: String) throws(GitError) -> String? {
        try configValue(key, "git_config_get_path") { git_config_get_path($0, $1, $2) }
    }

    /// A configuration value as a string, or nil when the key is not set.
    func configString(_ key: String) throws(GitError) -> String? {
        try configValue(key, "git_config_get_string_buf") { git_config_get_string_buf($0, $1, $2) }
    }

    /// Reads `key` from a snapshot of the configuration with `read` (one of libgit2's `git_config_get_*` into a buffer).
    private func configValue(_ key: String, _ function: String,
                             _ read: (UnsafeMutablePointer<git_buf>, OpaquePointer?, String) -> Int32) throws(GitError) -> String? {
        var config: OpaquePointer?
        try check(git_repository_config_snapshot(&config, handle), "git_repository_config_snapshot")
        defer { git_config_free(config) }
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        let code = read(&buffer, config, key)
        if code == GIT_ENOTFOUND.rawValue { return nil }
        try check(code, "\(function)(\(key))")
        return String(cString: buffer.ptr)
    }

    private static func withoutTrailingSlash(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}
