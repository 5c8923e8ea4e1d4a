import Foundation
import PrePushTestSupport
import Testing

/// Remote UI runs against a real sshd on 127.0.0.1, through real `git push`es.
@Suite(.enabled(if: SSHServer.isAvailable, "needs /usr/sbin/sshd and root (CI installs openssh-server)"), .serialized)
struct RemoteRunTests {
    /// A repository whose UI stage runs on the test server; the working tree also holds an
    /// uncommitted change and an untracked file, which must not reach the "Mac".
    func repository(server: SSHServer, mode: String, uiRun: String, timeout: Int = 60, results: [String] = [],
                    knownHosts: String? = nil, port: Int? = nil) throws -> (GitRepository, String) {
        let repo = try GitRepository(prefix: "prepush-remote")
        let remotePath = repo.root.url("mac folder/App Checkout")
        try repo.write("committed\n", to: "Sources/state.txt")
        try repo.write("""
        stages:
          ui:
            run: '\(uiRun)'
            timeout: \(timeout)
        \(server.remoteYAML(path: remotePath, syncMode: mode, knownHosts: knownHosts, results: results, port: port))
        """, to: ".prepush.yml")
        try repo.commitAll("app with a remote UI stage")
        try repo.write("uncommitted\n", to: "Sources/state.txt")
        try repo.write("untracked\n", to: "Sources/untracked.txt")
        _ = try PrepushBinary.run(["install"], in: repo.path, environment: repo.environment)
        return (repo, remotePath)
    }

    @Test(arguments: ["rsync", "scp"])
    func theUIStageRunsOnTheMacOnExactlyThePushedCommit(mode: String) throws {
        let server = try SSHServer()
        let (repo, remotePath) = try repository(server: server, mode: mode, uiRun: "pwd > ran-in.txt; cat Sources/state.txt; ls Sources")
        let push = try repo.push()
        #expect(push.status == 0, "\(push)")
        #expect(try repo.remoteHead() == repo.head())
        #expect(push.combined.contains("prepush ✔ ui: passed"))
        #expect(push.combined.contains("on \(server.user)@127.0.0.1:\(remotePath)"))
        #expect(try String(contentsOfFile: remotePath + "/ran-in.txt", encoding: .utf8) == remotePath + "\n", "ran in the synced folder")
        #expect(try String(contentsOfFile: remotePath + "/Sources/state.txt", encoding: .utf8) == "committed\n", "the commit, not the working tree")
        #expect(!FileManager.default.fileExists(atPath: remotePath + "/Sources/untracked.txt"), "untracked files are not sent")
        #expect(!FileManager.default.fileExists(atPath: remotePath + "/.git"))
        #expect(push.combined.contains("working tree differs from the pushed commit"))
    }

    @Test func rsyncDeletesStaleFilesAndReportsWithVerbose() throws {
        let server = try SSHServer()
        let (repo, remotePath) = try repository(server: server, mode: "rsync", uiRun: "true")
        try FileManager.default.createDirectory(atPath: remotePath, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: URL(fileURLWithPath: remotePath + "/stale.txt"))
        let push = try repo.push(environment: ["UI_TEST_VERBOSE": "1"])
        #expect(push.status == 0, "\(push)")
        #expect(!FileManager.default.fileExists(atPath: remotePath + "/stale.txt"))
        #expect(push.combined.contains("prepush ▸ ui: rsync: number of regular files transferred"))
    }

    @Test func aFailingRemoteStageRefusesThePushWithItsExitStatus() throws {
        let server = try SSHServer()
        let (repo, _) = try repository(server: server, mode: "scp", uiRun: "echo UI test failed >&2; exit 3")
        let push = try repo.push()
        #expect(push.status != 0)
        #expect(try repo.remoteHead() == nil)
        #expect(push.combined.contains("prepush ✘ ui: failed (exit 3)"))
        #expect(push.combined.contains("UI test failed"))
    }

    @Test(arguments: ["rsync", "scp"])
    func aRemoteTimeoutLeavesNoProcessOnTheMac(mode: String) throws {
        let server = try SSHServer()
        let (repo, remotePath) = try repository(server: server, mode: mode, uiRun: "sleep 300 & echo $! > stage.pid; wait", timeout: 2)
        let push = try repo.push()
        #expect(push.status != 0)
        #expect(push.combined.contains("prepush ✘ ui: timed out after 2 s"))
        let pid = try #require(Processes.pids(inFile: remotePath + "/stage.pid").first, "the remote stage never wrote its pid")
        #expect(Processes.waitUntil { !Processes.isAlive(pid) }, "the remote sleep \(pid) outlived the timeout")
    }

    @Test func remoteResultsComeBackAndAreReported() throws {
        let server = try SSHServer()
        let (repo, _) = try repository(server: server, mode: "scp", uiRun: "mkdir -p build/reports && cp fixtures/ui-junit.xml build/reports/junit.xml",
                                       results: ["build/reports/junit.xml"])
        try repo.write("""
        <testsuites><testsuite name="UI"><testcase classname="AppUITests" name="test_home_addTask" time="1.5">
        <failure message="HomeView.swift:12 - add button not found"/></testcase></testsuite></testsuites>

        """, to: "fixtures/ui-junit.xml")
        try repo.git("add", "fixtures/ui-junit.xml")
        try repo.git("commit", "--quiet", "-m", "UI results the remote stage copies")
        let push = try repo.push()
        #expect(push.status == 0, "\(push)")
        #expect(push.combined.contains("prepush: tests: 0 passed, 1 failed"))
        #expect(push.combined.contains("HomeView.swift:12: error: AppUITests.test_home_addTask: add button not found"))
        #expect(FileManager.default.fileExists(atPath: repo.path + "/.prepush/reports/remote/build/reports/junit.xml"))
    }

    @Test func anUnreachablePortFailsClearlyAndQuickly() throws {
        let server = try SSHServer()
        let (repo, _) = try repository(server: server, mode: "rsync", uiRun: "true", port: 1)
        let push = try repo.push()
        #expect(push.status != 0)
        #expect(push.combined.contains("ui: could not start: error: cannot reach 127.0.0.1 over ssh"))
        #expect(push.combined.contains("Connection refused"))
    }

    @Test func aChangedHostKeyIsRefused() throws {
        let server = try SSHServer()
        let (repo, _) = try repository(server: server, mode: "scp", uiRun: "true", knownHosts: try server.knownHostsWithChangedKey())
        let push = try repo.push()
        #expect(push.status != 0)
        #expect(push.combined.contains("cannot reach 127.0.0.1 over ssh"))
        #expect(push.combined.contains("Host key verification failed"))
        #expect(try repo.remoteHead() == nil)
    }

    @Test func anOptionInjectedThroughTheHostIsRefusedBeforeAnythingRuns() throws {
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
        _ = try PrepushBinary.run(["install"], in: repo.path, environment: repo.environment)
        let push = try repo.push()
        #expect(push.status != 0)
        #expect(push.standardError.contains("remote.host: \"-oProxyCommand=touch \(marker)\" is not a safe host"))
        #expect(!FileManager.default.fileExists(atPath: marker))
    }
}
