#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushYAML

/// A value read from the configuration file, with the place it was written.
public struct Located<Value: Sendable & Equatable>: Sendable, Equatable {
    /// The decoded value.
    public let value: Value
    /// Where the value starts in the file.
    public let location: SourceLocation
}

/// A stage's name. `unit` and `ui` carry the data model's meaning (`SKIP_UI_TESTS`, `--ui-tests-only`
/// and `UI_TEST_TIMEOUT` apply to `ui`); any other name under `stages:` is a stage of the team's own
/// (`lint`, `build`, `snapshot`), run in file order.
public struct StageKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The unit-test stage.
    public static let unit = StageKind(rawValue: "unit")
    /// The UI-test stage.
    public static let ui = StageKind(rawValue: "ui")
    /// The data model's two stages, in their order.
    public static let builtIn: [StageKind] = [.unit, .ui]

    /// Whether this is `unit` or `ui`.
    public var isBuiltIn: Bool { self == .unit || self == .ui }

    public var description: String { rawValue }

    /// Whether `name` may name a stage: it becomes a log file's name (`<name>.log`) and a `SKIP=` word.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, (first >= 97 && first <= 122) || (first >= 65 && first <= 90) else { return false }
        return name.utf8.count <= 64 && name.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 95 }
    }
}

/// One rule's setting under `accessibility.rules`: its severity, or off.
public struct RuleSetting: Sendable, Equatable {
    /// The rule's id (`missing-identifier`).
    public let name: String
    /// `error` or `warning`; nil: `off`.
    public let severity: Severity?

    /// The setting for `level` (`error`, `warning` or `off`); nil for any other word.
    public init?(name: String, level: String) {
        switch level {
        case "error": severity = .error
        case "warning": severity = .warning
        case "off": severity = nil
        default: return nil
        }
        self.name = name
    }
}

/// One stage as written under `stages:` in the file.
public struct FileStage: Sendable, Equatable {
    /// `run`: the shell command.
    public var run: Located<String>?
    /// `timeout`: whole seconds.
    public var timeout: Located<Int>?
    /// `env`: variables added to the stage's environment, in file order.
    public var environment: [Located<EnvironmentEntry>] = []
    /// `workingDirectory`: relative to the repository root unless absolute.
    public var workingDirectory: Located<String>?
    /// `skip`: true turns the stage off.
    public var skip: Located<Bool>?
    /// `selective`: a `swift test` stage runs only the test targets that depend on what the push
    /// changes (`true`), or only the tests an impact map says the change reaches (`tests`).
    public var selective: Located<Selectivity>?
    /// `impactMapAge`: commits an impact map may be behind before a push says so.
    public var impactMapAge: Located<Int>?
    /// `parallel`: the stage may run at the same time as the stages next to it that say so too.
    public var parallel: Located<Bool>?
    /// `paths`: globs; the stage runs only when the push changes a matching file (none: always).
    public var paths: [Located<String>] = []
    /// `cacheEnvironment`: names of prepush's environment variables whose values decide the
    /// stage's result, so a change to one runs the stage again instead of using a cached verdict.
    public var cacheEnvironment: [Located<String>] = []
    /// `shard: true`: `prepush run --shard i/n` gives this stage only its part of the tests found in
    /// the sources; `shard: [globs]`: the same, from the test files these globs select.
    public var shard: Located<Bool>?
    /// The test-file globs of `shard: [globs]` (empty for `shard: true`).
    public var shardTests: [Located<String>] = []
    /// `retry`: how many times the failed tests are run again (0 to 5).
    public var retry: Located<Int>?
    /// `retryOn`: `failed` (tests that failed, with `retry`), `infrastructure` (a run stopped by the
    /// test infrastructure before any test began, run again whole once).
    public var retryOn: [Located<String>] = []
    /// `flaky`: what a test that failed and then passed does to the verdict.
    public var flaky: Located<FlakyPolicy>?
    /// `infrastructureMessages`: more messages that mean the test infrastructure failed (`retryOn: infrastructure`).
    public var infrastructureMessages: [Located<String>] = []
}

/// One `NAME=value` pair added to a stage's environment.
public struct EnvironmentEntry: Sendable, Equatable {
    /// The variable's name.
    public let name: String
    /// Its value.
    public let value: String

    /// Creates an entry.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The `remote:` section as written in the file.
public struct FileRemote: Sendable, Equatable {
    public var host: Located<String>?
    public var user: Located<String>?
    public var port: Located<Int>?
    public var path: Located<String>?
    public var syncMode: Located<SyncMode>?
    /// `identityFile`: the private key ssh uses.
    public var identityFile: Located<String>?
    /// `sshOptions`: extra `Key=Value` options passed to ssh as `-o Key=Value`.
    public var sshOptions: [Located<String>] = []
    /// `results`: files the UI command leaves on the Mac (relative to `path`), brought back.
    public var results: [Located<String>] = []
    /// `acceptNewHostKeys`: trust a host key seen for the first time (never a changed one).
    public var acceptNewHostKeys: Located<Bool>?
    /// Where the `remote:` key is.
    public var location: SourceLocation
}

/// The `accessibility:` section as written in the file.
public struct FileAccessibility: Sendable, Equatable {
    /// `include`: globs of the view files checked.
    public var include: [Located<String>] = []
    /// `exclude`: globs of files never checked.
    public var exclude: [Located<String>] = []
    /// `rules`: severity per rule id (`error`, `warning` or `off`), read once here.
    public var rules: [Located<RuleSetting>] = []
    /// `controls`: the team's own controls that need identifiers.
    public var controls: [Located<String>] = []
    /// `identifierPattern`: a regular expression identifiers must match.
    public var identifierPattern: Located<String>?
    /// `maxFileSize`: view files bigger than this many bytes are not checked (default 1 MB).
    public var maxFileSize: Located<Int>?
    /// `checkPreviews`, `checkDebugCode`: also check `#Preview`/`PreviewProvider` code and `#if DEBUG` code.
    public var checkPreviews: Located<Bool>?
    public var checkDebugCode: Located<Bool>?
    /// `iconViews`: the team's views that draw only an icon (for icon-button-missing-label).
    public var iconViews: [Located<String>] = []
    /// `textEntryViews`: the team's text-entry views (no button trait needed for a tap on them).
    public var textEntryViews: [Located<String>] = []
    /// `baseline`: findings recorded by `prepush a11y --write-baseline`, not reported again.
    public var baseline: Located<String>?
}

/// The `traceability:` section as written in the file.
public struct FileTraceability: Sendable, Equatable {
    /// `catalog`: the scenario catalog (default `.prepush/scenarios.yml`).
    public var catalog: Located<String>?
    /// `tests`: globs of the test sources searched for tests.
    public var tests: [Located<String>] = []
    /// `launchArguments`: globs of the sources declaring the `LaunchArguments` constants.
    public var launchArguments: [Located<String>] = []
    /// `gate` (or `gate.blocking`): the priorities whose failing or test-less scenarios refuse a push (nil: P1).
    public var gate: [Located<String>]?
    /// `gate.unmappedFailures`: `warn` (default) or `refuse` for a failing test no scenario names.
    public var unmappedFailures: Located<String>?
    /// `gate.minTests`: fewer results refuse (a truncated results file).
    public var minTests: Located<Int>?
    /// `linkPattern`: how a scenario's `links:` id becomes a URL (`https://jira.example.com/browse/{id}`).
    public var linkPattern: Located<String>?
    /// `testNamePattern`: a regular expression a scenario's test name must match, instead of the
    /// data model's rule 5 (`test_<feature>_<scenario>`).
    public var testNamePattern: Located<String>?
}

/// The whole configuration file, decoded but not yet merged with flags and environment.
public struct ConfigurationFile: Sendable, Equatable {
    /// The file's path as it was named.
    public var path: String
    public var verbose: Located<Bool>?
    /// `isolated`: run the stages in an export of the pushed commit, not the working tree.
    public var isolated: Located<Bool>?
    /// `cache`: false never skips a stage for an earlier passing run of the same tree.
    public var cache: Located<Bool>?
    public var stages: [StageKind: FileStage] = [:]
    /// The stages' names in file order.
    public var stageOrder: [StageKind] = []
    public var reportsDirectory: Located<String>?
    /// `reports.annotations`: GitHub annotations of each kind a step prints (1 to 50).
    public var reportsAnnotations: Located<Int>?
    public var remote: FileRemote?
    public var accessibility: FileAccessibility?
    public var traceability: FileTraceability?
    /// `quarantine:`: tests that run and are reported but never refuse, each with its reason.
    public var quarantine: [Located<QuarantineEntry>] = []

    /// Every key the file may hold, by parent path, for unknown-key errors (from `ConfigurationKey.all`).
    public static let knownKeys: [String: [String]] = ConfigurationKey.byParent

    /// The keys of every stage, `unit`, `ui` or one of the team's own.
    public static let stageKeys: [String] = ConfigurationKey.byParent["stages.unit"] ?? []

    /// The file's text, kept to quote lines in later errors.
    package var text: String = "" {
        didSet { lines = LineTable(text) }
    }
    /// The lines of `text`, for quoting one under an error without reading the file again.
    package private(set) var lines = LineTable("")

    /// Reads and decodes the file at `path`; errors name it `displayName` (default: `path`).
    /// Largest configuration file read: a real one is a few KB; more is a mistake or an attack.
    public static let maximumBytes = 1_000_000

    public static func load(path: String, displayName: String? = nil) throws(ConfigurationError) -> ConfigurationFile {
        let bytes: [UInt8]
        switch FileReading.read(path, limit: maximumBytes) {
        case .success(let read): bytes = read
        case .failure(let problem): throw .unreadableFile(path: displayName ?? path, reason: problem.description)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notUTF8(path: displayName ?? path) }
        return try decode(text, path: displayName ?? path)
    }

    /// Decodes configuration text; all problems found are thrown together.
    public static func decode(_ text: String, path: String) throws(ConfigurationError) -> ConfigurationFile {
        var file = ConfigurationFile(path: path)
        file.text = text
        var decoder = FileDecoder(lines: file.lines)
        let loaded: YAMLNode?
        do {
            loaded = try YAMLLoader.load(text, file: path, lines: file.lines)
        } catch {
            throw .yaml(error)
        }
        guard let root = loaded else { return file }
        decoder.decode(root, into: &file)
        var errors = decoder.errorsInFileOrder
        if decoder.errorsBeyondLimit > 0 { errors.append(.moreErrors(decoder.errorsBeyondLimit, file: path)) }
        switch errors.count {
        case 0: return file
        case 1: throw errors[0]
        default: throw .multiple(errors)
        }
    }
}

/// Walks the YAML tree, collecting every problem instead of stopping at the first.
struct FileDecoder {
    let lines: LineTable
    /// The errors found, in a box: `report` is called with an error made lazily from `self`.
    private final class Collected {
        var errors: [ConfigurationError] = []
        var beyondLimit = 0
    }
    private let collected = Collected()

    var errors: [ConfigurationError] { collected.errors }
    /// Errors found after the first `DocumentProblems.limit`: counted, not kept.
    var errorsBeyondLimit: Int { collected.beyondLimit }

    init(lines: LineTable) { self.lines = lines }

    /// Keeps an error, or counts it once `DocumentProblems.limit` are kept: 20,000 unknown keys
    /// make 50 messages and a count, and the rest cost nothing (the error is not even made).
    func report(_ error: @autoclosure () -> ConfigurationError) {
        guard collected.errors.count < DocumentProblems.limit else { collected.beyondLimit += 1; return }
        collected.errors.append(error())
    }

    /// The errors sorted by where they are, ties kept in the order found.
    var errorsInFileOrder: [ConfigurationError] {
        errors.enumerated().sorted { lhs, rhs in
            let left = lhs.element.location.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
            let right = rhs.element.location.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    mutating func decode(_ root: YAMLNode, into file: inout ConfigurationFile) {
        guard let top = mapping(root, path: "") else { return }
        if let node = top["verbose"] { file.verbose = boolean(node, path: "verbose") }
        if let node = top["isolated"] { file.isolated = boolean(node, path: "isolated") }
        if let node = top["cache"] { file.cache = boolean(node, path: "cache") }
        if let node = top["reports"], let reports = mapping(node, path: "reports") {
            if let directory = reports["directory"] {
                file.reportsDirectory = nonEmptyString(directory, path: "reports.directory", expected: "a folder path")
            }
            if let annotations = reports["annotations"] {
                file.reportsAnnotations = parsed(annotations, path: "reports.annotations", expected: "a number of annotations from 1 to 50") {
                    ValueParsers.count($0, range: ResolvedConfiguration.annotationRange, what: "a number of annotations")
                }
            }
        }
        if let node = top["stages"], !node.isNull, let stages = mapping(node, path: "stages", allowedKeys: nil) {
            for (key, stageNode) in stages.pairs {
                guard let name = key.scalar else {
                    report(.wrongType(key.location, setting: "stages", expected: "a stage name", found: key.kindDescription, sourceLine: line(key.location)))
                    continue
                }
                let kind = StageKind(rawValue: name)
                if !kind.isBuiltIn {
                    // A misspelt `ui` would otherwise become a stage of its own that SKIP_UI_TESTS does not skip.
                    if let near = DocumentProblems.suggestion(for: name, among: StageKind.builtIn.map(\.rawValue)), name.count <= near.count + 1 {
                        report(.unknownKey(key.location, key: name, parent: "stages", suggestion: near, sourceLine: line(key.location)))
                        continue
                    }
                    guard StageKind.isValidName(name) else {
                        report(.invalidValue(.file(key.location), setting: "stages", value: name, problem: .notStageName, sourceLine: line(key.location)))
                        continue
                    }
                }
                file.stageOrder.append(kind)
                guard !stageNode.isNull else { continue }
                if let stage = stage(stageNode, path: "stages.\(name)", keyLocation: key.location) {
                    file.stages[kind] = stage
                }
            }
        }
        if let node = top["accessibility"], !node.isNull, let fields = mapping(node, path: "accessibility") {
            var section = FileAccessibility()
            let any: (String) -> Result<String, ValueProblem> = { $0.isEmpty ? .failure(.empty(expected: "a value")) : .success($0) }
            if let include = fields["include"] { section.include = list(include, path: "accessibility.include", expected: "globs", any) }
            if let exclude = fields["exclude"] { section.exclude = list(exclude, path: "accessibility.exclude", expected: "globs", any) }
            if let controls = fields["controls"] { section.controls = list(controls, path: "accessibility.controls", expected: "view names", any) }
            if let pattern = fields["identifierPattern"] {
                section.identifierPattern = parsed(pattern, path: "accessibility.identifierPattern", expected: "a regular expression", Self.regularExpression)
            }
            if let node = fields["checkPreviews"] { section.checkPreviews = boolean(node, path: "accessibility.checkPreviews") }
            if let node = fields["checkDebugCode"] { section.checkDebugCode = boolean(node, path: "accessibility.checkDebugCode") }
            if let views = fields["iconViews"] { section.iconViews = list(views, path: "accessibility.iconViews", expected: "view names", any) }
            if let views = fields["textEntryViews"] { section.textEntryViews = list(views, path: "accessibility.textEntryViews", expected: "view names", any) }
            if let baseline = fields["baseline"] { section.baseline = nonEmptyString(baseline, path: "accessibility.baseline", expected: "a file path") }
            if let size = fields["maxFileSize"] {
                section.maxFileSize = parsed(size, path: "accessibility.maxFileSize", expected: "a size in bytes", ValueParsers.sourceFileSize)
            }
            if let rules = fields["rules"], !rules.isNull, let map = mapping(rules, path: "accessibility.rules", allowedKeys: nil) {
                for (key, value) in map.pairs {
                    guard let name = key.scalar, let level = value.scalar, let setting = RuleSetting(name: name, level: level) else {
                        report(.wrongType(value.location, setting: "accessibility.rules", expected: "error, warning or off",
                                                 found: value.kindDescription, sourceLine: line(value.location)))
                        continue
                    }
                    section.rules.append(Located(value: setting, location: key.location))
                }
            }
            file.accessibility = section
        }
        if let node = top["quarantine"], !node.isNull { file.quarantine = quarantine(node) }
        if let node = top["traceability"], !node.isNull { file.traceability = traceability(node) }
        if let node = top["remote"], !node.isNull, let remote = mapping(node, path: "remote") {
            file.remote = self.remote(remote, location: top.keyLocation("remote") ?? node.location)
        }
    }

    private mutating func stage(_ node: YAMLNode, path: String, keyLocation: SourceLocation?) -> FileStage? {
        guard let fields = mapping(node, path: path, allowedKeys: ConfigurationFile.stageKeys) else { return nil }
        var stage = FileStage()
        if let run = fields["run"], !run.isNull {
            stage.run = nonEmptyString(run, path: "\(path).run", expected: "a shell command")
        }
        if let timeout = fields["timeout"] {
            let range = path == "stages.ui" ? PrePushHookConfig.uiTestTimeoutRange : ConfigurationResolver.unitTimeoutRange
            let setting = path == "stages.ui" ? "UI test timeout" : "unit test timeout"
            stage.timeout = parsed(timeout, path: "\(path).timeout", expected: "a whole number of seconds") {
                ValueParsers.wholeSeconds($0, range: range, setting: setting)
            }
        }
        if let skip = fields["skip"] { stage.skip = boolean(skip, path: "\(path).skip") }
        if let directory = fields["workingDirectory"] {
            stage.workingDirectory = nonEmptyString(directory, path: "\(path).workingDirectory", expected: "a folder path")
        }
        if let parallel = fields["parallel"] { stage.parallel = boolean(parallel, path: "\(path).parallel") }
        if let selective = fields["selective"] {
            stage.selective = parsed(selective, path: "\(path).selective", expected: "true, false or tests", ValueParsers.selectivity)
        }
        if let age = fields["impactMapAge"] {
            stage.impactMapAge = parsed(age, path: "\(path).impactMapAge", expected: "a number of commits") {
                ValueParsers.count($0, range: StageSettings.impactMapAgeRange, what: "a number of commits")
            }
        }
        if let shard = fields["shard"] {
            if case .sequence = shard.content {
                stage.shardTests = list(shard, path: "\(path).shard", expected: "true, false or test-file globs") {
                    $0.isEmpty ? .failure(.empty(expected: "a glob")) : .success($0)
                }
                if !stage.shardTests.isEmpty { stage.shard = Located(value: true, location: shard.location) }
            } else {
                stage.shard = parsed(shard, path: "\(path).shard", expected: "true, false or a list of test-file globs", ValueParsers.boolean)
            }
        }
        if let retry = fields["retry"] {
            stage.retry = parsed(retry, path: "\(path).retry", expected: "a number of retries") {
                ValueParsers.count($0, range: StageSettings.retryRange, what: "a number of retries")
            }
        }
        if let reasons = fields["retryOn"] {
            stage.retryOn = list(reasons, path: "\(path).retryOn", expected: "failed or infrastructure", ValueParsers.retryReason)
        }
        if let messages = fields["infrastructureMessages"] {
            stage.infrastructureMessages = list(messages, path: "\(path).infrastructureMessages", expected: "messages") {
                $0.allSatisfy(\.isWhitespace) ? .failure(.empty(expected: "a message")) : .success($0)
            }
        }
        if let flaky = fields["flaky"] {
            stage.flaky = parsed(flaky, path: "\(path).flaky", expected: "warn, refuse or allow", ValueParsers.flakyPolicy)
        }
        if let globs = fields["paths"] {
            stage.paths = list(globs, path: "\(path).paths", expected: "globs") { $0.isEmpty ? .failure(.empty(expected: "a glob")) : .success($0) }
        }
        if let names = fields["cacheEnvironment"] {
            stage.cacheEnvironment = list(names, path: "\(path).cacheEnvironment", expected: "variable names", ValueParsers.variableName)
        }
        if let env = fields["env"], !env.isNull, let variables = mapping(env, path: "\(path).env", allowedKeys: nil) {
            for (key, value) in variables.pairs {
                guard let name = key.scalar else {
                    report(.wrongType(key.location, setting: "\(path).env", expected: "a variable name", found: key.kindDescription, sourceLine: line(key.location)))
                    continue
                }
                if case .failure(let problem) = ValueParsers.variableName(name) {
                    report(.invalidValue(.file(key.location), setting: "\(path).env", value: name, problem: problem, sourceLine: line(key.location)))
                    continue
                }
                guard let text = value.scalar else {
                    report(.wrongType(value.location, setting: "\(path).env.\(name)", expected: "a text value", found: value.kindDescription, sourceLine: line(value.location)))
                    continue
                }
                if let shown = Self.withNUL(text) {
                    report(.invalidValue(.file(value.location), setting: "\(path).env.\(name)", value: shown, problem: .containsNUL, sourceLine: line(value.location)))
                    continue
                }
                stage.environment.append(Located(value: EnvironmentEntry(name: name, value: value.isNull ? "" : text), location: key.location))
            }
        }
        if stage.run == nil, stage.skip?.value != true, fields["run"] == nil, let keyLocation {
            report(.missingKey(keyLocation, key: "run", parent: path, sourceLine: line(keyLocation)))
        }
        return stage
    }

    private mutating func remote(_ fields: Fields, location: SourceLocation) -> FileRemote {
        var remote = FileRemote(location: location)
        if let host = fields["host"] {
            remote.host = parsed(host, path: "remote.host", expected: "a host name") { ValueParsers.remoteName($0, what: "host") }
        } else {
            report(.missingKey(location, key: "host", parent: "remote", sourceLine: line(location)))
        }
        if let user = fields["user"], !user.isNull {
            remote.user = parsed(user, path: "remote.user", expected: "a user name") { ValueParsers.remoteName($0, what: "user") }
        }
        if let port = fields["port"] {
            remote.port = parsed(port, path: "remote.port", expected: "a port number", ValueParsers.port)
        }
        if let path = fields["path"] {
            remote.path = nonEmptyString(path, path: "remote.path", expected: "a folder path on the remote Mac")
        } else {
            report(.missingKey(location, key: "path", parent: "remote", sourceLine: line(location)))
        }
        if let mode = fields["syncMode"] {
            remote.syncMode = parsed(mode, path: "remote.syncMode", expected: "rsync or scp", ValueParsers.syncMode)
        }
        if let identity = fields["identityFile"], !identity.isNull {
            remote.identityFile = nonEmptyString(identity, path: "remote.identityFile", expected: "a private key file")
        }
        if let options = fields["sshOptions"] {
            remote.sshOptions = list(options, path: "remote.sshOptions", expected: "Key=Value ssh options", ValueParsers.sshOption)
        }
        if let results = fields["results"] {
            remote.results = list(results, path: "remote.results", expected: "paths relative to remote.path", ValueParsers.relativePath)
        }
        if let accept = fields["acceptNewHostKeys"] { remote.acceptNewHostKeys = boolean(accept, path: "remote.acceptNewHostKeys") }
        return remote
    }

    // MARK: - Node helpers

    /// A mapping's pairs by key, checked against the known keys of `path` (all keys when `allowedKeys` is nil).
    struct Fields {
        let pairs: [(key: YAMLNode, value: YAMLNode)]
        subscript(key: String) -> YAMLNode? { pairs.first { $0.key.scalar == key }?.value }
        func keyLocation(_ key: String) -> SourceLocation? { pairs.first { $0.key.scalar == key }?.key.location }
    }

    mutating func mapping(_ node: YAMLNode, path: String) -> Fields? {
        mapping(node, path: path, allowedKeys: ConfigurationFile.knownKeys[path] ?? [])
    }

    mutating func mapping(_ node: YAMLNode, path: String, allowedKeys: [String]?) -> Fields? {
        guard case .mapping(let pairs) = node.content else {
            report(.wrongType(node.location, setting: path.isEmpty ? "the configuration" : path, expected: "a mapping", found: node.kindDescription, sourceLine: line(node.location)))
            return nil
        }
        if let allowedKeys {
            for (key, _) in pairs {
                guard let name = key.scalar else {
                    report(.wrongType(key.location, setting: path.isEmpty ? "the configuration" : path, expected: "a key", found: key.kindDescription, sourceLine: line(key.location)))
                    continue
                }
                if !allowedKeys.contains(name) {
                    report(.unknownKey(key.location, key: name, parent: path,
                                              suggestion: DocumentProblems.suggestion(for: name, among: allowedKeys),
                                              sourceLine: line(key.location)))
                }
            }
        }
        return Fields(pairs: pairs)
    }

    mutating func parsed<Value>(
        _ node: YAMLNode, path: String, expected: String, _ parse: (String) -> Result<Value, ValueProblem>
    ) -> Located<Value>? {
        guard let text = node.scalar, !node.isNull else {
            report(.wrongType(node.location, setting: path, expected: expected, found: node.kindDescription, sourceLine: line(node.location)))
            return nil
        }
        if let shown = Self.withNUL(text) {
            report(.invalidValue(.file(node.location), setting: path, value: shown, problem: .containsNUL, sourceLine: line(node.location)))
            return nil
        }
        switch parse(text) {
        case .success(let value):
            return Located(value: value, location: node.location)
        case .failure(let problem):
            report(.invalidValue(.file(node.location), setting: path, value: text, problem: problem, sourceLine: line(node.location)))
            return nil
        }
    }

    /// One value or a list of them, each parsed.
    mutating func list(_ node: YAMLNode, path: String, expected: String, _ parse: (String) -> Result<String, ValueProblem>) -> [Located<String>] {
        if node.isNull { return [] }
        if case .sequence(let items) = node.content {
            return items.compactMap { parsed($0, path: path, expected: expected, parse) }
        }
        return parsed(node, path: path, expected: expected, parse).map { [$0] } ?? []
    }

    mutating func boolean(_ node: YAMLNode, path: String) -> Located<Bool>? {
        parsed(node, path: path, expected: "true or false", ValueParsers.boolean)
    }

    mutating func nonEmptyString(_ node: YAMLNode, path: String, expected: String) -> Located<String>? {
        parsed(node, path: path, expected: expected) { text in
            text.allSatisfy(\.isWhitespace) ? .failure(.empty(expected: expected)) : .success(text)
        }
    }

    func line(_ location: SourceLocation) -> String? {
        lines.line(location.line)
    }

    /// A pattern prepush matches in linear time (`LinearRegex`), or why it is refused.
    static func regularExpression(_ text: String) -> Result<String, ValueProblem> {
        guard !text.isEmpty else { return .failure(.empty(expected: "a regular expression")) }
        do {
            _ = try LinearRegex(text)
            return .success(text)
        } catch {
            return .failure(.notRegularExpression(error.description))
        }
    }

    /// `text` with its NUL characters shown as `\0`, when it has any. A NUL (YAML's `"\0"`) would
    /// silently cut a command or an environment value where the system reads it as C text.
    static func withNUL(_ text: String) -> String? {
        guard text.utf8.contains(0) else { return nil }
        return String(text.unicodeScalars.map { $0 == "\0" ? "\\0" : String($0) }.joined())
    }
}
