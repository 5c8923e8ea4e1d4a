#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushResults

/// `prepush init`: a commented `.prepush.yml` written from what the repository holds — a Swift
/// package gets `swift test` stages, an Xcode project or workspace an `xcodebuild test` UI stage with
/// the shared schemes it can read, an existing scenario catalog is named — and never written over
/// an existing file without `--force`. What it writes passes `prepush config`.
public enum InitRun {
    /// What was found in the repository.
    struct Findings {
        var hasPackage = false
        /// `App.xcworkspace` or `App.xcodeproj` (a workspace wins), relative to the root.
        var container: (path: String, isWorkspace: Bool)?
        /// Shared scheme names, UI-test schemes first.
        var schemes: [String] = []
        var catalog: String?
        /// Why the identifier rules apply (UI tests, identifiers in views), or nil.
        var identifierEvidence: String?
        /// The identifiers the views give as literals.
        var identifiers: [String] = []
    }

    /// Writes the file; 0 written, 2 when a file is there (without `force`) or cannot be written.
    public static func run(root: String, force: Bool, console: Console) -> ExitStatus {
        let path = FilePath.join(root, ConfigurationResolver.defaultFileName)
        if !force && (FileManager.default.fileExists(atPath: path) || RepositoryPath.isSymbolicLink(path)) {
            console.error("error: \(ConfigurationResolver.defaultFileName) already exists; prepush init writes over it only with --force")
            return .usage
        }
        let findings = find(in: root)
        let text = render(findings)
        do {
            try ReportPublisher.writeWhole(text, to: path)
        } catch {
            console.error("error: cannot write \(path): \(ErrorText.describe(error))")
            return .usage
        }
        console.line("prepush: wrote \(ConfigurationResolver.defaultFileName) (\(summary(findings)))")
        console.line("prepush: check it with `prepush config`, try it with `prepush run`, then `prepush install`")
        return .success
    }

    static func summary(_ findings: Findings) -> String {
        var parts: [String] = []
        if findings.hasPackage { parts.append("swift test for the unit stage") }
        if let container = findings.container {
            parts.append(findings.schemes.isEmpty ? "a UI stage for \(container.path) to finish: no shared scheme found"
                                                  : "xcodebuild test of scheme \(findings.schemes[0]) for the UI stage")
        }
        if let catalog = findings.catalog { parts.append("the scenario catalog \(catalog)") }
        return parts.isEmpty ? "no package or Xcode project found: stages to fill in" : parts.joined(separator: ", ")
    }

    static func find(in root: String) -> Findings {
        var findings = Findings()
        let manager = FileManager.default
        findings.hasPackage = manager.fileExists(atPath: FilePath.join(root, "Package.swift"))
        let entries = ((try? manager.contentsOfDirectory(atPath: root)) ?? []).sorted()
        if let workspace = entries.first(where: { $0.hasSuffix(".xcworkspace") }) {
            findings.container = (workspace, true)
        } else if let project = entries.first(where: { $0.hasSuffix(".xcodeproj") }) {
            findings.container = (project, false)
        }
        // Shared schemes live in the workspace or the projects beside it.
        var schemes: [String] = []
        for container in entries where container.hasSuffix(".xcworkspace") || container.hasSuffix(".xcodeproj") {
            let folder = FilePath.join(root, "\(container)/xcshareddata/xcschemes")
            for file in ((try? manager.contentsOfDirectory(atPath: folder)) ?? []).sorted() where file.hasSuffix(".xcscheme") {
                let name = String(file.dropLast(9))
                if !schemes.contains(name) { schemes.append(name) }
            }
        }
        findings.schemes = schemes.filter { $0.contains("UITest") } + schemes.filter { !$0.contains("UITest") }
        let catalog = TraceabilityStep.defaultCatalog
        if manager.fileExists(atPath: FilePath.join(root, catalog)) { findings.catalog = catalog }
        findings.identifierEvidence = IdentifierPolicy.evidence(under: root)
        if findings.identifierEvidence != nil {
            for path in SourceTree.files(under: root, where: { $0.hasSuffix(".swift") && !AccessibilityStep.isExcludedByDefault($0) }) {
                guard case .success(let absolute) = RepositoryPath.fileInside(path, root: root),
                      case .success(let bytes) = FileReading.read(absolute, limit: 4_000_000) else { continue }
                findings.identifiers += IdentifierStyle.identifiers(in: String(decoding: bytes, as: UTF8.self))
            }
        }
        return findings
    }

    /// The YAML text, every choice commented.
    static func render(_ findings: Findings) -> String {
        var lines = [
            "# prepush: the checks every push runs (docs/configuration.md lists every key).",
            "# Flags beat environment variables, which beat this file. Skip once: git push --no-verify, or PREPUSH_SKIP=1.",
            "",
            // An empty `stages:` is an error (a mapping is expected): with nothing found, it is a comment too.
            findings.hasPackage || findings.container != nil ? "stages:" : "# stages:",
        ]
        if findings.hasPackage {
            lines += [
                "  unit:",
                "    # The Swift Testing event stream gives prepush every test's result, not only what the console says.",
                "    # No --event-stream-version: the toolchain's newest, whose stream and console keep warnings (version 0 drops them).",
                "    run: swift test --event-stream-output-path .build/prepush-events.jsonl",
                "    timeout: 900               # seconds",
            ]
        } else {
            lines += [
                "  # unit:                       # no Package.swift here: name the command that runs your unit tests",
                "  #   run: make test",
                "  #   timeout: 900",
            ]
        }
        if let container = findings.container {
            let flag = container.isWorkspace ? "-workspace" : "-project"
            let scheme = findings.schemes.first
            if findings.schemes.count > 1 {
                lines.append("  # shared schemes found: \(findings.schemes.joined(separator: ", "))")
            }
            lines += [
                "  ui:",
                scheme == nil ? "    # no shared scheme found: share the UI-test scheme in Xcode (Manage Schemes → Shared), then name it here" : nil,
                "    # The result bundle gives prepush every test's result and the failures' screenshots.",
                "    run: rm -rf .build/prepush-ui.xcresult && xcodebuild test \(flag) \(ShellQuoting.word(container.path)) -scheme \(ShellQuoting.word(scheme ?? "YourAppUITests")) -destination 'platform=iOS Simulator,name=iPhone 16' -resultBundlePath .build/prepush-ui.xcresult",
                "    timeout: 600               # seconds, at most 600 (UI_TEST_TIMEOUT, --timeout)",
            ].compactMap { $0 }
        } else {
            lines += [
                "  # ui:                         # no Xcode project here: name the command that runs your UI tests",
                "  #   run: xcodebuild test -scheme AppUITests -destination 'platform=iOS Simulator,name=iPhone 16'",
                "  #   timeout: 600",
            ]
        }
        lines += [
            "",
            "accessibility:",
            "  # Every changed Swift file that is SwiftUI code is checked; list globs here to choose instead.",
            "  # include: [\"App/Views/**\"]",
            "  rules:",
            "    fixed-font-size: warning",
        ] + identifierLines(findings) + [
            "  # Adopting on an existing app: prepush a11y --all --write-baseline .prepush/a11y-baseline.json, then:",
            "  # baseline: .prepush/a11y-baseline.json",
        ]
        if let catalog = findings.catalog {
            lines += ["", "traceability:", "  catalog: \(catalog)", "  gate: [P1]                   # priorities whose failing or test-less scenarios refuse a push"]
        } else {
            lines += ["", "# traceability:                 # scenarios × tests × results (docs/traceability.md)", "#   catalog: .prepush/scenarios.yml"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The identifier rules as the repository shows its policy: on, with a pattern its identifiers
    /// pass, where it has UI tests or identifiers; else left to the check, which keeps them off
    /// until the repository shows the policy.
    static func identifierLines(_ findings: Findings) -> [String] {
        guard let evidence = findings.identifierEvidence else {
            return [
                "    # No UI tests and no .accessibilityIdentifier here, so missing-identifier and identifier-convention",
                "    # are off; they turn on by themselves when UI tests or identifiers come, or now with:",
                "    # missing-identifier: error",
                "    # identifier-convention: error",
            ]
        }
        var lines = [
            "    # The repository \(evidence): its views need identifiers UI tests can find.",
            "    missing-identifier: error",
            "    identifier-convention: error",
        ]
        let proposal = IdentifierStyle.propose(for: findings.identifiers)
        if let pattern = proposal.style.pattern {
            lines += [
                "  # \(proposal.fits) of the \(findings.identifiers.count) identifiers here are \(proposal.style.rawValue); prepush's own is {scope}_{type}_{name}.",
                "  identifierPattern: '\(pattern)'",
            ]
        } else if !findings.identifiers.isEmpty {
            lines.append("  # \(proposal.fits) of the \(findings.identifiers.count) identifiers here follow {scope}_{type}_{name}, the default identifierPattern.")
        }
        return lines
    }

}
