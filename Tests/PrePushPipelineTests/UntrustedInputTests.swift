import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// In CI the repository is a pull request's content: what it names must not lead prepush out of it,
/// make it print other files, fill its memory or scatter its reports. Each case runs the real binary.
/// Own process: a first run started as a process holds the reports folder while a second runs (it names
/// the first's pid); a giant line's cost is the binary's peak memory; and kill -9 of the binary must take
/// its stage with it.
@Suite struct UntrustedInputTests {
    /// A file beside the repository (not in it) that no output may quote.
    static let secret = "password: SECRET-hunter2-DO-NOT-PRINT\n"

    func repository(config: String? = nil) throws -> GitRepository {
        let repo = try GitRepository()
        try repo.root.write(Self.secret, to: "secret.txt")
        if let config { try repo.write(config, to: ".prepush.yml") }
        return repo
    }

    func symlink(_ link: String, to target: String, in repo: GitRepository) throws {
        let path = FilePath(repo.path, link)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    // MARK: - Files the repository names stay inside it

    @Test func aCatalogThatIsASymlinkOutOfTheRepositoryIsRefusedUnread() throws {
        let repo = try repository()
        try symlink(".prepush/scenarios.yml", to: "../../secret.txt", in: repo)
        for arguments in [["scenarios", "lint"], ["run"]] {
            let result = try InProcessCLI.run(arguments, in: repo.path, environment: repo.environment)
            #expect(result.status == 1 || result.status == 2, "\(arguments): \(result)")
            #expect(!result.combined.contains("SECRET"), "\(arguments) printed the file: \(result)")
            #expect(result.combined.contains(".prepush/scenarios.yml:1:1: error: the scenario catalog is refused: .prepush/scenarios.yml is or passes through a symbolic link that leads out of the repository"), "\(result)")
        }
    }

    @Test func aCatalogNamedByAnAbsolutePathIsRefusedUnread() throws {
        let repo = try repository()
        try repo.write("traceability:\n  catalog: \(repo.root.url("secret.txt"))\n", to: ".prepush.yml")
        let result = try InProcessCLI.run(["scenarios", "lint"], in: repo.path, environment: repo.environment)
        #expect(result.status != 0)
        #expect(!result.combined.contains("SECRET"), "\(result)")
        #expect(result.combined.contains("is an absolute path; a file the repository names must be inside it"), "\(result)")
        // Named on the command line, the same file is the user's own choice: it is read.
        let named = try InProcessCLI.run(["scenarios", "lint", repo.root.url("secret.txt")], in: repo.path, environment: repo.environment)
        #expect(named.combined.contains("password"), "\(named)")
    }

    @Test func aConfigurationFileThatIsASymlinkOutIsRefusedUnread() throws {
        let repo = try repository()
        try symlink(".prepush.yml", to: "../secret.txt", in: repo)
        let result = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardOutput.isEmpty && !result.standardError.contains("SECRET"), "\(result)")
        #expect(result.standardError == "error: configuration file: .prepush.yml is or passes through a symbolic link that leads out of the repository; refused without reading it\n")
    }

    @Test func aConfigurationThatIsAFolderOrAFIFOGetsASentence() throws {
        let repo = try repository()
        try FileManager.default.createDirectory(atPath: FilePath(repo.path, "conf.d"), withIntermediateDirectories: true)
        let folder = try InProcessCLI.run(["config", "--config", "conf.d"], in: repo.path, environment: repo.environment)
        #expect(folder.status == 2)
        #expect(folder.standardError == "error: configuration file conf.d is a folder, not a file\n", "\(folder)")
        // A FIFO nobody writes to would block a plain read for ever.
        #expect(mkfifo(FilePath(repo.path, ".prepush.yml"), 0o644) == 0)
        let fifo = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(fifo.status == 2)
        #expect(fifo.standardError == "error: configuration file .prepush.yml is not a regular file (a FIFO, a socket or a device)\n", "\(fifo)")
    }

    @Test func aNULInAValueIsAnErrorNotASilentCut() throws {
        let repo = try repository(config: "stages:\n  unit:\n    run: \"true\"\n    env:\n      TOKEN: \"abc\\0def\"\n")
        let result = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix(#".prepush.yml:5:14: error: stages.unit.env.TOKEN: "abc\0def" holds a NUL character"#), "\(result)")
    }

    @Test func anAliasBombInTheCatalogIsRefusedWithItsPlace() throws {
        let repo = try repository()
        var yaml = "a: &a [x,x,x,x,x,x,x,x,x]\n"
        for (previous, name) in zip(["a", "b", "c", "d", "e", "f", "g", "h"], ["b", "c", "d", "e", "f", "g", "h", "i"]) {
            yaml += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]\n"
        }
        try repo.write(yaml, to: ".prepush/scenarios.yml")
        let result = try InProcessCLI.run(["scenarios", "lint"], in: repo.path, environment: repo.environment)
        #expect(result.status == 2 || result.status == 1, "\(result)")
        #expect(result.combined.contains(".prepush/scenarios.yml:5:"), "\(result)")
        #expect(result.combined.contains("aliases repeat more than 10000 nodes"), "\(result)")
    }

    // MARK: - Reports stay where they belong

    @Test func aReportsFolderOutsideTheRepositoryFromTheFileIsRefused() throws {
        for (value, problem) in [("/", "is an absolute path"), ("../../x", "leads out of the repository with '..'"),
                                 ("/tmp/prepush-reports", "is an absolute path")] {
            let repo = try repository(config: "reports:\n  directory: \(value)\nstages:\n  unit:\n    run: \"true\"\n")
            let result = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
            #expect(result.status == 2, "\(value): \(result)")
            #expect(result.standardError.hasPrefix(".prepush.yml:2:14: error: reports.directory: \"\(value)\" \(problem)"), "\(result)")
        }
    }

    @Test func aReportsFolderGivenOnTheCommandLineMayBeAnywhere() throws {
        let repo = try repository(config: "stages:\n  unit:\n    run: echo from-the-stage\n")
        let elsewhere = try TemporaryDirectory()
        let reports = elsewhere.url("reports")
        let result = try InProcess.run(["run", "--reports-dir", reports], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        #expect(elsewhere.read("reports/unit.log")?.contains("from-the-stage") == true)
    }

    @Test func aReportsFolderThatIsASymlinkIsRefused() throws {
        let repo = try repository(config: "reports:\n  directory: out\nstages:\n  unit:\n    run: \"true\"\n")
        let target = try TemporaryDirectory()
        try symlink("out", to: target.path, in: repo)
        // Named by the file, the link leads out of the repository.
        let fromFile = try InProcess.run(["run"], in: repo.path, environment: repo.environment)
        #expect(fromFile.status == 2, "\(fromFile)")
        #expect(fromFile.standardError.hasPrefix(".prepush.yml:2:14: error: reports.directory: \"out\" is or passes through a symbolic link that leads out of the repository"), "\(fromFile)")
        // Named on the command line, a folder anywhere would do, but not a link to one.
        let link = FilePath(repo.path, "out")
        let flagged = try InProcess.run(["run", "--reports-dir", link], in: repo.path, environment: repo.environment)
        #expect(flagged.status == 2, "\(flagged)")
        #expect(flagged.standardError.contains("error: reports folder: \(link) is a symbolic link"), "\(flagged)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty, "prepush wrote through the link")
    }

    @Test func aFolderOfTheUsersFilesNeverBecomesTheReportsFolder() throws {
        let repo = try repository(config: "reports:\n  directory: Sources\nstages:\n  unit:\n    run: \"true\"\n")
        try repo.write("let x = 1\n", to: "Sources/App.swift")
        let result = try InProcess.run(["run"], in: repo.path, environment: repo.environment)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("already holds files prepush did not write (App.swift)"), "\(result)")
        #expect(!repo.exists("Sources/.gitignore"), "a * .gitignore would hide the user's sources from git")
        #expect(try repo.git("status", "--porcelain").contains("Sources/"))
    }

    @Test func twoRunsAtOnceWriteTheirOwnLogs() throws {
        let release = FilePath(NSTemporaryDirectory(), "prepush-release-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: release) }
        let stage = "echo \\\"output of run $RUN_NAME\\\"; if [ \\\"$RUN_NAME\\\" = first ]; then while [ ! -f '\(release)' ]; do sleep 0.05; done; fi"
        let repo = try repository(config: "stages:\n  unit:\n    run: \"\(stage)\"\n")
        var firstEnvironment = repo.environment
        firstEnvironment["RUN_NAME"] = "first"
        let first = try Command.start(PrepushBinary.path, ["run"], in: repo.path, environment: firstEnvironment)
        let mainLog = FilePath(repo.path, ".prepush/reports/unit.log")
        #expect(Processes.waitUntil(limit: 30) { (try? String(contentsOfFile: mainLog, encoding: .utf8))?.contains("output of run first") == true })

        var secondEnvironment = repo.environment
        secondEnvironment["RUN_NAME"] = "second"
        let second = try InProcess.run(["run"], in: repo.path, environment: secondEnvironment)
        FileManager.default.createFile(atPath: release, contents: nil)
        let firstResult = try first.wait(upTo: 120)
        #expect(firstResult.status == 0, "\(firstResult)")
        #expect(second.status == 0, "\(second)")
        #expect(second.standardOutput.contains("prepush: another prepush run (pid \(first.pid)) is writing to \(FilePath(repo.path, ".prepush/reports")); this run's logs and reports go to"), "\(second)")
        let ownLog = try #require(try FileManager.default.subpathsOfDirectory(atPath: FilePath(repo.path, ".prepush/reports/runs"))
            .first { $0.hasSuffix("unit.log") })
        let secondLog = try String(contentsOfFile: FilePath(repo.path, ".prepush/reports/runs/\(ownLog)"), encoding: .utf8)
        #expect(secondLog == "output of run second\n")
        #expect(try String(contentsOfFile: mainLog, encoding: .utf8) == "output of run first\n")
        #expect(try !repo.git("status", "--porcelain").contains(".prepush/"), "the runs folder is ignored with the reports")
    }

    // MARK: - Memory that does not grow with input

    /// One 200 MB line without a newline (a progress bar that never ends its line) once cost its
    /// size in memory; the log still gets every byte.
    @Test func aGiantLineCostsBoundedMemory() throws {
        let repo = try repository(config: "stages:\n  unit:\n    run: head -c 200000000 /dev/zero | tr '\\0' x\n")
        // Python measures the peak memory of prepush alone (its only child), not of this test process's other children.
        let script = """
        import resource, subprocess, sys
        subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
        print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        """
        let result = try Command.run("python3", ["-c", script, PrepushBinary.path, "run"], in: repo.path, environment: repo.environment)
        let peakKB = try #require(Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)), "\(result)")
        #expect(peakKB < 100_000, "prepush peaked at \(peakKB) KB for a 200 MB line")
        let log = try FileManager.default.attributesOfItem(atPath: FilePath(repo.path, ".prepush/reports/unit.log"))
        #expect((log[.size] as? Int) == 200_000_000, "the log lost bytes")
    }

    @Test func aViewFileOverTheSizeLimitIsNamedAndNotChecked() throws {
        let repo = try repository()
        let body = String(repeating: "        Button { tap() } label: { Image(systemName: \"star\") }\n", count: 20_000)
        let view = "import SwiftUI\nstruct BigView: View {\n    var body: some View {\n    VStack {\n\(body)    }\n    }\n}\n"
        try repo.write(view, to: "App/Views/BigView.swift")
        let result = try InProcessCLI.run(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput == "prepush: note: App/Views/BigView.swift: \(view.utf8.count / 1000) KB, over the 1000 KB limit (accessibility.maxFileSize); not checked\n", "\(result)")
        try repo.write("accessibility:\n  maxFileSize: 2MB\n", to: ".prepush.yml")
        let raised = try InProcessCLI.run(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(raised.status == 1, "\(raised)")
        #expect(raised.standardOutput.contains("[icon-button-missing-label]"))
    }

    // MARK: - Processes

    @Test func aKilledPrepushTakesItsStageWithIt() throws {
        let repo = try repository()
        let pidFile = repo.root.url("stage.pid")
        try repo.write("stages:\n  unit:\n    run: \"echo $$ > '\(pidFile)'; exec sleep 300\"\n", to: ".prepush.yml")
        let running = try Command.start(PrepushBinary.path, ["run"], in: repo.path, environment: repo.environment)
        #expect(Processes.waitUntil(limit: 30) { !Processes.pids(inFile: pidFile).isEmpty })
        let stage = try #require(Processes.pids(inFile: pidFile).first)
        running.send(SIGKILL)
        _ = try running.wait(upTo: 30)
        #expect(Processes.waitUntil(limit: 5) { !Processes.isAlive(stage) }, "the stage \(stage) outlived kill -9 of prepush")
    }

    @Test func anExportFolderAKilledRunLeftIsRemovedAtTheNextStart() throws {
        let repo = try repository(config: "isolated: true\nstages:\n  unit:\n    run: \"true\"\n")
        try repo.commitAll("config")
        let temporary = try TemporaryDirectory()
        // A pid that has ended: a process that ran and was reaped.
        let ended = try Command.start("true", [], environment: repo.environment)
        _ = try ended.wait(upTo: 30)
        let left = temporary.url("prepush-export-\(ended.pid)-0a1b2c3d")
        let live = temporary.url("prepush-export-\(getpid())-0a1b2c3d")
        for folder in [left, live] { try FileManager.default.createDirectory(atPath: folder + "/tree", withIntermediateDirectories: true) }
        var environment = repo.environment
        environment["TMPDIR"] = temporary.path
        let result = try InProcess.run(["run"], in: repo.path, environment: environment)
        #expect(result.status == 0, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: left), "the killed run's export is still there")
        #expect(FileManager.default.fileExists(atPath: live), "a live run's export was removed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == ["prepush-export-\(getpid())-0a1b2c3d"])
    }

    /// A stage that starts a daemon holding its stdout (a simulator helper, a test server) and exits:
    /// the push once waited for the daemon, past the timeout.
    @Test func aDaemonHoldingTheOutputDoesNotHoldThePush() throws {
        let repo = try repository()
        let pidFile = repo.root.url("daemon.pid")
        try repo.write("stages:\n  unit:\n    run: \"setsid sleep 300 & echo $! > '\(pidFile)'; echo stage done; exit 0\"\n    timeout: 30\n", to: ".prepush.yml")
        let result = try InProcess.run(["run"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        #expect(!result.combined.contains("timed out"), "\(result)")
        let daemon = try #require(Processes.pids(inFile: pidFile).first)
        #expect(result.standardOutput.contains("prepush: note: stopped 1 process the unit stage left running:"), "\(result)")
        #expect(Processes.waitUntil(limit: 2) { !Processes.isAlive(daemon) })
    }
}

/// `base/relative` without NSString.
private func FilePath(_ base: String, _ relative: String) -> String {
    base.hasSuffix("/") ? base + relative : base + "/" + relative
}
