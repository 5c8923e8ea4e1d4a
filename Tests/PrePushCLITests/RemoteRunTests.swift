import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// Remote UI runs against a real sshd on 127.0.0.1, through real `git push`es. Each test has a
/// server, a repository and a "Mac" folder of its own, so they run side by side, and they are
/// `async`: a test waiting for ssh holds no thread of the test run (run one after another, blocking,
/// they were its last 100 seconds with the cores idle).
/// Own process: each case is a real `git push` whose installed hook runs the UI stage over a real sshd,
/// and Ctrl-C is a real SIGINT to the binary, which must stop the command on the "Mac" as well.
@Suite(.enabled(if: SSHServer.isAvailable, "needs /usr/sbin/sshd and root (CI installs openssh-server)"))
struct RemoteRunTests {
    /// A repository whose UI stage runs on the test server; the working tree also holds an
    /// uncommitted change and an untracked file, which must not reach the "Mac".
    func repository(server: SSHServer, mode: String, uiRun: String, timeout: Int = 60, results: [String] = [],
                    knownHosts: String? = nil, port: Int? = nil, extraRemoteYAML: String = "") throws -> (GitRepository, String) {
        let repo = try GitRepository(prefix: "prepush-remote")
        let remotePath = repo.root.url("mac folder/App Checkout")
        try repo.write("committed\n", to: "Sources/state.txt")
        try repo.write("""
        stages:
          ui:
            run: '\(uiRun)'
            timeout: \(timeout)
        \(server.remoteYAML(path: remotePath, syncMode: mode, knownHosts: knownHosts, results: results, port: port))\(extraRemoteYAML)
        """, to: ".prepush.yml")
        try repo.commitAll("app with a remote UI stage")
        try repo.write("uncommitted\n", to: "Sources/state.txt")
        try repo.write("untracked\n", to: "Sources/untracked.txt")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)
        return (repo, remotePath)
    }

    @Test(arguments: ["rsync", "scp"])
    func theUIStageRunsOnTheMacOnExactlyThePushedCommit(mode: String) async throws {
        let server = try SSHServer()
        let (repo, remotePath) = try repository(server: server, mode: mode, uiRun: "pwd > ran-in.txt; cat Sources/state.txt; ls Sources")
        let push = try await repo.push()
        #expect(push.status == 0, "\(push)")
        #expect(try repo.remoteHead() == repo.head())
        #expect(push.combined.contains("prepush ✔ ui: passed"))
        #expect(push.combined.contains("on \(server.user)@127.0.0.1:\(remotePath)"))
        #expect(try String(contentsOfFile: remotePath + "/ran-in.txt", encoding: .utf8) == remotePath + "\n", "ran in the synced folder")
        #expect(try String(contentsOfFile: remotePath + "/Sources/state.txt", encoding: .utf8) == "committed\n", "the commit, not the working tree")
        #expect(!FileManager.default.fileExists(atPath: remotePath + "/Sources/untracked.txt"), "untracked files are not sent")
        #expect(!FileManager.default.fileExists(atPath: remotePath + "/.git"))
        // Nothing runs in the working tree here, so its difference from the commit goes unmentioned.
        #expect(!push.combined.contains("working tree differs"))
    }

    @Test func rsyncDeletesStaleFilesAndReportsWithVerbose() async throws {
        let server = try SSHServer()
        let (repo, remotePath) = try repository(server: server, mode: "rsync", uiRun: "true")
        try FileManager.default.createDirectory(atPath: remotePath, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: URL(fileURLWithPath: remotePath + "/stale.txt"))
        let push = try await repo.push(environment: ["UI_TEST_VERBOSE": "1"])
        #expect(push.status == 0, "\(push)")
        #expect(!FileManager.default.fileExists(atPath: remotePath + "/stale.txt"))
        #expect(push.combined.contains("prepush ▸ ui: rsync: number of regular files transferred"))
    }

    @Test func aFailingRemoteStageRefusesThePushWithItsExitStatus() async throws {
        let server = try SSHServer()
        let (repo, _) = try repository(server: server, mode: "scp", uiRun: "echo UI test failed >&2; exit 3")
        let push = try await repo.push()
        #expect(push.status != 0)
        #expect(try repo.remoteHead() == nil)
        #expect(push.combined.contains("prepush ✘ ui: failed (exit 3)"))
        #expect(push.combined.contains("UI test failed"))
    }

    @Test(arguments: ["rsync", "scp"])
    func aRemoteTimeoutLeavesNoProcessOnTheMac(mode: String) async throws {
        let server = try SSHServer()
        let (repo, remotePath) = try repository(server: server, mode: mode, uiRun: "sleep 300 & echo $! > stage.pid; wait", timeout: 2)
        let push = try await repo.push()
        #expect(push.status != 0)
        #expect(push.combined.contains("prepush ✘ ui: timed out after 2 s"))
        let pid = try #require(Processes.pids(inFile: remotePath + "/stage.pid").first, "the remote stage never wrote its pid")
        #expect(await Processes.waitUntil { !Processes.isAlive(pid) }, "the remote sleep \(pid) outlived the timeout")
    }

    @Test(arguments: ["rsync", "scp"])
    func remoteResultsComeBackAndAreReported(mode: String) async throws {
        let server = try SSHServer()
        let (repo, _) = try repository(server: server, mode: mode, uiRun: "mkdir -p build/reports && cp fixtures/ui-junit.xml build/reports/junit.xml",
                                       results: ["build/reports/junit.xml"])
        try repo.write("""
        <testsuites><testsuite name="UI"><testcase classname="AppUITests" name="test_home_addTask" time="1.5">
        <failure message="HomeView.swift:12 - add button not found"/></testcase></testsuite></testsuites>

        """, to: "fixtures/ui-junit.xml")
        try repo.git("add", "fixtures/ui-junit.xml")
        try repo.git("commit", "--quiet", "-m", "UI results the remote stage copies")
        let push = try await repo.push()
        // The stage exits 0; the failing test its results bring back refuses the push.
        #expect(push.status == 1, "\(push)")
        #expect(push.combined.contains("prepush: push refused: ui: exited 0, but its results show 1 failing test"), "\(push)")
        #expect(push.combined.contains("prepush: tests: 0 passed, 1 failed"))
        #expect(push.combined.contains("HomeView.swift:12: error: AppUITests.test_home_addTask: add button not found"))
        // rsync brings the file itself; the tar stream keeps its folders.
        let arrived = mode == "rsync" ? "/.prepush/reports/remote/junit.xml" : "/.prepush/reports/remote/build/reports/junit.xml"
        #expect(FileManager.default.fileExists(atPath: repo.path + arrived))
    }

    @Test func anUnreachablePortFailsClearlyAndQuickly() async throws {
        let server = try SSHServer()
        let (repo, _) = try repository(server: server, mode: "rsync", uiRun: "true", port: 1)
        let push = try await repo.push()
        #expect(push.status != 0)
        #expect(push.combined.contains("ui: could not start: cannot reach 127.0.0.1 over ssh"))
        #expect(push.combined.contains("Connection refused"))
    }

    @Test func aChangedHostKeyIsRefused() async throws {
        let server = try SSHServer()
        let (repo, _) = try repository(server: server, mode: "scp", uiRun: "true", knownHosts: try server.knownHostsWithChangedKey())
        let push = try await repo.push()
        #expect(push.status != 0)
        #expect(push.combined.contains("cannot reach 127.0.0.1 over ssh"))
        #expect(push.combined.contains("Host key verification failed"))
        #expect(try repo.remoteHead() == nil)
    }

    @Test func ctrlCStopsTheRemoteCommandOnTheMacToo() throws {
        let server = try SSHServer()
        // The stage outlasts any delay in the test (it would run 600 s, the longest UI timeout). (With a
        // 300 s sleep and awaited waits, a full-suite run starved this test's task for longer than
        // the sleep: its Ctrl-C then went to a prepush that had already passed. The waits below
        // hold the test's thread instead, so nothing runs between seeing the stage and the signal.)
        let (repo, remotePath) = try repository(server: server, mode: "rsync", uiRun: "sleep 3600 & echo $! > stage.pid; wait", timeout: 600)
        let running = try Command.start(PrepushBinary.path, ["run", "--ui-tests-only"], in: repo.path, environment: repo.environment)
        #expect(Processes.waitUntil(limit: 120) { !Processes.pids(inFile: remotePath + "/stage.pid").isEmpty }, "the remote stage never started")
        running.send(SIGINT)
        let result = try running.wait(upTo: 120)
        #expect(result.status == 130, "\(result)")
        #expect(result.standardOutput.contains("prepush ✘ ui: interrupted by SIGINT"), "\(result.standardOutput)")
        let pid = try #require(Processes.pids(inFile: remotePath + "/stage.pid").first)
        #expect(Processes.waitUntil { !Processes.isAlive(pid) }, "the remote sleep \(pid) outlived Ctrl-C")
    }

    @Test func anUnknownHostKeyIsRefusedUnlessNewKeysAreAccepted() async throws {
        let server = try SSHServer()
        let empty = try server.folder.write("", to: "empty_known_hosts")
        let (refused, _) = try repository(server: server, mode: "scp", uiRun: "true", knownHosts: empty)
        let push = try await refused.push()
        #expect(push.status != 0)
        #expect(push.combined.contains("Host key verification failed"))
        let (accepted, _) = try repository(server: server, mode: "scp", uiRun: "true", knownHosts: empty, extraRemoteYAML: "  acceptNewHostKeys: true\n")
        let second = try await accepted.push()
        #expect(second.status == 0, "\(second)")
        // Recorded (hashed where ssh_config says HashKnownHosts, as Debian's does).
        #expect(try String(contentsOfFile: empty, encoding: .utf8).contains("ssh-ed25519 "), "the new key was recorded")
    }

    @Test func aKeyTheMacDoesNotKnowIsRefused() async throws {
        let server = try SSHServer()
        let stranger = server.folder.url("stranger")
        _ = try await Command.run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", stranger], environment: ProcessInfo.processInfo.environment).checked()
        let (repo, _) = try repository(server: server, mode: "rsync", uiRun: "true")
        let config = try String(contentsOfFile: repo.path + "/.prepush.yml", encoding: .utf8).replacingOccurrences(of: server.identityFile, with: stranger)
        try repo.write(config, to: ".prepush.yml")
        try repo.commitAll("another key")
        let push = try await repo.push()
        #expect(push.status != 0)
        #expect(push.combined.contains("cannot reach 127.0.0.1 over ssh"))
        #expect(push.combined.contains("Permission denied"))
    }

    @Test func rsyncMissingOnTheMacIsSaidPlainly() async throws {
        // The "Mac" gives its sessions a PATH with the shell tools but no rsync.
        let tools = try TemporaryDirectory(prefix: "prepush-path")
        for tool in ["sh", "mkdir", "tar", "ps", "tr", "cat", "rm"] {
            if let found = ["/bin/", "/usr/bin/"].map({ $0 + tool }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
                try FileManager.default.createSymbolicLink(atPath: tools.url(tool), withDestinationPath: found)
            }
        }
        let server = try SSHServer(sessionPath: tools.path)
        let (repo, _) = try repository(server: server, mode: "rsync", uiRun: "true")
        let push = try await repo.push()
        #expect(push.status != 0)
        #expect(push.combined.contains("prepush ✘ ui: could not start: rsync is not installed on 127.0.0.1; install it there or use syncMode: scp"), "\(push)")
    }

    @Test func rsyncMissingHereIsSaidPlainly() async throws {
        let server = try SSHServer()
        let (repo, _) = try repository(server: server, mode: "rsync", uiRun: "true")
        let tools = try TemporaryDirectory(prefix: "prepush-path")
        for tool in ["ssh", "tar", "sh"] {
            if let found = ["/bin/", "/usr/bin/"].map({ $0 + tool }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
                try FileManager.default.createSymbolicLink(atPath: tools.url(tool), withDestinationPath: found)
            }
        }
        var environment = repo.environment
        environment["PATH"] = tools.path
        let result = try await PrepushBinary.run(["run", "--ui-tests-only"], in: repo.path, environment: environment)
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("could not start: rsync is not installed here"), "\(result)")
    }

    @Test func anOptionInjectedThroughTheHostIsRefusedBeforeAnythingRuns() async throws {
        let repo = try GitRepository()
        let marker = repo.root.url("pwned")
        try repo.write("""
        stages:
          ui:
            run: "true"
        remote:
          host: "-oProxyCommand=touch \(marker)"
          path: /tmp/x

        """, to: ".prepush.yml")
        try repo.commitAll("config")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)
        let push = try await repo.push()
        #expect(push.status != 0)
        #expect(push.standardError.contains("remote.host: \"-oProxyCommand=touch \(marker)\" is not a safe host"))
        #expect(!FileManager.default.fileExists(atPath: marker))
    }
}
