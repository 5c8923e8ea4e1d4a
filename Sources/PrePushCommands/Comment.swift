import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
            throw ExitCode(CommentRun.run(files: files, environment: CommandContext.now.environment, console: CommandContext.now.console).rawValue)
        }
    }
}
