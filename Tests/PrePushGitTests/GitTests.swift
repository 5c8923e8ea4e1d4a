import Foundation
import PrePushGit
import PrePushTestSupport
import Testing

@Suite struct RepositoryTests {
    init() { GitLibrary.initialize() }

    @Test func discoversTheRepositoryFromASubfolder() throws {
        let repo = try GitRepository()
        try repo.write("x", to: "Sources/App/File.swift")
        let opened = try Repository.discover(from: (repo.path as NSString).appendingPathComponent("Sources/App"))
        #expect(opened.workingDirectory == repo.path)
        #expect(opened.gitDirectory == repo.path + "/.git")
        #expect(!opened.isBare)
    }

    @Test func aFolderOutsideAnyRepositoryIsNamed() throws {
        let folder = try TemporaryDirectory()
        #expect(throws: GitError.notARepository(path: folder.path)) {
            // GIT_CEILING_DIRECTORIES is not ours to set here; the temporary folder has no repository above it.
            try Repository.discover(from: folder.path)
        }
    }

    @Test func hooksLiveInTheGitFolderByDefault() throws {
        let repo = try GitRepository()
        #expect(try Repository.discover(from: repo.path).hooksDirectory() == repo.path + "/.git/hooks")
    }

    @Test func relativeHooksPathIsTakenFromTheWorkingTreeRoot() throws {
        let repo = try GitRepository()
        try repo.git("config", "core.hooksPath", ".githooks")
        #expect(try Repository.discover(from: repo.path).hooksDirectory() == repo.path + "/.githooks")
    }

    @Test func absoluteHooksPathIsUsedAsItIs() throws {
        let repo = try GitRepository()
        let hooks = try TemporaryDirectory()
        try repo.git("config", "core.hooksPath", hooks.path + "/")
        #expect(try Repository.discover(from: repo.path).hooksDirectory() == hooks.path)
    }

    @Test func linkedWorktreesShareTheMainHooksFolder() throws {
        let repo = try GitRepository()
        try repo.write("a", to: "a.txt")
        try repo.commitAll("first")
        let worktree = repo.root.url("feature-tree")
        try repo.git("worktree", "add", "--quiet", "-b", "feature", worktree)
        let opened = try Repository.discover(from: worktree)
        #expect(opened.workingDirectory == worktree)
        #expect(try opened.hooksDirectory() == repo.path + "/.git/hooks")
    }

    @Test func aBareRepositoryHasNoWorkingTree() throws {
        let repo = try GitRepository()
        let bare = try Repository.discover(from: repo.remotePath)
        #expect(bare.isBare)
        #expect(bare.workingDirectory == nil)
        #expect(throws: GitError.self) { try bare.requireWorkingDirectory() }
    }

    @Test func configValuesAreRead() throws {
        let repo = try GitRepository()
        try repo.git("config", "prepush.example", "~/folder")
        let opened = try Repository.discover(from: repo.path)
        // libgit2 expands ~ with this process's HOME, as git would for the hook it runs.
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        #expect(try opened.configPath("prepush.example") == (home as NSString).appendingPathComponent("folder"))
        #expect(try opened.configPath("prepush.missing") == nil)
    }
}
