#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushGit

/// Step 1b of a run in CI: a quarantine excuses failures, so in CI only the base's configuration may
/// name one. Entries the change itself adds to the configuration file (a pull request quarantining
/// the test it breaks) are said and not honoured; the entries the base branch already had are.
enum QuarantineTrust {
    /// `configuration`'s quarantine without the entries the change adds, when the run is in CI
    /// (`CI` or `GITHUB_ACTIONS`) with a base to compare with (`--base`, or the CI's own range).
    /// A configuration file outside the repository (`--config` from the job) is the job's, trusted.
    static func apply(_ configuration: inout ResolvedConfiguration, context: PushContext) {
        let environment = context.request.environment
        guard !configuration.quarantine.isEmpty, ConfigurationResolver.runsInCI(environment),
              let base = context.request.checkRange?.base ?? CIRange.detect(environment: environment)?.base,
              let file = configuration.configurationFile else { return }
        let relative = FilePath.relative(FilePath.absolute(file, base: context.request.here), to: context.root)
        guard relative != "..", !relative.hasPrefix("../"), !relative.hasPrefix("/") else { return }
        var trusted: Set<String> = []
        if let bytes = try? context.repository.contents(of: relative, at: base),
           let decoded = try? ConfigurationFile.decode(String(decoding: bytes, as: UTF8.self), path: relative) {
            trusted = Set(decoded.quarantine.map(\.value.pattern))
        }
        let added = configuration.quarantine.entries.filter { !trusted.contains($0.pattern) }
        guard !added.isEmpty else { return }
        configuration.quarantine.entries.removeAll { !trusted.contains($0.pattern) }
        let named = added.prefix(5).map { "\"\($0.pattern)\"" }.joined(separator: ", ") + (added.count > 5 ? ", …" : "")
        context.diagnostics.warning("quarantine: \(TextFormatting.count(added.count, "entry", plural: "entries")) that this change adds to \(relative) (\(named)) \(added.count == 1 ? "is" : "are") not honoured in CI: only the base's (\(base)) quarantine excuses a failure")
    }
}
