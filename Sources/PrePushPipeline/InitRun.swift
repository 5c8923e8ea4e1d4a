#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushAccessibility
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
        /// How the repository tags its controls.
        var practice: IdentifierPractice?
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
        let index = RepositoryIndex(root: root)
        let controls = AccessibilitySettings().controls
        let limit = AccessibilityStep.defaultMaxFileSize
        findings.practice = IdentifierPolicy.measure(files: index.files(maxFileSize: limit, controls: controls), controls: controls,
                                                     isView: { !AccessibilityStep.isExcludedByDefault($0) }) {
            index.constants(isExcluded: AccessibilityStep.isExcludedByDefault, maxFileSize: limit, controls: controls)
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

    /// What the identifier rules will do here, as comments: they follow the repository's practice
    /// by themselves, so `init` turns nothing on (naming a rule would make it apply everywhere).
    static func identifierLines(_ findings: Findings) -> [String] {
        guard let practice = findings.practice else { return [] }
        let scope = practice.scope(of: "")
        var lines: [String]
        if !practice.hasIdentifiers {
            lines = [
                "    # missing-identifier and identifier-convention follow the team's practice: here no view sets an",
                "    # .accessibilityIdentifier and \(practice.testEvidence), so they report nothing. To require identifiers anyway:",
            ]
        } else {
            lines = [
                "    # missing-identifier and identifier-convention follow the team's practice: here \(scope.tagged) of \(scope.controls) controls",
                "    # have an identifier and \(practice.testEvidence); a control is reported where its folder tags",
                "    # \(Int(IdentifierPractice.taggedShare * 100))% of its controls or its view's other controls are tagged. To require identifiers everywhere:",
            ]
        }
        lines += ["    # missing-identifier: error"]
        switch practice.convention {
        case .prepush:
            if practice.hasIdentifiers { lines.append("  # Identifiers here follow prepush's {scope}_{type}_{name}; identifier-convention holds new ones to it.") }
        case .inferred(let scheme):
            lines.append("  # Identifiers here are \(scheme.description) (\(scheme.fitting) of \(scheme.total)); identifier-convention holds new ones to that.")
        case .mixed(let count):
            lines.append("  # The \(count) identifiers here follow no single scheme; identifier-convention stays quiet until identifierPattern names one.")
        }
        return lines
    }
}
