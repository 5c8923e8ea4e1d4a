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

    /// Creates a publisher.
    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// Writes junit.xml, results.json and results.md into `folder`; returns their paths.
    @discardableResult
    public func writeReports(_ run: TestRun, to folder: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try [ReportFormat.junit, .json, .markdown].map { format in
            let path = FilePath.join(folder, format.fileName)
            try Self.write(format.reporter, run, to: path)
            return path
        }
    }

    /// The workflow commands to print on standard output in GitHub Actions, or "" elsewhere.
    public func annotations(_ run: TestRun) -> String {
        environment["GITHUB_ACTIONS"] == "true" ? GitHubAnnotationsReporter().render(run) : ""
    }

    /// Appends the Markdown summary to `$GITHUB_STEP_SUMMARY` when it is set.
    public func appendStepSummary(_ run: TestRun) throws {
        // Rendered only when there is somewhere to put it: a large run's summary is not free.
        guard environment["GITHUB_STEP_SUMMARY"]?.isEmpty == false else { return }
        try appendStepSummary(markdown: MarkdownReporter().render(run))
    }

    /// Appends Markdown (another report's) to `$GITHUB_STEP_SUMMARY` when it is set.
    public func appendStepSummary(markdown: String) throws {
        guard let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return }
        let text = markdown + "\n"
        if let handle = FileHandleAppend(path: path) {
            handle.append(text)
        } else {
            try Self.writeWhole(text, to: path)
        }
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
    public static func write(_ reporter: TestReporter, _ run: TestRun, to path: String) throws {
        if isStream(path) { return try writeInPlace(path) { reporter.write(run, to: $0) } }
        let folder = FilePath.parent(path)
        if !FileSystem.isDirectory(folder) { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try AtomicFile.write(to: path) { fd in
            let sink = ReportSink { FileSystem.write($0, to: fd) }
            reporter.write(run, to: sink)
            sink.flush()
            return !sink.failed
        }
    }

    /// Writes `text` to a temporary file beside `path` and renames it into place.
    public static func writeWhole(_ text: String, to path: String) throws {
        if isStream(path) { return try writeInPlace(path) { $0.append(text) } }
        let folder = FilePath.parent(path)
        if !FileSystem.isDirectory(folder) { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try AtomicFile.write(text, to: path)
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
