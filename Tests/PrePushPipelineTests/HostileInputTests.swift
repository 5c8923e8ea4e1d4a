import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// A pull request controls the configuration, the catalog, file names and test output: each case
/// here is an attack from the security sweep, run through the real binary, with its work bounded.
/// Own process: the bounds are the binary's own: its peak memory, read by Python as its only child's; a
/// SIGTERM to it in the middle of the view check; the daemons a stage started, looked for once it has ended.
@Suite struct HostileInputTests {
    /// prepush's peak memory in KB and its result: Python measures its only child.
    func measured(_ arguments: [String], in repo: GitRepository) throws -> (peakKB: Int, result: (status: Int, standardError: String)) {
        let script = """
        import resource, subprocess, sys
        done = subprocess.run(sys.argv[1:], capture_output=True)
        sys.stderr.buffer.write(done.stderr)
        sys.stdout.write("%d %d\\n" % (done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
        """
        let result = try Command.run("python3", ["-c", script, PrepushBinary.path] + arguments, in: repo.path, environment: repo.environment)
        let fields = result.standardOutput.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let peak = try #require(fields.count == 2 ? fields[1] : nil, "\(result)")
        return (peak, (fields[0], result.standardError))
    }

    @Test(.timeLimit(.minutes(10))) func twentyThousandUnknownKeysOnOneLineGiveFiftyErrorsAndACount() throws {
        let repo = try GitRepository()
        let keys = (0..<20_000).map { "k\($0): 1" }.joined(separator: ", ")
        try repo.write("{\(keys)}\n", to: ".prepush.yml")
        let (peakKB, result) = try measured(["config"], in: repo)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.components(separatedBy: "error: unknown key").count - 1 == 50, "\(result.standardError.prefix(300))")
        #expect(result.standardError.contains(".prepush.yml: error: and 19950 more errors (the first 50 are shown)"))
        #expect(peakKB < 100_000, "peak \(peakKB) KB")
    }

    @Test func aLargeScalarAliasedThousandsOfTimesIsRefusedByItsBytes() throws {
        let repo = try GitRepository()
        let lines = ["a: &a \"\(String(repeating: "x", count: 100_000))\"", "stages:", "  unit:", "    run: 'true'", "    env:"]
            + (0..<1_600).map { "      V\($0): *a" }
        try repo.write(lines.joined(separator: "\n") + "\n", to: ".prepush.yml")
        let (peakKB, result) = try measured(["config"], in: repo)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.hasPrefix(".prepush.yml:18:12: error: aliases repeat more than 1216 KB of text"), "\(result.standardError.prefix(300))")
        #expect(peakKB < 100_000, "peak \(peakKB) KB")
    }

    @Test func aCatalogWithThousandsOfProblemsGivesFiftyAndACount() throws {
        let repo = try GitRepository()
        let entries = (0..<5_000).map { "  - {story: US1, priority: P9, description: d\($0), test: test_a_b\($0)}" }
        try repo.write("scenarios:\n" + entries.joined(separator: "\n") + "\n", to: ".prepush/scenarios.yml")
        let result = try InProcessCLI.run(["scenarios", "lint"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1, "\(result)")
        #expect(result.combined.contains(".prepush/scenarios.yml: error: and 4950 more problems (the first 50 are shown)"), "\(result.combined.suffix(300))")
    }

    @Test(.timeLimit(.minutes(10))) func backtrackingPatternsAreMatchedInLinearTime() throws {
        let repo = try GitRepository()
        try repo.write("accessibility:\n  identifierPattern: '(a|a)*b'\nstages:\n  unit:\n    run: 'true'\n", to: ".prepush.yml")
        try repo.write("import SwiftUI\nstruct V: View {\n    var body: some View {\n        Button(\"x\") {}.accessibilityIdentifier(\"\(String(repeating: "a", count: 40))\")\n    }\n}\n",
                       to: "Sources/V.swift")
        try repo.commitAll("a view")
        let check = try InProcessCLI.run(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(check.combined.contains("identifier-convention"), "\(check)")
        // A pattern that needs backtracking is refused where the file is read, with the reason.
        try repo.write("accessibility:\n  identifierPattern: '(a)\\1'\n", to: ".prepush.yml")
        let refused = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(refused.status == 2)
        #expect(refused.standardError.contains(".prepush.yml:2:22: error: accessibility.identifierPattern: \"(a)\\1\" is not a regular expression (back-references are not supported at character 4)"), "\(refused)")
        try repo.write("accessibility:\n  identifierPattern: '(['\n", to: ".prepush.yml")
        let broken = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(broken.status == 2)
        #expect(broken.standardError.contains("is not a regular expression (missing ']' at character 3)"), "\(broken)")
    }

    /// SIGTERM while the views are being checked (no stage runs yet) ends prepush at once with 143;
    /// it used to wait for the check to end.
    @Test func aSignalDuringTheViewCheckEndsTheRun() throws {
        let repo = try GitRepository()
        try repo.write("stages:\n  unit:\n    run: 'true'\n", to: ".prepush.yml")
        try repo.commitAll("configuration")
        let buttons = (0..<400).map { "            Button(\"Item \($0)\") { tap() }.accessibilityIdentifier(\"home_button_item\($0)\")" }.joined(separator: "\n")
        for file in 0..<100 {
            try repo.write("import SwiftUI\n\nstruct View\(file): View {\n    var body: some View {\n        VStack {\n\(buttons)\n        }\n    }\n    func tap() {}\n}\n",
                           to: "Sources/App/View\(file).swift")
        }
        try repo.commitAll("a hundred large views")
        let running = try Command.start(PrepushBinary.path, ["run", "--base", "HEAD~1"], in: repo.path, environment: repo.environment)
        // The check of these 3.6 MB takes seconds; a second in, it is under way.
        Thread.sleep(forTimeInterval: 1)
        running.send(SIGTERM)
        let result = try running.wait(upTo: 120)
        #expect(result.status == 143, "\(result)")
        #expect(result.standardError.contains("prepush: interrupted"), "\(result)")
        #expect(!result.standardOutput.contains("unit"), "no stage ran: \(result)")
    }

    /// Under GitHub Actions nothing a test prints reaches the log as a workflow command through
    /// prepush's own lines: an indented `::` line in a failure message, `##[` in a name, a raw ESC.
    @Test func forgedWorkflowCommandsAreNeutralisedInEveryLine() throws {
        let repo = try GitRepository()
        let script = #"""
        printf "Test Case 'Forge.test_x##[error]name' started.\n"
        printf "/tmp/F.swift:3: error: Forge.test_x##[error]name : XCTAssertTrue failed - first\n::add-mask::leaked\n  ::error::forged\n\302\240::stop-commands::t\nesc \033[31mred\n"
        printf "Test Case 'Forge.test_x##[error]name' failed (0.001 seconds).\n"
        exit 1
        """#
        try repo.write(script, to: "forge.sh")
        try repo.write("stages:\n  unit:\n    run: sh forge.sh\n", to: ".prepush.yml")
        try repo.commitAll("a stage that forges")
        var environment = repo.environment
        environment["GITHUB_ACTIONS"] = "true"
        let result = try InProcess.run(["run"], in: repo.path, environment: environment)
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.contains("add-mask"), "the message is shown: \(result)")
        for line in result.combined.split(separator: "\n") {
            let trimmed = line.drop(while: { $0.isWhitespace })
            // prepush's own annotations are the only commands, and their messages are escaped onto one line.
            if trimmed.hasPrefix("::error file=") || trimmed.hasPrefix("::error title=") { continue }
            #expect(!trimmed.hasPrefix("::"), "\(line)")
            #expect(!line.contains("##["), "\(line)")
            #expect(!line.unicodeScalars.contains("\u{1B}"), "\(line)")
        }
    }

    /// A committed `.prepush` link to a folder elsewhere would carry the default reports folder out.
    @Test func theDefaultReportsFolderIsCheckedLikeAConfiguredOne() throws {
        let repo = try GitRepository()
        let elsewhere = try TemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/.prepush", withDestinationPath: elsewhere.path)
        try repo.write("stages:\n  unit:\n    run: echo ran\n", to: ".prepush.yml")
        try repo.commitAll("a link out")
        let result = try InProcess.run(["run"], in: repo.path, environment: repo.environment)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("error: reports.directory \".prepush/reports\" is or passes through a symbolic link that leads out of the repository"), "\(result)")
        #expect((try FileManager.default.contentsOfDirectory(atPath: elsewhere.path)).isEmpty)
    }

    @Test func discoveryDoesNotFollowLinksOutOfTheRepository() throws {
        let repo = try GitRepository()
        let elsewhere = try TemporaryDirectory()
        try "import XCTest\nfinal class Outside: XCTestCase {\n    func testSecretOutsideName() { XCTAssertEqual(\"secret\".count, 6) }\n}\n".write(toFile: elsewhere.url("Outside.swift"), atomically: true, encoding: .utf8)
        try repo.write("import XCTest\nfinal class Inside: XCTestCase {\n    func testInsideName() { XCTAssertEqual(\"inside\".count, 6) }\n}\n", to: "Tests/AppTests/Inside.swift")
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/Tests/AppTests/Outside.swift", withDestinationPath: elsewhere.url("Outside.swift"))
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/Tests/AppTests/Loop", withDestinationPath: repo.path + "/Tests")
        try repo.commitAll("a linked test file and a loop")
        let report = try InProcessCLI.run(["report", "--format", "html"], in: repo.path, environment: repo.environment)
        #expect(report.standardOutput.contains("testInsideName"), "\(report)")
        #expect(!report.combined.contains("testSecretOutsideName"), "\(report)")
    }

    @Test func aDanglingLinkIsCalledWhatItIs() throws {
        let repo = try GitRepository()
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/.prepush.yml", withDestinationPath: repo.path + "/nowhere.yml")
        let result = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(result.status == 2)
        #expect(result.standardError == "error: configuration file: .prepush.yml is a symbolic link to something that does not exist; refused without following it\n", "\(result)")
    }

    /// A stream's unfinished line is never cut by a line of the other stream in the log.
    @Test func theLogInterleavesWholeLines() throws {
        let repo = try GitRepository()
        let script = "printf 'out-start'; sleep 0.3; printf 'err-line\\n' >&2; sleep 0.3; printf ' out-end\\n'; printf 'tail-without-break'"
        try repo.write("stages:\n  unit:\n    run: \(script)\n", to: ".prepush.yml")
        try repo.commitAll("a stage that writes half a line")
        let result = try InProcess.run(["run"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        let log = try String(contentsOfFile: repo.path + "/.prepush/reports/unit.log", encoding: .utf8)
        #expect(log == "err-line\nout-start out-end\ntail-without-break", "\(log.debugDescription)")
    }

    /// A "hopping" daemon: each generation ignores SIGINT and SIGTERM, starts the next in a session
    /// of its own with prepush's run marker cleared from its environment, and exits. A single scan
    /// and kill missed the generation born in between (25 of 25 runs survived in the sweep); the
    /// tree is frozen first now. The hopper ends by itself after 600 generations, so a failure here
    /// never leaves it running. Run through the binary: it is the only run in its process.
    @Test func aHoppingDaemonIsStoppedEveryTime() throws {
        #if os(Linux)
        let repo = try GitRepository()
        let marker = "hopper-\(UInt32.random(in: 0...UInt32.max))"
        try repo.write("""
        trap '' INT TERM HUP
        [ "${1:-0}" -gt 600 ] && exit 0
        sleep 0.005
        setsid env -u PREPUSH_RUN_ID sh "$0" $((${1:-0} + 1)) &

        """, to: "\(marker).sh")
        try repo.write("cache: false\nstages:\n  unit:\n    run: sh \(marker).sh; echo started\n", to: ".prepush.yml")
        try repo.commitAll("a hopping daemon")
        func survivors() -> [Int32] {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid in
                guard let number = Int32(pid), Processes.isAlive(number),
                      let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
                return String(decoding: line, as: UTF8.self).contains(marker) ? number : nil
            }
        }
        var left: [Int32] = []
        for _ in 0..<5 {
            let result = try PrepushBinary.run(["run"], in: repo.path, environment: repo.environment)
            #expect(result.status == 0, "\(result)")
            // A moment for the kernel to reap what was killed.
            Processes.waitUntil(limit: 1) { survivors().isEmpty }
            left += survivors()
            Processes.waitUntil(limit: 10) { survivors().isEmpty }
        }
        #expect(left.isEmpty, "generations survived: \(left)")
        #endif
    }

    /// A minified JUnit file (one 6 MB line) and an element with 100,000 attributes: each byte and
    /// attribute costs once (the line's count restarted from its start every event: > 300 s).
    @Test(.timeLimit(.minutes(10))) func oneLineJUnitAndManyAttributesAreLinear() throws {
        let folder = try TemporaryDirectory()
        let cases = (0..<120_000).map { "<testcase classname=\"S\($0 % 50)\" name=\"t\($0)\" time=\"0.001\"/>" }.joined()
        let minified = "<?xml version=\"1.0\"?><testsuites><testsuite name=\"x\">\(cases)</testsuite></testsuites>"
        try minified.write(toFile: folder.url("min.xml"), atomically: true, encoding: .utf8)
        let read = try InProcessCLI.run(["results", folder.url("min.xml"), "--format", "json", "--output", folder.url("out.json")], in: folder.path, environment: [:])
        #expect(read.status == 0, "\(read)")
        // An error at the end of that one line is placed on line 1, at its column.
        try (String(minified.dropLast("</testsuites>".count)) + "</testsuite>").write(toFile: folder.url("broken.xml"), atomically: true, encoding: .utf8)
        let broken = try InProcessCLI.run(["results", folder.url("broken.xml")], in: folder.path, environment: [:])
        #expect(broken.status == 2)
        #expect(broken.standardError.contains("broken.xml:1:\(minified.count - "</testsuites>".count + 1): error:"), "\(broken.standardError.prefix(300))")
        let attributes = (0..<100_000).map { "a\($0)=\"x\"" }.joined(separator: " ")
        try "<testsuites><testsuite name=\"x\"><testcase classname=\"S\" name=\"t\" \(attributes)/></testsuite></testsuites>"
            .write(toFile: folder.url("attributes.xml"), atomically: true, encoding: .utf8)
        let many = try InProcessCLI.run(["results", folder.url("attributes.xml"), "--format", "json"], in: folder.path, environment: [:])
        #expect(many.status == 0, "\(many.standardError)")
    }

    /// `swift test | tee log` exits 0 whatever the tests did: the failing test the output shows
    /// refuses, and the pass is not cached.
    @Test func aStageThatExitsZeroWithAFailingTestIsRefused() throws {
        let repo = try GitRepository()
        let output = Fixtures.own + "/captured/sample-swift-test-linux-6.3.1.txt"
        try repo.write("stages:\n  unit:\n    run: cat '\(output)' | tee copy.log\n", to: ".prepush.yml")
        try repo.commitAll("a stage whose pipe hides the status")
        for _ in 0..<2 {
            let result = try InProcess.run(["run"], in: repo.path, environment: repo.environment)
            #expect(result.status == 1, "\(result)")
            #expect(result.standardOutput.contains("prepush: checks failed: unit: exited 0, but its results show 3 failing tests (a command that ignores its tests' failures, such as swift test | tee log, hides the runner's exit status)"), "\(result)")
        }
    }

    @Test func smallerRefusalsSayWhatIsWrong() throws {
        let repo = try GitRepository()
        try repo.write("x\n", to: "afile")
        for (value, message) in [("afile", "unit.workingDirectory: \"afile\" is a file, not a folder"),
                                 ("/etc", "unit.workingDirectory: \"/etc\" is an absolute path; a stage's working directory is a folder inside the repository"),
                                 ("../..", "unit.workingDirectory: \"../..\" leads out of the repository with '..'")] {
            try repo.write("stages:\n  unit:\n    run: 'true'\n    workingDirectory: \(value)\n", to: ".prepush.yml")
            let result = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
            #expect(result.status == 2)
            #expect(result.standardError.contains(".prepush.yml:4:23: error: \(message)"), "\(result)")
        }
        let empty = try GitRepository()
        let range = try InProcessCLI.run(["range", "--base", "HEAD"], in: empty.path, environment: empty.environment)
        #expect(range.status == 2)
        #expect(range.standardError == "error: 'HEAD' names no commit in this repository (it has no commits yet)\n", "\(range)")
        // Quoted inside another message, the reason does not say `error:` a second time.
        try repo.write("stages: {}\n", to: ".prepush.yml")
        try repo.commitAll("one")
        let run = try InProcess.run(["run", "--base", "nosuchref"], in: repo.path, environment: repo.environment)
        #expect(run.standardError.contains("error: cannot compute the range nosuchref..HEAD: 'nosuchref' names no commit in this repository\n"), "\(run)")
        #expect(!run.standardError.contains(": error: 'nosuchref'"), "\(run)")
        let folder = try TemporaryDirectory()
        try "<?xml version=\"1.0\"?>\n<!DOCTYPE testsuites [\n  <!ENTITY lol \"lol\">\n]>\n<testsuites/>\n".write(toFile: folder.url("dtd.xml"), atomically: true, encoding: .utf8)
        let dtd = try InProcessCLI.run(["results", folder.url("dtd.xml")], in: folder.path, environment: [:])
        #expect(dtd.status == 2)
        #expect(dtd.standardError.contains("dtd.xml:2:22: error: malformed XML: expected no internal DTD subset"), "\(dtd)")
    }

    /// A 2 GB sparse `.prepush.yml` is refused by its size, and nothing reads it again afterwards
    /// (the rule-name check once did, without a limit: 4.2 GB). A socket is named for what it is.
    @Test func anOversizedOrSocketConfigurationIsRefusedWithoutReadingIt() throws {
        let repo = try GitRepository()
        _ = try Command.run("truncate", ["-s", "2G", repo.path + "/.prepush.yml"], environment: ["PATH": "/usr/bin:/bin"]).checked()
        let (peakKB, result) = try measured(["config"], in: repo)
        #expect(result.status == 2)
        #expect(result.standardError.contains("is 2147.4 MB, over the limit of 1000 KB"), "\(result.standardError)")
        #expect(peakKB < 100_000, "peak \(peakKB) KB")
        try FileManager.default.removeItem(atPath: repo.path + "/.prepush.yml")
        _ = try Command.run("python3", ["-c", "import socket; socket.socket(socket.AF_UNIX).bind('.prepush.yml')"], in: repo.path,
                            environment: ["PATH": "/usr/bin:/bin"]).checked()
        let socket = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(socket.status == 2)
        #expect(socket.standardError.contains("is not a regular file (a FIFO, a socket or a device)"), "\(socket)")
    }
}
