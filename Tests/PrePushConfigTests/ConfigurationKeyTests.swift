import Foundation
@testable import PrePushConfig
import PrePushCore
import PrePushYAML
import PrePushTestSupport
import Testing

/// `ConfigurationKey.all` is the one list of keys: a file that sets every key of it at once is read
/// without an error, and `prepush config` shows a row for each (the schema and the documentation are
/// checked against the same table through `knownKeys`).
@Suite struct ConfigurationKeyTests {
    /// A `.prepush.yml` setting every key of the table to its example, for the stages `unit`, `ui`
    /// and one of the team's own (`lint`), which take the `stages.*` keys.
    static func fileSettingEveryKey() -> String {
        func value(_ path: String) -> String? {
            ConfigurationKey.all.first { $0.path == path && !$0.example.isEmpty }?.example
        }
        func leaves(under parent: String) -> [ConfigurationKey] {
            ConfigurationKey.all.filter { $0.parentAndName.parent == parent && !$0.example.isEmpty }
        }
        var lines: [String] = []
        for key in ConfigurationKey.all where key.parentAndName.parent.isEmpty {
            switch key.path {
            case "stages":
                lines.append("stages:")
                for stage in ["unit", "ui", "lint"] {
                    lines.append("  \(stage):")
                    for leaf in leaves(under: "stages.*") {
                        let name = leaf.parentAndName.name
                        lines.append("    \(name): \(value("stages.\(stage).\(name)") ?? leaf.example)")
                    }
                }
            case "traceability":
                lines.append("traceability:")
                for leaf in leaves(under: "traceability") { lines.append("  \(leaf.parentAndName.name): \(leaf.example)") }
                lines.append("  gate:")
                for leaf in leaves(under: "traceability.gate") { lines.append("    \(leaf.parentAndName.name): \(leaf.example)") }
            case _ where key.example.isEmpty:
                lines.append("\(key.path):")
                for leaf in leaves(under: key.path) { lines.append("  \(leaf.parentAndName.name): \(leaf.example)") }
            default:
                lines.append("\(key.path): \(key.example)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The row names `prepush config` is expected to show for a key, per stage for `stages.*`.
    static func expectedRows(_ key: ConfigurationKey) -> [String] {
        guard !key.example.isEmpty else { return [] }
        switch key.shown {
        case .section: return []
        case .within(let other): return [other]
        case .asWritten:
            // `rules` and `quarantine` show one row per entry, named after it.
            return [key.path]
        case .resolved(let row):
            guard row.contains("{stage}") else { return [row] }
            let overridden = Set(ConfigurationKey.all.map(\.path))
            return ["unit", "ui", "lint"].filter { !overridden.contains("stages.\($0).\(key.parentAndName.name)") }
                .map { row.replacingOccurrences(of: "{stage}", with: $0) }
        }
    }

    @Test func aFileSettingEveryKeyIsReadAndConfigShowsEachKey() throws {
        let folder = try TemporaryDirectory()
        let text = Self.fileSettingEveryKey()
        try text.write(toFile: folder.path + "/.prepush.yml", atomically: true, encoding: .utf8)
        // The example baseline and working directories exist, as the resolver checks.
        try FileManager.default.createDirectory(atPath: folder.path + "/.prepush", withIntermediateDirectories: true)
        try "{}".write(toFile: folder.path + "/.prepush/a11y-baseline.json", atomically: true, encoding: .utf8)
        var request = ConfigurationRequest(flags: ConfigurationFlags(), environment: ["HOME": folder.path], repositoryRoot: folder.path,
                                           currentDirectory: folder.path)
        request.knownAccessibilityRules = ["missing-identifier"]
        let resolved: ResolvedConfiguration
        do {
            resolved = try ConfigurationResolver.resolve(request)
        } catch {
            Issue.record("the file setting every key is refused: \(error)\n\(text)")
            return
        }
        let rows = resolved.settings.map(\.name)
        var checked = 0
        for key in ConfigurationKey.all {
            for row in Self.expectedRows(key) {
                checked += 1
                #expect(rows.contains { $0 == row || $0.hasPrefix(row + ".") }, "prepush config shows no row for \(key.path) (\(row))")
            }
        }
        #expect(checked > 60, "only \(checked) rows checked: the table lost its keys")
        // Every key of the table is set by the file, so a key missing from it is a gap in the table's examples.
        let file = try ConfigurationFile.decode(text, path: ".prepush.yml")
        #expect(file.stageOrder.map(\.rawValue) == ["unit", "ui", "lint"])
        #expect(resolved.accessibility.maxFileSize == 200_000)
        #expect(resolved.accessibility.severities["missing-identifier"] == .some(.warning))
        #expect(resolved.accessibility.baseline?.path == folder.path + "/.prepush/a11y-baseline.json")
    }

    /// The schema editors use accepts the same file: every key with its example value.
    @Test(.enabled(if: SchemaTests.hasValidator, "Python's jsonschema is not installed (scripts/bootstrap.sh --tests installs it)"))
    func theSchemaAcceptsTheFileSettingEveryKey() throws {
        let folder = try TemporaryDirectory()
        let node = try YAMLLoader.load(Self.fileSettingEveryKey(), file: ".prepush.yml")
        let instance = folder.url("every-key.json")
        try JSONSerialization.data(withJSONObject: SchemaTests.json(node)).write(to: URL(fileURLWithPath: instance))
        let result = try Command.run("python3", ["-c", """
            import json, sys, jsonschema
            errors = list(jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).iter_errors(json.load(open(sys.argv[2]))))
            for e in errors: print(list(e.absolute_path), e.message)
            sys.exit(1 if errors else 0)
            """, SchemaTests.schemaPath, instance], environment: ProcessInfo.processInfo.environment)
        #expect(result.status == 0, "\(result.combined)")
    }

    @Test func knownKeysComeFromTheTable() {
        #expect(ConfigurationFile.knownKeys["stages.ui"] == ConfigurationFile.stageKeys)
        #expect(ConfigurationFile.knownKeys["stages"] == ["unit", "ui"])
        #expect(ConfigurationFile.stageKeys.first == "run")
        #expect(ConfigurationFile.knownKeys["traceability.gate"] == ["blocking", "unmappedFailures", "minTests"])
        let leaves = ConfigurationKey.all.filter { !$0.example.isEmpty }.map(\.path)
        #expect(Set(leaves).count == leaves.count, "a key is in the table twice")
    }

    @Test func theAccessibilityStepGetsDefaultsWhenTheFileIsSilent() throws {
        let folder = try TemporaryDirectory()
        try "stages:\n  unit:\n    run: \"true\"\n".write(toFile: folder.path + "/.prepush.yml", atomically: true, encoding: .utf8)
        let resolved = try ConfigurationResolver.resolve(ConfigurationRequest(flags: ConfigurationFlags(), environment: [:],
                                                                             repositoryRoot: folder.path, currentDirectory: folder.path))
        #expect(resolved.accessibility == AccessibilityConfiguration())
        #expect(resolved.accessibility.maxFileSize == AccessibilityConfiguration.defaultMaxFileSize)
    }
}
