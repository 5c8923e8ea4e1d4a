import ArgumentParser
import PrePushConfig

/// Flags shared by every command that runs or shows the stages.
struct StageOptions: ParsableArguments {
    @Flag(name: .customLong("skip-ui-tests"), help: "Skip the UI stage (environment: SKIP_UI_TESTS).")
    var skipUITests = false

    @Flag(name: .customLong("ui-tests-only"), help: "Run only the UI stage.")
    var uiTestsOnly = false

    @Option(name: .customLong("timeout"), help: ArgumentHelp("UI stage timeout, 1 to 600 seconds (environment: UI_TEST_TIMEOUT).", valueName: "seconds"))
    var timeout: Int?

    @Option(name: .customLong("unit-timeout"), help: ArgumentHelp("Unit stage timeout in seconds.", valueName: "seconds"))
    var unitTimeout: Int?

    @Flag(name: .customLong("verbose"), help: "Stream stage output live (environment: UI_TEST_VERBOSE).")
    var verbose = false

    @Option(name: .customLong("sync-mode"), help: ArgumentHelp("How a remote UI run syncs the tree: rsync or scp.", valueName: "mode"))
    var syncMode: String?

    @Option(name: .customLong("config"), help: ArgumentHelp("Configuration file (environment: PREPUSH_CONFIG; default: .prepush.yml).", valueName: "path"))
    var config: String?

    @Option(name: .customLong("reports-dir"), help: ArgumentHelp("Folder for logs and reports (default: .prepush/reports).", valueName: "path"))
    var reportsDirectory: String?

    @Option(name: .customLong("annotations"), help: ArgumentHelp("GitHub annotations of each kind a step prints, 1 to 50 (environment: PREPUSH_ANNOTATIONS; default 10).", valueName: "count"))
    var annotations: Int?

    @Flag(name: .customLong("isolated"), help: "Run the stages in an export of the pushed commit, not the working tree.")
    var isolated = false

    @Flag(name: .customLong("all-lines"), help: "Report accessibility findings anywhere in the changed view files.")
    var allLines = false

    @Flag(name: .customLong("no-cache"), help: "Run every stage, even one that passed on the same tree with the same inputs (environment: PREPUSH_CACHE=0).")
    var noCache = false

    @Flag(name: .customLong("no-selective"), help: "Run every test of a selective: stage (environment: PREPUSH_SELECTIVE=0; CI runs every test unless PREPUSH_SELECTIVE=1).")
    var noSelective = false

    @Flag(name: .customLong("quiet"), help: "Print only the verdict, failures and warnings (environment: PREPUSH_QUIET).")
    var quiet = false

    func validate() throws {
        if skipUITests && uiTestsOnly {
            throw ValidationError("--skip-ui-tests and --ui-tests-only cannot be used together")
        }
    }

    /// The flags as the configuration resolver takes them.
    var flags: ConfigurationFlags {
        var flags = ConfigurationFlags()
        flags.skipUITests = skipUITests
        flags.uiTestsOnly = uiTestsOnly
        flags.uiTestTimeout = timeout
        flags.unitTestTimeout = unitTimeout
        flags.verbose = verbose
        flags.syncMode = syncMode
        flags.configPath = config
        flags.reportsDirectory = reportsDirectory
        flags.annotations = annotations
        flags.isolated = isolated
        flags.allLines = allLines
        flags.noCache = noCache
        flags.noSelective = noSelective
        return flags
    }
}

/// `--config` alone, for the commands that read the configuration but run no stage.
struct ConfigFileOption: ParsableArguments {
    @Option(name: .customLong("config"), help: ArgumentHelp("Configuration file (environment: PREPUSH_CONFIG; default: .prepush.yml).", valueName: "path"))
    var config: String?

    /// The flags these commands pass on: only the file.
    var flags: ConfigurationFlags {
        var flags = ConfigurationFlags()
        flags.configPath = config
        return flags
    }
}
