import Foundation
import PrePushRunner
import PrePushTestSupport
import Testing

/// Collects a run's output per stream.
final class Output: @unchecked Sendable {
    private let lock = NSLock()
    private var out: [UInt8] = []
    private var err: [UInt8] = []

    func append(_ channel: OutputChannel, _ bytes: UnsafeRawBufferPointer) {
        lock.lock(); defer { lock.unlock() }
        if channel == .standardOutput { out += bytes } else { err += bytes }
    }

    var standardOutput: String { lock.lock(); defer { lock.unlock() }; return String(decoding: out, as: UTF8.self) }
    var standardError: String { lock.lock(); defer { lock.unlock() }; return String(decoding: err, as: UTF8.self) }
    var outputByteCount: Int { lock.lock(); defer { lock.unlock() }; return out.count }
    var errorByteCount: Int { lock.lock(); defer { lock.unlock() }; return err.count }
}

func run(_ command: String, timeout: Double? = 60, grace: Double = 3, in directory: String? = nil,
         environment: [String: String] = ["PATH": "/usr/bin:/bin"]) throws -> (RunOutcome, Output) {
    let output = Output()
    let outcome = try ProcessGroupRunner.run(
        .shell(command, environment: environment, workingDirectory: directory),
        options: RunOptions(timeout: timeout, killGracePeriod: grace) { output.append($0, $1) })
    return (outcome, output)
}

@Suite struct ProcessGroupRunnerTests {
    @Test func separatesStandardOutputFromStandardError() throws {
        let (outcome, output) = try run("echo one; echo two >&2; echo three")
        #expect(outcome.succeeded)
        #expect(outcome.termination == .exited(0))
        #expect(output.standardOutput == "one\nthree\n")
        #expect(output.standardError == "two\n")
    }

    @Test func exitStatusPassesThrough() throws {
        let (outcome, _) = try run("exit 3")
        #expect(outcome.termination == .exited(3))
        #expect(outcome.stopReason == nil)
        #expect(!outcome.succeeded)
    }

    @Test func deathBySignalIsReported() throws {
        let (outcome, _) = try run("kill -TERM $$")
        #expect(outcome.termination == .signaled(SIGTERM))
    }

    @Test func bothStreamsFloodingAtOnceDoNotDeadlock() throws {
        // 4 MiB on each stream, far beyond a pipe's 64 KiB buffer: a reader that drained one
        // stream to the end before the other would block forever here.
        let (outcome, output) = try run("head -c 4194304 /dev/zero & head -c 4194304 /dev/zero >&2; wait")
        #expect(outcome.succeeded)
        #expect(output.outputByteCount == 4_194_304)
        #expect(output.errorByteCount == 4_194_304)
    }

    @Test func standardInputIsEmpty() throws {
        let (outcome, output) = try run("cat; echo done")
        #expect(outcome.succeeded)
        #expect(output.standardOutput == "done\n")
    }

    @Test func runsInTheWorkingDirectoryWithExactlyTheGivenEnvironment() throws {
        let folder = try TemporaryDirectory()
        let (outcome, output) = try run("pwd; echo \"[$ONLY_THIS]\"; env | grep -c . ", in: folder.path,
                                        environment: ["ONLY_THIS": "yes", "PATH": "/usr/bin:/bin"])
        #expect(outcome.succeeded)
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == folder.path)
        #expect(lines.dropFirst().first == "[yes]")
        // sh adds PWD, SHLVL and `_` to what it was given, prepush its PREPUSH_RUN_ID; nothing of the test process leaks in.
        #expect(Int(lines.last ?? "") ?? 99 <= 6)
    }

    @Test func timeoutStopsTheWholeProcessGroup() throws {
        let folder = try TemporaryDirectory()
        let pidFile = folder.url("pids")
        let (outcome, _) = try run("sleep 300 & echo $! > '\(pidFile)'; (sleep 300 & echo $! >> '\(pidFile)'; wait) & wait", timeout: 1)
        #expect(outcome.stopReason == .timedOut)
        let pids = Processes.pids(inFile: pidFile)
        #expect(pids.count == 2)
        for pid in pids {
            #expect(Processes.waitUntil { !Processes.isAlive(pid) }, "background process \(pid) outlived the timeout")
        }
    }

    @Test func processesIgnoringSIGTERMAreKilled() throws {
        let folder = try TemporaryDirectory()
        let pidFile = folder.url("pid")
        let (outcome, _) = try run("trap '' INT TERM; sh -c 'trap \"\" INT TERM; echo $$ > \(pidFile); while :; do sleep 1; done' & wait", timeout: 1, grace: 0.5)
        #expect(outcome.stopReason == .timedOut)
        #expect(outcome.termination == .signaled(SIGKILL))
        let pid = try #require(Processes.pids(inFile: pidFile).first)
        #expect(Processes.waitUntil { !Processes.isAlive(pid) })
    }

    @Test func processesLeftHoldingTheOutputAreStoppedWhenTheStageEnds() throws {
        let folder = try TemporaryDirectory()
        let pidFile = folder.url("pid")
        // The shell exits at once, but its background child keeps stdout open.
        let (outcome, output) = try run("sleep 300 & echo $! > '\(pidFile)'; echo finished")
        #expect(outcome.termination == .exited(0))
        #expect(outcome.stopReason == nil)
        #expect(outcome.stoppedLeftovers)
        #expect(output.standardOutput == "finished\n")
        let pid = try #require(Processes.pids(inFile: pidFile).first)
        #expect(Processes.waitUntil { !Processes.isAlive(pid) })
    }

    @Test func detachedLeftoversInTheGroupAreStoppedToo() throws {
        let folder = try TemporaryDirectory()
        let pidFile = folder.url("pid")
        let (outcome, _) = try run("sleep 300 >/dev/null 2>&1 & echo $! > '\(pidFile)'")
        #expect(outcome.succeeded)
        #expect(outcome.stoppedLeftovers)
        let pid = try #require(Processes.pids(inFile: pidFile).first)
        #expect(Processes.waitUntil { !Processes.isAlive(pid) })
    }

    @Test func aCleanStageHasNoLeftovers() throws {
        let (outcome, _) = try run("echo hi")
        #expect(!outcome.stoppedLeftovers)
    }

    @Test func aProgramThatDoesNotExistIsAnError() {
        #expect(throws: RunnerError.self) {
            try ProcessGroupRunner.run(ProcessSpec(executable: "/no/such/program", arguments: [], environment: [:]),
                                       options: RunOptions(timeout: 5))
        }
    }

    @Test func aMissingWorkingDirectoryIsAnError() {
        #expect(throws: RunnerError.self) {
            try ProcessGroupRunner.run(.shell("true", environment: [:], workingDirectory: "/no/such/folder"), options: RunOptions(timeout: 5))
        }
    }

    @Test func programsAreFoundOnThePath() throws {
        let output = Output()
        let outcome = try ProcessGroupRunner.run(
            ProcessSpec(executable: "echo", arguments: ["a b", "c"], environment: [:]),
            options: RunOptions(timeout: 5) { output.append($0, $1) })
        #expect(outcome.succeeded)
        #expect(output.standardOutput == "a b c\n", "arguments are passed as argv, not re-split by a shell")
    }

    @Test func theChildLeadsItsOwnProcessGroup() throws {
        let (outcome, output) = try run("ps -o pgid= -p $$")
        #expect(outcome.succeeded)
        #expect(Int32(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) == outcome.processID)
    }
}
