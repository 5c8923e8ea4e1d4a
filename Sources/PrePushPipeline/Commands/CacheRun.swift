import PrePushCore
import PrePushGit

/// `prepush cache clear`.
package enum VerdictCacheRun {
    /// Removes the repository's cached verdicts; the next run of every stage runs it.
    package static func clear(console: Console) -> ExitStatus {
        let diagnostics = Diagnostics(console: console)
        guard let repository = diagnostics.repositoryHere() else { return .usage }
        let cache = VerdictCache(repository: repository)
        do {
            let count = try cache.clear()
            console.line("prepush: removed \(count) cached verdict\(count == 1 ? "" : "s") (\(cache.verdictsFolder))")
            return .success
        } catch {
            diagnostics.error("cannot remove \(cache.folder): \(ErrorText.describe(error))")
            return .failure
        }
    }
}
