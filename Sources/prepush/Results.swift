import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushPipeline
import PrePushResults
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ReportFormat: ExpressibleByArgument {}

extension Prepush {
    struct Results: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "results",
            abstract: "Turn saved test output into reports: console logs, JUnit XML or xcresulttool JSON.",
            discussion: """
            Each input's kind is read from its content. Exit status: 0 no test failed, 1 a test failed \
            or did not finish or the run itself failed, 2 unreadable input or no test results in it.

            Examples:
              prepush results build/test.log --format junit --output build/junit.xml
              xcrun xcresulttool get test-results tests --path T.xcresult | prepush results - --format markdown
              set -o pipefail; xcodebuild test -scheme App | prepush results - --format junit --output junit.xml
            """
        )

        @Argument(help: "Files to read; - reads standard input as it arrives.")
        var files: [String]

        @Option(help: "junit, json, markdown or github (annotations).")
        var format: ReportFormat = .junit

        @Option(help: ArgumentHelp("Write the report here instead of standard output.", valueName: "path"))
        var output: String?

        @Flag(help: "No live lines on standard error while standard input streams in.")
        var quiet = false

        func validate() throws {
            if files.isEmpty { throw ValidationError("name at least one file, or - for standard input") }
        }

        func run() throws {
            var inputs: [(file: String, run: TestRun)] = []
            var empties: [String] = []
            for file in files {
                if file != "-" && !FileManager.default.isReadableFile(atPath: file) {
                    let reason = FileManager.default.fileExists(atPath: file) ? "cannot be read" : "no such file"
                    FileStandardError.write("error: \(file): \(reason)")
                    throw ExitCode(ExitStatus.usage.rawValue)
                }
                let parsed: (run: TestRun, kind: ResultsInputKind, unplaced: Int)
                do {
                    if file == "-" {
                        let progress = LiveProgress(enabled: !quiet, terminal: FileSystem.isTerminal(2))
                        defer { progress.finish() }
                        parsed = try ResultsInput.parse(descriptor: 0, file: "<stdin>", live: progress.saw)
                    } else {
                        parsed = try ResultsInput.parse(file: file)
                    }
                } catch {
                    FileStandardError.write("\(error)")
                    throw ExitCode(ExitStatus.usage.rawValue)
                }
                // A shard with no tests (more shards than tests) is a real, empty part of a split suite.
                if parsed.run.isEmpty {
                    // One of several outputs of a run may hold none of its tests (the Swift Testing
                    // event stream of a package whose tests are all XCTest): said, and left out.
                    // All of them empty is an error below.
                    empties.append(file == "-" ? "standard input" : file)
                    continue
                }
                inputs.append((file, parsed.run))
                for failure in parsed.run.runFailures { FileStandardError.write("error: \(file): the run failed: \(failure)") }
                let cut = parsed.run.results.filter(\.durationWasCut).count
                if cut > 0 {
                    FileStandardError.write("prepush: warning: \(file == "-" ? "standard input" : file): \(cut) test duration\(cut == 1 ? " was" : "s were") infinite or absurd; written as \(Int(UITestResult.longestDuration)) seconds")
                }
                if parsed.unplaced > 0 {
                    FileStandardError.write("prepush: warning: \(file == "-" ? "standard input" : file): \(parsed.unplaced) lines looked like test events but were not understood")
                }
            }
            guard !inputs.isEmpty else {
                // An empty report passing for a green run is how a broken pipeline goes unnoticed.
                FileStandardError.write("error: no test results found in \(empties.joined(separator: ", "))")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            for file in empties { FileStandardError.write("prepush: note: \(file): no tests in it; the other inputs hold the run") }
            // Shards of a CI matrix become one run (a test in two shards is an error; a missing shard fails the run).
            let run: TestRun
            do {
                let merged = try ResultsMerge.merge(inputs)
                run = merged.run
                for failure in merged.added { FileStandardError.write("error: the run failed: \(failure)") }
            } catch {
                FileStandardError.write(error.description)
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            // The report is streamed out a piece at a time, never whole in memory.
            if let output {
                do {
                    try ReportPublisher.write(format.reporter, run, to: output)
                } catch {
                    FileStandardError.write("error: cannot write \(output): \(ErrorText.describe(error))")
                    throw ExitCode(ExitStatus.usage.rawValue)
                }
            } else {
                let sink = ReportSink { FileSystem.write($0, to: 1) }
                format.reporter.write(run, to: sink)
                sink.flush()
            }
            let publisher = ReportPublisher(environment: ProcessInfo.processInfo.environment)
            // Annotations and the summary name files as the checkout here has them, so GitHub can
            // place a failure from a log of another machine (`/Users/runner/work/app/app/Tests/…`).
            let placed = publisher.isGitHubActions ? SourcePlaces(root: FileManager.default.currentDirectoryPath).placed(run) : run
            // With the report on standard output, the workflow commands go to standard error (GitHub
            // reads both): `prepush results … --format junit > junit.xml` stays a JUnit file.
            if format != .github { FileSystem.write(publisher.annotations(placed), to: output == nil ? 2 : 1) }
            try? publisher.appendStepSummary(placed)
            // The run's verdict as every report states it: quarantined failures do not fail it, a refusal does.
            let status: ExitStatus = run.passedOverall ? .success : .failure
            let summary = format == .markdown ? output.map { [("summary", $0)] } ?? [] : []
            publisher.setOutputs(ReportPublisher.outputs(of: run) + summary + [("conclusion", status.conclusion)])
            throw ExitCode(status.rawValue)
        }

    }
}

/// What `prepush results -` says on standard error while a test run streams through it, so it can
/// stand in for `xcbeautify --report junit` in a pipeline: a line per failing test as it fails, and
/// on a terminal a count of the tests so far, rewritten in place.
final class LiveProgress {
    private let enabled: Bool
    private let terminal: Bool
    private var seen = 0
    private var failed = 0

    init(enabled: Bool, terminal: Bool) {
        self.enabled = enabled
        self.terminal = terminal
    }

    func saw(_ test: UITestResult) {
        guard enabled else { return }
        seen += 1
        var text = ""
        if !test.passed {
            failed += 1
            let place = test.failureLocation.map { "\($0.file):\($0.line): " } ?? ""
            // The test's text is the repository's: shown safe; the progress line's own CR and ESC are prepush's.
            let line = "✘ \(place)\(test.testIdentifier): \(test.failureMessage ?? test.status.rawValue)"
            text += (terminal ? "\r\u{1B}[2K" : "") + FileStandardError.safe(line) + "\n"
        }
        if terminal { text += "\r\u{1B}[2Kprepush: \(seen) test\(seen == 1 ? "" : "s") so far, \(failed) failed" }
        if !text.isEmpty { FileSystem.write(text, to: 2) }
    }

    func finish() {
        if enabled && terminal && seen > 0 { FileSystem.write("\r\u{1B}[2K", to: 2) }
    }
}
