#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the reports of a run into a folder and, in GitHub Actions, the annotations and the
/// step summary. Files are written whole (to a temporary name, then renamed): never half-written.
public struct ReportPublisher: Sendable {
    /// The environment (for `GITHUB_ACTIONS` and `GITHUB_STEP_SUMMARY`).
    public let environment: [String: String]
    /// Annotations of each kind printed in GitHub Actions.
    public let annotationLimit: Int

    /// Creates a publisher.
    public init(environment: [String: String], annotationLimit: Int = GitHubAnnotationsReporter.perStepLimit) {
        self.environment = environment
        self.annotationLimit = annotationLimit
    }

    /// Writes each of `ReportFormat.pushFormats` (junit.xml, results.json, results.md) into `folder`; returns their paths. Inside
    /// `checkout` every file goes through its confinement (no link followed, no tracked file replaced).
    @discardableResult
    public func writeReports(_ run: TestRun, to folder: String, checkout: Checkout? = nil) throws -> [String] {
        try Checkout.makeFolder(folder, in: checkout)
        return try ReportFormat.pushFormats.map { format in
            let path = FilePath.join(folder, format.fileName)
            try Self.write(format.reporter, run, to: path, checkout: checkout)
            return path
        }
    }

    /// Whether this runs in GitHub Actions (`GITHUB_ACTIONS=true`).
    public var isGitHubActions: Bool { environment["GITHUB_ACTIONS"] == "true" }

    /// The workflow commands to print on standard output in GitHub Actions, or "" elsewhere.
    public func annotations(_ run: TestRun) -> String {
        isGitHubActions ? GitHubAnnotationsReporter(limit: annotationLimit).render(run) : ""
    }

    /// Appends the Markdown summary to `$GITHUB_STEP_SUMMARY` when it is set.
    public func appendStepSummary(_ run: TestRun) throws {
        // Rendered only when there is somewhere to put it: a large run's summary is not free.
        guard environment["GITHUB_STEP_SUMMARY"]?.isEmpty == false else { return }
        try appendStepSummary(markdown: MarkdownReporter(failureBudget: Self.stepSummaryFailureBudget).render(run), block: "tests")
    }

    /// The bytes of failures and warnings a step summary lists before it counts the rest: half of
    /// what GitHub keeps, so that counts, flaky and slowest tests and a traceability block still fit.
    public static let stepSummaryFailureBudget = 512 * 1024

    /// GitHub drops a step summary over 1 MiB whole, on exactly the big red runs where it matters:
    /// what prepush appends stays under it, cut at a line with a note where the whole report is.
    public static let stepSummaryLimit = 1024 * 1024

    /// Appends Markdown (another report's) to `$GITHUB_STEP_SUMMARY` when it is set, within what is
    /// left of the step's 1 MiB. The text is marked as prepush's `block` (`tests`, `traceability`):
    /// written again in the same step (a second `prepush results`), it replaces its earlier copy
    /// instead of appearing twice.
    public func appendStepSummary(markdown: String, block: String) throws {
        guard let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return }
        let (open, close) = ("<!-- prepush:\(block) -->\n", "<!-- /prepush:\(block) -->\n")
        var info = stat()
        let isFile = stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        // The summary of this step so far, when it already holds this block (a file GitHub made, under its 1 MiB).
        if isFile, Int(info.st_size) <= 2 * Self.stepSummaryLimit, case .success(let bytes) = FileReading.read(path, limit: 2 * Self.stepSummaryLimit) {
            let existing = String(decoding: bytes, as: UTF8.self)
            if let start = existing.firstRange(of: open), let end = existing[start.upperBound...].firstRange(of: close) {
                let before = String(existing[..<start.lowerBound]), after = String(existing[end.upperBound...])
                let room = Self.stepSummaryLimit - before.utf8.count - after.utf8.count - open.utf8.count - close.utf8.count
                guard let text = Self.fitted(markdown + "\n", room: room) else { return }
                let replaced: String = before + open + text + close + after
                try Self.writeWhole(replaced, to: path)
                return
            }
        }
        let used = isFile ? Int(info.st_size) : 0
        guard let text = Self.fitted(markdown + "\n", room: Self.stepSummaryLimit - used - open.utf8.count - close.utf8.count) else { return }
        if let handle = FileHandleAppend(path: path) {
            handle.append(open + text + close)
        } else {
            try Self.writeWhole(open + text + close, to: path)
        }
    }

    /// `text` within `room` bytes: whole when it fits, else cut at its last line that fits with a
    /// note; nil when not even the note fits.
    static func fitted(_ text: String, room: Int) -> String? {
        if text.utf8.count <= room { return text }
        let note = "\n> prepush cut this report here: a step summary holds 1 MiB. The whole report is in the reports folder "
            + "(results.md, junit.xml, traceability.md).\n"
        let budget = room - note.utf8.count
        guard budget > 0 else { return nil }
        let bytes = Array(text.utf8.prefix(budget))
        guard let lastBreak = bytes.lastIndex(of: UInt8(ascii: "\n")) else { return nil }
        return String(decoding: bytes[...lastBreak], as: UTF8.self) + note
    }

    /// A run's counts as step outputs (`total`, and `tests` as before it, `passed`, `failed`, `unfinished`, `skipped`,
    /// `flaky`, `quarantined`), for later steps and jobs (`steps.<id>.outputs.failed`): the numbers of `TestRun.tally`,
    /// as every report gives them (a quarantined failure is in `quarantined` only).
    public static func outputs(of run: TestRun) -> [(name: String, value: String)] {
        let unnamed = max(0, (run.counted?.tests ?? 0) - run.results.count)
        let tally = run.tally
        return [("total", tally.tests + unnamed), ("tests", tally.tests + unnamed), ("passed", tally.passed + unnamed),
                ("failed", tally.failed), ("unfinished", tally.unfinished), ("skipped", tally.skipped),
                ("flaky", tally.flaky), ("quarantined", tally.quarantined)].map { ($0.0, String($0.1)) }
    }

    /// Appends `name=value` lines to `$GITHUB_OUTPUT` in GitHub Actions. Names are prepush's own and
    /// values numbers or words: nothing a test printed can add a line.
    public func setOutputs(_ values: [(name: String, value: String)]) {
        guard environment["GITHUB_ACTIONS"] == "true", let path = environment["GITHUB_OUTPUT"], !path.isEmpty else { return }
        // A value with a line break (a reports folder a pull request's configuration named so)
        // would add an output of its own: it is left out.
        let text = values.filter { !$0.value.contains(where: \.isNewline) }.map { "\($0.name)=\($0.value)\n" }.joined()
        if let handle = FileHandleAppend(path: path) { handle.append(text) }
    }

    /// Whether `path` is a character device, a FIFO or a socket (`/dev/null`, `/dev/stdout`, a named
    /// pipe): written to in place, never replaced by a renamed file — as root, a rename over
    /// `/dev/null` would leave the machine a regular file there.
    static func isStream(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type == S_IFCHR || type == S_IFIFO || type == S_IFSOCK
    }

    /// Writes what `produce` gives its sink straight into `path` (see `isStream`).
    private static func writeInPlace(_ path: String, _ produce: (ReportSink) -> Void) throws {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw WriteProblem(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
        let sink = ReportSink { FileSystem.write($0, to: fd) }
        produce(sink)
        sink.flush()
        let closed = close(fd) == 0
        guard !sink.failed, closed else { throw WriteProblem(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
    }

    /// Why a report could not be written.
    public struct WriteProblem: Error, CustomStringConvertible {
        public let description: String
    }

    /// Streams a report into a temporary file beside `path`, a piece at a time, and renames it into
    /// place: memory does not grow with the report, and a failed write leaves no half-written file.
    /// Inside `checkout` the file and its folders go through its confinement.
    public static func write(_ reporter: TestReporter, _ run: TestRun, to path: String, checkout: Checkout? = nil) throws {
        let confined = checkout.flatMap { $0.relative(path, from: $0.root) } != nil
        if !confined && isStream(path) { return try writeInPlace(path) { reporter.write(run, to: $0) } }
        try Checkout.makeFolder(FilePath.parent(path), in: checkout)
        try Checkout.write(to: path, in: checkout) { fd in
            let sink = ReportSink { FileSystem.write($0, to: fd) }
            reporter.write(run, to: sink)
            sink.flush()
            return !sink.failed
        }
    }

    /// Writes `text` to a temporary file beside `path` and renames it into place.
    public static func writeWhole(_ text: String, to path: String, checkout: Checkout? = nil) throws {
        let confined = checkout.flatMap { $0.relative(path, from: $0.root) } != nil
        if !confined && isStream(path) { return try writeInPlace(path) { $0.append(text) } }
        try Checkout.makeFolder(FilePath.parent(path), in: checkout)
        let bytes = Array(text.utf8)
        try Checkout.write(to: path, in: checkout) { fd in bytes.withUnsafeBytes { FileSystem.write($0, to: fd) } }
    }
}

/// Appending to a file with `open(O_APPEND)`: the step summary is shared with other steps.
struct FileHandleAppend {
    let path: String

    init?(path: String) {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        self.path = path
    }

    func append(_ text: String) {
        let fd = open(path, O_WRONLY | O_APPEND)
        guard fd >= 0 else { return }
        defer { close(fd) }
        FileSystem.write(text, to: fd)
    }
}
