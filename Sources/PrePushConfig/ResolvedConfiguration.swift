#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// The values given on the command line; nil or false means "not given".
public struct ConfigurationFlags: Sendable, Equatable {
    /// `--skip-ui-tests`
    public var skipUITests = false
    /// `--ui-tests-only`
    public var uiTestsOnly = false
    /// `--verbose`
    public var verbose = false
    /// `--timeout N`: the UI stage's timeout in seconds.
    public var uiTestTimeout: Int?
    /// `--unit-timeout N`: the unit stage's timeout in seconds.
    public var unitTestTimeout: Int?
    /// `--sync-mode rsync|scp`
    public var syncMode: String?
    /// `--config PATH`
    public var configPath: String?
    /// `--reports-dir PATH`
    public var reportsDirectory: String?
    /// `--annotations N`: GitHub annotations of each kind a step prints.
    public var annotations: Int?
    /// `--isolated`
    public var isolated = false
    /// `--all-lines`: accessibility findings anywhere in the changed files, not only on changed lines.
    public var allLines = false
    /// `--no-cache`: run every stage even when an earlier run passed on the same tree.
    public var noCache = false
    /// `--no-selective`: every `selective:` stage runs every test.
    public var noSelective = false

    /// No flags given.
    public init() {}
}

/// Everything configuration is resolved from. Passing the environment in (rather than reading the
/// process's) keeps resolution a pure function that tests can call side by side.
public struct ConfigurationRequest: Sendable {
    /// The flags given.
    public var flags: ConfigurationFlags
    /// The environment variables prepush sees.
    public var environment: [String: String]
    /// The repository's working tree root: where `.prepush.yml` and `Package.swift` are looked for.
    public var repositoryRoot: String
    /// The folder relative `--config` and `PREPUSH_CONFIG` paths are taken from.
    public var currentDirectory: String
    /// The accessibility rule ids there are: a name under `accessibility.rules` that is not one is an
    /// error with its place and a did-you-mean. Empty: names are not checked.
    public var knownAccessibilityRules: [String] = []

    /// Creates a request.
    public init(flags: ConfigurationFlags, environment: [String: String], repositoryRoot: String, currentDirectory: String) {
        self.flags = flags
        self.environment = environment
        self.repositoryRoot = repositoryRoot
        self.currentDirectory = currentDirectory
    }
}

/// A stage ready to run.
public struct StageSettings: Sendable, Equatable {
    /// Which stage.
    public let kind: StageKind
    /// The shell command, run with `/bin/sh -c`.
    public private(set) var command: String
    /// Seconds before the stage's process group is stopped.
    public let timeout: Int
    /// Variables added to the inherited environment.
    public private(set) var environment: [EnvironmentEntry]
    /// Absolute path the command runs in.
    public private(set) var workingDirectory: String
    /// Names of prepush's environment variables that are part of the stage's cache key.
    public let cacheEnvironment: [String]
    /// Globs of repository paths: the stage runs only when the push changes a matching file (empty: always).
    public let paths: [String]
    /// Whether the stage may run at the same time as its neighbours that say so too.
    public let parallel: Bool
    /// What `selective:` narrows a `swift test` stage to: nothing, the test targets that depend on
    /// what the push changes, or the single tests an impact map says the change reaches.
    public let selectivity: Selectivity
    /// Whether `selective:` narrows the stage at all.
    public var selective: Bool { selectivity != .off }
    /// `impactMapAge`: commits between an impact map and the pushed commit before the push says the
    /// map is old (it is still used).
    public var impactMapAge = StageSettings.defaultImpactMapAge
    /// Set by selection on a stage it narrowed: the verdict cache neither keeps nor takes its pass
    /// (a pass of some tests is not the stage's pass).
    public var narrowedBySelection = false
    /// Set by `selective: tests`: the `swift test list` names of the tests it chose. A run whose
    /// results show fewer tests refuses (a filter that matches nothing exits 0 having run nothing).
    public var chosenTests: [String] = []
    /// `shard:`: nil when `prepush run --shard` does not split this stage's tests; else the globs of
    /// its test files (empty: the files `traceability.tests` selects).
    public let shardTests: [String]?
    /// `retry:`: how many times the tests that failed are run again (only they), within the timeout.
    public var retry = 0
    /// `retryOn: infrastructure`: a run the test infrastructure stopped before any test began (a
    /// known message in its output) is run again whole, once.
    public var retriesInfrastructure = false
    /// `flaky:`: what a test that failed and then passed on a retry does to the verdict.
    public var flaky = FlakyPolicy.warn
    /// `infrastructureMessages:`: messages added to the known ones of a failed test infrastructure.
    public var infrastructureMessages: [String] = []

    /// The numbers of retries a stage may ask for.
    public static let retryRange = 0...5
    /// Commits an impact map may be behind before a push says so.
    public static let defaultImpactMapAge = 100
    /// What `impactMapAge` accepts.
    public static let impactMapAgeRange = 1...100_000

    /// Creates stage settings.
    public init(kind: StageKind, command: String, timeout: Int, environment: [EnvironmentEntry], workingDirectory: String,
                cacheEnvironment: [String] = [], paths: [String] = [], parallel: Bool = false, selectivity: Selectivity = .off,
                shardTests: [String]? = nil) {
        self.kind = kind
        self.command = command
        self.timeout = timeout
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.cacheEnvironment = cacheEnvironment
        self.paths = paths
        self.parallel = parallel
        self.selectivity = selectivity
        self.shardTests = shardTests
    }

    /// The same stage with `seconds` left of its timeout (a retry within the stage's time).
    public func limited(to seconds: Int) -> StageSettings {
        var limited = StageSettings(kind: kind, command: command, timeout: max(1, seconds), environment: environment,
                                    workingDirectory: workingDirectory, cacheEnvironment: cacheEnvironment, paths: paths,
                                    parallel: parallel, selectivity: selectivity, shardTests: shardTests)
        limited.impactMapAge = impactMapAge
        limited.narrowedBySelection = narrowedBySelection
        limited.chosenTests = chosenTests
        limited.retry = retry
        limited.retriesInfrastructure = retriesInfrastructure
        limited.flaky = flaky
        limited.infrastructureMessages = infrastructureMessages
        return limited
    }

    /// The same stage running in another folder (an export of the pushed commit).
    public func moved(to workingDirectory: String) -> StageSettings {
        var moved = self
        moved.workingDirectory = workingDirectory
        return moved
    }

    /// The same stage narrowed by `selective:` to some tests (`chosen`, empty for test targets).
    public func narrowed(to command: String, adding variables: [EnvironmentEntry], chosen: [String] = []) -> StageSettings {
        var changed = running(command, adding: variables)
        changed.narrowedBySelection = true
        changed.chosenTests = chosen
        return changed
    }

    /// The same stage with another command and more variables (a selective run's filter, a shard's tests).
    public func running(_ command: String, adding variables: [EnvironmentEntry]) -> StageSettings {
        var changed = self
        changed.command = command
        changed.environment += variables
        return changed
    }
}

/// The remote Mac for UI runs: how to reach it, and what to bring back.
public struct RemoteSettings: Sendable, Equatable {
    /// The Mac and the ssh settings.
    public let connection: RemoteHost
    /// Files to bring back, relative to `connection.path`.
    public let results: [String]

    /// Creates remote settings.
    public init(connection: RemoteHost, results: [String] = []) {
        self.connection = connection
        self.results = results
    }
}

/// One line of `prepush config`: a setting, its value and where the value came from.
public struct ResolvedSetting: Sendable, Equatable {
    public let name: String
    public let value: String
    public let origin: ValueOrigin
}

/// The configuration after merging and validation: what the pipeline runs with.
public struct ResolvedConfiguration: Sendable {
    /// The data model's hook configuration.
    public let hook: PrePushHookConfig
    /// The configuration file used, if any.
    public let configurationFile: String?
    /// The unit stage, or nil when it is not configured.
    public let unitStage: StageSettings?
    /// The UI stage, or nil when it is not configured.
    public let uiStage: StageSettings?
    /// The team's own stages (`lint`, `build`), in file order, without those turned off by `skip: true`.
    public var customStages: [StageSettings] = []
    /// The team's own stages the file turns off with `skip: true`.
    public var customStagesSkippedByFile: [StageKind] = []
    /// Every stage name in file order (`unit` and `ui` included where the file names them).
    public var stageOrder: [StageKind] = []
    /// The accessibility check's settings, resolved: rule names checked, the pattern known to compile,
    /// the baseline a file inside the repository, defaults applied.
    public var accessibility = AccessibilityConfiguration()
    /// The lines of the configuration file as it was read, to quote one under a later error (the
    /// file is never read a second time: it may have changed since).
    public var configurationLines: LineTable?
    /// The `traceability:` section as written.
    public let traceability: FileTraceability?
    /// `quarantine:`: tests that run and are reported, and never refuse.
    public var quarantine = Quarantine()
    /// Whether the stages run in an export of the pushed commit (`isolated`, `--isolated`).
    public let isolated: Bool
    /// Whether a stage that passed on the same tree with the same inputs is skipped (`cache`,
    /// `PREPUSH_CACHE`, `--no-cache`).
    public let cache: Bool
    /// Whether `selective:` stages are narrowed at all (`--no-selective`, `PREPUSH_SELECTIVE`; off in
    /// CI unless `PREPUSH_SELECTIVE=1`: selection is for the hook, CI runs everything).
    public var selectionEnabled = true
    /// Whether the unit stage is turned off by `skip: true` in the file.
    public let unitStageSkippedByFile: Bool
    /// Absolute path of the reports folder.
    public var reportsDirectory: String
    /// GitHub annotations of each kind (errors, warnings) one step prints (`reports.annotations`,
    /// `PREPUSH_ANNOTATIONS`, `--annotations`): GitHub shows 10 a step, and up to 50 a job.
    public var annotationLimit = 10
    /// What `reports.annotations` accepts.
    public static let annotationRange = 1...50
    /// The remote Mac, when configured.
    public let remote: RemoteSettings?
    /// Every setting with its origin, in display order.
    public let settings: [ResolvedSetting]
    /// Things the user should know about how values combined (a flag overriding an environment variable).
    public let notes: [String]

    /// Whether a configured stage says `shard:`, so a CI's parallel-job variables split the run.
    public var stagesToShard: Bool {
        ([unitStage, uiStage].compactMap { $0 } + customStages).contains { $0.shardTests != nil }
    }

    /// The settings as aligned text lines: `name  value  (origin)`.
    public func rendered() -> String {
        var lines: [String] = []
        if configurationFile == nil { lines.append("config  (none: defaults, environment and flags only)") }
        let nameWidth = settings.map(\.name.count).max() ?? 0
        let valueWidth = min(40, settings.map(\.value.count).max() ?? 0)
        for setting in settings {
            let name = TextFormatting.padded(setting.name, to: nameWidth)
            let value = TextFormatting.padded(setting.value, to: valueWidth)
            lines.append("\(name)  \(value)  (\(setting.origin))")
        }
        lines += notes.map { "note: \($0)" }
        return lines.joined(separator: "\n")
    }
}

/// `selective:` on a `swift test` stage.
public enum Selectivity: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// `false`: every test runs.
    case off = "false"
    /// `true`: the test targets that depend on what the push changes.
    case targets = "true"
    /// `tests`: the tests an impact map says the change reaches (target-level without a map).
    case tests

    /// The word the file takes, as `prepush config` shows it.
    public var description: String { rawValue }
}

/// What a test that failed and then passed on a retry does to the verdict.
public enum FlakyPolicy: String, Sendable, Equatable, CaseIterable {
    /// The push passes; the verdict names each flaky test and its attempts.
    case warn
    /// A flaky test refuses the push, as a failed one does (Gradle's `failOnPassedAfterRetry`).
    case refuse
    /// The push passes; the reports still show the test as flaky.
    case allow
}

/// The `accessibility:` section resolved to what the check uses; defaults where the file is silent.
public struct AccessibilityConfiguration: Sendable, Equatable {
    /// Largest view file checked when the file names no `maxFileSize`: real views are a few KB to a
    /// few hundred; a 20 MB generated file took 8.8 s and 1.6 GB to check.
    public static let defaultMaxFileSize = 1_000_000

    /// `include`: globs of the view files checked; empty: every SwiftUI file but the default exclusions.
    public var include: [String] = []
    /// `exclude`: globs of files never checked.
    public var exclude: [String] = []
    /// `rules`: the severity the file gives each rule it names (nil: `off`).
    public var severities: [String: Severity?] = [:]
    /// `controls`: the team's own controls that need identifiers.
    public var controls: [String] = []
    /// `identifierPattern`: the convention identifiers follow; nil: inferred from the repository.
    public var identifierPattern: String?
    /// `maxFileSize`: bigger view files are named in a note and not checked.
    public var maxFileSize = AccessibilityConfiguration.defaultMaxFileSize
    /// `checkPreviews`, `checkDebugCode`: also check preview code and `#if DEBUG` code.
    public var checkPreviews = false
    public var checkDebugCode = false
    /// `iconViews`, `textEntryViews`: the team's own icon views and text-entry views.
    public var iconViews: Set<String> = []
    public var textEntryViews: [String] = []
    /// `baseline`: findings not reported again, checked to be a file inside the repository.
    public var baseline: Baseline?

    /// Where the baseline is, for reading it and for an error about what it holds.
    public struct Baseline: Sendable, Equatable {
        /// The path as the file gives it, for messages.
        public let configured: String
        /// Its absolute path.
        public let path: String
        /// Where the file names it, and that line as it was read.
        public let location: SourceLocation
        public let sourceLine: String?
    }

    public init() {}

    /// The settings from the file's section (`baseline` the resolver's checked absolute path).
    init(_ section: FileAccessibility?, baseline: String?, lines: LineTable?) {
        guard let section else { return }
        include = section.include.map(\.value)
        exclude = section.exclude.map(\.value)
        for rule in section.rules { severities[rule.value.name] = .some(rule.value.severity) }
        controls = section.controls.map(\.value)
        identifierPattern = section.identifierPattern?.value
        maxFileSize = section.maxFileSize?.value ?? Self.defaultMaxFileSize
        checkPreviews = section.checkPreviews?.value ?? false
        checkDebugCode = section.checkDebugCode?.value ?? false
        iconViews = Set(section.iconViews.map(\.value))
        textEntryViews = section.textEntryViews.map(\.value)
        if let configured = section.baseline, let baseline {
            self.baseline = Baseline(configured: configured.value, path: baseline, location: configured.location,
                                     sourceLine: lines?.line(configured.location.line))
        }
    }
}
