/// Every key `.prepush.yml` may hold, in one table. The file's unknown-key check
/// (`ConfigurationFile.knownKeys`), the schema and documentation tests, the test that sets every key
/// at once, and `prepush config`'s rows for the sections without precedence all come from it: a new
/// setting is a row here, a line of decoding, and its use.
package struct ConfigurationKey: Sendable {
    /// The key's full path (`accessibility.identifierPattern`); a stage's keys are under `stages.*`,
    /// which stands for every stage (`unit`, `ui` and the team's own).
    package let path: String
    /// A value the key accepts, as flow-style YAML, for the test that sets every key at once.
    /// Empty for a section (a mapping of further keys).
    package let example: String
    /// The row `prepush config` shows for it.
    package let shown: Shown

    /// How `prepush config` shows a key.
    package enum Shown: Sendable {
        /// A mapping of further keys: no row of its own.
        case section
        /// A row the resolver writes with the value's origin (flag, environment, file, default):
        /// its name, `{stage}` standing for the stage's name.
        case resolved(row: String)
        /// The file's value as written, rows named after the key (and its entries, for `rules`).
        case asWritten(@Sendable (ConfigurationFile) -> [ResolvedSetting])
        /// Shown on the row of another key (`gate.blocking` on `traceability.gate`'s).
        case within(String)
    }

    init(_ path: String, _ example: String, _ shown: Shown) {
        self.path = path
        self.example = example
        self.shown = shown
    }

    /// A section: a mapping of further keys.
    static func section(_ path: String) -> ConfigurationKey { ConfigurationKey(path, "", .section) }

    /// A key the resolver shows under its own name (`row`, by default the path without `stages.`).
    static func resolved(_ path: String, _ example: String, row: String? = nil) -> ConfigurationKey {
        ConfigurationKey(path, example, .resolved(row: row ?? (path.hasPrefix("stages.*.") ? "{stage}." + path.dropFirst(9) : path)))
    }

    /// A single value shown as written.
    static func one<Value>(_ path: String, _ example: String, _ value: @escaping @Sendable (ConfigurationFile) -> Located<Value>?) -> ConfigurationKey {
        ConfigurationKey(path, example, .asWritten { file in
            value(file).map { [ResolvedSetting(name: path, value: "\($0.value)", origin: .file($0.location))] } ?? []
        })
    }

    /// A list shown as written, its entries joined on one row.
    static func list(_ path: String, _ example: String, _ values: @escaping @Sendable (ConfigurationFile) -> [Located<String>]) -> ConfigurationKey {
        ConfigurationKey(path, example, .asWritten { file in
            let written = values(file)
            guard let first = written.first else { return [] }
            return [ResolvedSetting(name: path, value: written.map(\.value).joined(separator: ", "), origin: .file(first.location))]
        })
    }
}

extension ConfigurationKey {
    /// The stage names `stages.*` stands for in `knownKeys` (the team's own stages take the same keys).
    static let builtInStages = StageKind.builtIn.map(\.rawValue)

    /// The table, in the order `prepush config` lists the sections.
    package static let all: [ConfigurationKey] = [
        .resolved("verbose", "true"),
        .resolved("isolated", "true"),
        .resolved("cache", "false"),
        .section("stages"),
        .section("stages.*"),
        .resolved("stages.*.run", "\"true\""),
        .resolved("stages.*.timeout", "120"),
        .resolved("stages.ui.timeout", "120", row: "uiTestTimeout"),
        .resolved("stages.*.env", "{TOOL_MODE: strict}"),
        .resolved("stages.*.workingDirectory", "\".\""),
        .resolved("stages.*.skip", "false"),
        .resolved("stages.ui.skip", "false", row: "skipUITests"),
        .resolved("stages.*.paths", "[\"Sources/**\"]"),
        .resolved("stages.*.parallel", "true"),
        .resolved("stages.*.selective", "true"),
        .resolved("stages.*.impactMapAge", "50"),
        .resolved("stages.*.cacheEnvironment", "[DEVELOPER_DIR]"),
        .resolved("stages.*.shard", "true"),
        .resolved("stages.*.retry", "1"),
        .resolved("stages.*.retryOn", "[failed, infrastructure]"),
        .resolved("stages.*.flaky", "refuse"),
        .resolved("stages.*.infrastructureMessages", "[\"Simulator device failed to boot\"]"),
        .section("reports"),
        .resolved("reports.directory", "\"build/prepush-reports\""),
        .resolved("reports.annotations", "20"),
        .section("remote"),
        .resolved("remote.host", "build-mac.local"),
        .resolved("remote.user", "ci"),
        .resolved("remote.port", "2222"),
        .resolved("remote.path", "/Users/ci/app"),
        .resolved("remote.syncMode", "rsync", row: "syncMode"),
        .resolved("remote.identityFile", "\"~/.ssh/build_mac\""),
        .resolved("remote.sshOptions", "[\"ServerAliveInterval=30\"]"),
        .resolved("remote.results", "[\"build/results.xml\"]"),
        .resolved("remote.acceptNewHostKeys", "true"),
        .section("accessibility"),
        .list("accessibility.include", "[\"App/**/*.swift\"]") { $0.accessibility?.include ?? [] },
        .list("accessibility.exclude", "[\"App/Debug/**\"]") { $0.accessibility?.exclude ?? [] },
        ConfigurationKey("accessibility.rules", "{missing-identifier: warning}", .asWritten { file in
            (file.accessibility?.rules ?? []).map {
                ResolvedSetting(name: "accessibility.rules.\($0.value.name)", value: $0.value.severity?.rawValue ?? "off", origin: .file($0.location))
            }
        }),
        .list("accessibility.controls", "[PrimaryButton]") { $0.accessibility?.controls ?? [] },
        .one("accessibility.identifierPattern", "\"^[a-z][A-Za-z]*$\"") { $0.accessibility?.identifierPattern },
        .one("accessibility.maxFileSize", "200000") { $0.accessibility?.maxFileSize },
        .one("accessibility.checkPreviews", "true") { $0.accessibility?.checkPreviews },
        .one("accessibility.checkDebugCode", "true") { $0.accessibility?.checkDebugCode },
        .list("accessibility.iconViews", "[AppIcon]") { $0.accessibility?.iconViews ?? [] },
        .list("accessibility.textEntryViews", "[SearchField]") { $0.accessibility?.textEntryViews ?? [] },
        .one("accessibility.baseline", "\".prepush/a11y-baseline.json\"") { $0.accessibility?.baseline },
        ConfigurationKey("quarantine", "[{test: \"AppTests.testSlow\", reason: \"times out on CI runners\"}]", .asWritten { file in
            file.quarantine.map { ResolvedSetting(name: "quarantine.\($0.value.pattern)", value: $0.value.reason, origin: .file($0.location)) }
        }),
        // The keys of a `quarantine:` entry, shown on the entry's row.
        ConfigurationKey("quarantine.test", "", .within("quarantine")),
        ConfigurationKey("quarantine.reason", "", .within("quarantine")),
        .section("traceability"),
        .one("traceability.catalog", "\"docs/scenarios.yml\"") { $0.traceability?.catalog },
        .list("traceability.tests", "[\"Tests/**/*.swift\"]") { $0.traceability?.tests ?? [] },
        .list("traceability.launchArguments", "[\"App/LaunchArguments.swift\"]") { $0.traceability?.launchArguments ?? [] },
        // `gate:` is a list of priorities, or a mapping of the keys below (`blocking` the list).
        .list("traceability.gate", "") { $0.traceability?.gate ?? [] },
        ConfigurationKey("traceability.gate.blocking", "[P1, P2]", .within("traceability.gate")),
        .one("traceability.gate.unmappedFailures", "refuse") { $0.traceability?.unmappedFailures },
        .one("traceability.gate.minTests", "3") { $0.traceability?.minTests },
        .one("traceability.testNamePattern", "\"^test\"") { $0.traceability?.testNamePattern },
        .one("traceability.linkPattern", "\"https://jira.example.com/browse/{id}\"") { $0.traceability?.linkPattern },
    ]

    /// Every key by parent path, `stages.*` given for each built-in stage.
    static let byParent: [String: [String]] = {
        var table: [String: [String]] = [:]
        for key in all {
            let (parent, name) = key.parentAndName
            if parent == "stages", name == "*" {
                for stage in builtInStages where table["stages"]?.contains(stage) != true { table["stages", default: []].append(stage) }
                continue
            }
            let parents = parent == "stages.*" ? builtInStages.map { "stages.\($0)" } : [parent]
            for parent in parents where table[parent]?.contains(name) != true { table[parent, default: []].append(name) }
        }
        return table
    }()

    /// The key's parent path and its own name.
    var parentAndName: (parent: String, name: String) {
        guard let dot = path.lastIndex(of: ".") else { return ("", path) }
        return (String(path[..<dot]), String(path[path.index(after: dot)...]))
    }

    /// The keys by path.
    static let byPath: [String: ConfigurationKey] = Dictionary(all.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })

    /// The name of the row the resolver writes for `path`, a key of the table shown with its origin
    /// (`stage` replaces `{stage}`): the resolver takes every row name from here, so the table and
    /// `prepush config` cannot name a setting differently.
    static func row(_ path: String, stage: String? = nil) -> String {
        guard let key = byPath[path], case .resolved(let row) = key.shown else {
            preconditionFailure("\(path) is not a key ConfigurationKey.all shows with its origin")
        }
        return stage.map { row.replacing("{stage}", with: $0) } ?? row
    }

    /// The rows of the sections shown as written, in table order.
    static func rowsAsWritten(_ file: ConfigurationFile) -> [ResolvedSetting] {
        all.flatMap { key -> [ResolvedSetting] in
            if case .asWritten(let rows) = key.shown { return rows(file) }
            return []
        }
    }
}
