#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushYAML

/// Merges flags, environment, file and defaults into a `ResolvedConfiguration`.
public enum ConfigurationResolver {
    /// The file looked for at the repository root.
    public static let defaultFileName = ".prepush.yml"
    /// The reports folder, relative to the repository root.
    public static let defaultReportsDirectory = ".prepush/reports"
    /// The unit stage's timeout when none is given, in seconds.
    public static let defaultUnitTimeout = 600
    /// Unit stages have no data-model limit; a day catches a timeout written in milliseconds.
    public static let unitTimeoutRange: ClosedRange<Int> = 1...86_400

    /// Environment variable names prepush reads.
    public enum Variable {
        public static let uiTestTimeout = "UI_TEST_TIMEOUT"
        public static let uiTestVerbose = "UI_TEST_VERBOSE"
        public static let skipUITests = "SKIP_UI_TESTS"
        public static let skipAll = "PREPUSH_SKIP"
        public static let configPath = "PREPUSH_CONFIG"
        public static let syncMode = "PREPUSH_SYNC_MODE"
        public static let cache = "PREPUSH_CACHE"
        public static let lineBuffered = "PREPUSH_LINE_BUFFERED"
        public static let annotations = "PREPUSH_ANNOTATIONS"
        public static let selective = "PREPUSH_SELECTIVE"
    }

    /// Whether `PREPUSH_SKIP` asks to skip everything. Checked before the file is read, so a broken
    /// configuration cannot stand in the way of the escape hatch.
    ///
    /// An escape hatch must never block a push: a value that is not one of the booleans
    /// (`PREPUSH_SKIP=please`) counts as set, and `note` says so. Only a false spelling (or an
    /// empty value) leaves the checks on.
    public static func skipAllRequested(environment: [String: String]) -> (skip: Bool, note: String?) {
        guard let raw = environment[Variable.skipAll], !ValueParsers.trimmed(raw).isEmpty else { return (false, nil) }
        switch ValueParsers.boolean(raw) {
        case .success(let value): return (value, nil)
        case .failure:
            return (true, "\(Variable.skipAll)=\"\(Diagnostic.excerpt(raw))\" is not true/false, yes/no or 1/0; taken as set (use PREPUSH_SKIP=1)")
        }
    }

    /// Whether prepush runs in CI: `CI` or `GITHUB_ACTIONS` set to anything but empty, `0` or `false`.
    public static func runsInCI(_ environment: [String: String]) -> Bool {
        ["CI", "GITHUB_ACTIONS"].contains { name in
            environment[name].map { !$0.isEmpty && $0 != "0" && $0.lowercased() != "false" } ?? false
        }
    }

    /// Resolves the configuration, throwing every problem found (exit status 2).
    public static func resolve(_ request: ConfigurationRequest) throws(ConfigurationError) -> ResolvedConfiguration {
        var merger = Merger(request: request)
        // A broken file does not hide a bad flag or environment variable: report both at once.
        var fileErrors: [ConfigurationError] = []
        var file: ConfigurationFile?
        do {
            file = try merger.loadFile()
        } catch {
            fileErrors = error.all
        }
        do {
            let resolved = try merger.resolve(file: file)
            if fileErrors.isEmpty { return resolved }
        } catch {
            fileErrors += error.all
        }
        throw fileErrors.count == 1 ? fileErrors[0] : .multiple(fileErrors)
    }
}

/// Holds the request and the errors found while merging.
private struct Merger {
    let request: ConfigurationRequest
    var errors: [ConfigurationError] = []
    var settings: [ResolvedSetting] = []
    var notes: [String] = []
    var configurationFile: String?
    /// The absolute path of the file read, for quoting its lines under errors found after decoding.
    var loadedFilePath: String?

    init(request: ConfigurationRequest) { self.request = request }

    private var environment: [String: String] { request.environment }
    private typealias Variable = ConfigurationResolver.Variable

    /// Every name under `accessibility.rules` that is no rule, each with its place (quoted from the
    /// text already read: the file is never read a second time, whatever it has become).
    private mutating func checkRuleNames(_ file: ConfigurationFile?) {
        let known = request.knownAccessibilityRules
        guard !known.isEmpty, let file else { return }
        // At most `DocumentProblems.limit` errors, each with its line: 8,000 unknown names on one
        // line were 8,000 copies of that line and 8,000 suggestions (4 s, 1 GB).
        var beyond = 0
        for rule in file.accessibility?.rules ?? [] where !known.contains(rule.value.name) {
            guard errors.count < DocumentProblems.limit else { beyond += 1; continue }
            errors.append(.unknownKey(rule.location, key: rule.value.name, parent: "accessibility.rules",
                                      suggestion: DocumentProblems.suggestion(for: rule.value.name, among: known),
                                      sourceLine: sourceLine(file, rule.location)))
        }
        if beyond > 0 { errors.append(.moreErrors(beyond, file: configurationFile ?? ".prepush.yml")) }
    }

    /// `accessibility.baseline`'s absolute path: the repository names it, so it stays inside the
    /// repository, and a missing one is an error (a typo would otherwise report every old finding).
    private mutating func accessibilityBaseline(_ file: ConfigurationFile?) -> String? {
        guard let file, let configured = file.accessibility?.baseline else { return nil }
        let problem: ValueProblem
        switch RepositoryPath.fileInside(configured.value, root: request.repositoryRoot) {
        case .success(let path):
            if case .failure(.missing) = FileReading.read(path, limit: 0) {
                problem = .fileProblem("does not exist; write it with prepush a11y --all --write-baseline \(configured.value)")
            } else {
                return path
            }
        case .failure(let outside):
            problem = .outsideRepository(outside)
        }
        errors.append(.invalidValue(.file(configured.location), setting: "accessibility.baseline", value: configured.value,
                                    problem: problem, sourceLine: sourceLine(file, configured.location)))
        return nil
    }

    mutating func loadFile() throws(ConfigurationError) -> ConfigurationFile? {
        let named: (path: String, origin: ValueOrigin)?
        if let path = request.flags.configPath {
            named = (path, .flag("--config"))
        } else if let path = environment[Variable.configPath], !path.isEmpty {
            named = (path, .environment(Variable.configPath))
        } else {
            named = nil
        }
        if let named {
            let absolute = absolutePath(named.path, base: request.currentDirectory)
            guard FileManager.default.fileExists(atPath: absolute) else { throw .fileNotFound(path: named.path, namedBy: named.origin) }
            configurationFile = named.path
            loadedFilePath = absolute
            settings.append(ResolvedSetting(name: "config", value: named.path, origin: named.origin))
            return try ConfigurationFile.load(path: absolute, displayName: named.path)
        }
        let defaultPath = FilePath.join(request.repositoryRoot, ConfigurationResolver.defaultFileName)
        guard FileManager.default.fileExists(atPath: defaultPath) || RepositoryPath.isSymbolicLink(defaultPath) else { return nil }
        // The repository's own file may be a pull request's: it must not lead out of the repository.
        if case .failure(let problem) = RepositoryPath.inside(ConfigurationResolver.defaultFileName, root: request.repositoryRoot) {
            throw .refusedPath(problem, what: "configuration file")
        }
        let shown = displayPath(defaultPath)
        configurationFile = shown
        loadedFilePath = defaultPath
        settings.append(ResolvedSetting(name: "config", value: shown, origin: .default))
        return try ConfigurationFile.load(path: defaultPath, displayName: shown)
    }

    mutating func resolve(file: ConfigurationFile?) throws(ConfigurationError) -> ResolvedConfiguration {
        let flags = request.flags
        if flags.skipUITests && flags.uiTestsOnly {
            errors.append(.conflictingFlags("--skip-ui-tests", "--ui-tests-only"))
        }

        // skipUITests: flag > SKIP_UI_TESTS > stages.ui.skip > default.
        var skipUI = pick(ConfigurationKey.row("stages.ui.skip"), flag: flags.skipUITests ? (true, "--skip-ui-tests") : nil,
                          variable: Variable.skipUITests, parse: ValueParsers.boolean,
                          file: file?.stages[.ui]?.skip, fallback: PrePushHookConfig.default.skipUITests)
        let uiOnly = pick("uiTestsOnly", flag: flags.uiTestsOnly ? (true, "--ui-tests-only") : nil,
                          variable: nil, parse: ValueParsers.boolean, file: nil,
                          fallback: PrePushHookConfig.default.uiTestsOnly)
        if uiOnly.value, skipUI.value, !flags.skipUITests {
            // A flag beats a lower source: asking for UI tests only on the command line runs them.
            notes.append("--ui-tests-only overrides skipUITests from \(skipUI.origin)")
            skipUI = (false, .flag("--ui-tests-only"))
            replaceSetting(ConfigurationKey.row("stages.ui.skip"), value: "false", origin: skipUI.origin)
        }
        let uiRange = PrePushHookConfig.uiTestTimeoutRange
        let uiTimeout = pick(ConfigurationKey.row("stages.ui.timeout"), flag: flags.uiTestTimeout.map { ($0, "--timeout") }, flagCheck: uiRange,
                             variable: Variable.uiTestTimeout,
                             parse: { ValueParsers.wholeSeconds($0, range: uiRange, setting: "UI test timeout") },
                             file: file?.stages[.ui]?.timeout, fallback: Int(PrePushHookConfig.default.uiTestTimeout),
                             settingName: "UI test timeout")
        let verbose = pick(ConfigurationKey.row("verbose"), flag: flags.verbose ? (true, "--verbose") : nil,
                           variable: Variable.uiTestVerbose, parse: ValueParsers.boolean,
                           file: file?.verbose, fallback: PrePushHookConfig.default.verbose)
        let syncMode = pickSyncMode(flag: flags.syncMode, file: file?.remote?.syncMode)
        let isolated = pick(ConfigurationKey.row("isolated"), flag: flags.isolated ? (true, "--isolated") : nil, variable: nil,
                            parse: ValueParsers.boolean, file: file?.isolated, fallback: false)
        let cache = pickCache(file: file)
        let selection = pickSelection()
        // An environment-only switch (the stages' line-buffered output): checked here so a bad value is an error like any other.
        if let raw = environment[Variable.lineBuffered], case .failure(let problem) = ValueParsers.boolean(raw) {
            errors.append(.invalidValue(.environment(Variable.lineBuffered), setting: Variable.lineBuffered, value: raw, problem: problem, sourceLine: nil))
        }

        let hook = PrePushHookConfig(skipUITests: skipUI.value, uiTestsOnly: uiOnly.value,
                                     uiTestTimeout: TimeInterval(uiTimeout.value), verbose: verbose.value, syncMode: syncMode)

        let unitTimeout = pick(ConfigurationKey.row("stages.*.timeout", stage: StageKind.unit.rawValue), flag: flags.unitTestTimeout.map { ($0, "--unit-timeout") },
                               flagCheck: ConfigurationResolver.unitTimeoutRange, variable: nil,
                               parse: { _ in .failure(.notWholeSeconds) }, file: file?.stages[.unit]?.timeout,
                               fallback: ConfigurationResolver.defaultUnitTimeout, settingName: "unit test timeout")
        let unit = stage(.unit, file: file, timeout: unitTimeout.value)
        let ui = stage(.ui, file: file, timeout: uiTimeout.value)

        let reports: (value: String, origin: ValueOrigin)
        if let flag = flags.reportsDirectory {
            reports = (flag, .flag("--reports-dir"))
        } else if let located = file?.reportsDirectory {
            reports = (located.value, .file(located.location))
            // The file may be a pull request's: its reports folder stays inside the repository.
            if case .failure(let problem) = RepositoryPath.writableFolderInside(located.value, root: request.repositoryRoot) {
                errors.append(.invalidValue(.file(located.location), setting: "reports.directory", value: located.value,
                                            problem: .outsideRepository(problem), sourceLine: sourceLine(file, located.location)))
            }
        } else {
            reports = (ConfigurationResolver.defaultReportsDirectory, .default)
            // The default is the repository's path too: a committed `.prepush -> /elsewhere` must not carry the reports out.
            if case .failure(let problem) = RepositoryPath.inside(reports.value, root: request.repositoryRoot) {
                errors.append(.invalidValue(.default, setting: "reports.directory", value: reports.value,
                                            problem: .outsideRepository(problem), sourceLine: nil))
            }
        }
        settings.append(ResolvedSetting(name: ConfigurationKey.row("reports.directory"), value: reports.value, origin: reports.origin))
        let annotations = pickAnnotations(flag: flags.annotations, file: file?.reportsAnnotations)
        let remote = self.remote(file?.remote)
        checkRuleNames(file)
        let baseline = accessibilityBaseline(file)
        listSections(file)

        switch errors.count {
        case 0: break
        case 1: throw errors[0]
        default: throw .multiple(errors)
        }
        var customStages: [StageSettings] = []
        var customSkipped: [StageKind] = []
        for kind in file?.stageOrder ?? [] where !kind.isBuiltIn {
            if let skip = file?.stages[kind]?.skip, skip.value {
                settings.append(ResolvedSetting(name: ConfigurationKey.row("stages.*.skip", stage: kind.rawValue), value: "true", origin: .file(skip.location)))
                customSkipped.append(kind)
                continue
            }
            let timeout = file?.stages[kind]?.timeout?.value ?? ConfigurationResolver.defaultUnitTimeout
            if let custom = stage(kind, file: file, timeout: timeout) { customStages.append(custom) }
        }

        var resolved = ResolvedConfiguration(
            hook: hook, configurationFile: configurationFile, unitStage: unit, uiStage: ui,
            traceability: file?.traceability, isolated: isolated.value, cache: cache.value,
            unitStageSkippedByFile: file?.stages[.unit]?.skip?.value == true,
            reportsDirectory: absolutePath(reports.value, base: request.repositoryRoot),
            remote: remote, settings: settings, notes: notes)
        resolved.annotationLimit = annotations.value
        resolved.selectionEnabled = selection
        resolved.customStages = customStages
        resolved.customStagesSkippedByFile = customSkipped
        resolved.stageOrder = file?.stageOrder ?? []
        resolved.accessibility = AccessibilityConfiguration(file?.accessibility, baseline: baseline, lines: file?.lines)
        resolved.configurationLines = file?.lines
        resolved.quarantine = Quarantine(file?.quarantine.map(\.value) ?? [])
        return resolved
    }

    // MARK: - Picking one value by precedence

    /// Picks flag, then environment variable, then file, then the fallback; records the origin.
    private mutating func pick<Value: Sendable & Equatable & CustomStringConvertible>(
        _ name: String, flag: (Value, String)?, flagCheck: ClosedRange<Int>? = nil,
        variable: String?, parse: (String) -> Result<Value, ValueProblem>,
        file: Located<Value>?, fallback: Value, settingName: String? = nil
    ) -> (value: Value, origin: ValueOrigin) {
        var result: (value: Value, origin: ValueOrigin) = (fallback, .default)
        if let (value, flagName) = flag {
            result = (value, .flag(flagName))
            if let range = flagCheck, let number = value as? Int, !range.contains(number) {
                errors.append(.invalidValue(.flag(flagName), setting: name, value: "\(number)",
                                            problem: .secondsOutOfRange(range, setting: settingName ?? name), sourceLine: nil))
            }
        } else if let variable, let raw = environment[variable] {
            switch parse(raw) {
            case .success(let value): result = (value, .environment(variable))
            case .failure(let problem):
                errors.append(.invalidValue(.environment(variable), setting: name, value: raw, problem: problem, sourceLine: nil))
            }
        } else if let file {
            result = (file.value, .file(file.location))
        }
        settings.append(ResolvedSetting(name: name, value: result.value.description, origin: result.origin))
        return result
    }

    /// `cache`: flag > `PREPUSH_CACHE` > file > on; in CI off unless a flag or the job's own
    /// environment turns it on. There the configuration file and the stages are a pull request's:
    /// a stage could store its own pass for the next job on a self-hosted runner.
    private mutating func pickCache(file: ConfigurationFile?) -> (value: Bool, origin: ValueOrigin) {
        var cache = pick(ConfigurationKey.row("cache"), flag: request.flags.noCache ? (false, "--no-cache") : nil, variable: Variable.cache,
                         parse: ValueParsers.boolean, file: file?.cache, fallback: true)
        if cache.value, ConfigurationResolver.runsInCI(environment), cache.origin == .default || cache.origin.isFile {
            cache = (false, .derived("off in CI unless \(Variable.cache)=1"))
            replaceSetting("cache", value: "false", origin: cache.origin)
        }
        return cache
    }

    /// `selective` as a switch over every stage: `--no-selective` > `PREPUSH_SELECTIVE` > on; in CI
    /// off unless the variable turns it on (CI runs everything, and records the impact map).
    private mutating func pickSelection() -> Bool {
        var selection = pick("selective", flag: request.flags.noSelective ? (false, "--no-selective") : nil, variable: Variable.selective,
                             parse: ValueParsers.boolean, file: nil, fallback: true)
        if selection.value, ConfigurationResolver.runsInCI(environment), selection.origin == .default {
            selection = (false, .derived("off in CI unless \(Variable.selective)=1"))
            replaceSetting("selective", value: "false", origin: selection.origin)
        }
        return selection.value
    }

    /// `reports.annotations`: `--annotations` > `PREPUSH_ANNOTATIONS` > the file > 10, each within 1–50.
    private mutating func pickAnnotations(flag: Int?, file: Located<Int>?) -> (value: Int, origin: ValueOrigin) {
        let range = ResolvedConfiguration.annotationRange
        if let flag, !range.contains(flag) {
            errors.append(.invalidValue(.flag("--annotations"), setting: "reports.annotations", value: "\(flag)",
                                        problem: .notCount(range, what: "a number of annotations"), sourceLine: nil))
        }
        return pick(ConfigurationKey.row("reports.annotations"), flag: flag.map { ($0, "--annotations") }, variable: Variable.annotations,
                    parse: { ValueParsers.count($0, range: range, what: "a number of annotations") }, file: file, fallback: 10)
    }

    private mutating func pickSyncMode(flag: String?, file: Located<SyncMode>?) -> SyncMode {
        var result: (SyncMode, ValueOrigin) = (PrePushHookConfig.default.syncMode, .default)
        if let flag {
            switch ValueParsers.syncMode(flag) {
            case .success(let mode): result = (mode, .flag("--sync-mode"))
            case .failure(let problem):
                errors.append(.invalidValue(.flag("--sync-mode"), setting: "syncMode", value: flag, problem: problem, sourceLine: nil))
            }
        } else if let raw = environment[Variable.syncMode] {
            switch ValueParsers.syncMode(raw) {
            case .success(let mode): result = (mode, .environment(Variable.syncMode))
            case .failure(let problem):
                errors.append(.invalidValue(.environment(Variable.syncMode), setting: "syncMode", value: raw, problem: problem, sourceLine: nil))
            }
        } else if let file {
            result = (file.value, .file(file.location))
        }
        settings.append(ResolvedSetting(name: ConfigurationKey.row("remote.syncMode"), value: result.0.rawValue, origin: result.1))
        return result.0
    }

    private mutating func replaceSetting(_ name: String, value: String, origin: ValueOrigin) {
        if let index = settings.firstIndex(where: { $0.name == name }) {
            settings[index] = ResolvedSetting(name: name, value: value, origin: origin)
        }
    }

    // MARK: - Stages and remote

    private mutating func stage(_ kind: StageKind, file: ConfigurationFile?, timeout: Int) -> StageSettings? {
        let name = kind.rawValue
        let written = file?.stages[kind]
        let command: (String, ValueOrigin)?
        if let run = written?.run {
            command = (run.value, .file(run.location))
        } else if kind == .unit, written == nil,
                  FileManager.default.fileExists(atPath: FilePath.join(request.repositoryRoot, "Package.swift")) {
            command = ("swift test", .derived("Package.swift found"))
        } else {
            command = nil
        }
        settings.append(ResolvedSetting(name: ConfigurationKey.row("stages.*.run", stage: name), value: command?.0 ?? "(not configured)", origin: command?.1 ?? .default))
        let unitTimeout = ConfigurationKey.row("stages.*.timeout", stage: StageKind.unit.rawValue)
        if kind == .unit, let timeoutOrigin = settings.last(where: { $0.name == unitTimeout }) {
            // Keep the unit stage's lines together in `prepush config`.
            settings.removeAll { $0.name == unitTimeout }
            settings.append(timeoutOrigin)
        }

        var directory = request.repositoryRoot
        var directoryOrigin = ValueOrigin.default
        if let written = written?.workingDirectory {
            directory = absolutePath(written.value, base: request.repositoryRoot)
            directoryOrigin = .file(written.location)
            // The file may be a pull request's: a stage runs inside the repository (or its export), never in /etc.
            if case .failure(let problem) = RepositoryPath.inside(written.value, root: request.repositoryRoot) {
                let words: ValueProblem
                if case .absolute = problem {
                    words = .fileProblem("is an absolute path; a stage's working directory is a folder inside the repository (give it relative to the root)")
                } else {
                    words = .outsideRepository(problem)
                }
                errors.append(.invalidValue(directoryOrigin, setting: "\(name).workingDirectory", value: written.value,
                                            problem: words, sourceLine: sourceLine(file, written.location)))
            } else if FileManager.default.fileExists(atPath: directory) && !FileSystem.isDirectory(directory) {
                errors.append(.invalidValue(directoryOrigin, setting: "\(name).workingDirectory", value: written.value,
                                            problem: .fileProblem("is a file, not a folder"), sourceLine: sourceLine(file, written.location)))
            } else if !FileSystem.isDirectory(directory) {
                errors.append(.workingDirectoryNotFound(path: written.value, origin: directoryOrigin,
                                                        sourceLine: sourceLine(file, written.location)))
            }
        }
        settings.append(ResolvedSetting(name: ConfigurationKey.row("stages.*.workingDirectory", stage: name), value: displayPath(directory), origin: directoryOrigin))
        let environment = written?.environment.map(\.value) ?? []
        for entry in written?.environment ?? [] {
            settings.append(ResolvedSetting(name: ConfigurationKey.row("stages.*.env", stage: name) + ".\(entry.value.name)", value: entry.value.value, origin: .file(entry.location)))
        }
        let cacheEnvironment = written?.cacheEnvironment ?? []
        if !cacheEnvironment.isEmpty {
            settings.append(ResolvedSetting(name: ConfigurationKey.row("stages.*.cacheEnvironment", stage: name), value: cacheEnvironment.map(\.value).joined(separator: ", "),
                                            origin: .file(cacheEnvironment[0].location)))
        }
        let paths = written?.paths ?? []
        if !paths.isEmpty {
            settings.append(ResolvedSetting(name: ConfigurationKey.row("stages.*.paths", stage: name), value: paths.map(\.value).joined(separator: ", "), origin: .file(paths[0].location)))
        }
        if let selective = written?.selective {
            settings.append(ResolvedSetting(name: ConfigurationKey.row("stages.*.selective", stage: name), value: "\(selective.value)", origin: .file(selective.location)))
        }
        if let age = written?.impactMapAge {
            settings.append(ResolvedSetting(name: ConfigurationKey.row("stages.*.impactMapAge", stage: name), value: "\(age.value)", origin: .file(age.location)))
        }
        if let parallel = written?.parallel {
            settings.append(ResolvedSetting(name: ConfigurationKey.row("stages.*.parallel", stage: name), value: "\(parallel.value)", origin: .file(parallel.location)))
        }
        if let shard = written?.shard {
            let tests = written?.shardTests.map(\.value) ?? []
            settings.append(ResolvedSetting(name: ConfigurationKey.row("stages.*.shard", stage: name), value: tests.isEmpty ? "\(shard.value)" : tests.joined(separator: ", "),
                                            origin: .file(shard.location)))
        }
        if let retry = written?.retry {
            settings.append(ResolvedSetting(name: ConfigurationKey.row("stages.*.retry", stage: name), value: "\(retry.value)", origin: .file(retry.location)))
        }
        if let first = written?.retryOn.first {
            settings.append(ResolvedSetting(name: ConfigurationKey.row("stages.*.retryOn", stage: name), value: written!.retryOn.map(\.value).joined(separator: ", "), origin: .file(first.location)))
        }
        if let first = written?.infrastructureMessages.first {
            settings.append(ResolvedSetting(name: ConfigurationKey.row("stages.*.infrastructureMessages", stage: name), value: written!.infrastructureMessages.map(\.value).joined(separator: ", "),
                                            origin: .file(first.location)))
        }
        if let flaky = written?.flaky {
            settings.append(ResolvedSetting(name: ConfigurationKey.row("stages.*.flaky", stage: name), value: flaky.value.rawValue, origin: .file(flaky.location)))
        }
        if kind != .ui, let skip = written?.skip {
            // The UI stage's `skip` is `skipUITests`, with its precedence.
            settings.append(ResolvedSetting(name: ConfigurationKey.row("stages.*.skip", stage: name), value: "\(skip.value)", origin: .file(skip.location)))
        }
        if !kind.isBuiltIn, let timeout = written?.timeout {
            settings.append(ResolvedSetting(name: ConfigurationKey.row("stages.*.timeout", stage: name), value: "\(timeout.value)", origin: .file(timeout.location)))
        }
        guard let command else { return nil }
        var stage = StageSettings(kind: kind, command: command.0, timeout: timeout, environment: environment, workingDirectory: directory,
                                  cacheEnvironment: cacheEnvironment.map(\.value), paths: paths.map(\.value),
                                  parallel: written?.parallel?.value ?? false, selectivity: written?.selective?.value ?? .off,
                                  shardTests: written?.shard?.value == true ? written?.shardTests.map(\.value) ?? [] : nil)
        // `retryOn` absent: `failed` (with `retry`); given: what it lists.
        let listed = written?.retryOn.map(\.value) ?? []
        let reasons = Set(listed.isEmpty ? ["failed"] : listed)
        stage.retry = reasons.contains("failed") ? written?.retry?.value ?? 0 : 0
        stage.retriesInfrastructure = reasons.contains("infrastructure")
        stage.flaky = written?.flaky?.value ?? .warn
        stage.impactMapAge = written?.impactMapAge?.value ?? StageSettings.defaultImpactMapAge
        stage.infrastructureMessages = written?.infrastructureMessages.map(\.value) ?? []
        return stage
    }

    /// The settings the file gives that have no precedence (accessibility, quarantine,
    /// traceability: `ConfigurationKey.all` says how each is shown), and the environment-only
    /// switches that are set, for `prepush config` (each check applies its own defaults).
    private mutating func listSections(_ file: ConfigurationFile?) {
        if let file { settings += ConfigurationKey.rowsAsWritten(file) }
        for variable in ["SKIP", Variable.skipAll, "PREPUSH_QUIET", Variable.lineBuffered, "PREPUSH_XCRUN", "PREPUSH_DEMO_SOURCE"] {
            guard let value = environment[variable], !value.isEmpty else { continue }
            settings.append(ResolvedSetting(name: variable, value: value, origin: .environment(variable)))
        }
    }

    private mutating func remote(_ written: FileRemote?) -> RemoteSettings? {
        guard let written, let host = written.host, let path = written.path else { return nil }
        settings.append(ResolvedSetting(name: ConfigurationKey.row("remote.host"), value: host.value, origin: .file(host.location)))
        if let user = written.user {
            settings.append(ResolvedSetting(name: ConfigurationKey.row("remote.user"), value: user.value, origin: .file(user.location)))
        }
        settings.append(ResolvedSetting(name: ConfigurationKey.row("remote.port"), value: "\(written.port?.value ?? 22)",
                                        origin: written.port.map { .file($0.location) } ?? .default))
        settings.append(ResolvedSetting(name: ConfigurationKey.row("remote.path"), value: path.value, origin: .file(path.location)))
        var identity = written.identityFile?.value
        if let named = identity {
            let home = request.environment["HOME"] ?? ""
            identity = named.hasPrefix("~/") ? FilePath.join(home, String(named.dropFirst(2))) : FilePath.absolute(named, base: request.repositoryRoot)
            settings.append(ResolvedSetting(name: ConfigurationKey.row("remote.identityFile"), value: identity!, origin: .file(written.identityFile!.location)))
        }
        for option in written.sshOptions {
            settings.append(ResolvedSetting(name: ConfigurationKey.row("remote.sshOptions"), value: option.value, origin: .file(option.location)))
        }
        for result in written.results {
            settings.append(ResolvedSetting(name: ConfigurationKey.row("remote.results"), value: result.value, origin: .file(result.location)))
        }
        if let accept = written.acceptNewHostKeys {
            settings.append(ResolvedSetting(name: ConfigurationKey.row("remote.acceptNewHostKeys"), value: "\(accept.value)", origin: .file(accept.location)))
        }
        let connection = RemoteHost(host: host.value, user: written.user?.value, port: written.port?.value ?? 22, path: path.value,
                                    identityFile: identity, sshOptions: written.sshOptions.map(\.value),
                                    acceptNewHostKeys: written.acceptNewHostKeys?.value ?? false)
        return RemoteSettings(connection: connection, results: written.results.map(\.value))
    }

    // MARK: - Paths

    private func absolutePath(_ path: String, base: String) -> String {
        FilePath.absolute(path, base: base)
    }

    /// Paths under the repository root are shown relative to it, as users wrote them.
    private func displayPath(_ path: String) -> String {
        FilePath.relative(path, to: request.repositoryRoot)
    }

    private func sourceLine(_ file: ConfigurationFile?, _ location: SourceLocation) -> String? {
        file.flatMap { $0.lines.line(location.line) }
    }
}
