import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// The verdict on a real package, built here: `Tests/Fixtures/TrustPackage` has six suites with a
/// test of one name (one fails with TRUST_FAIL=1) and a hanging XCTest and Swift Testing test.
/// Run through `prepush run`, with real timeouts and signals to the stage's processes.
@Suite(.serialized) struct TrustTests {
    /// The package in a repository with a bare remote, built once for every test (`swift build --build-tests`).
    static let built = BuiltOnce {
        let repo = try GitRepository(prefix: "prepush-trust")
        let source = Fixtures.own + "/TrustPackage"
        for item in ["Package.swift", "Sources", "Tests"] {
            try FileManager.default.copyItem(atPath: source + "/" + item, toPath: repo.path + "/" + item)
        }
        try repo.write(".build/\n", to: ".gitignore")
        try repo.commitAll("the package")
        _ = try Command.run("swift", ["build", "--build-tests", "-q"], in: repo.path, environment: repo.environment).checked()
        return repo
    }

    static func package() throws -> GitRepository { try built.repository() }

    /// Writes the stage and commits it, so the push and `prepush run` see the same tree.
    func configure(_ repo: GitRepository, _ command: String, timeout: Int = 120) throws {
        try repo.write("stages:\n  unit:\n    run: \(command)\n    timeout: \(timeout)\n", to: ".prepush.yml")
        try repo.commitAll("stage: \(command)")
    }

    /// Live processes whose command line names the package's test runner or swift-test.
    static func packageProcesses() -> [String] {
        #if os(Linux)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid -> String? in
            guard Int32(pid) != nil, Processes.isAlive(Int32(pid)!),
                  let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            let line = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return line.contains("TrustPackagePackageTests") || (line.contains("swift-test") && line.contains("prepush-trust")) ? "\(pid): \(line)" : nil
        }
        #else
        return []
        #endif
    }

    @Test(arguments: ["console", "event-stream"])
    func sixSuitesWithOneTestNameAreSixTestsAndTheFailureIsNotHidden(mode: String) throws {
        let repo = try Self.package()
        let extra = mode == "event-stream" ? " --event-stream-output-path .prepush/events.jsonl --event-stream-version 0" : ""
        try configure(repo, "swift test --skip-build --filter Module\(extra)")
        var environment = repo.environment
        environment["TRUST_FAIL"] = "1"
        let run = try InProcessCLI.run(["run"], in: repo.path, environment: environment)
        #expect(run.status == 1, "\(run)")
        #expect(run.standardOutput.contains("prepush: tests: 5 passed, 1 failed\n"), "\(run.standardOutput)")
        #expect(!run.standardOutput.contains("flaky"))
        // The failure comes first, with its place from the repository root.
        let failureLine = try #require(run.standardOutput.split(separator: "\n").first { $0.contains("error: ") })
        #expect(failureLine.hasPrefix("   Tests/TrustTests/SameNameTests.swift:22:"), "\(failureLine)")
        // The whole message, not its first line: the expectation's comment follows it.
        let lines = run.standardOutput.split(separator: "\n")
        let next = lines.firstIndex(of: failureLine).map { lines[$0 + 1] }
        #expect(next == "      module 4 emits", "\(run.standardOutput)")
        // The reports give the place from the repository root, as the console does.
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: repo.path + "/.prepush/reports/results.json"))) as? [String: Any]
        let failures = (report?["tests"] as? [[String: Any]] ?? []).flatMap { $0["failures"] as? [[String: Any]] ?? [] }
        #expect(failures.map { $0["file"] as? String } == ["Tests/TrustTests/SameNameTests.swift"], "\(failures)")
        // One identity whichever output was read: the console's bare `emitModule()` is placed by its
        // failure's line among the six suites declared in one file.
        #expect(failureLine.contains("error: TrustTests.Module4Tests.emitModule(): Expectation failed"), "\(failureLine)")
        if mode == "event-stream" {
            // The run's time is its wall time, from the stream's first event to its last, not the
            // parallel tests' durations added up.
            let events = try String(contentsOfFile: repo.path + "/.prepush/events.jsonl", encoding: .utf8)
            let instants = events.split(separator: "\n").compactMap { line -> Double? in
                let record = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return ((record?["payload"] as? [String: Any])?["instant"] as? [String: Any])?["absolute"] as? Double
            }
            let wall = try #require(instants.max()) - instants.min()!
            let report = try InProcessCLI.run(["results", ".prepush/events.jsonl", "--format", "json"], in: repo.path, environment: repo.environment)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(report.standardOutput.utf8)) as? [String: Any], "\(report)")
            let duration = try #require((json["summary"] as? [String: Any])?["duration"] as? Double)
            #expect(abs(duration - wall) < 0.001, "duration \(duration), wall \(wall)")
            let tests = try #require(json["tests"] as? [[String: Any]])
            let added = tests.compactMap { $0["duration"] as? Double }.reduce(0, +)
            #expect(tests.count == 6 && added > 0, "\(tests.count) tests, \(added) s added up")
        }
        let junit = try #require(try? String(contentsOfFile: repo.path + "/.prepush/reports/junit.xml", encoding: .utf8))
        #expect(junit.components(separatedBy: "name=\"emitModule()\"").count - 1 == 6)
        #expect((1...6).allSatisfy { junit.contains("classname=\"TrustTests.Module\($0)Tests\" name=\"emitModule()\"") }, "\(junit)")
        #expect(!junit.contains("flakyFailure"))
        // The saved log read again says the same and exits 1.
        let results = try InProcessCLI.run(["results", ".prepush/reports/unit.log"], in: repo.path, environment: repo.environment)
        #expect(results.status == 1, "\(results)")
    }

    @Test func whenAllPassEveryTestIsCounted() throws {
        let repo = try Self.package()
        try configure(repo, "swift test --skip-build --filter Module")
        let run = try InProcessCLI.run(["run"], in: repo.path, environment: repo.environment)
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.contains("prepush: tests: 6 passed, 0 failed\n"), "\(run.standardOutput)")
    }

    @Test(arguments: ["xctest", "swift-testing"])
    func aHangingTestIsStoppedWithEverythingSwiftTestStartedAndNamed(framework: String) throws {
        let repo = try Self.package()
        let filter = framework == "xctest" ? "HangTests" : "HangingSuite"
        // SwiftPM buffers its console when it is not a terminal: line buffering (stdbuf) or the event stream show what runs.
        let command = framework == "xctest"
            ? "stdbuf -oL swift test --skip-build --filter \(filter)"
            : "swift test --skip-build --filter \(filter) --event-stream-output-path .prepush/events.jsonl --event-stream-version 0"
        try configure(repo, command, timeout: 5)
        var environment = repo.environment
        environment["TRUST_HANG"] = framework
        let pidFile = repo.root.url("runner-\(framework).pid")
        environment["TRUST_PID_FILE"] = pidFile
        let run = try InProcessCLI.run(["run"], in: repo.path, environment: environment)
        #expect(run.status == 1, "\(run)")
        #expect(run.standardOutput.contains("prepush ✘ unit: timed out after 5 s"))
        let expectedName = framework == "xctest" ? "running: HangTests.testHang (" : "running: TrustTests.HangingSuite.hangs() ("
        #expect(run.standardOutput.contains(expectedName), "\(run.standardOutput)")
        let runner = try #require(Processes.pids(inFile: pidFile).first, "the hanging test never started")
        // prepush returns only after the tree is stopped; one second more for the kernel to reap.
        #expect(Processes.waitUntil(limit: 1) { !Processes.isAlive(runner) }, "the test runner \(runner) survived the timeout")
        #expect(Processes.waitUntil(limit: 1) { Self.packageProcesses().isEmpty }, "\(Self.packageProcesses())")
    }

    /// With the configuration `prepush init` writes (a plain `swift test` with the event stream, no
    /// stdbuf), a hanging XCTest is the one named: XCTest on Linux block-buffers into a pipe, so the
    /// stage's output is made line-buffered, and Swift Testing's tests come from the stream alone.
    @Test func aHangingXCTestIsNamedWithInitsOwnConfiguration() throws {
        let repo = try Self.package()
        _ = try InProcessCLI.run(["init", "--force"], in: repo.path, environment: repo.environment).checked()
        let written = try String(contentsOfFile: repo.path + "/.prepush.yml", encoding: .utf8)
        #expect(!written.contains("stdbuf"), "\(written)")
        try repo.commitAll("prepush init")
        var environment = repo.environment
        environment["TRUST_HANG"] = "xctest"
        let run = try InProcessCLI.run(["run", "--unit-timeout", "15"], in: repo.path, environment: environment)
        #expect(run.status == 1, "\(run)")
        #expect(run.standardOutput.contains("prepush ✘ unit: timed out after 15 s"), "\(run.standardOutput)")
        let running = try #require(run.standardOutput.split(separator: "\n").first { $0.hasPrefix("   running: ") }, "\(run.standardOutput)")
        #expect(running.hasPrefix("   running: HangTests.testHang ("), "\(running)")
        // Only the hanging test: the ones that passed before it are not listed, and none is counted twice.
        #expect(!running.contains(","), "\(running)")
        #expect(Processes.waitUntil(limit: 2) { Self.packageProcesses().isEmpty }, "\(Self.packageProcesses())")
    }

    @Test(arguments: ["xctest", "swift-testing"])
    func ctrlCDuringAPushStopsTheTestRunner(framework: String) throws {
        let repo = try Self.package()
        let filter = framework == "xctest" ? "HangTests" : "HangingSuite"
        try configure(repo, "swift test --skip-build --filter \(filter)", timeout: 300)
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).checked()
        var environment = repo.environment
        environment["TRUST_HANG"] = framework
        let pidFile = repo.root.url("push-runner-\(framework).pid")
        environment["TRUST_PID_FILE"] = pidFile
        // A session and process group of its own, as a terminal's foreground job has: Ctrl-C goes to the group.
        let groupFile = repo.root.url("push-\(framework).pgid")
        let push = try Command.start("setsid", ["-w", "sh", "-c", "echo $$ > '\(groupFile)'; exec git push origin HEAD:refs/heads/trust-\(framework)"],
                                     in: repo.path, environment: environment)
        #expect(Processes.waitUntil(limit: 60) { !Processes.pids(inFile: pidFile).isEmpty }, "the hanging test never started")
        let group = try #require(Processes.pids(inFile: groupFile).first)
        kill(-group, SIGINT)
        let result = try push.wait(upTo: 300)
        #expect(result.status != 0, "\(result)")
        #expect(result.combined.contains("interrupted by SIGINT"), "\(result)")
        #expect(try repo.remoteHead("trust-\(framework)") == nil, "the push went through")
        let runner = try #require(Processes.pids(inFile: pidFile).first)
        #expect(Processes.waitUntil(limit: 1) { !Processes.isAlive(runner) }, "the test runner \(runner) survived Ctrl-C")
        #expect(Processes.waitUntil(limit: 1) { Self.packageProcesses().isEmpty }, "\(Self.packageProcesses())")
    }

    @Test func aTimeoutDuringAPushStopsTheTestRunnerAndRefusesThePush() throws {
        let repo = try Self.package()
        try configure(repo, "swift test --skip-build --filter HangTests", timeout: 5)
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).checked()
        var environment = repo.environment
        environment["TRUST_HANG"] = "xctest"
        let pidFile = repo.root.url("push-timeout.pid")
        environment["TRUST_PID_FILE"] = pidFile
        let push = try repo.gitResult(["push", "origin", "HEAD:refs/heads/trust-timeout"], environment: environment)
        #expect(push.status != 0, "\(push)")
        #expect(push.combined.contains("prepush ✘ unit: timed out after 5 s"), "\(push)")
        #expect(try repo.remoteHead("trust-timeout") == nil)
        let runner = try #require(Processes.pids(inFile: pidFile).first, "the hanging test never started")
        #expect(Processes.waitUntil(limit: 1) { !Processes.isAlive(runner) }, "the test runner \(runner) survived the timeout")
        #expect(Processes.waitUntil(limit: 1) { Self.packageProcesses().isEmpty }, "\(Self.packageProcesses())")
    }
}
