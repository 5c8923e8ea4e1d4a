import Foundation

/// A real OpenSSH server on 127.0.0.1 for the remote-run tests: a temporary host key, a user key
/// allowed to log in as the current user, its own sshd_config, and a known_hosts file that trusts
/// it. The "remote Mac" is this machine, so a test can look at the processes a remote stage left.
public final class SSHServer: @unchecked Sendable {
    /// Where its keys, config and logs are.
    public let folder: TemporaryDirectory
    /// The port it listens on.
    public let port: Int
    /// The private key that may log in.
    public let identityFile: String
    /// A known_hosts file with this server's host key.
    public let knownHosts: String
    /// The user to log in as (the current user).
    public let user: String
    private let pidFile: String

    /// Whether a server can be started here: sshd installed and running as root (sshd needs it
    /// for privilege separation).
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd") && getuid() == 0
    }

    /// Starts the server; throws with sshd's log when it does not come up. `sessionPath` sets the
    /// PATH of every session (to leave a tool out, say).
    public init(sessionPath: String? = nil) throws {
        folder = try TemporaryDirectory(prefix: "prepush-sshd")
        let environment = ProcessInfo.processInfo.environment
        identityFile = folder.url("user_key")
        knownHosts = folder.url("known_hosts")
        pidFile = folder.url("sshd.pid")
        user = ProcessInfo.processInfo.environment["USER"] ?? "root"
        for key in ["host_key", "user_key", "other_host_key"] {
            _ = try Command.run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", folder.url(key)], environment: environment).checked()
        }
        try FileManager.default.copyItem(atPath: folder.url("user_key.pub"), toPath: folder.url("authorized_keys"))
        try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        var lastLog = ""
        for _ in 0..<5 {
            let candidate = Int.random(in: 20_000...60_000)
            try folder.write("""
            Port \(candidate)
            ListenAddress 127.0.0.1
            HostKey \(folder.url("host_key"))
            PidFile \(pidFile)
            AuthorizedKeysFile \(folder.url("authorized_keys"))
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            PubkeyAuthentication yes
            PermitRootLogin prohibit-password
            StrictModes no
            UsePAM no
            LogLevel ERROR
            \(sessionPath.map { "SetEnv PATH=\($0)" } ?? "")

            """, to: "sshd_config")
            let started = try Command.run("/usr/sbin/sshd", ["-f", folder.url("sshd_config"), "-E", folder.url("sshd.log")], environment: environment)
            let pidPath = folder.url("sshd.pid")
            if started.status == 0, Processes.waitUntil(limit: 10, { FileManager.default.fileExists(atPath: pidPath) }) {
                port = candidate
                let hostKey = try String(contentsOfFile: folder.url("host_key.pub"), encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
                try folder.write("[127.0.0.1]:\(candidate) \(hostKey)\n", to: "known_hosts")
                return
            }
            lastLog = (folder.read("sshd.log") ?? "") + started.standardError
        }
        throw CommandFailure(result: CommandResult(status: 1, standardOutput: "", standardError: "sshd did not start: \(lastLog)"))
    }

    deinit {
        // Only a pid that is still an sshd: a stale pid file's number may belong by now to another
        // test's process, which a SIGTERM from here would kill (a runner test's child once died so).
        let pids = Processes.pids(inFile: pidFile).filter { Processes.isNamed($0, "sshd") }
        for pid in pids { kill(pid, SIGTERM) }
        // sshd removes its pid file as it exits: until it has, removing the folder can meet a file
        // that vanished and stop half way (folders of keys were left behind).
        _ = Processes.waitUntil(limit: 5) { pids.allSatisfy { kill($0, 0) != 0 } }
    }

    /// A known_hosts file that has another key for this server: what a changed host key looks like.
    public func knownHostsWithChangedKey() throws -> String {
        let other = try String(contentsOfFile: folder.url("other_host_key.pub"), encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        return try folder.write("[127.0.0.1]:\(port) \(other)\n", to: "known_hosts_changed")
    }

    /// The `remote:` section of a `.prepush.yml` for this server.
    public func remoteYAML(path: String, syncMode: String, knownHosts: String? = nil, results: [String] = [], port: Int? = nil) -> String {
        var yaml = """
        remote:
          host: 127.0.0.1
          user: \(user)
          port: \(port ?? self.port)
          path: "\(path)"
          syncMode: \(syncMode)
          identityFile: "\(identityFile)"
          sshOptions:
            - UserKnownHostsFile=\(knownHosts ?? self.knownHosts)

        """
        if !results.isEmpty { yaml += "  results:\n" + results.map { "    - \($0)\n" }.joined() }
        return yaml
    }
}
