import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// `core.hooksPath` pointing at a committed hooks folder (git-lfs's call in its pre-push): `install`
/// writes nothing there and says what to commit, and what it says works on a real push.
/// Own process: the advice is a hook script that pipes git's ref lines to the `prepush` on PATH; only a
/// real `git push` through it shows it works.
@Suite struct TrackedHooksTests {
    @Test func aCommittedHookIsLeftAloneAndTheAdviceWorks() throws {
        let repo = try GitRepository()
        let lfsLike = "#!/bin/sh\n# what git lfs install writes, standing in for it: reads the refs\ncat > /dev/null\n"
        try repo.write(lfsLike, to: ".githooks/pre-push", executable: true)
        try repo.write("stages:\n  unit:\n    run: touch '\(repo.root.url("stage-ran"))'\n", to: ".prepush.yml")
        try repo.commitAll("team hooks")
        try repo.git("config", "core.hooksPath", ".githooks")
        let install = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)
        #expect(install.status == 2, "\(install)")
        #expect(install.standardError.hasPrefix("prepush: not installed: .githooks/pre-push is committed (core.hooksPath .githooks);"), "\(install)")
        #expect(try repo.root.read("work/.githooks/pre-push") == lfsLike)
        #expect(!repo.exists(".githooks/pre-push.prepush-kept"))
        #expect(try repo.git("status", "--porcelain").isEmpty)

        // The advice, followed: the refs read once, given to the command that was there and to prepush.
        let advised = "#!/bin/sh\nrefs=$(cat)\nprintf '%s\\n' \"$refs\" | cat > /dev/null || exit $?\nprintf '%s\\n' \"$refs\" | prepush hook pre-push \"$@\"\n"
        #expect(install.standardError.contains("  refs=$(cat)\n") && install.standardError.contains("  printf '%s\\n' \"$refs\" | prepush hook pre-push \"$@\""), "\(install)")
        try repo.write(advised, to: ".githooks/pre-push", executable: true)
        try repo.commitAll("prepush in the team's hook")
        let path = (PrepushBinary.path as NSString).deletingLastPathComponent + ":" + (repo.environment["PATH"] ?? "")
        let pushed = try repo.push(environment: ["PATH": path])
        #expect(pushed.status == 0 && repo.root.exists("stage-ran"), "\(pushed)")
        let again = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)
        #expect(again.status == 0 && again.standardOutput == "prepush: .githooks/pre-push is committed and already runs prepush; nothing to install\n", "\(again)")
    }

    @Test func aTrackedFolderWithoutAPrePushHookGetsTheHookToCommit() throws {
        let repo = try GitRepository()
        try repo.write("#!/bin/sh\nexit 0\n", to: "tools/hooks/pre-commit", executable: true)
        try repo.commitAll("hooks")
        try repo.git("config", "core.hooksPath", "tools/hooks")
        let install = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)
        #expect(install.status == 2 && install.standardError.contains("Commit tools/hooks/pre-push (executable) instead") && install.standardError.contains("  exec prepush hook pre-push \"$@\""), "\(install)")
        #expect(!repo.exists("tools/hooks/pre-push"))
    }
}
