#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushXcodeProject

/// The stages `prepush init` writes, from evidence: a unit stage for the root package's test
/// targets or the scheme whose TestAction runs unit-test bundles, a UI stage only for a scheme
/// that runs a UI-testing bundle, a stage per nested package with tests; what is missing stays a
/// comment that says why.
extension InitRun {
    /// A destination for a commented example.
    static let guessedDestination = "platform=iOS Simulator,name=iPhone 16"

    /// The `stages:` section.
    static func stageLines(_ findings: Findings) -> [String] {
        let survey = findings.survey
        let nested = survey.testPackages.filter { !$0.isEmpty }
        // The generator specs, as the comments name them (the first three).
        let specs = survey.generatorSpecs.prefix(3).joined(separator: ", ")
        let unit = findings.unitScheme
        let ui = findings.uiScheme
        var stages: [String] = []
        if let unit {
            stages += schemeStage("unit", unit, bundles: unit.unitBundles, mixed: !unit.uiBundles.isEmpty, findings: findings, timeout: "900               # seconds")
            if findings.rootPackageTests, !findings.rootPackageStage {
                stages.insert("    # It runs the test targets of the root's Package.swift too (the project uses the package): no swift test stage of its own.", at: 2)
            }
        }
        if findings.rootPackageStage, survey.iOSOnlyPackages[""] != nil {
            stages += packageStage("", name: unit == nil ? "unit" : "package", findings: findings)
        } else if findings.rootPackageStage {
            stages += [
                "  \(unit == nil ? "unit" : "package"):",
                "    # Package.swift declares test targets. The Swift Testing event stream gives prepush every test's result.",
                "    # No --event-stream-version: the toolchain's newest, whose stream and console keep warnings (version 0 drops them).",
                "    run: swift test --event-stream-output-path .build/prepush-events.jsonl",
                "    timeout: 900               # seconds",
            ]
        } else if let unrun = findings.unrunUnitScheme {
            let commands = findings.teamCommands.filter { $0.text.contains("swift test") }.prefix(2).map(\.place).joined(separator: ", ")
            let stage = schemeStage("unit", unrun, bundles: unrun.unitBundles, mixed: !unrun.uiBundles.isEmpty, findings: findings, timeout: "900")
            stages += ["  # Scheme \(unrun.name) tests unit bundles \(unrun.unitBundles.joined(separator: ", ")), which the team's CI never runs (its tests are swift test: \(commands)): no stage; to run them on each push:"]
                + commentedOut(stage)
        } else if unit == nil {
            let schemes = survey.generatorSpecs.isEmpty ? "no shared scheme" : "no shared scheme, nor one the specs (\(specs)) declare,"
            let why = survey.packagesWithoutTests.contains("") ? "Package.swift declares no test target and \(schemes) tests a unit-test bundle"
                                                                : "\(schemes) tests a unit-test bundle"
            // An example of the command: the team's Makefile target when it has one.
            let example = FileSystem.stamp(of: FilePath.join(survey.root, "Makefile")) != nil ? "make test" : "xcodebuild test -scheme App -destination 'platform=iOS Simulator,name=iPhone 16'"
            stages += ["  # unit:                       # \(why): name the command that runs your unit tests",
                       "  #   run: \(example)", "  #   timeout: 900"]
        }
        if let ui {
            let bundles = findings.stageUIBundles
            stages += schemeStage("ui", ui, bundles: bundles, mixed: !ui.unitBundles.isEmpty || bundles.count < ui.uiBundles.count, findings: findings,
                                  timeout: "600               # seconds, at most 600 (UI_TEST_TIMEOUT, --timeout)")
        } else {
            let why = survey.containers.isEmpty && survey.generatorSpecs.isEmpty ? "no Xcode project here"
                : (survey.schemes.isEmpty ? (survey.generatorSpecs.isEmpty ? "no shared scheme found (Xcode: Manage Schemes → Shared)"
                                                                            : "no scheme init could read in the specs (\(specs))")
                   : survey.schemes.contains { !$0.uiBundles.isEmpty } ? "no UI scheme the team runs: see below" : "no shared scheme tests a UI-testing bundle")
            stages += ["  # ui:                         # \(why)",
                       "  #   run: xcodebuild test -scheme AppUITests -destination '\(findings.destination?.value ?? guessedDestination)'",
                       "  #   timeout: 600"]
        }
        for scheme in findings.otherTeamSchemes { stages += otherTeamSchemeLines(scheme, findings: findings) }
        stages += otherUITestLines(findings)
        for folder in nested { stages += nestedPackageLines(folder, name: packageStageName(folder, among: nested), findings: findings) }
        // Whether a stage is written (a key at two spaces), not only comments: comments about a
        // stage's set-up go above stages, and `stages:` itself is a comment when there are none.
        let runs = stages.contains { $0.hasPrefix("  ") && !$0.hasPrefix("   ") && !$0.hasPrefix("  #") }
        let team = findings.otherTeamCommands.prefix(5)
        if !team.isEmpty {
            // What the team already runs: a stage can run one of these instead (prepush reads its console output then).
            stages.insert(contentsOf: ["  # The team's own files run these for tests; a stage's run can be one of them instead:"]
                          + team.map { command in
                              // A workflow expression without a literal value is no command to paste: said, not offered.
                              command.needs.isEmpty ? "  #   \(command.text)    (\(command.place))"
                                  : "  #   not runnable as written, it needs a value for \(command.needs.map { "${{ \($0) }}" }.joined(separator: ", ")): \(command.text)    (\(command.place))"
                          }, at: 0)
        }
        if let server = findings.serverStarts.first, runs {
            let what = server.command == "services:" ? "starts service containers for its tests"
                : server.command.lowercased().contains("emulator") ? "starts Firebase's local emulators for its tests (\(server.command))"
                : "starts a server before its tests (\(server.command))"
            stages.insert("  # The team's CI \(what) at \(server.place): tests that need it fail on a push unless it runs here too; leave them to CI with -skip-testing if so.", at: 0)
        }
        if !findings.missingSubmodules.isEmpty, runs {
            let paths = findings.missingSubmodules.map(\.path)
            let words = paths.map(ShellQuoting.word).joined(separator: " ")
            stages.insert("  # \(findings.missingSubmodules[0].usedBy) builds from the submodule\(paths.count == 1 ? "" : "s") \(paths.joined(separator: ", ")), not checked out here: run `git submodule update --init \(words)` once, or these stages fail.", at: 0)
        }
        for (file, example) in findings.exampleFiles.prefix(3) where stages.contains(where: { $0.contains("xcodebuild test") && !$0.hasPrefix("  #") }) {
            stages.insert("  # \(file) is not committed (the .gitignore names it) but \(example) is: if the build needs it, make it from \(example) (filled in) before these stages run.", at: 0)
        }
        // A committed project that a spec generates: the stages run it as committed. (Stages read from
        // a spec generate the project themselves, and say so.)
        if !survey.generatorSpecs.isEmpty, unit?.generatedFrom == nil, ui?.generatedFrom == nil {
            stages.insert("  # The project is generated (\(specs)): generate it first in each xcodebuild stage's run.", at: 0)
        }
        // An empty `stages:` is an error (a mapping is expected): with nothing to run, it is a comment too.
        // (A nested package another stage tests is a comment, not a stage.)
        return [runs ? "stages:" : "# stages:"] + stages
    }

    /// A nested package's stage; when the team's CI runs tests but none of its commands runs this
    /// package's, the same stage as a comment that says so (the team chose not to run them; a stage
    /// would add their time, or their failures, to every push).
    static func nestedPackageLines(_ folder: String, name: String, findings: Findings) -> [String] {
        let stage = packageStage(folder, name: name, findings: findings)
        guard stage.first?.hasPrefix("  #") == false else { return stage }
        let manifest = FilePath.join(folder, "Package.swift")
        let keys = commentedOut(stage)
        // Snapshot tests pass only on the simulator their images were recorded on, which init
        // cannot know: a stage on another would fail every push.
        if let file = findings.survey.snapshotPackages[folder] {
            let team = findings.survey.packageSchemes[folder].flatMap { findings.teamCommand(for: $0) }
            let theirs = team.flatMap { command in command.destination.map { " (the team's CI runs them on '\($0)', \(command.place))" } } ?? ""
            return ["  # \(manifest) declares test targets that compare snapshots (\(file) imports a snapshot library), which pass only on the simulator their images were recorded on\(theirs): no stage; to run them on each push, with that simulator as the destination:"] + keys
        }
        guard findings.teamRunsTests, !findings.teamTestsPackage(folder) else { return stage }
        return ["  # \(manifest) declares test targets, which no command init read in the team's CI runs: no stage; to run them on each push:"] + keys
    }

    /// A nested package's stage, tested once and by what can build it: none when a stage's scheme
    /// runs its tests already (said in a comment); `xcodebuild test` of the scheme Xcode makes for
    /// it on an iPhone simulator when it builds for iOS only; else `swift test` in its folder.
    static func packageStage(_ folder: String, name: String, findings: Findings) -> [String] {
        let survey = findings.survey
        let manifest = FilePath.join(folder, "Package.swift")
        let directory = folder.isEmpty ? [] : ["    workingDirectory: \(YAMLText.scalar(folder))"]
        if let scheme = [findings.unitScheme, findings.uiScheme].compactMap({ $0 }).first(where: { findings.packages(of: $0).contains(folder) }) {
            let plan = findings.plan(of: scheme).map { "the test plan \($0) the team's command names" } ?? scheme.testPlan.map { "its test plan \($0)" } ?? "its testables"
            return ["  # \(manifest) declares test targets, which scheme \(scheme.name) runs (\(plan)): no stage of its own, so each test runs once."]
        }
        guard let why = survey.iOSOnlyPackages[folder] else {
            return ["  \(name):", "    # \(manifest) declares test targets.", "    run: swift test"] + directory + ["    timeout: 900"]
        }
        guard let scheme = survey.packageSchemes[folder] else {
            return ["  # \(manifest) declares test targets but does not build for the Mac (\(why)), and names no product for a scheme: no stage; swift test cannot build it there."]
        }
        let known = findings.destination
        let destination = known.map { ShellQuoting.word($0.value) } ?? "\"$destination\""
        let resolve = known == nil ? "destination=$(\"${PREPUSH_BIN:-prepush}\" destination) && " : ""
        let bundle = ".build/prepush-\(name).xcresult"
        let command = "\(resolve)rm -rf \(bundle) && xcodebuild test -scheme \(ShellQuoting.word(scheme)) -destination \(destination) -resultBundlePath \(bundle)"
        return ["  \(name):",
                "    # \(manifest) declares test targets and does not build for the Mac (\(why)): swift test there cannot build it,",
                "    # so xcodebuild tests the scheme Xcode makes for the package (\(scheme)) on an iPhone simulator.",
                "    run: " + YAMLText.scalar(command)] + directory + ["    timeout: 900"]
    }

    /// A scheme the team's CI tests besides the stages' schemes: a stage of its own when a literal
    /// `xcodebuild test` of the team's CI files or a fastlane lane's `run_tests` runs it and its
    /// bundles are unit tests that do not
    /// compare snapshots (NetNewsWire's iOS job beside its macOS one), with that command's flags and
    /// destination; otherwise the same stage in a comment that says why (UI tests the team runs
    /// apart, a scheme its own tool or script runs with a set-up init does not do, snapshot images
    /// recorded on one simulator).
    static func otherTeamSchemeLines(_ scheme: XcodeProjectSurvey.SchemeTests, findings: Findings) -> [String] {
        // Only the bundles no stage runs already (OpenFoodFacts' app scheme also runs the unit
        // stage's OpenFoodFactsTests).
        let covered = findings.stageBundles
        let unitBundles = scheme.unitBundles.filter { !covered.contains($0) }, uiBundles = scheme.uiBundles.filter { !covered.contains($0) }
        let unit = !unitBundles.isEmpty
        let stage = schemeStage(stageName(unit ? "unit-" : "ui-", scheme.name), scheme, bundles: unit ? unitBundles : uiBundles,
                                mixed: unit ? unitBundles.count < scheme.unitBundles.count || !scheme.uiBundles.isEmpty
                                            : uiBundles.count < scheme.uiBundles.count || !scheme.unitBundles.isEmpty, findings: findings,
                                timeout: unit ? "900               # seconds" : "600               # seconds, at most 600 (UI_TEST_TIMEOUT, --timeout)")
        let snapshots = scheme.snapshotBundles
        // fastlane's `run_tests(scheme:)` is xcodebuild's test of the scheme; a Swift tool or a script
        // may set up what init cannot see (a simulator, an account).
        let direct = findings.teamCommand(for: scheme.name) != nil || findings.fastlaneTests.contains { $0.scheme == scheme.name }
        if unit, snapshots.isEmpty, direct { return stage }
        let bundles = [(unitBundles, "unit"), (uiBundles, "UI")].filter { !$0.0.isEmpty }
            .map { "\($1) bundles \($0.joined(separator: ", "))" }.joined(separator: " and ")
        let why = !snapshots.isEmpty ? "\(snapshots.joined(separator: ", ")) \(snapshots.count == 1 ? "compares" : "compare") snapshots, recorded on the simulator the team's CI sets up: give that destination, on another the images differ"
            : unit ? unrunWhy(scheme.name, findings)
            : "init makes one UI stage, and this one would add its run to every push"
        return ["  # Scheme \(scheme.name) tests \(bundles), which the team's CI runs \(findings.howTeamRuns(scheme.name)): no stage (\(why)); to run it on each push too:"]
            + commentedOut(stage)
    }

    /// A stage's keys as comments to paste (its own comments left out).
    static func commentedOut(_ stage: [String]) -> [String] {
        stage.filter { !$0.hasPrefix("    #") }.map { "  # " + $0.dropFirst(2) }
    }

    /// Why a unit scheme the team's CI tests another way than a literal `xcodebuild test` gets no
    /// stage: what runs it there may set up more than the files show.
    static func unrunWhy(_ scheme: String, _ findings: Findings) -> String {
        if let passed = findings.scriptSchemes.first(where: { $0.scheme == scheme }) {
            return "\(passed.tool == nil ? "its script" : "its Swift tool") may prepare what init cannot see, such as a simulator or an account"
        }
        if findings.generators.contains(where: { $0.scheme == scheme }) {
            return "`tuist test` may prepare more than the generation the stage below does, such as the team's Tuist plugins and caches"
        }
        return "the team's CI runs it through its own script or tool, whose set-up init does not do"
    }

    /// The UI-testing bundles no stage runs, and why: built for another platform than the iPhone
    /// simulator a stage runs on, or taking screenshots the team's CI never takes.
    static func otherUITestLines(_ findings: Findings) -> [String] {
        var lines: [String] = []
        // Schemes that test the same such bundles (a watch app's several) are said once.
        var groups: [(bundles: [String], schemes: [String])] = []
        for scheme in findings.survey.schemes where !scheme.otherPlatformBundles.isEmpty {
            if let index = groups.firstIndex(where: { $0.bundles == scheme.otherPlatformBundles }) { groups[index].schemes.append(scheme.name) }
            else { groups.append((scheme.otherPlatformBundles, [scheme.name])) }
        }
        for (bundles, schemes) in groups {
            let named = schemes.count == 1 ? "Scheme \(schemes[0]) tests" : "Schemes \(schemes.joined(separator: ", ")) test"
            let team = schemes.first(where: findings.teamRuns).map { " (the team's CI runs \($0) \(findings.howTeamRuns($0)), on a destination of that platform)" } ?? ""
            lines.append("  # \(named) bundles for another platform, \(bundles.joined(separator: ", ")): an iPhone simulator cannot run them, so no stage does\(team).")
        }
        for scheme in findings.survey.schemes where !scheme.staleBundles.isEmpty && scheme.unitBundles.isEmpty && scheme.uiBundles.isEmpty {
            lines.append("  # Scheme \(scheme.name) tests \(scheme.staleBundles.joined(separator: ", ")), which its project no longer has (no target of that identifier): no stage.")
        }
        for (scheme, why) in findings.screenshotSchemes {
            // Its bundle may still be a stage's, through another scheme (ooni's `ooniprobe` runs OONIProbeUITests).
            let bundles = findings.survey.schemes.first { $0.name == scheme }?.uiBundles ?? []
            let elsewhere = !bundles.isEmpty && Set(bundles).isSubset(of: findings.stageBundles) ? " of its own (another scheme's stage runs that bundle)" : ""
            if findings.teamRuns(scheme) {
                lines.append("  # Scheme \(scheme) takes screenshots: \(why)\(elsewhere); screenshots are no check of a push.")
                continue
            }
            lines.append("  # Scheme \(scheme) takes screenshots (\(why)) and no command init read in the team's CI runs it: no stage\(elsewhere); `fastlane snapshot` or the scheme itself makes them.")
        }
        for scheme in findings.unrunUISchemes {
            lines.append("  # Scheme \(scheme.name) tests UI bundles \(scheme.uiBundles.joined(separator: ", ")), which no command init read in the team's CI runs (they test \(findings.teamTestedSchemes.joined(separator: ", "))): no stage; to run them on each push:")
            lines.append("  #   run: xcodebuild test \(scheme.container.flag) \(ShellQuoting.word(scheme.container.path)) -scheme \(ShellQuoting.word(scheme.name)) -destination '\(findings.destination?.value ?? guessedDestination)'")
        }
        return lines
    }

    /// `xcodebuild test` of one scheme, only its `bundles` when it also runs the other kind; with the
    /// flags, test plan and destination of the team's own command for that scheme when it has one.
    static func schemeStage(_ name: String, _ scheme: XcodeProjectSurvey.SchemeTests, bundles: [String], mixed: Bool,
                            findings: Findings, timeout: String) -> [String] {
        let team = findings.teamCommand(for: scheme.name, bundles: bundles)
        // The validation switches the team passes anywhere (an archive's `-skipPackagePluginValidation`)
        // unless its test command for the scheme says otherwise: without them xcodebuild stops at an
        // untrusted plugin or macro.
        // A lane read from the Fastfile may pass them through what init cannot read (a helper's `xcargs`);
        // a `test-without-building` runs what a `build-for-testing` line built with them.
        let validation = team == nil || team?.isLane == true || team?.withoutBuilding == true
            ? findings.validationFlags.filter { !(team?.flags ?? []).contains($0.flag) } : []
        let flags = (team?.flags ?? []) + validation.map(\.flag)
        // The team's test plan or its own -only-testing choose the tests; else only this stage's bundles.
        let chosen = flags.contains { $0.hasPrefix("-testPlan") || $0.hasPrefix("-only-testing") }
        // The shorter of naming this stage's bundles and naming the others' (a workspace scheme
        // with twenty unit bundles and one UI bundle skips the one).
        let others = (scheme.unitBundles + scheme.uiBundles).filter { !bundles.contains($0) }
        let only = !mixed || chosen ? ""
            : others.count < bundles.count ? others.map { " -skip-testing:\(ShellQuoting.word($0))" }.joined()
            : bundles.map { " -only-testing:\(ShellQuoting.word($0))" }.joined()
        // The team's destination, else the newest available iPhone found when the stage runs.
        let known = findings.destination(for: scheme.name, bundles: bundles)
        let destination = known.map { ShellQuoting.word($0.value) } ?? "\"$destination\""
        let resolve = known == nil ? "destination=$(\"${PREPUSH_BIN:-prepush}\" destination) && " : ""
        let bundle = ".build/prepush-\(name).xcresult"
        // With the plan the team's command names (`-testPlan MullvadVPNCI`), that plan's bundles.
        let plan = team.flatMap(Findings.plan(named:)).flatMap { plan in scheme.planBundles[plan].map { (plan, $0) } }
        let uiNamed = plan.map { scheme.planUIBundles[$0.0] ?? [] } ?? scheme.uiBundles
        let unitNamed = plan.map { named in named.1.filter { !uiNamed.contains($0) } } ?? scheme.unitBundles
        let which = plan.map { " with its test plan \($0.0)" } ?? ""
        var lines = ["  \(name):",
                     "    # Scheme \(scheme.name) (\(scheme.container.path))\(which) tests \(unitNamed.isEmpty ? "" : "unit bundles \(unitNamed.joined(separator: ", "))")"
                        + (unitNamed.isEmpty || uiNamed.isEmpty ? "" : " and ")
                        + (uiNamed.isEmpty ? "" : "UI bundles \(uiNamed.joined(separator: ", "))") + "."]
        if !scheme.guessed.isEmpty {
            lines.append("    # Guessed from their names (the project file was not readable): \(scheme.guessed.joined(separator: ", ")).")
        }
        if let team { lines += teamCommandLines(team) }
        if team == nil, let passed = findings.scriptSchemes.first(where: { $0.scheme == scheme.name }) {
            // What the script does around the run (secrets, a test account, a simulator) is not taken over.
            lines.append(passed.tool.map { "    # The team's CI runs this scheme through its Swift tool (\($0)): \(passed.command)    (\(passed.place)); what the tool sets up around the run is not done here." }
                         ?? "    # The team's CI runs this scheme through its script: \(passed.command)    (\(passed.place)); what the script sets up around the run is not done here.")
        }
        for (flag, place) in validation {
            lines.append("    # \(flag), as the team's \(place) turns that validation off: xcodebuild stops at a plugin or macro no one trusted on this Mac without it.")
        }
        if !scheme.macOnlyBundles.isEmpty, known.map({ !$0.value.contains("platform=macOS") }) ?? true {
            let names = scheme.macOnlyBundles.joined(separator: ", ")
            lines.append("    # \(names) \(scheme.macOnlyBundles.count == 1 ? "is" : "are") built for macOS only, which an iPhone destination cannot run: give \(scheme.macOnlyBundles.count == 1 ? "it" : "them") a stage with -destination 'platform=macOS' -only-testing:\(scheme.macOnlyBundles[0]).")
        }
        // What the scheme and its plan skip, in this stage's bundles, given to xcodebuild: a stage
        // that picks its bundles with -only-testing, or runs without the plan, would run them otherwise.
        // They are the default plan's: another plan the team's command names (`-testPlan UnitTests`)
        // skips what it skips itself, and may run what the default plan skips.
        let defaultPlan = scheme.testPlan.map(XcodeProjectSurvey.planName)
        let otherPlan = team.flatMap(Findings.plan(named:)).map { $0 != defaultPlan } ?? false
        let skipped = otherPlan ? [] : scheme.skippedTests.filter { name in bundles.contains { name.hasPrefix($0 + "/") } }
        if !skipped.isEmpty {
            lines.append("    # The scheme\(scheme.testPlan.map { " and its test plan \($0) skip" } ?? " skips") \(TextFormatting.count(skipped.count, "class or test", plural: "classes or tests")) (\(skipped.prefix(3).joined(separator: ", "))\(skipped.count > 3 ? ", …" : "")): the run leaves them out with -skip-testing.")
        }
        // Screenshot bundles and classes in a UI stage's scheme the team's CI does not run: they make
        // pictures (often against a demo server), they do not check the app.
        let screenshots = bundles == scheme.uiBundles && !findings.teamRuns(scheme.name)
            ? scheme.screenshotBundles.filter(bundles.contains) + scheme.screenshotClasses : []
        if !screenshots.isEmpty {
            lines.append("    # \(screenshots.joined(separator: ", ")) \(screenshots.count == 1 ? "takes" : "take") screenshots (its tests keep them, or fastlane's SnapshotHelper.swift), which the team's CI does not run: left out with -skip-testing.")
        }
        let skips = (skipped + screenshots).map { " -skip-testing:" + ShellQuoting.word($0) }.joined()
        lines.append(known.map { "    # The destination is the one \($0.place) uses." }
                     ?? "    # The destination is the newest available iPhone simulator, found when the stage runs (`prepush destination`).")
        // A generated project (XcodeGen, Tuist) is generated first: the spec is what the team commits.
        let generation = scheme.generatedFrom.map(findings.generation(for:))
        var generate = generation?.run ?? ""
        // A committed CocoaPods workspace whose Pods the repository ignores: a clone has no Pods, and a
        // pull that changes the Podfile leaves them stale; the team's CI installs them, so the stage does.
        if scheme.generatedFrom == nil, scheme.container.isWorkspace, let pods = findings.survey.podInstall(beside: scheme.container) {
            generate = pods + " && "
            lines.append("    # The Pods are not committed (the .gitignore names Pods): \(pods) first\(pods.hasPrefix("bundle exec") ? " (the Gemfile pins cocoapods)" : "").")
        }
        if let spec = scheme.generatedFrom, let generation {
            let generator = spec.hasSuffix(".swift") ? "tuist" : "xcodegen"
            // The source generators the team's generation runs first (`swiftgen && xcodegen …`) are needed too.
            let tools = TeamCommands.sourceGeneratorTools.sorted().filter { generation.run.split(separator: " ").contains(Substring($0)) } + [generator]
            lines.append("    # The project is generated from \(spec)"
                         + (generation.place.map { ", as the team's \($0) generates it; " } ?? "; ")
                         + "\(tools.joined(separator: " and ")) must be on PATH.")
        }
        // Carthage's frameworks, when not committed: bootstrapped once, as the team's files do it
        // (minutes; again only when Carthage/Build is gone).
        if findings.survey.carthageNotCommitted {
            let carthage = findings.carthageBootstrap
            generate = "test -d Carthage/Build || \(carthage.run) && " + generate
            lines.append("    # Carthage's frameworks are not committed (the .gitignore names Carthage/Build): the stage runs \(carthage.run)\(carthage.place.map { " (as the team's \($0) does)" } ?? "") when Carthage/Build is missing; after Cartfile.resolved changes, delete Carthage/Build.")
        }
        // What the team's CI copies into place before it builds (a mock secrets file), when missing.
        for copy in findings.setupCopies {
            lines.append("    # The team's CI copies \(copy.from) to \(copy.to), which the repository does not commit, before it builds (\(copy.place)): the stage does when it is missing.")
        }
        generate = findings.setupCopies.map { "test -e \(ShellQuoting.word($0.to)) || cp \(ShellQuoting.word($0.from)) \(ShellQuoting.word($0.to)) && " }.joined() + generate
        let extra = flags.map { " " + $0 }.joined()
        // The command holds repository text (paths, scheme and bundle names), shell-quoted; the
        // whole is then one YAML scalar, quoted when it needs to be.
        let command = "\(generate)\(resolve)rm -rf \(bundle) && xcodebuild test \(scheme.container.flag) \(ShellQuoting.word(scheme.container.path)) -scheme \(ShellQuoting.word(scheme.name))\(extra)\(only)\(skips) -destination \(destination) -resultBundlePath \(bundle)"
        lines += ["    run: " + YAMLText.scalar(command), "    timeout: \(timeout)"]
        return lines
    }

    /// The command that generates the project from a spec: `xcodegen generate` for a `project.yml`,
    /// `tuist generate` for a `Project.swift` (in its folder, without opening Xcode).
    static func generateCommand(_ spec: String) -> String {
        // Tuist's manifests are Swift (`Project.swift`, `Workspace.swift`); XcodeGen's specs YAML or JSON.
        guard spec.hasSuffix(".swift") else { return "xcodegen generate --spec \(ShellQuoting.word(spec)) && " }
        let folder = spec.lastIndex(of: "/").map { String(spec[..<$0]) } ?? "."
        return "tuist generate --path \(ShellQuoting.word(folder)) --no-open && "
    }

    /// What a stage took from the team's command for its scheme, and what it left out and why.
    static func teamCommandLines(_ team: TeamCommands.XcodebuildTest) -> [String] {
        if team.isLane, let via = team.via {
            let flags = team.flags.isEmpty ? "" : "; its run_tests gives \(team.flags.joined(separator: " "))"
            return ["    # The team's CI runs this scheme through fastlane: \(via)    (\(team.place))\(flags)."]
        }
        var said = team.flags.isEmpty ? "adds no flag to these" : "gives its flags: \(team.flags.joined(separator: " "))"
        if !team.dropped.isEmpty { said += "; left out, as they name the CI's variables: \(team.dropped.joined(separator: " "))" }
        if team.piped { said += "; its formatter pipe is left out (prepush reads xcodebuild's own output and result bundle)" }
        return ["    # The team's command at \(team.place)\(team.via.map { " (\($0))" } ?? "") \(said)."]
    }

    /// `package-chat` for `Packages/Chat`; the whole path when two folders end alike.
    static func packageStageName(_ folder: String, among folders: [String]) -> String {
        let last = folder.split(separator: "/").last.map(String.init) ?? folder
        let clash = folders.filter { ($0.split(separator: "/").last.map(String.init) ?? $0) == last }.count > 1
        return stageName("package-", clash ? folder : last)
    }

    /// A stage's key: `prefix` and `name` lower-cased, each character but letters and digits a `-`,
    /// at most 64 characters.
    static func stageName(_ prefix: String, _ name: String) -> String {
        String((prefix + String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })).prefix(64))
    }

    /// What init found and what it guessed, for its one line.
    static func summary(_ findings: Findings) -> String {
        let survey = findings.survey
        var parts: [String] = []
        if let unit = findings.unitScheme {
            parts.append("unit: xcodebuild test -scheme \(unit.name) (unit bundles: \(unit.unitBundles.count))")
            if findings.rootPackageStage {
                parts.append(survey.iOSOnlyPackages[""] == nil ? "package: swift test" : "package: xcodebuild test -scheme \(survey.packageSchemes[""] ?? "?")")
            }
        } else if findings.rootPackageTests, survey.iOSOnlyPackages[""] != nil, let scheme = survey.packageSchemes[""] {
            // A root package that cannot build on the Mac is tested through xcodebuild (see `packageStage`).
            parts.append("unit: xcodebuild test -scheme \(scheme) (the package does not build for the Mac)")
        } else if findings.rootPackageTests {
            parts.append("unit: swift test")
        } else if let unrun = findings.unrunUnitScheme {
            parts.append("unit: none (scheme \(unrun.name) is one the team's CI never runs: a comment)")
        } else {
            parts.append("unit: none (no scheme tests a unit-test bundle)")
        }
        if let ui = findings.uiScheme {
            parts.append("ui: xcodebuild test -scheme \(ui.name) (UI bundles: \(ui.uiBundles.count))")
        } else {
            let why = survey.schemes.isEmpty && !survey.containers.isEmpty ? "no shared scheme"
                : survey.schemes.contains { !$0.uiBundles.isEmpty } ? "its UI schemes take screenshots or no command init read in the team's CI runs them"
                : "no scheme tests a UI-testing bundle"
            parts.append("ui: none (\(why))")
        }
        let nested = survey.testPackages.filter { !$0.isEmpty }
        if !nested.isEmpty {
            let snapshots = nested.filter { survey.snapshotPackages[$0] != nil }
            let unrun = findings.teamRunsTests ? nested.filter { !findings.teamTestsPackage($0) && survey.snapshotPackages[$0] == nil }.count : 0
            let comments = [unrun > 0 ? "\(unrun) the team's CI does not run" : nil, snapshots.isEmpty ? nil : "\(snapshots.count) comparing snapshots"].compactMap { $0 }
            parts.append("\(TextFormatting.count(nested.count, "nested package")) with tests" + (comments.isEmpty ? "" : " (\(comments.joined(separator: ", ")): comments)"))
        }
        if survey.schemes.contains(where: { !$0.guessed.isEmpty }) { parts.append("some bundle kinds guessed from names") }
        if findings.unitScheme != nil || findings.uiScheme != nil {
            let scheme = findings.unitScheme ?? findings.uiScheme
            parts.append(scheme.flatMap { findings.destination(for: $0.name) }.map { "destination from \($0.place)" }
                         ?? "destination: the newest iPhone simulator when the stage runs")
        }
        let adopted = findings.adoptedTeamCommands
        if !adopted.isEmpty { parts.append("following the team's xcodebuild commands at \(adopted.map(\.place).joined(separator: ", "))") }
        let others = findings.otherTeamCommands.count
        if others > 0 { parts.append("the team's other test commands named in comments (\(others > 5 ? "the first 5 of \(others)" : "\(others)"))") }
        if let catalog = findings.catalog { parts.append("the scenario catalog \(catalog)") }
        if let baseline = findings.baseline, baseline.written {
            parts.append("\(TextFormatting.count(baseline.count, "accessibility finding")) of today recorded in \(baseline.path)")
        }
        return parts.joined(separator: "; ")
    }

    /// The hook managers a repository already uses, and the entry that runs prepush from each: a
    /// team with lefthook or pre-commit adds prepush there rather than installing a hook beside them.
    static func hookManagerEntries(root: String) -> [String] {
        var lines: [String] = []
        let manager = FileManager.default
        if let lefthook = ["lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml"].first(where: { manager.fileExists(atPath: FilePath.join(root, $0)) }) {
            lines += ["prepush: \(lefthook) is here: run prepush from its pre-push hook (then `lefthook install`) rather than `prepush install`:",
                      "  pre-push:", "    commands:", "      prepush:",
                      "        run: prepush hook pre-push {1} {2}",
                      "        use_stdin: true          # the refs git pushes come on standard input"]
        }
        if manager.fileExists(atPath: FilePath.join(root, ".pre-commit-config.yaml")) {
            lines += ["prepush: .pre-commit-config.yaml is here: run prepush from it (then `pre-commit install --hook-type pre-push`):",
                      "  - repo: local", "    hooks:", "      - id: prepush", "        name: prepush",
                      "        entry: prepush run       # pre-commit gives no refs on standard input: prepush works out the range",
                      "        language: system", "        stages: [pre-push]", "        pass_filenames: false", "        always_run: true"]
        }
        return lines
    }
}
