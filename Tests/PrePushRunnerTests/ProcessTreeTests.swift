import Foundation
import PrePushResults
import PrePushRunner
import PrePushTestSupport
import Testing

/// Everything a stage starts is stopped — also processes that leave its process group (`setsid`,
/// double forks), which one group kill misses — and every byte it writes is read.
@Suite struct ProcessTreeTests {
    @Test func aTimeoutStopsProcessesThatLeftTheGroup() throws {
        let folder = try TemporaryDirectory()
        let pidFile = folder.url("pid")
        let (outcome, _) = try run("setsid sleep 300 >/dev/null 2>&1 & echo $! > '\(pidFile)'; sleep 100", timeout: 1, grace: 1)
        #expect(outcome.stopReason == .timedOut)
        let pid = try #require(Processes.pids(inFile: pidFile).first)
        #expect(Processes.waitUntil(limit: 2) { !Processes.isAlive(pid) }, "setsid sleep \(pid) outlived the timeout")
    }

    @Test func aStageThatDaemonizesAndExitsLeavesNothingAndSaysWhatItStopped() throws {
        let folder = try TemporaryDirectory()
        let pidFile = folder.url("pid")
        // The double fork of a daemon: the middle process exits, the grandchild is orphaned in a session of its own.
        let (outcome, _) = try run("(setsid sleep 300 >/dev/null 2>&1 & echo $! > '\(pidFile)') ; exit 0", grace: 1)
        #expect(outcome.termination == .exited(0))
        #expect(outcome.stopReason == nil)
        let pid = try #require(Processes.pids(inFile: pidFile).first)
        #expect(Processes.waitUntil(limit: 2) { !Processes.isAlive(pid) }, "the daemonized sleep \(pid) survived the stage")
        #if os(Linux)
        // Only Linux re-parents orphans to prepush (a child subreaper), so only there is it found by ancestry.
        #expect(outcome.leftovers.map(\.pid) == [pid])
        // Named as /proc says at that moment (`sleep`, or `setsid` just before its exec).
        #expect(outcome.leftovers.first?.description.hasSuffix("(pid \(pid))") == true)
        #endif
    }

    @Test func aStageThatExitsWhileABackgroundChildStillWritesLosesNoByteItWrote() throws {
        // The background writer outlives the shell by a second; it is stopped, and every line it wrote
        // before that is read whole and in order.
        let script = "(i=0; while [ $i -lt 40 ]; do echo \"background line $i\"; i=$((i+1)); sleep 0.025; done) & echo main done; exit 0"
        let (outcome, output) = try run(script, grace: 1)
        #expect(outcome.termination == .exited(0))
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "main done" || lines.contains("main done"))
        let background = lines.filter { $0.hasPrefix("background line ") }
        #expect(!background.isEmpty)
        #expect(background == (0..<background.count).map { "background line \($0)" }, "a line was lost or cut")
        #expect(output.standardOutput.hasSuffix("\n"), "the last line was cut")
    }

    @Test func aProcessThatIgnoresEverySignalButKillDoesNotHoldTheRunOpen() throws {
        let folder = try TemporaryDirectory()
        let pidFile = folder.url("pid")
        // It leaves the group and ignores INT and TERM; only SIGKILL stops it, after the grace period.
        let script = "setsid sh -c 'trap \"\" INT TERM; echo $$ > \(pidFile); while :; do sleep 1; done' & exit 0"
        let (outcome, _) = try run(script, grace: 0.5)
        #expect(outcome.termination == .exited(0))
        let pid = try #require(Processes.pids(inFile: pidFile).first)
        #expect(Processes.waitUntil(limit: 2) { !Processes.isAlive(pid) })
    }

    @Test func theStopSequenceIsSIGINTThenSIGTERMThenSIGKILL() throws {
        let folder = try TemporaryDirectory()
        let log = folder.url("signals")
        // Records each signal it gets and ignores it, so all three arrive.
        let script = "trap 'echo INT >> \(log)' INT; trap 'echo TERM >> \(log)' TERM; echo ready > \(log).ready; while :; do sleep 0.05; done"
        let (outcome, _) = try run(script, timeout: 1, grace: 1)
        #expect(outcome.stopReason == .timedOut)
        #expect(outcome.termination == .signaled(SIGKILL))
        let received = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(received.split(separator: "\n").first == "INT", "\(received)")
        #expect(received.contains("TERM"), "\(received)")
        #expect(received.split(separator: "\n").firstIndex(of: "INT")! < received.split(separator: "\n").firstIndex(of: "TERM")!)
    }

    @Test func runsAtTheSameTimeDoNotClaimEachOthersOrphans() throws {
        #if os(Linux)
        let folder = try TemporaryDirectory()
        let first = folder.url("first"), second = folder.url("second")
        // The first run leaves an orphan and ends; the second is still going when it does.
        let other = Thread { _ = try? run("sleep 1.5; echo done", grace: 1) }
        other.start()
        let (outcome, _) = try run("(setsid sleep 300 >/dev/null 2>&1 & echo $! > '\(first)') ; exit 0", grace: 1)
        _ = second
        let pid = try #require(Processes.pids(inFile: first).first)
        #expect(outcome.leftovers.map(\.pid) == [pid], "the run that started the orphan names it")
        #expect(Processes.waitUntil(limit: 2) { !Processes.isAlive(pid) })
        #endif
    }

    /// A process that embeds the runner (this test suite) has children of its own; one whose
    /// environment cannot be read (here, empty for good; in a suite, caught mid-exec) is not the
    /// stage's and is never stopped as its leftover.
    @Test func aChildOfTheEmbeddingProcessIsNotTakenForAStagesOrphan() throws {
        let own = try Command.start("/bin/sleep", ["30"], environment: [:])
        defer { own.send(SIGKILL); _ = own.wait() }
        #expect(Processes.waitUntil(limit: 5) { Processes.isNamed(own.pid, "sleep") })
        let (outcome, _) = try run("exit 0", grace: 1)
        #expect(outcome.termination == .exited(0))
        #expect(outcome.leftovers.isEmpty, "\(outcome.leftovers)")
        #expect(Processes.isAlive(own.pid), "the test's own sleep was stopped as the stage's")
    }

    /// A process that holds a run's pipe close-on-exec (prepush itself, or a child another run is
    /// spawning, caught between fork and exec: one test of a parallel recording was once stopped as
    /// another's) is not the run's; a process that holds it as its output is.
    @Test func onlyAPipeHeldAsOutputMakesAProcessTheRuns() throws {
        #if os(Linux)
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]); close(ends[1]) }
        var info = stat()
        #expect(fstat(ends[0], &info) == 0)
        let inodes: Set<UInt64> = [UInt64(info.st_ino)]
        #expect(!ProcessTree.holdsPipe(getpid(), inodes: inodes), "the test process holds both ends close-on-exec")
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sleep")
        writer.arguments = ["30"]
        writer.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
        try writer.run()
        defer { kill(writer.processIdentifier, SIGKILL); writer.waitUntilExit() }
        #expect(Processes.waitUntil(limit: 5) { Processes.isNamed(writer.processIdentifier, "sleep") })
        #expect(ProcessTree.holdsPipe(writer.processIdentifier, inodes: inodes), "a process writing into the pipe is the run's")
        #endif
    }
}

/// Every byte a stage writes reaches the reader, however loaded the machine: the output of a
/// generator of numbered lines of varying length is checked line by line, and its line count
/// against the streaming parser's.
@Suite(.serialized) struct OutputIntegrityTests {
    /// Lines `i <i % 191 x's>` for i in 1...count: every line's number and length can be checked.
    static func generator(lines count: Int) -> String {
        "awk 'BEGIN { s = \"\"; for (j = 0; j < 191; j++) s = s \"x\"; for (i = 1; i <= \(count); i++) print i \" \" substr(s, 1, i % 191) }'"
    }

    static func check(_ text: [UInt8], lines count: Int) -> String? {
        var expected = 1
        for line in text.split(separator: 10, omittingEmptySubsequences: false).dropLast() {
            guard let space = line.firstIndex(of: 32), let number = Int(String(decoding: line[line.startIndex..<space], as: UTF8.self)) else {
                return "line \(expected): malformed \(String(decoding: line.prefix(60), as: UTF8.self))"
            }
            guard number == expected else { return "expected line \(expected), found \(number)" }
            guard line.count - (space - line.startIndex) - 1 == number % 191 else { return "line \(number) was cut" }
            expected += 1
        }
        return expected - 1 == count ? nil : "read \(expected - 1) of \(count) lines"
    }

    final class Collected: @unchecked Sendable {
        var bytes: [UInt8] = []
        var parser = ConsoleTestParser()
    }

    func runGenerator(lines: Int) throws -> (RunOutcome, Collected) {
        let collected = Collected()
        let outcome = try ProcessGroupRunner.run(
            .shell(Self.generator(lines: lines), environment: ["PATH": "/usr/bin:/bin"]),
            options: RunOptions(timeout: 120) { _, chunk in
                collected.bytes += chunk
                collected.parser.consume(chunk)
            })
        return (outcome, collected)
    }

    @Test func twentyMegabytesArriveWholeBesideCPUBurners() throws {
        let lines = 200_000  // about 20 MB
        let (outcome, collected) = try CPULoad.during { try runGenerator(lines: lines) }
        #expect(outcome.succeeded)
        #expect(collected.bytes.count > 18_000_000)
        #expect(Self.check(collected.bytes, lines: lines) == nil)
        #expect(collected.parser.finish().lineCount == lines)
    }

    @Test func twoHundredRunsBesideCPUBurnersLoseNothing() throws {
        var failures: [String] = []
        try CPULoad.during {
            for run in 0..<200 {
                let lines = 2_000 + run * 37
                let (outcome, collected) = try runGenerator(lines: lines)
                if !outcome.succeeded { failures.append("run \(run): \(outcome.termination)") }
                if let problem = Self.check(collected.bytes, lines: lines) { failures.append("run \(run): \(problem)") }
                let counted = collected.parser.finish().lineCount
                if counted != lines { failures.append("run \(run): the parser counted \(counted) of \(lines) lines") }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}
