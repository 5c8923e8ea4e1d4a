import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// The verdict cache through real pushes: a stage that passed on a tree is not run again for the
/// same tree and inputs, and any input that could change its result runs it.
/// Own process: a tag and a second remote are real `git push`es, whose ref lines only git writes; and a
/// cached run's reports are read from the folder, which a run holds until its process ends.
@Suite struct VerdictCacheTests {
    /// A repository whose unit stage appends a line to `runs` (outside the working tree) each time it runs.
    func repository(configuration extra: String = "", stage: String = "") throws -> GitRepository {
        let repo = try GitRepository()
        try repo.write("""
        \(extra)stages:
          unit:
            run: echo ran >> '\(repo.root.url("runs"))'\(stage)

        """, to: ".prepush.yml")
        try repo.commitAll("config")
        #expect(try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).status == 0)
        return repo
    }

    func runs(_ repo: GitRepository) -> Int {
        ((try? String(contentsOfFile: repo.root.url("runs"), encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    func run(_ repo: GitRepository, _ arguments: [String] = [], environment extra: [String: String] = [:]) throws -> CommandResult {
        try InProcessCLI.run(["run"] + arguments, in: repo.path, environment: repo.environment.merging(extra) { $1 })
    }

    @Test func aTagPushedOnAVerifiedCommitAndTheSameCommitToASecondRemoteRunNoStage() throws {
        let repo = try repository()
        let first = try repo.push()
        #expect(first.status == 0, "\(first)")
        #expect(runs(repo) == 1)

        try repo.git("tag", "v1.0")
        let tag = try repo.push("v1.0")
        #expect(tag.status == 0, "\(tag)")
        #expect(runs(repo) == 1, "the tag's tree already passed: \(tag.combined)")
        let tree = try repo.git("rev-parse", "HEAD^{tree}")
        #expect(tag.combined.contains("prepush ✔ unit: already passed on tree \(tree.prefix(7)) at "), "\(tag.combined)")
        #expect(tag.combined.contains("(cached; PREPUSH_CACHE=0 git push to run it)"))
        #expect(tag.combined.contains("prepush: all stages passed (unit cached)"))

        let second = repo.root.url("mirror.git")
        try repo.git("init", "--quiet", "--bare", second)
        try repo.git("remote", "add", "mirror", second)
        let mirror = try repo.gitResult(["push", "mirror", "main"])
        #expect(mirror.status == 0, "\(mirror)")
        #expect(runs(repo) == 1)

        // Nothing is written into the working tree: the verdicts live in the git folder.
        #expect(try repo.git("status", "--porcelain").isEmpty)
        let verdicts = try FileManager.default.contentsOfDirectory(atPath: repo.path + "/.git/prepush/verdicts")
        #expect(verdicts.filter { $0.hasSuffix(".json") }.count == 1)
    }

    @Test func aRebaseThatLandsOnAnIdenticalTreeIsCachedAndANewTreeRuns() throws {
        let repo = try repository()
        #expect(try run(repo).status == 0)
        try repo.git("commit", "--quiet", "--amend", "-m", "same tree, other message")
        let amended = try run(repo)
        #expect(amended.status == 0)
        #expect(runs(repo) == 1, "\(amended.combined)")

        try repo.write("changed\n", to: "README.md")
        try repo.commitAll("a new tree")
        #expect(try run(repo).status == 0)
        #expect(runs(repo) == 2)
    }

    @Test func theConfigurationTheCommandAListedVariableAndTheToolchainEachCauseARun() throws {
        let repo = try GitRepository()
        try repo.write("base\n", to: "README.md")
        try repo.commitAll("base")
        let marker = repo.root.url("runs")
        // The configuration lives outside the tree, so only it changes and the tree stays.
        let configuration = repo.root.url("prepush.yml")
        func configure(_ command: String, comment: String = "") throws {
            try Data("""
            \(comment)stages:
              unit:
                run: \(command)
                cacheEnvironment: [APP_FLAVOUR]

            """.utf8).write(to: URL(fileURLWithPath: configuration))
        }
        // A toolchain whose version text the test controls, first on PATH.
        let tools = repo.root.url("tools")
        try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
        func toolchain(_ version: String) throws {
            let swift = tools + "/swift"
            try Data("#!/bin/sh\necho 'Swift version \(version)'\n".utf8).write(to: URL(fileURLWithPath: swift))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift)
        }
        try toolchain("6.3.1")
        let path = tools + ":" + (repo.environment["PATH"] ?? "/usr/bin:/bin")
        var environment = ["PREPUSH_CONFIG": configuration, "PATH": path, "APP_FLAVOUR": "debug"]
        func runCounting() throws -> Int {
            let result = try run(repo, environment: environment)
            #expect(result.status == 0, "\(result)")
            return runs(repo)
        }

        try configure("echo ran >> '\(marker)'")
        #expect(try runCounting() == 1)
        #expect(try runCounting() == 1, "same tree, same inputs: cached")

        try configure("echo ran >> '\(marker)'", comment: "# a comment is a change to the file\n")
        #expect(try runCounting() == 2, "a configuration change runs the stage")
        #expect(try runCounting() == 2)

        try configure("echo ran  >> '\(marker)'", comment: "# a comment is a change to the file\n")
        #expect(try runCounting() == 3, "a changed stage command runs the stage")

        environment["APP_FLAVOUR"] = "release"
        #expect(try runCounting() == 4, "a changed variable the stage lists runs the stage")
        environment["UNLISTED"] = "anything"
        #expect(try runCounting() == 4, "a variable the stage does not list does not")

        try toolchain("6.4-dev")
        #expect(try runCounting() == 5, "a different toolchain runs the stage")
        #expect(try runCounting() == 5)
    }

    @Test func failuresAreNeverCached() throws {
        let flag = "flag-\(UUID().uuidString)"
        let repo = try repository(stage: "; test -f '/tmp/\(flag)'")
        defer { try? FileManager.default.removeItem(atPath: "/tmp/\(flag)") }
        #expect(try run(repo).status == 1)
        #expect(try run(repo).status == 1)
        #expect(runs(repo) == 2, "a failing stage runs again")
        FileManager.default.createFile(atPath: "/tmp/\(flag)", contents: nil)
        #expect(try run(repo).status == 0)
        #expect(runs(repo) == 3)
    }

    @Test func aDirtyWorkingTreeIsNotCachedUnlessIsolated() throws {
        let repo = try repository()
        #expect(try run(repo).status == 0)
        try repo.write("work in progress\n", to: "notes.txt")
        let dirty = try run(repo)
        #expect(dirty.status == 0)
        #expect(runs(repo) == 2, "an untracked file makes the working tree another tree: \(dirty.combined)")
        #expect(dirty.standardOutput.contains("(untracked: notes.txt); local stages run in the working tree, and no cached verdict is used or kept"), "\(dirty.combined)")
        let isolated = try run(repo, ["--isolated"])
        #expect(isolated.status == 0)
        #expect(runs(repo) == 2, "--isolated tests the commit, which passed: \(isolated.combined)")
    }

    @Test func theSwitchesOff() throws {
        let repo = try repository()
        #expect(try run(repo).status == 0)
        #expect(try run(repo, ["--no-cache"]).status == 0)
        #expect(runs(repo) == 2)
        #expect(try run(repo, environment: ["PREPUSH_CACHE": "false"]).status == 0)
        #expect(runs(repo) == 3)
        let clear = try InProcessCLI.run(["cache", "clear"], in: repo.path, environment: repo.environment)
        #expect(clear.status == 0)
        #expect(clear.combined.contains("removed 1 cached verdict"), "\(clear.combined)")
        #expect(try run(repo).status == 0)
        #expect(runs(repo) == 4)

        let off = try repository(configuration: "cache: false\n")
        #expect(try run(off).status == 0)
        #expect(try run(off).status == 0)
        #expect(runs(off) == 2)
    }

    @Test func aCorruptedEntryIsAWarningAndAMiss() throws {
        let repo = try repository()
        #expect(try run(repo).status == 0)
        let folder = repo.path + "/.git/prepush/verdicts"
        for entry in try FileManager.default.contentsOfDirectory(atPath: folder) {
            try Data("{\"version\": 1, \"key\": tru".utf8).write(to: URL(fileURLWithPath: folder + "/" + entry))
        }
        let result = try run(repo)
        #expect(result.status == 0, "\(result)")
        #expect(runs(repo) == 2)
        #expect(result.combined.contains("prepush: warning: the cached verdict "), "\(result.combined)")
        #expect(result.combined.contains("cannot be read"))
        // The run that passed stored a good entry again.
        #expect(try run(repo).status == 0)
        #expect(runs(repo) == 2)
    }

    @Test func aCachedStageStillReportsItsTests() throws {
        let repo = try repository(stage: "; printf \"Test Case '-[AppTests.LoginTests testLogin]' started.\\nTest Case '-[AppTests.LoginTests testLogin]' passed (0.010 seconds).\\n\"")
        // Both runs as processes of their own: the cached run's reports are read from the folder, which
        // a run holds until its process ends.
        let first = try PrepushBinary.run(["run"], in: repo.path, environment: repo.environment)
        #expect(first.combined.contains("prepush: tests: 1 passed, 0 failed"), "\(first.combined)")
        let cached = try PrepushBinary.run(["run"], in: repo.path, environment: repo.environment)
        #expect(runs(repo) == 1)
        #expect(cached.combined.contains("prepush: tests: 1 passed, 0 failed"), "\(cached.combined)")
        let junit = try String(contentsOfFile: repo.path + "/.prepush/reports/junit.xml", encoding: .utf8)
        #expect(junit.contains("testLogin"))
    }
}
