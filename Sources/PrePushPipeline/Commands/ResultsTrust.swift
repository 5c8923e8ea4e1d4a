#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushGit

/// What `prepush results` and `prepush report` take from their inputs in a checkout a pull request
/// controls: an input inside the checkout is read through the confined layer and never a file git
/// tracks (a committed `shards/zz/results.json` is the pull request's, not a shard's); a shard's
/// results must carry the stamp of this run and commit; and quarantine is never taken from an
/// input: it is decided again from the trusted configuration.
final class ResultsTrust {
    /// The repository around the command and its checkout, if any.
    let around: (repository: Repository, checkout: Checkout)?
    /// Where the command runs.
    let here: String
    /// The job's environment.
    let environment: [String: String]

    /// The command's configuration flags (`--config`).
    let flags: ConfigurationFlags

    init(here: String, environment: [String: String], flags: ConfigurationFlags = ConfigurationFlags()) {
        self.here = here
        self.environment = environment
        self.flags = flags
        around = ReportFiles.checkout(around: here)
    }

    /// The repository's configuration as the command's flags resolve it, read once; nil without a
    /// repository or when it cannot be read.
    lazy var configuration: ResolvedConfiguration? = around.flatMap { around in
        try? Pipeline.resolveConfiguration(flags: flags, environment: environment, repository: around.repository, currentDirectory: here)
    }

    /// The run reading the inputs: in CI its commit and CI run, which a shard's stamp must name; outside CI nothing to compare.
    var reader: RunProvenance {
        ConfigurationResolver.runsInCI(environment) ? ReportFiles.provenance(of: around?.repository, environment: environment) : RunProvenance()
    }

    /// This command's own run, which the reports it writes carry.
    var provenance: RunProvenance { ReportFiles.provenance(of: around?.repository, environment: environment) }

    /// Why the input at `file` (absolute; `named` as given) is refused before it is read, or nil:
    /// inside the checkout it is read only through the confined layer (no link followed).
    func problem(admitting file: String, named: String) -> String? {
        guard let checkout = around?.checkout, let relative = checkout.relative(file, from: here) else { return nil }
        return checkout.problem(reading: relative).map { "\(named): refused: \($0)" }
    }

    /// Why a read input is refused, or nil: prepush's own results.json (a shard's, or one that
    /// claims quarantined failures or names its run) is a report of a run, so never a file git
    /// tracks, and it must carry this run's stamp. Logs and JUnit files a team commits as fixtures
    /// stay readable: they carry no verdict of prepush's.
    func problem(stampOf run: TestRun, file: String, named: String) -> String? {
        guard run.shard != nil || run.quarantined != nil || run.provenance != nil else { return nil }
        if let checkout = around?.checkout, let relative = checkout.relative(file, from: here), checkout.isTracked(relative) {
            return "\(named): refused: \(Checkout.Problem.tracked(relative))"
        }
        guard run.shard != nil || run.quarantined != nil else { return nil }
        guard let provenance = run.provenance else {
            return "\(named): refused: it carries no stamp of a prepush run (results.json of prepush 0.1 or later names its commit and CI run), so it cannot be a shard of this run"
        }
        return provenance.mismatch(with: reader, sameJob: false).map { "\(named): refused: it is not a shard of this run: \($0)" }
    }

    /// `run` with its quarantined failures decided again: only tests the trusted configuration
    /// (`.prepush.yml` here; in CI the base's entries only) quarantines stay excused, whatever the
    /// inputs claimed. Said when an input's claim is dropped.
    func redecideQuarantine(_ run: TestRun, diagnostics: Diagnostics) -> TestRun {
        guard let claimed = run.quarantined, !claimed.isEmpty else { return run }
        let quarantine = trustedQuarantine(diagnostics: diagnostics)
        var kept: [String: String] = [:]
        for (test, _) in claimed {
            if let reason = quarantine.reason(for: test) { kept[test] = reason }
        }
        var decided = run
        decided.quarantined = kept.isEmpty ? nil : kept
        let dropped = claimed.keys.filter { kept[$0] == nil }.sorted()
        if !dropped.isEmpty {
            let named = dropped.prefix(5).joined(separator: ", ") + (dropped.count > 5 ? ", …" : "")
            diagnostics.warning("\(TextFormatting.count(dropped.count, "failure")) the inputs call quarantined \(dropped.count == 1 ? "is" : "are") not quarantined by the trusted configuration (\(named)): \(dropped.count == 1 ? "it counts" : "they count")")
        }
        return decided
    }

    /// The configuration's quarantine as trusted here (the base's entries in CI); empty without a
    /// repository or a readable configuration.
    func trustedQuarantine(diagnostics: Diagnostics) -> Quarantine {
        guard let around else { return Quarantine() }
        guard let configuration else {
            diagnostics.warning("the configuration cannot be read: no quarantine excuses a failure")
            return Quarantine()
        }
        let base = TrustedBase.resolve(given: nil, environment: environment, repository: around.repository)
        return QuarantineTrust.trusted(configuration.quarantine, file: configuration.configurationFile, repository: around.repository,
                                       here: here, base: base, diagnostics: diagnostics)
    }
}
