import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushPipeline

extension Prepush {
    /// `prepush comment`: the job's report as one pull-request comment, created or updated.
    struct Comment: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "comment",
            abstract: "Post the job's reports as one pull-request comment, updated on each run (GitHub Actions).",
            discussion: """
            Needs GITHUB_TOKEN with pull-requests: write, and curl. On a fork's pull request (a read-only \
            token) the body is written to the reports folder instead, for a workflow_run follow-up \
            (docs/ci.md). Exit status: 0 commented, updated, or the body kept; 1 GitHub refused it \
            otherwise; 2 not a pull request's job, no token, or no report.
            """
        )

        @Argument(help: "Markdown files to post (default: results.md and traceability.md of .prepush/reports).")
        var files: [String] = []

        func run() throws {
            let reports = ".prepush/reports"
            let named = files.isEmpty ? ["results.md", "traceability.md"].map { reports + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) } : files
            var parts: [String] = []
            for file in named {
                guard case .success(let bytes) = FileReading.read(file, limit: 8 * 1024 * 1024) else {
                    FileStandardError.write("error: \(file): cannot be read")
                    throw ExitCode(ExitStatus.usage.rawValue)
                }
                parts.append(String(decoding: bytes, as: UTF8.self))
            }
            guard !parts.isEmpty else {
                FileStandardError.write("error: no report to post: run prepush run first, or name Markdown files")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            switch PullRequestComment.post(parts.joined(separator: "\n"), environment: ProcessInfo.processInfo.environment,
                                           fallbackFile: reports + "/comment.md") {
            case .success(let said):
                print(said)
            case .failure(let problem):
                FileStandardError.write("error: \(problem)")
                throw ExitCode(problem.description.hasPrefix("GitHub answered") ? ExitStatus.failure.rawValue : ExitStatus.usage.rawValue)
            }
        }
    }
}
