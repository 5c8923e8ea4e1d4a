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

        @Option(help: ArgumentHelp("junit, json, markdown or github (annotations); several, comma-separated, with --output-dir.", valueName: "formats"))
        var format: String = "junit"

        @Option(help: ArgumentHelp("Write the report here instead of standard output.", valueName: "path"))
        var output: String?

        @Option(name: .customLong("output-dir"), help: ArgumentHelp("Write each format's report into this folder (junit.xml, results.json, results.md).", valueName: "folder"))
        var outputDirectory: String?

        @Option(help: ArgumentHelp("GitHub annotations of each kind, 1 to 50 (environment: PREPUSH_ANNOTATIONS; default 10).", valueName: "count"))
        var annotations: Int?

        @Flag(help: "No live lines on standard error while standard input streams in.")
        var quiet = false

        func validate() throws {
            if files.isEmpty { throw ValidationError("name at least one file, or - for standard input") }
            let formats = try self.formats()
            if output != nil && outputDirectory != nil { throw ValidationError("--output and --output-dir cannot be used together") }
            if formats.count > 1 && outputDirectory == nil { throw ValidationError("several formats need --output-dir, a folder to write them into") }
            if let annotations, !(1...50).contains(annotations) { throw ValidationError("--annotations \(annotations): expected a number of annotations from 1 to 50") }
        }

        /// The formats asked for, each once, in the order given.
        func formats() throws -> [ReportFormat] {
            var formats: [ReportFormat] = []
            for word in format.split(separator: ",", omittingEmptySubsequences: false).map({ String($0.filter { $0 != " " }) }) {
                guard let format = ReportFormat(rawValue: word) else {
                    throw ValidationError("--format \(word): expected junit, json, markdown or github, or several of them comma-separated")
                }
                if !formats.contains(format) { formats.append(format) }
            }
            return formats
        }

        /// `--annotations`, else `PREPUSH_ANNOTATIONS`, else 10; a bad variable is a usage error naming it.
        func annotationLimit(_ environment: [String: String]) throws -> Int {
            if let annotations { return annotations }
            guard let raw = environment["PREPUSH_ANNOTATIONS"] else { return GitHubAnnotationsReporter.perStepLimit }
            guard let value = Int(String(raw.filter { $0 != " " })), (1...50).contains(value) else {
                FileStandardError.write("error: PREPUSH_ANNOTATIONS=\(raw): expected a number of annotations from 1 to 50")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            return value
        }

        func run() throws {
            let formats = try self.formats()
            let environment = ProcessInfo.processInfo.environment
            let limit = try annotationLimit(environment)
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
            // The report is streamed out a piece at a time, never whole in memory; several formats
            // go into one folder (a merge step is one command that exits once, with the verdict).
            var written: [(format: ReportFormat, path: String)] = []
            if let folder = outputDirectory {
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                } catch {
                    FileStandardError.write("error: cannot make \(folder): \(ErrorText.describe(error))")
                    throw ExitCode(ExitStatus.usage.rawValue)
                }
                written = formats.map { ($0, FilePath.join(folder, $0.fileName)) }
            } else if let output {
                written = [(formats[0], output)]
            }
            for (format, path) in written {
                do {
                    try ReportPublisher.write(format == .github ? GitHubAnnotationsReporter(limit: limit) : format.reporter, run, to: path)
                } catch {
                    FileStandardError.write("error: cannot write \(path): \(ErrorText.describe(error))")
                    throw ExitCode(ExitStatus.usage.rawValue)
                }
            }
            if written.isEmpty {
                let sink = ReportSink { FileSystem.write($0, to: 1) }
                (formats[0] == .github ? GitHubAnnotationsReporter(limit: limit) : formats[0].reporter).write(run, to: sink)
                sink.flush()
            }
            let publisher = ReportPublisher(environment: environment, annotationLimit: limit)
            // Annotations and the summary name files as the checkout here has them, so GitHub can
            // place a failure from a log of another machine (`/Users/runner/work/app/app/Tests/…`).
            let placed = publisher.isGitHubActions ? SourcePlaces(root: FileManager.default.currentDirectoryPath).placed(run) : run
            // With the report on standard output, the workflow commands go to standard error (GitHub
            // reads both): `prepush results … --format junit > junit.xml` stays a JUnit file.
            let toStandardOutput = written.isEmpty
            if !(toStandardOutput && formats[0] == .github) { FileSystem.write(publisher.annotations(placed), to: toStandardOutput ? 2 : 1) }
            try? publisher.appendStepSummary(placed)
            // The run's verdict as every report states it: quarantined failures do not fail it, a refusal does.
            let status: ExitStatus = run.passedOverall ? .success : .failure
            let summary = written.filter { $0.format == .markdown }.prefix(1).map { ("summary", $0.path) }
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
