import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// The run history in `.git/prepush/history.sqlite`: writers at the same time all land, a damaged
/// file is moved aside and never fails a run, CI results import.
/// Own process: four processes write the history at once, so SQLite's locking between processes, not
/// threads of one, is what lets every run land.
@Suite struct RunHistoryTests {
    static let results = Fixtures.shared + "/junit/fastlane__trainer_fixtures__Valid1.junit.xml"

    /// Lines of `prepush history` that list a run.
    func listedRuns(_ repo: GitRepository) throws -> [Substring] {
        let shown = try InProcessCLI.run(["history", "--limit", "1000"], in: repo.path, environment: repo.environment)
        #expect(shown.status == 0, "\(shown)")
        return shown.standardOutput.split(separator: "\n")
    }

    @Test func writersAtTheSameTimeAllLand() throws {
        let repo = try GitRepository()
        try repo.write("x\n", to: "README.md")
        try repo.commitAll("a repository")
        // Four processes, each importing the same results ten times, all at once.
        let script = "for i in 1 2 3 4 5 6 7 8 9 10; do \"$1\" history import \"$2\" >/dev/null || exit 1; done"
        let writers = try (0..<4).map { _ -> Process in
            let writer = Process()
            writer.executableURL = URL(fileURLWithPath: "/bin/sh")
            writer.arguments = ["-c", script, "sh", PrepushBinary.path, Self.results]
            writer.currentDirectoryURL = URL(fileURLWithPath: repo.path)
            writer.environment = repo.environment
            try writer.run()
            return writer
        }
        for writer in writers {
            writer.waitUntilExit()
            #expect(writer.terminationStatus == 0)
        }
        let runs = try listedRuns(repo)
        #expect(runs.count == 40, "\(runs.count) runs")
        #expect(runs.allSatisfy { $0.contains("  imported  ") })
    }

    @Test func aDamagedHistoryIsMovedAsideAndTheRunStillPasses() throws {
        let repo = try GitRepository()
        try repo.write("cache: false\nstages:\n  unit:\n    run: echo tested\n", to: ".prepush.yml")
        try repo.commitAll("a stage")
        _ = try InProcess.run(["run", "--base", "HEAD"], in: repo.path, environment: repo.environment).checked()
        let path = repo.path + "/.git/prepush/history.sqlite"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > 1000)
        // Its first page overwritten (the header with it), and the write-ahead log (where the newest
        // pages wait for a checkpoint) zeroed: nothing of it can be read.
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.write(contentsOf: Data(repeating: 0xAB, count: 1000))
        try handle.close()
        if let log = FileManager.default.contents(atPath: path + "-wal") {
            try Data(count: log.count).write(to: URL(fileURLWithPath: path + "-wal"))
        }

        let run = try InProcess.run(["run", "--base", "HEAD"], in: repo.path, environment: repo.environment)
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.contains("prepush: note: the run history \(path) could not be read ("), "\(run)")
        #expect(run.standardOutput.contains("moved aside to \(path).damaged-"), "\(run)")
        // The database, with its write-ahead log and index beside it.
        let aside = try FileManager.default.contentsOfDirectory(atPath: repo.path + "/.git/prepush").filter { $0.hasPrefix("history.sqlite.damaged-") }
        #expect(aside.filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }.count == 1, "\(aside)")
        // A new history holds the run that found the damage.
        #expect(try listedRuns(repo).count == 1)
    }

    /// Four suites can each have a `compileXib()`: the short name lists them instead of mixing their histories.
    @Test func aShortNameOfSeveralTestsListsThem() throws {
        let repo = try GitRepository()
        try repo.write("x\n", to: "README.md")
        try repo.commitAll("a repository")
        try repo.root.write("""
        <testsuites><testsuite name="Render" tests="2">
        <testcase classname="XibTests" name="compileXib()" time="0.1"/>
        <testcase classname="NibTests" name="compileXib()" time="0.1"><failure message="broken"/></testcase>
        </testsuite></testsuites>

        """, to: "run.xml")
        #expect(try InProcessCLI.run(["history", "import", repo.root.url("run.xml")], in: repo.path, environment: repo.environment).status == 0)
        let short = try InProcessCLI.run(["history", "compileXib"], in: repo.path, environment: repo.environment)
        #expect(short.status == 1, "\(short)")
        #expect(short.standardOutput == "prepush: compileXib names 2 tests; give one of them:\n  NibTests.compileXib()\n  XibTests.compileXib()\n", "\(short)")
        let whole = try InProcessCLI.run(["history", "NibTests/compileXib"], in: repo.path, environment: repo.environment)
        #expect(whole.status == 0 && whole.standardOutput.contains("failed") && whole.standardOutput.contains("NibTests.compileXib()"), "\(whole)")
    }

    /// Swift Testing shows a test by its display name; the history keeps its identity. The name
    /// the user saw finds it, quoted as the console prints it or not.
    @Test func aDisplayNameFindsItsTest() throws {
        let repo = try GitRepository()
        try repo.write("""
        import Testing
        @Test("A display name that fails") func displayNamed() { #expect(1 == 2) }

        """, to: "Tests/ShopTests/ShopTests.swift")
        try repo.commitAll("a test with a display name")
        try repo.root.write("""
        <testsuites><testsuite name="ShopTests" tests="1">
        <testcase classname="ShopTests" name="displayNamed()" time="0.1"><failure message="1 == 2"/></testcase>
        </testsuite></testsuites>

        """, to: "run.xml")
        #expect(try InProcessCLI.run(["history", "import", repo.root.url("run.xml")], in: repo.path, environment: repo.environment).status == 0)
        for name in ["A display name that fails", "\"A display name that fails\""] {
            let shown = try InProcessCLI.run(["history", name], in: repo.path, environment: repo.environment)
            #expect(shown.status == 0, "\(shown)")
            #expect(shown.standardOutput.contains("failed") && shown.standardOutput.contains("ShopTests.displayNamed()"), "\(shown)")
        }
    }

    @Test func importedResultsAreRunsOfTheirOwn() throws {
        let repo = try GitRepository()
        try repo.write("x\n", to: "README.md")
        try repo.commitAll("a repository")
        let imported = try InProcessCLI.run(["history", "import", Self.results], in: repo.path, environment: repo.environment)
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.standardOutput.hasPrefix("prepush: imported "), "\(imported)")
        let missing = try InProcessCLI.run(["history", "import", "nowhere.json"], in: repo.path, environment: repo.environment)
        #expect(missing.status == 2, "\(missing)")
        #expect(try listedRuns(repo).count == 1)
    }

    /// Xcode ran the tests of fastlane's captured run twice each (`-test-iterations`): a test that
    /// passed both times ran twice and is not flaky, nor one that failed both times. Counted as
    /// attempts, 35 of its passing tests were once listed as flaky.
    @Test func testsXcodeRanSeveralTimesArePassedOrFailedNotFlaky() throws {
        let repo = try GitRepository()
        try repo.write("x\n", to: "README.md")
        try repo.commitAll("a repository")
        let capture = Fixtures.shared + "/xcresult-json/fastlane__trainer_fixtures__Xcode16-Mixed-XCTest-SwiftTesting.json"
        _ = try InProcessCLI.run(["history", "import", capture], in: repo.path, environment: repo.environment).checked()
        let runs = try listedRuns(repo)
        #expect(runs.count == 1 && runs[0].contains("  64 tests, 13 failed  "), "\(runs)")
        let flaky = try InProcessCLI.run(["flaky"], in: repo.path, environment: repo.environment)
        #expect(flaky.standardOutput == "prepush: no flaky test in the last 50 runs\n", "\(flaky)")
    }
}
