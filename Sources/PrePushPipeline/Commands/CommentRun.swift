#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// `prepush comment`: the job's reports as one pull-request comment, created or updated.
public enum CommentRun {
    /// Where a push writes its reports, relative to the repository.
    static let reports = ".prepush/reports"

    /// Posts `files` (default: the reports folder's results.md and traceability.md): 0 commented,
    /// updated or kept for a follow-up; 1 GitHub refused it; 2 not a pull request's job, no token, no report.
    public static func run(files: [String], environment: [String: String], console: Console) -> ExitStatus {
        let diagnostics = Diagnostics(console: console)
        let named = files.isEmpty
            ? ["results.md", "traceability.md"].map { reports + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) } : files
        var parts: [String] = []
        for file in named {
            guard case .success(let bytes) = FileReading.read(file, limit: 8 * 1024 * 1024) else {
                diagnostics.error("\(file): cannot be read")
                return .usage
            }
            parts.append(String(decoding: bytes, as: UTF8.self))
        }
        guard !parts.isEmpty else {
            diagnostics.error("no report to post: run prepush run first, or name Markdown files")
            return .usage
        }
        switch PullRequestComment.post(parts.joined(separator: "\n"), environment: environment, fallbackFile: reports + "/comment.md") {
        case .success(let said):
            console.line(said)
            return .success
        case .failure(let problem):
            diagnostics.error(problem.description)
            return problem.description.hasPrefix("GitHub answered") ? .failure : .usage
        }
    }
}
