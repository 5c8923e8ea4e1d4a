#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RemoteHost {
    /// ssh's options: never a prompt (BatchMode), a bounded connect, and the user's own choices.
    /// Host keys are checked as the user's ssh configuration says; `accept-new` only when asked.
    public var sshOptionArguments: [String] {
        var arguments = ["-p", String(port), "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=15"]
        if let identityFile { arguments += ["-i", identityFile, "-o", "IdentitiesOnly=yes"] }
        if acceptNewHostKeys { arguments += ["-o", "StrictHostKeyChecking=accept-new"] }
        for option in sshOptions { arguments += ["-o", option] }
        return arguments
    }
}

/// Why a remote step failed.
public enum RemoteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A local tool (rsync, ssh, tar) is not installed.
    case missingLocalTool(String)
    /// rsync is missing on the Mac.
    case missingRemoteRsync(host: String)
    /// ssh could not connect or log in (exit 255): its own last words.
    case connection(host: String, message: String)
    /// A sync or fetch step failed.
    case step(name: String, status: Termination, output: String)

    public var description: String {
        switch self {
        case .missingLocalTool(let tool):
            return "\(tool) is not installed here; remote runs need ssh, and rsync for syncMode rsync"
        case .missingRemoteRsync(let host):
            return "rsync is not installed on \(host); install it there or use syncMode: scp"
        case .connection(let host, let message):
            return "cannot reach \(host) over ssh: \(message)"
        case .step(let name, let status, let output):
            return "\(name) failed (\(status))" + (output.isEmpty ? "" : ":\n\(output)")
        }
    }
}

/// Syncs a tree to the Mac, runs the UI command there, stops it there, and brings results back.
/// Every tool is run with an argv array; the only text a shell reads is on the Mac, with every
/// value single-quoted.
public struct RemoteSession: Sendable {
    /// Where.
    public let target: RemoteHost
    /// The environment ssh, rsync and tar run with.
    public let environment: [String: String]
    /// A local folder for temporary files (the tar stream).
    public let scratchFolder: String

    /// The file on the Mac, inside `target.path`, holding the running command's process group id.
    public static let pidFileName = ".prepush-remote.pid"
    /// Build output never synced.
    public static let excludedFolders = [".build", "DerivedData", ".prepush", ".git"]

    /// Creates a session.
    public init(target: RemoteHost, environment: [String: String], scratchFolder: String) {
        self.target = target
        self.environment = environment
        self.scratchFolder = scratchFolder
    }

    // MARK: - Sync

    /// Sends `tree` to `target.path`: rsync (compressed, deleting stale files, without build
    /// folders) or, for scp mode, a tar stream over ssh (a full copy; nothing is deleted).
    /// Returns a line describing what was sent.
    public func sync(tree: String, mode: SyncMode) throws(RemoteError) -> String {
        let start = Date()
        try runRemote("mkdir -p \(ShellQuoting.quoted(target.path))", step: "creating \(target.path) on \(target.host)")
        switch mode {
        case .rsync:
            var arguments = ["-az", "--delete", "-s", "--stats"]
            for folder in Self.excludedFolders { arguments += ["--exclude", folder] }
            arguments += ["-e", sshCommandForRsync(), tree.hasSuffix("/") ? tree : tree + "/", "\(target.destination):\(target.path)/"]
            let output = try run(ProcessSpec(executable: "rsync", arguments: arguments, environment: environment), step: "rsync to \(target.host)")
            let sent = output.split(separator: "\n").first { $0.hasPrefix("Number of regular files transferred") }.map(String.init) ?? ""
            return "rsync: \(sent.isEmpty ? "synced" : sent.lowercased()) in \(TextFormatting.duration(Date().timeIntervalSince(start)))"
        case .scp:
            let archive = FilePath.join(scratchFolder, "tree.tar")
            var tarArguments = ["-C", tree, "-cf", archive]
            for folder in Self.excludedFolders { tarArguments += ["--exclude", folder] }
            _ = try run(ProcessSpec(executable: "tar", arguments: tarArguments + ["."], environment: environment), step: "packing the tree")
            let size = (try? FileManager.default.attributesOfItem(atPath: archive)[.size] as? Int) ?? 0
            try runRemote("tar -C \(ShellQuoting.quoted(target.path)) -xf -", step: "copying the tree to \(target.host)", input: archive)
            try? FileManager.default.removeItem(atPath: archive)
            return "scp (tar over ssh): \(size / 1024) KiB in \(TextFormatting.duration(Date().timeIntervalSince(start)))"
        }
    }

    // MARK: - Run

    /// The ssh command that runs `command` in `target.path` on the Mac. sshd starts every session
    /// as a session and process group of its own (setsid), so everything the command starts shares
    /// one process group; its id goes to the pid file, and `stop()` ends the whole group. (Neither
    /// `set -m`, which a shell without a terminal ignores, nor `setsid(1)`, which macOS lacks.)
    public func commandSpec(_ command: String, environment variables: [(String, String)]) -> ProcessSpec {
        let exports = variables.map { "export \($0.0)=\(ShellQuoting.quoted($0.1))" }.joined(separator: "\n")
        let script = """
        cd \(ShellQuoting.quoted(target.path)) || exit 125
        \(exports)
        ps -o pgid= -p $$ | tr -d ' ' > \(Self.pidFileName)
        /bin/sh -c \(ShellQuoting.quoted(command)) </dev/null
        status=$?
        rm -f \(Self.pidFileName)
        exit "$status"
        """
        return ProcessSpec(executable: "ssh", arguments: target.sshOptionArguments + [target.destination, "sh -c \(ShellQuoting.quoted(script))"],
                           environment: environment)
    }

    /// Stops the remote command's whole process group: SIGTERM, then SIGKILL after `grace` seconds.
    public func stop(grace: Int = 3) {
        let pidFile = "\(ShellQuoting.quoted(target.path))/\(Self.pidFileName)"
        let script = """
        group=$(cat \(pidFile) 2>/dev/null) || exit 0
        kill -TERM -"$group" 2>/dev/null || exit 0
        i=0
        while [ $i -lt \(grace * 10) ] && kill -0 -"$group" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
        kill -KILL -"$group" 2>/dev/null
        rm -f \(pidFile)
        exit 0
        """
        _ = try? run(ProcessSpec(executable: "ssh", arguments: target.sshOptionArguments + [target.destination, "sh -c \(ShellQuoting.quoted(script))"],
                                 environment: environment), step: "stopping the remote command", timeout: Double(grace + 15))
    }

    // MARK: - Results back

    /// Brings `paths` (relative to `target.path`) back into `folder` with the sync mode; returns
    /// the local paths that arrived. A path that does not exist on the Mac is skipped.
    public func fetch(_ paths: [String], into folder: String, mode: SyncMode) throws(RemoteError) -> [String] {
        guard !paths.isEmpty else { return [] }
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw .step(name: "creating \(folder)", status: .exited(1), output: "\(error)")
        }
        switch mode {
        case .rsync:
            for path in paths {
                let arguments = ["-az", "-s", "-e", sshCommandForRsync(), "\(target.destination):\(FilePath.join(target.path, path))", folder + "/"]
                _ = try? run(ProcessSpec(executable: "rsync", arguments: arguments, environment: environment), step: "rsync from \(target.host)")
            }
        case .scp:
            let archive = FilePath.join(scratchFolder, "results.tar")
            let list = paths.map { "[ -e \(ShellQuoting.quoted($0)) ] && printf '%s\\n' \(ShellQuoting.quoted($0))" }.joined(separator: "; ")
            let script = "cd \(ShellQuoting.quoted(target.path)) || exit 1; { \(list); } | tar -cf - -T - 2>/dev/null"
            let spec = ProcessSpec(executable: "ssh", arguments: target.sshOptionArguments + [target.destination, "sh -c \(ShellQuoting.quoted(script))"],
                                   environment: environment)
            let fd = open(archive, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else { throw .step(name: "writing \(archive)", status: .exited(1), output: "") }
            let outcome = try? ProcessGroupRunner.run(spec, options: RunOptions(timeout: 600) { channel, bytes in
                if channel == .standardOutput { FileSystem.write(bytes, to: fd) }
            })
            close(fd)
            if outcome?.termination == .exited(255) { throw .connection(host: target.host, message: "while fetching results") }
            _ = try? run(ProcessSpec(executable: "tar", arguments: ["-C", folder, "-xf", archive], environment: environment), step: "unpacking results")
            try? FileManager.default.removeItem(atPath: archive)
        }
        // rsync brings `a/b/junit.xml` as `junit.xml`; the tar stream keeps `a/b/junit.xml`.
        return paths.map { path in
            mode == .rsync ? FilePath.join(folder, String(path.split(separator: "/").last ?? Substring(path))) : FilePath.join(folder, path)
        }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    // MARK: - Helpers

    /// rsync's `-e`: one string rsync splits at spaces, honouring single quotes.
    func sshCommandForRsync() -> String {
        (["ssh"] + target.sshOptionArguments).map { $0.contains(" ") || $0.contains("'") ? ShellQuoting.quoted($0) : $0 }.joined(separator: " ")
    }

    private func runRemote(_ script: String, step: String, input: String? = nil) throws(RemoteError) {
        _ = try run(ProcessSpec(executable: "ssh", arguments: target.sshOptionArguments + [target.destination, script],
                                environment: environment, standardInputFile: input), step: step)
    }

    /// Runs a step to its end, collecting its output; ssh's exit 255 is a connection failure.
    @discardableResult
    private func run(_ spec: ProcessSpec, step: String, timeout: Double = 900) throws(RemoteError) -> String {
        let ran: CommandOutput
        do {
            ran = try CommandOutput.run(spec, timeout: timeout, killGracePeriod: 3, mergingStandardError: true)
        } catch {
            throw .missingLocalTool(spec.executable)
        }
        let outcome = ran.outcome, output = ran.text
        guard outcome.succeeded else {
            if spec.executable == "ssh" && outcome.termination == .exited(255) {
                throw .connection(host: target.host, message: output.split(separator: "\n").last.map(String.init) ?? "ssh exited 255")
            }
            if spec.executable == "rsync" && (output.contains("rsync: command not found") || output.contains("rsync: not found") || outcome.termination == .exited(127)) {
                throw .missingRemoteRsync(host: target.host)
            }
            if spec.executable == "rsync", outcome.termination == .exited(255) || output.contains("connection unexpectedly closed") && output.contains("ssh:") {
                throw .connection(host: target.host, message: output.split(separator: "\n").first { $0.contains("ssh:") || $0.contains("Host key") }.map(String.init) ?? output)
            }
            throw .step(name: step, status: outcome.termination, output: output)
        }
        return output
    }
}
