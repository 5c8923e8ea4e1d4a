#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushResults
import PrePushRunner

/// Runs one test alone, in a process of its own, with its own profile: how recording learns what
/// each test executes.
///
/// On Linux the test bundle is an executable: an XCTest test is its argument (`Module.Class/test`,
/// XCTest's exact selector), a Swift Testing test is `--testing-library swift-testing --filter
/// ^id/` (ListedTest.swiftTestingFilter), as SwiftPM's own runner passes them. About 0.1 s a test,
/// where `swift test --skip-build --filter` plans the build first (0.5–1 s). On macOS the bundle is
/// loaded by `xctest` or SwiftPM's helper, so a test runs through `swift test --skip-build --filter`
/// (written for, not yet run on a Mac).
struct TestLauncher: Sendable {
    /// The test bundle (Linux: `.build/debug/NamePackageTests.xctest`, an executable).
    let bundle: String
    /// The scratch path the tests were built in.
    let scratchPath: String
    /// The package root: tests start there, as under `swift test`.
    let packageRoot: String
    /// The stage's environment (without any profile setting of its own).
    let environment: [String: String]
    /// Seconds one test may take.
    let timeout: Double

    /// The profile pattern a test's processes write to, in its own `folder`. `%m` merges every run
    /// of one binary into one file (a test that starts a tool fifty times writes two files, not
    /// fifty); children that inherit the variable write their own binary's file beside it.
    static func profilePattern(in folder: String) -> String { FilePath.join(folder, "%m.profraw") }

    /// How the reason of a test a signal ended begins.
    static let crashed = "crashed"

    /// Runs `test` with its profile and event stream in `folder` (made by the caller); nil when it
    /// passed, else why it does not count (failed, crashed, timed out, skipped, ran no test).
    func run(_ test: ListedTest, folder: String) -> String? {
        var environment = environment
        environment["LLVM_PROFILE_FILE"] = Self.profilePattern(in: folder)
        let events = FilePath.join(folder, "events.jsonl")
        let spec = ProcessSpec(executable: executable(for: test), arguments: arguments(for: test, events: events),
                               environment: environment, workingDirectory: packageRoot)
        let ran: CommandOutput
        do {
            ran = try CommandOutput.run(spec, timeout: timeout, outputLimit: 4 * 1024 * 1024, mergingStandardError: true)
        } catch {
            return "could not be started: \(error)"
        }
        if ran.outcome.stopReason == .timedOut { return "timed out after \(TextFormatting.duration(timeout))" }
        if case .signaled(let signal) = ran.outcome.termination { return "\(Self.crashed) (signal \(signal))" }
        let results: [UITestResult]
        if test.framework == .swiftTesting {
            guard case .success(let bytes) = FileReading.read(events, limit: 256 * 1024 * 1024),
                  let run = try? SwiftTestingEventStream.parse(bytes, file: events) else {
                return "wrote no event stream (\(ran.outcome.termination))"
            }
            results = run.results
        } else {
            results = ConsoleTestParser.parse(ran.text).run.results
        }
        return Self.judge(results, test: test, outcome: ran.outcome)
    }

    /// Why the results of a test's own run do not count, or nil when they show it passed alone.
    static func judge(_ results: [UITestResult], test: ListedTest, outcome: RunOutcome) -> String? {
        guard !results.isEmpty else { return "ran no test: its filter matched nothing (\(outcome.termination))" }
        guard results.count == 1, let result = results.first else { return "its filter ran \(results.count) tests, not one" }
        switch result.status {
        case .passed, .expectedFailure:
            return outcome.succeeded ? nil : "passed, but the runner ended with \(outcome.termination)"
        case .skipped:
            return "skipped while recording" + (result.skipReason.map { $0.isEmpty ? "" : " (\($0))" } ?? "")
        case .failed:
            let message = result.failureMessage.map { ": " + TextFormatting.shortened($0.split(separator: "\n").first.map(String.init) ?? $0, to: 120) } ?? ""
            return "failed while recording\(message)"
        case .unfinished:
            return "did not finish (\(outcome.termination))"
        }
    }

    private func executable(for test: ListedTest) -> String {
        #if os(macOS)
        return "swift"
        #else
        return bundle
        #endif
    }

    private func arguments(for test: ListedTest, events: String) -> [String] {
        let stream = ["--event-stream-output-path", events, "--event-stream-version", "0"]
        #if os(macOS)
        let library = test.framework == .xctest ? ["--disable-swift-testing"] : ["--disable-xctest"]
        return ["test", "--skip-build", "--scratch-path", scratchPath, "--filter", test.swiftPMFilter] + library
            + (test.framework == .swiftTesting ? stream : [])
        #else
        switch test.framework {
        case .xctest: return [test.listed]
        case .swiftTesting: return ["--testing-library", "swift-testing", "--filter", test.swiftTestingFilter] + stream
        }
        #endif
    }
}
