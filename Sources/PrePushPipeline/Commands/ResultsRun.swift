#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushResults

/// `prepush results`: saved test output (console logs, JUnit, xcresult JSON, Swift Testing event
/// streams, results.json of shards) into reports, the run's verdict as the exit status.
package enum ResultsRun {
    /// What to read and write.
    package struct Request: Sendable {
        package var files: [String]
        /// The formats, comma-separated (`junit,json`); several go into `outputDirectory`.
        package var formats: String
        package var output: String?
        package var outputDirectory: String?
        /// `--annotations`; nil: `PREPUSH_ANNOTATIONS`, else 10.
        package var annotations: Int?
        /// No live lines while standard input streams in.
        package var quiet = false
        /// `--allow-incomplete`: an output that ends before its run does is said, and does not fail.
        package var allowIncomplete = false
        package var environment: [String: String]
        /// Where relative paths start when it is not the process's folder (a run inside a test).
        package var currentDirectory: String?
        /// What `-` reads.
        package var standardInput: Int32 = 0

        /// Creates a request.
        package init(files: [String], formats: String, environment: [String: String]) {
            self.files = files
            self.formats = formats
            self.environment = environment
        }
    }

    /// A usage problem of the request, or nil: the formats are known, several only into a folder, an
    /// annotation count within 1–50.
    package static func usageProblem(_ request: Request) -> String? {
        if request.files.isEmpty { return "name at least one file, or - for standard input" }
        switch formats(request.formats) {
        case .failure(let problem): return problem.text
        case .success(let formats):
            if request.output != nil && request.outputDirectory != nil { return "--output and --output-dir cannot be used together" }
            if formats.count > 1 && request.outputDirectory == nil { return "several formats need --output-dir, a folder to write them into" }
        }
        if let count = request.annotations, !(1...50).contains(count) { return "--annotations \(count): expected a number of annotations from 1 to 50" }
        return nil
    }

    /// A problem said as it is.
    struct Problem: Error {
        let text: String
    }

    /// `--format`'s help: every format of the registry (`ReportFormat`).
    package static var formatHelp: String { ReportFormat.helpList }

    /// The files `--output-dir` gets: each push format's.
    package static var folderFiles: String { ReportFormat.pushFormats.map(\.fileName).joined(separator: ", ") }

    /// The formats named, each once, in the order given.
    static func formats(_ list: String) -> Result<[ReportFormat], Problem> {
        var formats: [ReportFormat] = []
        for word in list.split(separator: ",", omittingEmptySubsequences: false).map({ String($0.filter { $0 != " " }) }) {
            guard let format = ReportFormat(rawValue: word) else {
                return .failure(Problem(text: "--format \(word): expected \(ReportFormat.helpList), or several of them comma-separated"))
            }
            if !formats.contains(format) { formats.append(format) }
        }
        return .success(formats)
    }

    /// Reads, writes and publishes; the exit status is the run's verdict (2 for unusable input).
    package static func run(_ request: Request, console: Console) -> ExitStatus {
        // Standard output may be a report (`--output -`): everything else goes to standard error.
        let diagnostics = Diagnostics(console: console, standardOutputIsReport: true)
        guard case .success(let formats) = formats(request.formats), !formats.isEmpty else { return .usage }
        let limit: Int
        if let count = request.annotations {
            limit = count
        } else if let raw = request.environment["PREPUSH_ANNOTATIONS"] {
            guard let value = Int(String(raw.filter { $0 != " " })), (1...50).contains(value) else {
                diagnostics.error("PREPUSH_ANNOTATIONS=\(raw): expected a number of annotations from 1 to 50")
                return .usage
            }
            limit = value
        } else {
            limit = GitHubAnnotationsReporter.perStepLimit
        }
        let trust = ResultsTrust(here: request.currentDirectory ?? CommandContext.now.here, environment: request.environment)
        guard var run = read(request, trust: trust, diagnostics: diagnostics).map(incompleteness(allowed: request.allowIncomplete, diagnostics)) else { return .usage }
        run.provenance = ReportFiles.provenance(of: trust.around?.repository, environment: request.environment)
        guard let written = write(run, formats: formats, request: request, limit: limit, checkout: trust.around?.checkout,
                                  diagnostics: diagnostics) else { return .usage }
        return publish(run, written: written, firstFormat: formats[0], limit: limit, environment: request.environment,
                       here: request.currentDirectory ?? CommandContext.now.here, diagnostics: diagnostics)
    }

    /// Every input read and the shards merged; nil (said why) when an input is unusable or none holds a test.
    static func read(_ request: Request, trust: ResultsTrust, diagnostics: Diagnostics) -> TestRun? {
        let console = diagnostics.console
        var inputs: [(file: String, run: TestRun)] = []
        var empties: [String] = []
        let here = request.currentDirectory
        for named in request.files {
            // Messages name a file as it was given; it is read from where the run is.
            let file = named == "-" || here == nil ? named : FilePath.absolute(named, base: here!)
            if file != "-" && !FileManager.default.isReadableFile(atPath: file) {
                diagnostics.error("\(named): \(FileManager.default.fileExists(atPath: file) ? "cannot be read" : "no such file")")
                return nil
            }
            if file != "-", let refused = trust.problem(admitting: file, named: named) {
                diagnostics.error(refused)
                return nil
            }
            let parsed: (run: TestRun, kind: ResultsInputKind, unplaced: Int)
            do {
                if file == "-" {
                    let progress = LiveProgress(enabled: !request.quiet, terminal: console.errorsAreTerminal, diagnostics: diagnostics)
                    defer { progress.finish() }
                    parsed = try ResultsInput.parse(descriptor: request.standardInput, file: "<stdin>", live: progress.saw)
                } else {
                    parsed = try ResultsInput.parse(file: file)
                }
            } catch {
                diagnostics.error(describing: error)
                return nil
            }
            let name = file == "-" ? "standard input" : named
            // One of several outputs of a run may hold none of its tests (the Swift Testing event
            // stream of a package whose tests are all XCTest): said, and left out. All empty is an error.
            if parsed.run.isEmpty {
                empties.append(name)
                continue
            }
            if let refused = trust.problem(stampOf: parsed.run, file: file, named: name) {
                diagnostics.error(refused)
                return nil
            }
            inputs.append((named, parsed.run))
            for failure in parsed.run.runFailures { diagnostics.error("\(named): the run failed: \(failure)") }
            let cut = parsed.run.results.filter(\.durationWasCut).count
            if cut > 0 {
                diagnostics.warning("\(name): \(cut) test duration\(cut == 1 ? " was" : "s were") infinite or absurd; written as \(Int(UITestResult.longestDuration)) seconds")
            }
            if parsed.unplaced > 0 { diagnostics.warning("\(name): \(parsed.unplaced) lines looked like test events but were not understood") }
        }
        guard !inputs.isEmpty else {
            // An empty report passing for a green run is how a broken pipeline goes unnoticed.
            diagnostics.error("no test results found in \(empties.joined(separator: ", "))")
            return nil
        }
        for file in empties { diagnostics.note("\(file): no tests in it; the other inputs hold the run") }
        // Shards of a CI matrix become one run (a test in two shards is an error; a missing shard fails the run).
        do {
            let merged = try ResultsMerge.merge(inputs)
            for failure in merged.added { diagnostics.error("the run failed: \(failure)") }
            // The inputs' word on quarantine is not taken: the trusted configuration decides again.
            return trust.redecideQuarantine(merged.run, diagnostics: diagnostics)
        } catch {
            diagnostics.error(describing: error)
            return nil
        }
    }

    /// The run, allowed to be incomplete when `allowed`; says so when it is (an error unless allowed).
    static func incompleteness(allowed: Bool, _ diagnostics: Diagnostics) -> (TestRun) -> TestRun {
        { read in
            let run = allowed ? read.allowingIncomplete() : read
            if let incomplete = run.incomplete {
                if run.refusedAsIncomplete { diagnostics.error("\(incomplete); --allow-incomplete accepts such a run") }
                else { diagnostics.warning("\(incomplete) (allowed)") }
            }
            return run
        }
    }

    /// The reports, streamed a piece at a time: into the folder, the file, or standard output.
    /// Returns what was written to files; nil (said why) when one cannot be written.
    static func write(_ run: TestRun, formats: [ReportFormat], request: Request, limit: Int, checkout: Checkout?,
                      diagnostics: Diagnostics) -> [(format: ReportFormat, path: String)]? {
        let console = diagnostics.console
        func reporter(_ format: ReportFormat) -> any TestReporter { format == .github ? GitHubAnnotationsReporter(limit: limit) : format.reporter }
        var written: [(format: ReportFormat, path: String)] = []
        let here = request.currentDirectory
        if let named = request.outputDirectory {
            let folder = here.map { FilePath.absolute(named, base: $0) } ?? named
            do {
                try Checkout.makeFolder(folder, in: checkout)
            } catch {
                diagnostics.error("cannot make \(folder): \(error)")
                return nil
            }
            written = formats.map { ($0, FilePath.join(folder, $0.fileName)) }
        } else if let output = request.output {
            written = [(formats[0], here.map { FilePath.absolute(output, base: $0) } ?? output)]
        }
        for (format, path) in written {
            do {
                try ReportPublisher.write(reporter(format), run, to: path, checkout: checkout)
            } catch let problem as Checkout.Problem {
                if case .system(_, let reason) = problem { diagnostics.error("cannot write \(path): \(reason)") } else { diagnostics.error("cannot write \(path): \(problem)") }
                return nil
            } catch {
                diagnostics.error("cannot write \(path): \(ErrorText.describe(error))")
                return nil
            }
        }
        // Beside the reports, which run wrote them: what `prepush comment` takes as this run's.
        // A folder of their own gets a manifest; a file named alone joins one of this run already there.
        if let first = written.first {
            do {
                try ReportFiles.recordManifest(folder: FilePath.parent(first.path), written: written.map(\.path),
                                               provenance: run.provenance ?? RunProvenance(), shard: run.shard?.description,
                                               checkout: checkout, onlyJoining: request.outputDirectory == nil)
            } catch {
                diagnostics.warning("could not write \(ReportManifest.fileName) beside \(first.path): \(error)")
            }
        }
        if written.isEmpty {
            let sink = ReportSink { console.payload($0) }
            reporter(formats[0]).write(run, to: sink)
            sink.flush()
        }
        return written
    }

    /// In GitHub Actions the annotations, the step summary and the step outputs; the verdict.
    static func publish(_ run: TestRun, written: [(format: ReportFormat, path: String)], firstFormat: ReportFormat, limit: Int,
                        environment: [String: String], here: String, diagnostics: Diagnostics) -> ExitStatus {
        let console = diagnostics.console
        let publisher = ReportPublisher(environment: environment, annotationLimit: limit)
        // Annotations and the summary name files as the checkout here has them, so GitHub can
        // place a failure from a log of another machine (`/Users/runner/work/app/app/Tests/…`).
        let placed = publisher.isGitHubActions ? SourcePlaces(root: here).placed(run) : run
        // With the report on standard output, the workflow commands go to standard error (GitHub
        // reads both): `prepush results … --format junit > junit.xml` stays a JUnit file.
        let toStandardOutput = written.isEmpty
        if !(toStandardOutput && firstFormat == .github) {
            let annotations = publisher.annotations(placed)
            if toStandardOutput { console.commandsOnStandardError(annotations) } else { console.payload(annotations) }
        }
        try? publisher.appendStepSummary(placed)
        // The run's verdict as every report states it: quarantined failures do not fail it, a refusal does.
        let status: ExitStatus = run.passedOverall ? .success : .failure
        let summary = written.filter { $0.format == .markdown }.prefix(1).map { ("summary", $0.path) }
        publisher.setOutputs(ReportPublisher.outputs(of: run) + summary + [("conclusion", status.conclusion)])
        return status
    }
}

/// What `prepush results -` says on standard error while a test run streams through it, so it can
/// stand in for `xcbeautify --report junit` in a pipeline: a line per failing test as it fails, and
/// on a terminal a count of the tests so far, rewritten in place.
final class LiveProgress {
    private let enabled: Bool
    private let terminal: Bool
    private let diagnostics: Diagnostics
    private var seen = 0
    private var failed = 0

    init(enabled: Bool, terminal: Bool, diagnostics: Diagnostics) {
        self.enabled = enabled
        self.terminal = terminal
        self.diagnostics = diagnostics
    }

    func saw(_ test: UITestResult) {
        guard enabled else { return }
        seen += 1
        if !test.passed {
            failed += 1
            let place = test.failureLocation.map { "\($0.file):\($0.line): " } ?? ""
            // The test's text is the repository's: said through the console, which makes it safe.
            if terminal { diagnostics.progress("") }
            diagnostics.aside("✘ \(place)\(test.testIdentifier): \(test.failureMessage ?? test.status.rawValue)")
        }
        if terminal { diagnostics.progress("prepush: \(seen) test\(seen == 1 ? "" : "s") so far, \(failed) failed") }
    }

    func finish() {
        if enabled && terminal && seen > 0 { diagnostics.progress("") }
    }
}
