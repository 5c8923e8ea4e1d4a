#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushAccessibility
import PrePushConfig
import PrePushCore
import PrePushGit
import PrePushResults
import PrePushXcodeProject

/// `prepush init`: a commented `.prepush.yml` written from what the repository holds — a Swift
/// package gets `swift test` stages, an Xcode project or workspace an `xcodebuild test` UI stage with
/// the shared schemes it can read, an existing scenario catalog is named — and never written over
/// an existing file without `--force`. What it writes passes `prepush config`.
package enum InitRun {
    /// What was found in the repository.
    struct Findings {
        /// Its workspaces, projects, shared schemes and what they test, its packages and generator specs.
        var survey: XcodeProjectSurvey
        /// The simulator the team's CI names, and where.
        var destination: (value: String, place: String)?
        /// The test commands of the team's Makefile, Fastfile and workflows.
        var teamCommands: [TeamCommands.Command] = []
        /// The team's `xcodebuild test` commands, read for the flags a stage takes over.
        var xcodebuildTests: [TeamCommands.XcodebuildTest] = []
        /// The validation switches the team's xcodebuild commands pass (`-skipPackagePluginValidation`), with where.
        var validationFlags: [(flag: String, place: String)] = []
        /// Why Tuist's own graph was not used although `tuist` is installed (nil: used, or not installed).
        var graphNote: String?
        /// The team's XcodeGen and Tuist commands: which spec and folder, and how CI generates.
        var generators: [GeneratorInvocation] = []
        var catalog: String?
        /// How the repository tags its controls.
        var practice: IdentifierPractice?
        /// The baseline of today's accessibility findings, and how many it holds (nil: none to record).
        var baseline: (path: String, count: Int, written: Bool)?
        /// The schemes fastlane's snapshot runs (its Snapfile), with where each is named.
        var snapshotSchemes: [(scheme: String, place: String, plan: String?)] = []

        /// The schemes the team's fastlane lanes test (`run_tests(scheme: 'Tests-Unit')`), with where.
        var fastlaneTests: [(scheme: String, place: String)] = []

        /// Files the team's CI copies from committed ones before it builds, which a clone lacks.
        var setupCopies: [TeamCommands.SetupCopy] = []
        /// How a stage bootstraps Carthage's uncommitted frameworks, and the team's line it follows.
        var carthageBootstrap: (run: String, place: String?) = ("carthage bootstrap --use-xcframeworks", nil)
        /// Servers the team's CI starts where it runs tests (`php -S localhost:8080 &`, `services:`).
        var serverStarts: [(command: String, place: String)] = []
        /// Files the `.gitignore` leaves out beside a committed example, which no CI copy makes.
        var exampleFiles: [(file: String, example: String)] = []
        /// Submodules not checked out that a package builds from (`TeamCommands.missingSubmodules`).
        var missingSubmodules: [(path: String, usedBy: String)] = []

        /// Schemes the team's CI passes to a script of the repository that runs them as a scheme.
        var scriptSchemes: [TeamCommands.ScriptScheme] = []

        /// Schemes that take screenshots (named in the Snapfile; testing a bundle that compiles, or
        /// sits beside, fastlane's `SnapshotHelper.swift`; or whose every UI test class the scheme
        /// runs saves screenshots) and that the team's CI never runs, with why: offered in a
        /// comment, never made the UI stage.
        var screenshotSchemes: [(scheme: String, why: String)] {
            let run = teamRunUIBundles
            return survey.schemes.filter { !$0.uiBundles.isEmpty && (!teamRuns($0.name) || runsScreenshotsOnly($0)) }.compactMap { scheme in
                // The team's CI runs it, for screenshots: its plan picks only screenshot classes of a
                // bundle that holds other tests too (Mullvad's post-merge screenshot job).
                if teamRuns(scheme.name) { return (scheme.name, "the team's CI runs it \(howTeamRuns(scheme.name)) only for the classes of \(scheme.uiBundles.joined(separator: ", ")) that take screenshots, so no stage") }
                // A scheme fastlane snapshot runs with a plan other than its default one takes
                // screenshots only with that plan (Eurofurence's `testplan("Screenshots")`).
                if let named = snapshotSchemes.first(where: { $0.scheme == scheme.name && ($0.plan == nil || $0.plan == scheme.testPlan.map(XcodeProjectSurvey.planName)) }) {
                    return (scheme.name, "fastlane snapshot runs it (\(named.place))")
                }
                // A scheme that runs other UI bundles beside a screenshot bundle (Eurofurence's default
                // plan) is the app's: its stage leaves the screenshot bundle out (`stageUIBundles`).
                // Unless the team's CI runs those through another scheme (Habitica's `Habitica RTL`
                // runs its screenshots and the UI tests the `Habitica` scheme runs).
                guard scheme.uiBundles.allSatisfy({ isScreenshotBundle($0, of: scheme) || run.contains($0) }),
                      scheme.uiBundles.contains(where: { isScreenshotBundle($0, of: scheme) }) else { return nil }
                if let bundle = scheme.uiBundles.first(where: { survey.snapshotHelperFolders.contains($0) && !survey.mixedScreenshotBundles.contains($0) }) {
                    return (scheme.name, "\(bundle) holds fastlane's SnapshotHelper.swift")
                }
                if let bundle = scheme.uiBundles.first(where: survey.snapshotHelperBundles.contains) {
                    return (scheme.name, "\(bundle) compiles fastlane's SnapshotHelper.swift")
                }
                if Set(scheme.uiBundles).isSubset(of: scheme.screenshotBundles) {
                    let besides = scheme.screenshotBundlesBesidesSkipped.isEmpty ? "" : ", besides the classes every test plan of the team skips there"
                    return (scheme.name, "every test class it runs in \(scheme.uiBundles.joined(separator: ", ")) keeps screenshots\(besides)\(scheme.testPlan.map { " (its test plan \($0))" } ?? "")")
                }
                return nil
            }
        }
        /// Whether a UI bundle of `scheme` takes screenshots: it holds or compiles fastlane's
        /// `SnapshotHelper.swift`, or every test class the scheme runs in it keeps screenshots.
        func isScreenshotBundle(_ bundle: String, of scheme: XcodeProjectSurvey.SchemeTests) -> Bool {
            (survey.snapshotHelperFolders.contains(bundle) && !survey.mixedScreenshotBundles.contains(bundle))
                || survey.snapshotHelperBundles.contains(bundle) || scheme.screenshotBundles.contains(bundle)
        }
        /// Whether a scheme runs only screenshot classes of bundles that hold other tests too (its
        /// plan selects them): a screenshot run, even when the team's CI runs it.
        func runsScreenshotsOnly(_ scheme: XcodeProjectSurvey.SchemeTests) -> Bool {
            !scheme.uiBundles.isEmpty && scheme.uiBundles.allSatisfy { survey.holdsOtherTestsThanScreenshots($0) && scheme.screenshotBundles.contains($0) }
        }
        /// The UI bundles the UI stage runs: the scheme's, less its screenshot bundles when it runs others too.
        var stageUIBundles: [String] {
            guard let ui = uiScheme else { return [] }
            let flows = ui.uiBundles.filter { !isScreenshotBundle($0, of: ui) }
            return flows.isEmpty ? ui.uiBundles : flows
        }
        /// Whether the team's CI tests any scheme here (its `xcodebuild test`, `tuist test`, fastlane's `run_tests`).
        /// (A scheme it runs only to take screenshots tests nothing of the app.)
        var teamTestsASchemeHere: Bool { survey.schemes.contains { teamRuns($0.name) && !runsScreenshotsOnly($0) } }
        /// The schemes here the team's CI tests, by name.
        var teamTestedSchemes: [String] { survey.schemes.filter { teamRuns($0.name) && !runsScreenshotsOnly($0) }.map(\.name) }
        /// The UI bundles the schemes the team's CI tests run.
        var teamRunUIBundles: Set<String> { Set(survey.schemes.filter { teamRuns($0.name) && !runsScreenshotsOnly($0) }.flatMap(\.uiBundles)) }

        /// The scheme the UI stage runs: a scheme the team's CI tests that runs UI bundles, else one
        /// that runs UI bundles the CI tests through another scheme; when the CI tests schemes here
        /// but no UI bundle, none (a scheme CI never runs is named in a comment). Only when the CI
        /// tests no scheme here, the survey's choice. Never a screenshot scheme.
        var uiScheme: XcodeProjectSurvey.SchemeTests? {
            let excluded = Set(screenshotSchemes.map(\.scheme))
            guard teamTestsASchemeHere else { return survey.uiScheme(excluding: excluded) }
            let candidates = survey.schemes.filter { !$0.uiBundles.isEmpty && !excluded.contains($0.name) }
            // Among several the team runs (Element X's tool runs UITests, AccessibilityTests and
            // IntegrationTests), the one the survey would choose.
            let run = candidates.filter { teamRuns($0.name) }
            if let chosen = run.first(where: { $0.name == survey.uiScheme(excluding: excluded)?.name }) ?? run.first { return chosen }
            let bundles = teamRunUIBundles
            return candidates.first { Set($0.uiBundles).isSubset(of: bundles) }
        }
        /// Schemes that run UI bundles and that no stage runs because the team's CI never runs them
        /// (it tests other schemes here); screenshot schemes are said apart.
        var unrunUISchemes: [XcodeProjectSurvey.SchemeTests] {
            guard teamTestsASchemeHere else { return [] }
            let said = Set(screenshotSchemes.map(\.scheme) + [uiScheme?.name].compactMap { $0 })
            let bundles = teamRunUIBundles
            return survey.schemes.filter { !$0.uiBundles.isEmpty && !said.contains($0.name) && !teamRuns($0.name) && !Set($0.uiBundles).isSubset(of: bundles) }
        }

        /// Schemes the team's CI tests that neither stage runs, and whose bundles neither stage
        /// runs either (NetNewsWire's iOS scheme beside its macOS one; Element X's PreviewTests,
        /// AccessibilityTests, IntegrationTests): each a stage of its own or, where the team may run
        /// it apart for a reason init cannot read, a comment (`InitRun.otherTeamSchemeLines` decides).
        var otherTeamSchemes: [XcodeProjectSurvey.SchemeTests] {
            let covered = stageBundles
            let said = Set(screenshotSchemes.map(\.scheme) + [unitScheme, uiScheme].compactMap { $0?.name })
            return survey.schemes.filter { scheme in
                let bundles = scheme.unitBundles + scheme.uiBundles
                return teamRuns(scheme.name) && !said.contains(scheme.name) && !bundles.isEmpty && !Set(bundles).isSubset(of: covered)
            }
        }
        /// The bundles the unit and UI stages run (each stage leaves out the other's, and the UI
        /// stage a screenshot bundle its scheme runs beside others).
        var stageBundles: Set<String> {
            Set((unitScheme?.unitBundles ?? []) + stageUIBundles)
        }

        /// The scheme the unit stage runs. With tests in the root's Package.swift, only a scheme the
        /// team's own `xcodebuild test` runs (an app whose project uses the package, `make test-app`):
        /// a scheme nobody runs (a generator's fixture project) is no evidence against `swift test`.
        /// Otherwise the scheme the team's CI tests (its `xcodebuild test -scheme`, `tuist test
        /// SCHEME`), else the survey's choice.
        var unitScheme: XcodeProjectSurvey.SchemeTests? {
            let run = survey.schemes.filter { !$0.unitBundles.isEmpty && teamRuns($0.name) }
            var chosen = run.first { $0.name == survey.unitScheme?.name } ?? run.first
            // The survey's choice among equals (one unit bundle each, no name saying "Unit"): the one
            // the team's CI runs first (kDrive's `tuist test kDriveTests` job before its
            // `kDriveAPITests` job, which needs a live account).
            if let named = chosen, !named.name.contains("Unit") {
                let peers = run.filter { $0.uiBundles.isEmpty == named.uiBundles.isEmpty && $0.unitBundles.count == named.unitBundles.count && !$0.name.contains("Unit") }
                chosen = peers.min { firstTeamPlace($0.name) < firstTeamPlace($1.name) } ?? named
            }
            return rootPackageTests ? chosen : chosen ?? (unrunUnitScheme == nil ? survey.unitScheme : nil)
        }
        /// The scheme the survey would test unit bundles with when every test command of the team's
        /// CI is a `swift test` (Passepartout's `cd app-apple && swift test`): its bundles are tests
        /// the team never runs, offered in a comment rather than made a stage that adds their time,
        /// or failures, to every push.
        var unrunUnitScheme: XcodeProjectSurvey.SchemeTests? {
            // The commands the CI's own files run (a Makefile's targets and a Fastfile's lanes are
            // only declared there; an `xcodebuild test` any of them runs is in `xcodebuildTests`).
            let run = teamCommands.filter { !$0.place.hasPrefix("Makefile:") && !$0.place.contains("Fastfile:") && !$0.place.hasPrefix("fastlane/") }
            guard xcodebuildTests.isEmpty, fastlaneTests.isEmpty, scriptSchemes.isEmpty, !generators.contains(where: { $0.scheme != nil }),
                  !run.isEmpty, run.allSatisfy({ $0.text.contains("swift test") }), let scheme = survey.unitScheme, !teamRuns(scheme.name) else { return nil }
            return scheme
        }
        /// Where the team's CI first tests a scheme, as (file, line) to order by; the last for none.
        /// The schemes one fastlane lane tests in turn (element-ios' `test` lane) are one step of the
        /// CI, in no order of priority: only the CI's own lines count.
        func firstTeamPlace(_ scheme: String) -> PlaceOrder {
            let places = xcodebuildTests.filter { $0.schemes.contains(scheme) }.map(\.place)
                + generators.filter { $0.scheme == scheme }.map(\.place) + scriptSchemes.filter { $0.scheme == scheme }.map(\.place)
            return places.map(PlaceOrder.init).min() ?? PlaceOrder(file: "\u{10FFFF}", line: 0)
        }
        /// How the team's CI runs a scheme, for a comment: where its command is, or the script or
        /// Swift tool it goes through.
        func howTeamRuns(_ scheme: String) -> String {
            if let team = teamCommand(for: scheme) { return "(\(team.place))" }
            if let passed = scriptSchemes.first(where: { $0.scheme == scheme }) {
                return passed.tool.map { "through its Swift tool (\($0), run by \(passed.command) at \(passed.place))" }
                    ?? "through its script (\(passed.command) at \(passed.place))"
            }
            if let lane = fastlaneTests.first(where: { $0.scheme == scheme }) { return "through fastlane (\(lane.place))" }
            return generators.first { $0.scheme == scheme }.map { "(\($0.place))" } ?? ""
        }
        /// Whether the team's CI tests a scheme: an `xcodebuild test -scheme`, `tuist test SCHEME`,
        /// fastlane's `run_tests(scheme:)` or a script's scheme argument (`ui-test.sh AppUITests`) names it.
        func teamRuns(_ scheme: String) -> Bool {
            teamCommand(for: scheme) != nil || generators.contains { $0.scheme == scheme } || fastlaneTests.contains { $0.scheme == scheme }
                || scriptSchemes.contains { $0.scheme == scheme }
        }
        /// Whether the root package's tests get a `swift test` stage: they are there, and the unit
        /// scheme does not run them already.
        var rootPackageStage: Bool { rootPackageTests && !(unitScheme?.packages.contains("") ?? false) }

        /// The team's `xcodebuild test` commands for the schemes the stages run: their flags are the stages'.
        var adoptedTeamCommands: [TeamCommands.XcodebuildTest] {
            let stages = [unitScheme.map { ($0.name, $0.unitBundles) }, uiScheme.map { ($0.name, $0.uiBundles) }].compactMap { $0 }
            var seen = Set<String>()
            return stages.compactMap { teamCommand(for: $0.0, bundles: $0.1) }.filter { seen.insert($0.place).inserted }
        }
        /// The team's `xcodebuild test` command for a scheme, if its files have one. With `bundles`
        /// (a stage's) and several commands for the scheme, each naming a test plan (the
        /// Corona-Warn-App's `testplan:UnitTests` and `testplan:UITests`), the one whose plan runs
        /// those bundles and the fewest others.
        func teamCommand(for scheme: String, bundles: [String]? = nil) -> TeamCommands.XcodebuildTest? {
            let commands = xcodebuildTests.filter { $0.schemes.contains(scheme) }
            guard let bundles, commands.count > 1, let tests = survey.schemes.first(where: { $0.name == scheme }) else { return commands.first }
            let fits = commands.compactMap { command -> (command: TeamCommands.XcodebuildTest, others: Int)? in
                guard let plan = Self.plan(named: command), let planned = tests.planBundles[plan], bundles.contains(where: planned.contains) else { return nil }
                return (command, planned.filter { !bundles.contains($0) }.count)
            }
            return fits.min { $0.others < $1.others }?.command ?? commands.first
        }
        /// The destination a scheme's stage uses: its team command's, else the one the team's files name.
        func destination(for scheme: String, bundles: [String]? = nil) -> (value: String, place: String)? {
            if let team = teamCommand(for: scheme, bundles: bundles), let value = team.destination { return (value, team.place) }
            return destination
        }
        /// How a stage generates the project `spec` (relative to the root) makes: as the team's
        /// command for that spec or folder does (with where it is), else `xcodegen generate --spec`
        /// / `tuist generate --path` in the spec's folder. The text ends with ` && `.
        func generation(for spec: String) -> (run: String, place: String?) {
            let folder = spec.lastIndex(of: "/").map { String(spec[..<$0]) } ?? "."
            let team = generators.first { invocation in
                spec.hasSuffix(".swift") ? invocation.tool == .tuist && (invocation.path ?? ".") == folder
                                         : invocation.tool == .xcodegen && (invocation.spec ?? "project.yml") == spec
            }
            // CocoaPods completes an XcodeGen project: its pods are installed after each generation.
            let pods = survey.cocoaPodsSpecs[spec].map { $0 + " && " } ?? ""
            // Tuist 4 resolves the packages `Tuist/Package.swift` declares with `tuist install`; a clone
            // has none of them, and generation fails without them (taskchamp's).
            // As the team's generation runs tuist (`mise x -- tuist generate`: Azkar's CI installs with the same prefix).
            let runner = team.flatMap { invocation in invocation.run.firstRange(of: "tuist generate").map { String(invocation.run[..<$0.lowerBound]) } } ?? ""
            let install = spec.hasSuffix(".swift") && FileSystem.stamp(of: FilePath.join(FilePath.join(survey.root, folder), "Tuist/Package.swift")) != nil
                ? runner + "tuist install" + (folder == "." ? "" : " --path \(ShellQuoting.word(folder))") + " && " : ""
            if let team { return (install + team.run + " && " + pods, team.place) }
            return (install + InitRun.generateCommand(spec) + pods, nil)
        }
        /// The team's test commands no stage took its flags from, for the comment that offers them.
        var otherTeamCommands: [TeamCommands.Command] {
            let adopted = adoptedTeamCommands
            let places = Set(adopted.map(\.place)), made = Set(adopted.compactMap(\.via))
            return teamCommands.filter { !places.contains($0.place) && !made.contains($0.text) }
        }
        /// Whether init read a command in the team's CI that runs tests: then a nested package none of
        /// them tests is offered in a comment, not made a stage that would fail or slow every push
        /// for tests the team never runs. (A CI that only builds gives no such evidence.)
        var teamRunsTests: Bool {
            // Not every line teamCommands holds runs tests (a workflow's `fastlane build_only`).
            !xcodebuildTests.isEmpty || !fastlaneTests.isEmpty || !scriptSchemes.isEmpty || generators.contains { $0.scheme != nil }
                || teamCommands.contains { $0.text.contains("swift test") || $0.text.hasPrefix("make ") || ($0.text.contains("fastlane") && $0.text.lowercased().contains("test")) }
        }
        /// Whether the team's CI tests the nested package in `folder`: a scheme it tests runs the
        /// package's tests (its test plan), an `xcodebuild test` of the scheme Xcode makes for the
        /// package, or a `swift test` run in its folder.
        func teamTestsPackage(_ folder: String) -> Bool {
            if survey.schemes.contains(where: { packages(of: $0).contains(folder) && (teamRuns($0.name) || $0.name == unitScheme?.name || $0.name == uiScheme?.name) }) { return true }
            if let scheme = survey.packageSchemes[folder], teamRuns(scheme) { return true }
            return swiftTestFolders.contains(folder)
        }
        /// The packages a scheme's stage runs: those of the plan the team's command names
        /// (`-testPlan NetNewsWire-CI`), else those of its default plan or testables.
        func packages(of scheme: XcodeProjectSurvey.SchemeTests) -> [String] {
            plan(of: scheme).flatMap { scheme.planPackages[$0] } ?? scheme.packages
        }
        /// The test plan the team's command for a scheme names (`-testPlan NetNewsWire-CI`), if any.
        func plan(of scheme: XcodeProjectSurvey.SchemeTests) -> String? {
            teamCommand(for: scheme.name).flatMap(Self.plan(named:))
        }
        /// The test plan a team's command names (`-testPlan NetNewsWire-CI`), if any.
        static func plan(named command: TeamCommands.XcodebuildTest) -> String? {
            command.flags.lazy.compactMap { flag -> String? in
                guard flag.hasPrefix("-testPlan ") else { return nil }
                // Flags are kept quoted for the shell (`-testPlan 'Unit Tests'`).
                return ShellWords.split(String(flag.dropFirst("-testPlan ".count))).first
            }.first
        }
        /// The nested packages a `swift test` line of the team's CI files runs in (`TeamCommands.swiftTestFolders`).
        var swiftTestFolders: Set<String> = []
        /// Whether the root's Package.swift declares a test target.
        var rootPackageTests: Bool { survey.testPackages.contains("") }
        /// Whether there is anything to run tests from.
        var hasSwiftProject: Bool {
            !survey.testPackages.isEmpty || !survey.packagesWithoutTests.isEmpty || !survey.containers.isEmpty || !survey.generatorSpecs.isEmpty
        }
    }

    /// A `file:line` place, ordered by file, then by line as a number (`ci.yml:9` before `ci.yml:10`).
    struct PlaceOrder: Comparable {
        let file: String
        let line: Int

        init(file: String, line: Int) {
            self.file = file
            self.line = line
        }

        init(_ place: String) {
            let colon = place.lastIndex(of: ":")
            file = colon.map { String(place[..<$0]) } ?? place
            line = colon.flatMap { Int(place[place.index(after: $0)...]) } ?? 0
        }

        static func < (left: PlaceOrder, right: PlaceOrder) -> Bool { (left.file, left.line) < (right.file, right.line) }
    }

    /// Writes the file; 0 written, 2 when a file is there (without `force`), cannot be written, or
    /// the repository holds no Swift package or Xcode project to run tests from. `currentDirectory`
    /// is where `init` was run: from a subfolder, the line says where the file went.
    package static func run(root: String, currentDirectory: String? = nil, force: Bool, console: Console) -> ExitStatus {
        let diagnostics = Diagnostics(console: console)
        let path = FilePath.join(root, ConfigurationResolver.defaultFileName)
        if !force && (FileManager.default.fileExists(atPath: path) || RepositoryPath.isSymbolicLink(path)) {
            diagnostics.error("\(ConfigurationResolver.defaultFileName) already exists; prepush init writes over it only with --force")
            return .usage
        }
        var findings = find(in: root)
        guard findings.hasSwiftProject else {
            diagnostics.error("no Swift package, Xcode project or workspace, XcodeGen or Tuist spec found in \(root) (build and dependency folders are not looked in); nothing to configure")
            return .usage
        }
        // A clone of a pull request may commit `.prepush.yml` or `.prepush` as links: written through the confined layer.
        let checkout = ReportFiles.checkout(around: root)?.checkout
        do {
            try Checkout.write(render(findings), to: path, in: checkout, replacingTracked: true)
            // Today's accessibility findings go into a baseline, so that the first `a11y --all`
            // passes and each push is judged on what it changes.
            findings.baseline = adoptBaseline(root: root, checkout: checkout, diagnostics: diagnostics)
            if findings.baseline != nil { try Checkout.write(render(findings), to: path, in: checkout, replacingTracked: true) }
        } catch {
            diagnostics.error("cannot write \(path): \(error)")
            return .usage
        }
        let fromElsewhere = currentDirectory.map { FilePath.normalize($0) != FilePath.normalize(root) } ?? false
        console.line("prepush: wrote \(fromElsewhere ? path : ConfigurationResolver.defaultFileName) (\(summary(findings)))")
        for problem in findings.survey.problems.prefix(5) { diagnostics.warning(problem) }
        if let note = findings.graphNote { diagnostics.warning(note) }
        let managers = hookManagerEntries(root: root)
        console.line("prepush: check it with `prepush config`, try it with `prepush run`" + (managers.isEmpty ? ", then `prepush install`" : ""))
        for line in managers { console.line(line) }
        return .success
    }

    /// `init` in the repository git finds from here (`GIT_DIR`, or the current folder's).
    package static func runHere(force: Bool, console: Console) -> ExitStatus {
        GitLibrary.initialize()
        let root: String
        do {
            root = try CommandContext.now.openRepository().requireWorkingDirectory()
        } catch {
            Diagnostics(console: console).error(describing: error)
            return .usage
        }
        return run(root: root, currentDirectory: CommandContext.now.here, force: force, console: console)
    }

    static func find(in root: String) -> Findings {
        let generators = TeamCommands.generatorInvocations(root: root)
        var findings = Findings(survey: XcodeProjectSurvey(root: root, generators: generators), destination: TeamCommands.destination(root: root),
                                teamCommands: TeamCommands.testCommands(root: root), xcodebuildTests: TeamCommands.xcodebuildTests(root: root),
                                generators: generators, snapshotSchemes: TeamCommands.snapshotSchemes(root: root))
        findings.validationFlags = TeamCommands.validationFlags(root: root)
        findings.fastlaneTests = TeamCommands.fastlaneTestSchemes(root: root)
        findings.scriptSchemes = TeamCommands.schemesPassedToScripts(root: root)
        let survey = findings.survey
        findings.setupCopies = TeamCommands.setupCopies(root: root, ignored: survey.ignoresFile)
        if survey.carthageNotCommitted { findings.carthageBootstrap = TeamCommands.carthageBootstrap(root: root) }
        findings.serverStarts = TeamCommands.serverStarts(root: root)
        findings.missingSubmodules = TeamCommands.missingSubmodules(root: root)
        findings.exampleFiles = survey.exampleFiles.filter { file in
            !findings.setupCopies.contains { $0.to == file.file || $0.from == file.example }
        }
        findings.swiftTestFolders = TeamCommands.swiftTestFolders(findings.survey.testPackages.filter { !$0.isEmpty }, root: root)
        // A plan the team's command names for a scheme (`-testPlan "UI Tests"`) is one of the scheme's runs.
        for command in findings.xcodebuildTests {
            guard let plan = Findings.plan(named: command) else { continue }
            for scheme in command.schemes { findings.survey.addPlans([plan], toScheme: scheme) }
        }
        let graph = withTuistGraph(findings.survey, root: root, environment: CommandContext.now.environment)
        findings.survey = graph.survey
        findings.graphNote = graph.note
        // A destination written in a command whose scheme is no longer here (a workflow left from
        // before the project changed) names a simulator of that time: not one to copy.
        if let place = findings.destination?.place, let command = findings.xcodebuildTests.first(where: { $0.place == place }),
           !command.schemes.contains(where: { scheme in findings.survey.schemes.contains { $0.name == scheme } }) {
            findings.destination = nil
        }
        let manager = FileManager.default
        let catalog = TraceabilityStep.defaultCatalog
        if manager.fileExists(atPath: FilePath.join(root, catalog)) { findings.catalog = catalog }
        let index = RepositoryIndex(root: root)
        let controls = AccessibilitySettings().controls
        let limit = AccessibilityConfiguration.defaultMaxFileSize
        findings.practice = IdentifierPolicy.measure(files: index.files(maxFileSize: limit, controls: controls), controls: controls,
                                                     isView: { !AccessibilityStep.isExcludedByDefault($0) }) {
            index.constants(isExcluded: AccessibilityStep.isExcludedByDefault, maxFileSize: limit, controls: controls)
        }
        return findings
    }

    /// The YAML text, every choice commented. Values from the repository are written through
    /// `YAMLText.scalar`; and every line, comments naming its schemes, folders and commands
    /// included, goes through `YAMLText.line`, so no name with a line break in it can start a line
    /// (a key, a stage) of its own.
    static func render(_ findings: Findings) -> String {
        var lines = [
            "# prepush: the checks every push runs (docs/configuration.md lists every key).",
            "# Flags beat environment variables, which beat this file. Skip once: git push --no-verify, or PREPUSH_SKIP=1.",
            "",
        ] + stageLines(findings)
        lines += [
            "",
            "accessibility:",
            "  # Every changed Swift file that is SwiftUI code is checked; list globs here to choose instead.",
            "  # include: [\"App/Views/**\"]",
            "  rules:",
            "    fixed-font-size: warning",
        ] + identifierLines(findings) + baselineLines(findings)
        if let catalog = findings.catalog {
            lines += ["", "traceability:", "  catalog: \(YAMLText.scalar(catalog))", "  gate: [P1]                   # priorities whose failing or test-less scenarios refuse a push"]
        } else {
            lines += ["", "# traceability:                 # scenarios × tests × results (docs/traceability.md)", "#   catalog: .prepush/scenarios.yml"]
        }
        return lines.map(YAMLText.line).joined(separator: "\n") + "\n"
    }

    /// Where today's findings are kept.
    static let baselinePath = ".prepush/a11y-baseline.json"

    /// The `baseline:` key when init recorded today's findings, else how to record them later.
    static func baselineLines(_ findings: Findings) -> [String] {
        guard let baseline = findings.baseline else {
            return ["  # Findings to adopt later: prepush a11y --all --write-baseline \(baselinePath), then:",
                    "  # baseline: \(baselinePath)"]
        }
        let recorded = baseline.written ? "The \(TextFormatting.count(baseline.count, "finding")) the views had when prepush init ran are recorded here"
                                        : "\(baseline.path) was here already"
        return ["  # \(recorded): only findings not in it are reported.",
                "  # After fixing some, write it again: prepush a11y --all --write-baseline \(baseline.path)",
                "  baseline: \(YAMLText.scalar(baseline.path))"]
    }

    /// Records today's findings as the baseline (kept as it is when the file exists: it is the
    /// team's); nil when the views have none.
    static func adoptBaseline(root: String, checkout: Checkout?, diagnostics: Diagnostics) -> (path: String, count: Int, written: Bool)? {
        let findings: [AccessibilityFinding]
        do throws(PipelineError) {
            findings = try AccessibilityRun.findingsOfToday(root: root)
        } catch {
            diagnostics.warning("no accessibility baseline written: \(ErrorText.describe(error))")
            return nil
        }
        let absolute = FilePath.join(root, baselinePath)
        if FileManager.default.fileExists(atPath: absolute) { return (baselinePath, findings.count, false) }
        guard !findings.isEmpty else { return nil }
        do {
            try Checkout.write(AccessibilityBaseline(findings).rendered(), to: absolute, in: checkout, replacingTracked: true)
        } catch {
            diagnostics.warning("no accessibility baseline written: cannot write \(baselinePath): \(error)")
            return nil
        }
        return (baselinePath, findings.count, true)
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
        case .tooFew(let count):
            lines.append("  # The \(TextFormatting.count(count, "identifier")) here \(count == 1 ? "is" : "are") too few to show a convention; identifier-convention stays quiet until identifierPattern names one.")
        }
        return lines
    }
}
