#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushGit

/// `prepush comment`: the job's reports as one pull-request comment, created or updated.
///
/// It runs after the pull request's own code (`if: always()`), with the job's token: it posts only
/// reports this job's run of prepush wrote (listed with their digests in the folder's
/// `provenance.json`, of this commit, run, attempt and job), read from the configured reports
/// folder through the confined checkout layer. A committed `results.md`, a link to
/// `/proc/self/environ`, or a file a stage left is refused, and says which.
package enum CommentRun {
    /// Where a push writes its reports when the configuration names no folder, relative to the repository.
    static let reports = ".prepush/reports"

    /// Posts `files` (default: the reports folder's results.md and traceability.md): 0 commented,
    /// updated or kept for a follow-up; 1 GitHub refused it; 2 not a pull request's job, no token,
    /// no report of this run.
    package static func run(files: [String], environment: [String: String], console: Console, currentDirectory: String? = nil) -> ExitStatus {
        let diagnostics = Diagnostics(console: console)
        // Not a pull request's job, no token: said before any file is read.
        if case .failure(let problem) = PullRequestComment.target(environment: environment) {
            diagnostics.error(problem.description)
            return .usage
        }
        let here = currentDirectory ?? CommandContext.now.here
        let around = ReportFiles.checkout(around: here)
        let folder = reportsFolder(around, here: here, environment: environment, diagnostics: diagnostics)
        let reader = ReportFiles.provenance(of: around?.repository, environment: environment)
        let named = files.isEmpty ? ["results.md", "traceability.md"].map { FilePath.join(folder, $0) } : files.map { FilePath.absolute($0, base: here) }
        var parts: [String] = []
        var refused: [ReportFiles.RefusedReport] = []
        for file in named {
            let shown = FilePath.shown(file, from: here)
            switch ReportFiles.readOwnReport(file, shown: shown, checkout: around?.checkout, reader: reader, sameJob: true, limit: 8 * 1024 * 1024) {
            case .success(let bytes): parts.append(String(decoding: bytes, as: UTF8.self))
            case .failure(let problem): refused.append(problem)
            }
        }
        // A default file the run did not write (no catalog, no traceability.md) is no problem; a
        // file that is there but not the run's is said, and a named file must be the run's.
        for problem in refused where !files.isEmpty || !problem.absent {
            diagnostics.error(problem.description)
        }
        if !files.isEmpty && !refused.isEmpty { return .usage }
        guard !parts.isEmpty else {
            diagnostics.error("no report of this run to post in \(FilePath.shown(folder, from: here)): run prepush run first, in this job, or name Markdown files it wrote")
            return .usage
        }
        let fallback = FilePath.join(folder, "comment.md")
        switch PullRequestComment.post(parts.joined(separator: "\n"), environment: environment,
                                       keep: { body in keep(body, at: fallback, checkout: around?.checkout, here: here) }) {
        case .success(let said):
            console.line(said)
            return .success
        case .failure(let problem):
            diagnostics.error(problem.description)
            return problem.refusedByGitHub ? .failure : .usage
        }
    }

    /// The configured reports folder (absolute), or the default one when the configuration cannot be read.
    static func reportsFolder(_ around: (repository: PrePushGit.Repository, checkout: Checkout)?, here: String,
                              environment: [String: String], diagnostics: Diagnostics) -> String {
        guard let around else { return FilePath.absolute(reports, base: here) }
        do {
            let configuration = try Pipeline.resolveConfiguration(flags: ConfigurationFlags(), environment: environment,
                                                                  repository: around.repository, currentDirectory: here)
            return FilePath.absolute(configuration.reportsDirectory, base: here)
        } catch {
            diagnostics.warning("the configuration cannot be read (\(ErrorText.describe(error))); looking for reports in \(reports)")
            return FilePath.join(around.checkout.root, reports)
        }
    }

    /// Keeps the comment's body for a follow-up workflow; where it went, or why not.
    static func keep(_ body: String, at path: String, checkout: Checkout?, here: String) -> String {
        let bytes = Array(body.utf8)
        do {
            try Checkout.write(to: path, in: checkout) { fd in bytes.withUnsafeBytes { FileSystem.write($0, to: fd) } }
            return "its body is in \(FilePath.shown(path, from: here))"
        } catch {
            return "its body could not be written to \(FilePath.shown(path, from: here)): \(error)"
        }
    }
}
