import Foundation
import PrePushTestSupport
import Testing

/// The action's released binary, end to end on this machine: scripts/package-release.sh packages a
/// binary as release.yml does, a local HTTP server stands in for GitHub's release downloads, and
/// scripts/fetch-release.sh (the action's first step) downloads, checks the SHA-256 and unpacks it;
/// a tampered asset is refused, a ref with no release builds from source.
/// Own process: the built binary itself is packaged, served, fetched, checked by its SHA-256 and
/// unpacked, as the action's first step does.
@Suite(.serialized, .timeLimit(.minutes(2))) struct ReleaseFetchTests {
    struct ServerDidNotStart: Error {
        let output: String
    }

    static let scripts = Fixtures.repositoryRoot.appendingPathComponent("scripts").path

    static var platform: String {
        var name = utsname()
        uname(&name)
        let machine = withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return machine == "x86_64" ? "linux-x86_64" : "linux-aarch64"
    }

    /// A folder served on 127.0.0.1 by Python's http.server; its base URL.
    static func serve(_ folder: String) throws -> (RunningCommand, String) {
        let server = try Command.start("python3", ["-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", folder, "0"],
                                       environment: ProcessInfo.processInfo.environment)
        for _ in 0..<200 {
            if let line = server.standardOutputSoFar.split(separator: "\n").first(where: { $0.contains(" port ") }),
               let port = line.split(separator: " ").drop(while: { $0 != "port" }).dropFirst().first.flatMap({ Int($0) }) {
                return (server, "http://127.0.0.1:\(port)")
            }
            usleep(50_000)
        }
        server.send(SIGKILL)
        throw ServerDidNotStart(output: server.wait().combined)
    }

    static func fetch(ref: String, releases: String, install: TemporaryDirectory) throws -> (CommandResult, String, String) {
        var environment = ProcessInfo.processInfo.environment
        environment["PREPUSH_REF"] = ref
        environment["PREPUSH_RELEASES"] = releases
        environment["PREPUSH_INSTALL"] = install.path
        environment["GITHUB_OUTPUT"] = install.url("output")
        environment["GITHUB_ENV"] = install.url("env")
        _ = try install.write("", to: "output")
        _ = try install.write("", to: "env")
        let run = try Command.run("bash", [Self.scripts + "/fetch-release.sh"], environment: environment)
        return (run, install.read("output") ?? "", install.read("env") ?? "")
    }

    @Test func theReleasedBinaryIsFetchedCheckedAndATamperedOneRefused() throws {
        let releases = try TemporaryDirectory(prefix: "prepush-releases")
        let package = try Command.run("bash", [Self.scripts + "/package-release.sh", PrepushBinary.path, "v9.9.9", Self.platform, releases.url("v9.9.9")],
                                      environment: ProcessInfo.processInfo.environment)
        #expect(package.status == 0, "\(package)")
        let asset = "prepush-v9.9.9-\(Self.platform).tar.gz"
        #expect(releases.exists("v9.9.9/\(asset)") && releases.exists("v9.9.9/\(asset).sha256"))
        let (server, base) = try Self.serve(releases.path)
        defer {
            // SIGKILL: a test process may block SIGTERM, and its children inherit the mask.
            server.send(SIGKILL)
            _ = server.wait()
        }

        let install = try TemporaryDirectory(prefix: "prepush-install")
        let (fetched, output, env) = try Self.fetch(ref: "v9.9.9", releases: base, install: install)
        let binary = install.url("prepush-v9.9.9-\(Self.platform)/bin/prepush")
        let binarySHA = try Command.run("sha256sum", [binary], environment: ProcessInfo.processInfo.environment).standardOutput.prefix(64)
        // The path and the binary's own SHA-256 as step outputs: what the action's comment step runs and checks.
        #expect(fetched.status == 0 && output == "found=true\npath=\(binary)\nsha256=\(binarySHA)\n", "\(fetched) \(output)")
        #expect(env == "PREPUSH=\(binary)\n")
        let version = try Command.run(binary, ["--version"], environment: ProcessInfo.processInfo.environment)
        #expect(version.status == 0 && !version.standardOutput.isEmpty)

        // One byte more than the release says: refused, not run, nothing built instead.
        let handle = try #require(FileHandle(forWritingAtPath: releases.url("v9.9.9/\(asset)")))
        handle.seekToEndOfFile()
        handle.write(Data([0]))
        handle.closeFile()
        let otherInstall = try TemporaryDirectory(prefix: "prepush-install")
        let (tampered, tamperedOutput, tamperedEnv) = try Self.fetch(ref: "v9.9.9", releases: base, install: otherInstall)
        #expect(tampered.status == 1, "\(tampered)")
        #expect(tampered.standardError.contains("prepush: error: \(asset) has SHA-256 ") && tampered.standardError.contains("not run"), "\(tampered)")
        #expect(tamperedOutput.isEmpty && tamperedEnv.isEmpty)
        #expect(!otherInstall.exists("prepush-v9.9.9-\(Self.platform)/bin/prepush"))

        // A tag with no release, and a branch: built from source.
        for ref in ["v0.0.1", "main"] {
            let (missing, missingOutput, _) = try Self.fetch(ref: ref, releases: base, install: try TemporaryDirectory(prefix: "prepush-install"))
            #expect(missing.status == 0 && missingOutput == "found=false\n", "\(ref): \(missing)")
        }
    }
}
