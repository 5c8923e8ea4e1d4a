import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// Own process: the hook `install` writes (with a kept hook beside it, or the repository's shim through
/// `core.hooksPath`) runs on a real `git push`, finding the binary where it was put, on PATH, or gone.
@Suite struct InstallTests {
    let userHook = """
    #!/bin/sh
    # the team's own hook
    echo "$1 $2" > "$(git rev-parse --git-common-dir)/../../user-hook-args"
    cat > "$(git rev-parse --git-common-dir)/../../user-hook-stdin"
    exit ${USER_HOOK_STATUS:-0}

    """

    @Test func anExistingHookIsKeptStillRunsAndComesBackAfterUninstall() throws {
        let repo = try GitRepository()
        let hook = try repo.write(userHook, to: ".git/hooks/pre-push", executable: true)
        try repo.write("stages:\n  unit:\n    run: touch '\(repo.root.url("unit-ran"))'\n", to: ".prepush.yml")
        try repo.commitAll("config")

        let install = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)
        #expect(install.status == 0)
        #expect(install.standardOutput.contains("kept the existing hook as \(repo.path)/.git/hooks/pre-push.prepush-kept"))

        let push = try repo.push()
        #expect(push.status == 0, "\(push)")
        #expect(repo.root.exists("unit-ran"))
        #expect(repo.root.read("user-hook-args") == "origin \(repo.remotePath)\n")
        let head = try repo.head()
        #expect(repo.root.read("user-hook-stdin") == "refs/heads/main \(head) refs/heads/main \(String(repeating: "0", count: 40))\n",
                "the kept hook gets the same ref lines as prepush")

        let uninstall = try InProcessCLI.run(["uninstall"], in: repo.path, environment: repo.environment)
        #expect(uninstall.status == 0)
        #expect(try String(contentsOfFile: hook, encoding: .utf8) == userHook)
        #expect(!FileManager.default.fileExists(atPath: hook + ".prepush-kept"))
        let permissions = try FileManager.default.attributesOfItem(atPath: hook)[.posixPermissions] as? Int
        #expect(permissions == 0o755)
    }

    @Test func aFailingKeptHookStillRefusesThePush() throws {
        let repo = try GitRepository()
        try repo.write(userHook, to: ".git/hooks/pre-push", executable: true)
        try repo.write("stages:\n  unit:\n    run: touch '\(repo.root.url("unit-ran"))'\n", to: ".prepush.yml")
        try repo.commitAll("config")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)

        let push = try repo.push(environment: ["USER_HOOK_STATUS": "1"])
        #expect(push.status != 0)
        #expect(!repo.root.exists("unit-ran"))
        #expect(try repo.remoteHead() == nil)
    }

    @Test func installingTwiceChangesNothing() throws {
        let repo = try GitRepository()
        try repo.write(userHook, to: ".git/hooks/pre-push", executable: true)
        #expect(try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).status == 0)
        let hooks = repo.path + "/.git/hooks"
        let first = try FileManager.default.contentsOfDirectory(atPath: hooks).sorted()
        let firstHook = try Data(contentsOf: URL(fileURLWithPath: hooks + "/pre-push"))
        let firstKept = try Data(contentsOf: URL(fileURLWithPath: hooks + "/pre-push.prepush-kept"))

        let again = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)
        #expect(again.status == 0)
        #expect(again.standardOutput.contains("already installed"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: hooks).sorted() == first)
        #expect(try Data(contentsOf: URL(fileURLWithPath: hooks + "/pre-push")) == firstHook)
        #expect(try Data(contentsOf: URL(fileURLWithPath: hooks + "/pre-push.prepush-kept")) == firstKept)
    }

    @Test func coreHooksPathIsHonoured() throws {
        let repo = try GitRepository()
        try repo.git("config", "core.hooksPath", ".githooks")
        try repo.write("stages:\n  unit:\n    run: touch '\(repo.root.url("unit-ran"))'\n", to: ".prepush.yml")
        try repo.commitAll("config")

        let install = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)
        #expect(install.status == 0)
        #expect(repo.exists(".githooks/pre-push"))
        #expect(!repo.exists(".git/hooks/pre-push"))
        #expect(try repo.push().status == 0)
        #expect(repo.root.exists("unit-ran"))
    }

    @Test func theRepositoryShimWorksThroughCoreHooksPath() throws {
        // hooks/pre-push from this project, used as documented: core.hooksPath pointing at it,
        // prepush found on PATH.
        let repo = try GitRepository()
        let shim = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../hooks/pre-push").standardized.path
        let shimCopy = try repo.write(try String(contentsOfFile: shim, encoding: .utf8), to: "tools/hooks/pre-push", executable: true)
        try repo.git("config", "core.hooksPath", "tools/hooks")
        try repo.write("stages:\n  unit:\n    run: touch '\(repo.root.url("unit-ran"))'\n", to: ".prepush.yml")
        try repo.commitAll("config")
        let path = (PrepushBinary.path as NSString).deletingLastPathComponent + ":" + (repo.environment["PATH"] ?? "/usr/bin:/bin")

        let push = try repo.push(environment: ["PATH": path])
        #expect(push.status == 0, "\(push)")
        #expect(repo.root.exists("unit-ran"))
        let install = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)
        #expect(install.standardOutput.contains("already installed"), "install recognises the shim and leaves it alone")
        #expect(try String(contentsOfFile: shimCopy, encoding: .utf8) == String(contentsOfFile: shim, encoding: .utf8))
    }

    @Test func uninstallLeavesAForeignHookAlone() throws {
        let repo = try GitRepository()
        let hook = try repo.write(userHook, to: ".git/hooks/pre-push", executable: true)
        let result = try InProcessCLI.run(["uninstall"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1)
        #expect(result.standardError.contains("is not prepush's hook; left it alone"))
        #expect(try String(contentsOfFile: hook, encoding: .utf8) == userHook)
    }

    @Test func uninstallWithNothingInstalledSaysSo() throws {
        let repo = try GitRepository()
        let result = try InProcessCLI.run(["uninstall"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("nothing to remove"))
    }

    @Test func theHookSaysWhatToDoWhenPrepushIsGone() throws {
        let repo = try GitRepository()
        let copy = repo.root.url("bin/prepush")
        try FileManager.default.createDirectory(atPath: repo.root.url("bin"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: PrepushBinary.path, toPath: copy)
        try repo.write("stages:\n  unit:\n    run: 'true'\n", to: ".prepush.yml")
        try repo.commitAll("config")
        #expect(try Command.run(copy, ["install"], in: repo.path, environment: repo.environment).status == 0)
        try FileManager.default.removeItem(atPath: copy)

        let push = try repo.push(environment: ["PATH": "/usr/bin:/bin"])
        #expect(push.status != 0)
        #expect(push.standardError.contains("prepush: the pre-push hook cannot find prepush: it is no longer at \(copy) and not on PATH."))
        #expect(push.standardError.contains("git push --no-verify"))
        #expect(try repo.remoteHead() == nil)
    }

    @Test func installOutsideARepositoryIsAUsageError() throws {
        let folder = try TemporaryDirectory()
        let result = try InProcessCLI.run(["install"], in: folder.path, environment: ["PATH": "/usr/bin:/bin", "GIT_CEILING_DIRECTORIES": folder.path])
        #expect(result.status == 2)
        #expect(result.standardError.contains("not a git repository"))
    }
}
