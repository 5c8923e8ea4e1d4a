#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushGit

/// Step 1b of a run in CI: a quarantine excuses failures, so in CI only the trusted base's
/// configuration may name one (`TrustedBase`: chosen per event kind). Entries the change itself
/// adds to the configuration file (a pull request quarantining the test it breaks) are said and
/// not honoured; the entries the base already had are. The merge of shards decides the same way.
enum QuarantineTrust {
    /// `configuration`'s quarantine without the entries the change adds, in CI (`base` nil outside it).
    static func apply(_ configuration: inout ResolvedConfiguration, context: PushContext, base: TrustedBase?) {
        configuration.quarantine = trusted(configuration.quarantine, file: configuration.configurationFile, repository: context.repository,
                                           here: context.request.here, base: base, diagnostics: context.diagnostics)
    }

    /// `quarantine` less what the trusted base's configuration does not have; as it is outside CI
    /// (`base` nil), and for a configuration file outside the repository (`--config` from the job).
    static func trusted(_ quarantine: Quarantine, file: String?, repository: Repository, here: String, base: TrustedBase?,
                        diagnostics: Diagnostics) -> Quarantine {
        guard !quarantine.isEmpty, let base, base.source != .ownHead, let file, let root = repository.workingDirectory else { return quarantine }
        let relative = FilePath.relative(FilePath.absolute(file, base: here), to: root)
        guard relative != "..", !relative.hasPrefix("../"), !relative.hasPrefix("/") else { return quarantine }
        var trusted: Set<String> = []
        if let bytes = base.contents(of: relative, in: repository),
           let decoded = try? ConfigurationFile.decode(String(decoding: bytes, as: UTF8.self), path: relative) {
            trusted = Set(decoded.quarantine.map(\.value.pattern))
        }
        let added = quarantine.entries.filter { !trusted.contains($0.pattern) }
        guard !added.isEmpty else { return quarantine }
        var kept = quarantine
        kept.entries.removeAll { !trusted.contains($0.pattern) }
        let named = added.prefix(5).map { "\"\($0.pattern)\"" }.joined(separator: ", ") + (added.count > 5 ? ", …" : "")
        let entries = TextFormatting.count(added.count, "entry", plural: "entries")
        if base.source == .none {
            diagnostics.warning("quarantine: \(entries) of \(relative) (\(named)) \(added.count == 1 ? "is" : "are") not honoured in CI: \(base.said), so no quarantine excuses a failure")
        } else {
            diagnostics.warning("quarantine: \(entries) that this change adds to \(relative) (\(named)) \(added.count == 1 ? "is" : "are") not honoured in CI: only the base's (\(base.said)) quarantine excuses a failure")
        }
        return kept
    }
}
