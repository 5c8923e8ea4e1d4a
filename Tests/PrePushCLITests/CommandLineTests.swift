import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// Own process: a real SIGINT or SIGTERM to the binary, whose handlers stop the stage and every process
/// it started (a test process keeps its own handlers).
@Suite struct SignalTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptStopsTheStageAndExits130(signal: Int32) throws {
        let repo = try GitRepository()
        let shellPid = repo.root.url("shell.pid"), childPid = repo.root.url("child.pid")
        try repo.write("""
        stages:
          unit:
            run: echo $$ > '\(shellPid)'; sleep 300 & echo $! > '\(childPid)'; wait

        """, to: ".prepush.yml")
        let running = try Command.start(PrepushBinary.path, ["run"], in: repo.path, environment: repo.environment)
        #expect(Processes.waitUntil { !Processes.pids(inFile: childPid).isEmpty }, "the stage never started")
        running.send(signal)
        let result = try running.wait(upTo: 300)

        #expect(result.status == 130, "\(result)")
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(result.standardOutput.contains("prepush ✘ unit: interrupted by \(name)"))
        #expect(result.standardOutput.contains("prepush: interrupted; the unit stage and every process it started were stopped"))
        for pid in Processes.pids(inFile: shellPid) + Processes.pids(inFile: childPid) {
            #expect(Processes.waitUntil { !Processes.isAlive(pid) }, "stage process \(pid) is still running")
        }
    }
}

/// Own process: `--help` and `--version` are printed by the entry point before the parser, and
/// `GIT_DIR`/`GIT_WORK_TREE` are read from the process's own environment, as git sets them for a hook.
@Suite struct CommandLineTests {
    @Test func conflictingFlagsAreAUsageError() throws {
        let repo = try GitRepository()
        let result = try InProcessCLI.run(["run", "--skip-ui-tests", "--ui-tests-only"], in: repo.path, environment: repo.environment)
        #expect(result.status == 2)
        #expect(result.standardError.contains("--skip-ui-tests and --ui-tests-only cannot be used together"))
    }

    @Test func aFlagValueThatIsNotANumberIsAUsageError() throws {
        let repo = try GitRepository()
        let result = try InProcessCLI.run(["run", "--timeout", "abc"], in: repo.path, environment: repo.environment)
        #expect(result.status == 2)
        #expect(result.standardError.contains("--timeout"))
    }

    @Test func anUnknownCommandIsAUsageError() throws {
        let repo = try GitRepository()
        #expect(try InProcessCLI.run(["lint"], in: repo.path, environment: repo.environment).status == 2)
    }

    @Test func helpAndVersionExitZero() throws {
        let repo = try GitRepository()
        let help = try PrepushBinary.run(["--help"], in: repo.path, environment: repo.environment)
        #expect(help.status == 0)
        // The exit codes are listed (the help wraps lines, so compare without line breaks).
        #expect(help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("2 bad configuration or usage, 130 interrupted"))
        let version = try PrepushBinary.run(["--version"], in: repo.path, environment: repo.environment)
        #expect(version.status == 0)
        #expect(version.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }

    /// Every command names itself: a command without `commandName` has its name made at run time
    /// from its type (`String(describing:)`), a conformance scan of the whole binary at start.
    @Test func everyCommandNamesItself() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/PrePushCommands").standardized
        var commands = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let parts = text.components(separatedBy: ": ParsableCommand {").dropFirst()
            for part in parts {
                commands += 1
                let configuration = part.components(separatedBy: "abstract:").first ?? ""
                #expect(configuration.contains("commandName:"), "\(file): a command without commandName: \(part.prefix(120))")
            }
        }
        #expect(commands >= 20)
    }

    @Test func malformedRefLinesAreAUsageError() throws {
        let repo = try GitRepository()
        let result = try InProcessCLI.run(["hook", "pre-push", "origin", "url"], in: repo.path, environment: repo.environment,
                                          standardInput: "refs/heads/main not-a-sha refs/heads/main 0\n")
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("<stdin>:1:17: error: malformed pre-push line: expected an object name of 40 or 64 hexadecimal digits, found \"not-a-sha\""))
    }

    @Test func anEmptyPushRunsNothing() throws {
        let repo = try GitRepository()
        try repo.write("stages:\n  unit:\n    run: touch '\(repo.root.url("ran"))'\n", to: ".prepush.yml")
        let result = try InProcessCLI.run(["hook", "pre-push", "origin", "url"], in: repo.path, environment: repo.environment, standardInput: "")
        #expect(result.status == 0)
        #expect(!repo.root.exists("ran"))
    }

    @Test func withoutAConfigurationAPackageGetsSwiftTest() throws {
        let repo = try GitRepository()
        try repo.write("// swift-tools-version:5.9\n", to: "Package.swift")
        let result = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("unit.run"))
        #expect(result.standardOutput.contains("swift test"))
        #expect(result.standardOutput.contains("(default (Package.swift found))"))
    }

    #if os(Linux)
    #endif

    @Test func configShowsWhereEachValueCameFrom() throws {
        let repo = try GitRepository()
        try repo.write("verbose: yes\nstages:\n  ui:\n    run: make ui\n    timeout: 120\n", to: ".prepush.yml")
        var environment = repo.environment
        environment["UI_TEST_TIMEOUT"] = "90"
        let result = try InProcessCLI.run(["config", "--sync-mode", "rsync"], in: repo.path, environment: environment)
        #expect(result.status == 0, "\(result)")
        let lines = result.standardOutput.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines.contains("uiTestTimeout 90 (environment UI_TEST_TIMEOUT)"))
        #expect(lines.contains("verbose true (file .prepush.yml:1:10)"))
        #expect(lines.contains("syncMode rsync (flag --sync-mode)"))
        #expect(lines.contains("ui.run make ui (file .prepush.yml:4:10)"))
        #expect(lines.contains("skipUITests false (default)"))
    }

    @Test func gitDirFromTheEnvironmentIsHonoured() throws {
        // The binary: GIT_DIR is read from the process's environment, as git sets it for a hook.
        // As in a hook: GIT_DIR and GIT_WORK_TREE name the repository, whatever the current folder.
        let repo = try GitRepository()
        try repo.write("stages:\n  ui:\n    run: make ui-from-git-dir\n", to: ".prepush.yml")
        let elsewhere = try TemporaryDirectory()
        var environment = repo.environment
        environment["GIT_DIR"] = repo.path + "/.git"
        environment["GIT_WORK_TREE"] = repo.path
        let result = try PrepushBinary.run(["config"], in: elsewhere.path, environment: environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("make ui-from-git-dir"))
    }

    @Test func aConfigFileCanBeNamed() throws {
        let repo = try GitRepository()
        try repo.write("stages:\n  unit:\n    run: touch '\(repo.root.url("from-ci"))'\n", to: "ci/prepush.yml")
        let result = try InProcessCLI.run(["run", "--config", "ci/prepush.yml"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        #expect(repo.root.exists("from-ci"))
        var environment = repo.environment
        environment["PREPUSH_CONFIG"] = "missing.yml"
        let missing = try InProcessCLI.run(["run"], in: repo.path, environment: environment)
        #expect(missing.status == 2)
        #expect(missing.standardError == "error: configuration file missing.yml (from environment PREPUSH_CONFIG) does not exist\n")
    }
}

@Suite struct IsolatedRunTests {
}
