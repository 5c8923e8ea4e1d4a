#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushGit
import PrePushTraceability

/// The traceability gate's policy in CI comes from the trusted base, like quarantine: a change that
/// makes a P1 scenario manual, lets it be skipped, lowers its priority, deletes it, or loosens the
/// gate (`gate.blocking`, `gate.minTests`, `gate.unmappedFailures`) is shown to reviewers and not
/// honoured until it is merged. The catalog's other edits (new scenarios, links to renamed tests)
/// are the change's to make and hold at once.
enum GatePolicyTrust {
    /// `catalog` and `step`'s gate with the base's policy put back where the change loosens it;
    /// returns what the change tried, one line each. Nothing changes outside CI (`base` nil), on the
    /// default branch itself, or for a catalog the base does not have.
    static func apply(_ catalog: ScenarioCatalog, step: inout TraceabilityStep, base: TrustedBase?, repository: Repository,
                      configurationFile: String?, here: String) -> (catalog: ScenarioCatalog, changes: [String]) {
        guard let base, base.source != .ownHead else { return (catalog, []) }
        var changes: [String] = []
        // The gate's settings, from the base's configuration file (or the defaults when it has none).
        var baseSection: FileTraceability?
        if let file = configurationFile, let root = repository.workingDirectory {
            let relative = FilePath.relative(FilePath.absolute(file, base: here), to: root)
            if !relative.hasPrefix("/"), !relative.hasPrefix(".."), let bytes = base.contents(of: relative, in: repository),
               let decoded = try? ConfigurationFile.decode(String(decoding: bytes, as: UTF8.self), path: relative) {
                baseSection = decoded.traceability
            }
        }
        let baseStep = TraceabilityStep(baseSection, root: step.root)
        let trusted = baseStep.gate
        var gate = step.gate
        let dropped = trusted.blocking.subtracting(gate.blocking)
        if !dropped.isEmpty {
            changes.append("gate.blocking no longer holds \(dropped.sorted().map(\.rawValue).joined(separator: ", "))")
            gate.blocking.formUnion(dropped)
        }
        if let floor = trusted.minTests, (gate.minTests ?? 0) < floor {
            changes.append("gate.minTests lowered from \(floor) to \(gate.minTests.map(String.init) ?? "none")")
            gate.minTests = floor
        }
        if trusted.unmappedFailures == .refuse, gate.unmappedFailures != .refuse {
            changes.append("gate.unmappedFailures relaxed from refuse to \(gate.unmappedFailures.rawValue)")
            gate.unmappedFailures = .refuse
        }
        step.gate = gate
        // The scenarios, from the base's catalog (in its own place).
        let baseCatalogPath = baseStep.catalogPath
        guard !baseCatalogPath.hasPrefix("/"), let bytes = base.contents(of: baseCatalogPath, in: repository),
              let baseCatalog = try? ScenarioCatalog.decode(String(decoding: bytes, as: UTF8.self), path: baseCatalogPath,
                                                            testNamePattern: baseStep.testNamePattern) else {
            return (catalog, changes)
        }
        var entries = catalog.entries
        for was in baseCatalog.entries where gate.blocking.contains(was.scenario.priority) {
            let name = "\(was.scenario.priority.rawValue) '\(was.scenario.description)' (\(was.scenario.userStory))"
            guard let index = entries.firstIndex(where: { $0.scenario.userStory == was.scenario.userStory && $0.scenario.description == was.scenario.description }) else {
                changes.append("\(name) deleted")
                entries.append(was)
                continue
            }
            let now = entries[index]
            var manual = now.scenario.requiresManualIntervention, priority = now.scenario.priority, links = now.links
            if manual && !was.scenario.requiresManualIntervention {
                changes.append("\(name) made manual")
                manual = false
            }
            if priority > was.scenario.priority {
                changes.append("\(name) lowered to \(priority.rawValue)")
                priority = was.scenario.priority
            }
            if let allowed = links.allowSkip, allowed != was.links.allowSkip {
                changes.append("\(name) allows a skipped test (allowSkip)")
                links.allowSkip = was.links.allowSkip
            }
            let scenario = now.scenario
            entries[index] = CatalogEntry(scenario: TestScenario(userStory: scenario.userStory, priority: priority, description: scenario.description,
                                                                 testMethodName: scenario.testMethodName, requiredLaunchArguments: scenario.requiredLaunchArguments,
                                                                 requiresManualIntervention: manual),
                                          location: now.location, links: links)
        }
        return (changes.isEmpty ? catalog : catalog.replacing(entries: entries), changes)
    }

    /// The lines the run says for `changes`, against `base`.
    static func say(_ changes: [String], base: TrustedBase?, diagnostics: Diagnostics) {
        guard !changes.isEmpty, let base else { return }
        diagnostics.warning("traceability: this change loosens the gate, which is not honoured in CI until it is merged (the policy is the base's, \(base.said)): "
                            + changes.joined(separator: "; "))
    }
}

/// Accessibility policy a change makes (rule severities, the baseline) stays honoured: teams accept
/// findings in review. In CI it is listed beside the gate's changes, so a reviewer sees it.
enum AccessibilityPolicyChanges {
    /// What the change does to `accessibility.rules` and the baseline against `base`, one line each.
    static func list(_ configuration: ResolvedConfiguration, base: TrustedBase?, repository: Repository, here: String) -> [String] {
        guard let base, base.source != .ownHead, let file = configuration.configurationFile, let root = repository.workingDirectory else { return [] }
        let relative = FilePath.relative(FilePath.absolute(file, base: here), to: root)
        guard !relative.hasPrefix("/"), !relative.hasPrefix(".."), case .success(let bytes) = FileReading.read(FilePath.join(root, relative), limit: 2_000_000),
              let head = try? ConfigurationFile.decode(String(decoding: bytes, as: UTF8.self), path: relative) else { return [] }
        let was = base.contents(of: relative, in: repository).flatMap { try? ConfigurationFile.decode(String(decoding: $0, as: UTF8.self), path: relative) }
        func levels(_ file: ConfigurationFile?) -> [String: String] {
            Dictionary((file?.accessibility?.rules ?? []).map { ($0.value.name, $0.value.severity?.rawValue ?? "off") }, uniquingKeysWith: { $1 })
        }
        let (before, after) = (levels(was), levels(head))
        var changes: [String] = []
        for name in Set(before.keys).union(after.keys).sorted() where before[name] != after[name] {
            changes.append("accessibility rule \(name): \(before[name] ?? "default") → \(after[name] ?? "default") (honoured; for review)")
        }
        let baselinePath = head.accessibility?.baseline?.value ?? was?.accessibility?.baseline?.value
        if let baselinePath, !baselinePath.hasPrefix("/"), !baselinePath.hasPrefix("..") {
            let old = base.contents(of: baselinePath, in: repository)
            let new = try? FileReading.read(FilePath.join(root, baselinePath), limit: 2_000_000).get()
            if old != new { changes.append("accessibility baseline \(baselinePath) changed (honoured; for review)") }
        }
        return changes
    }
}
