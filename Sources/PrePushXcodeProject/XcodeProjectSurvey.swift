import PrePushCore
import PrePushYAML
internal import SwiftSyntax

/// What a repository holds that runs tests, read the way Xcode reads it: every workspace and project
/// below the root (not in build or dependency folders), each shared scheme's TestAction with the
/// product type of every bundle it tests (from the project file, or the scheme's test plan), Swift
/// packages that declare test targets, and the generator specs (XcodeGen's `project.yml`, Tuist's
/// `Project.swift`) that make projects on CI.
package struct XcodeProjectSurvey: Sendable {
    /// A `.xcworkspace` or `.xcodeproj`, relative to the root.
    package struct Container: Sendable, Equatable, Hashable {
        package let path: String
        package let isWorkspace: Bool

        /// Creates one.
        package init(path: String, isWorkspace: Bool) {
            self.path = path
            self.isWorkspace = isWorkspace
        }

        /// `-workspace` or `-project`.
        package var flag: String { isWorkspace ? "-workspace" : "-project" }
        /// The folder holding it (`""` for the root): where its references start.
        package var folder: String { path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "" }
    }

    /// A shared scheme and what its TestAction tests.
    package struct SchemeTests: Sendable, Equatable {
        package let name: String
        /// Where the scheme is shared (the workspace to build it with when the scheme is a project's
        /// and a workspace beside the project includes it).
        package let container: Container
        package let hasTestAction: Bool
        /// The unit-test bundles it runs, by name.
        package var unitBundles: [String] = []
        /// The UI-test bundles it runs, by name.
        package var uiBundles: [String] = []
        /// Bundles whose product type could not be read (a project file missing or unreadable): told
        /// apart by name only (`…UITests` are UI tests), and said to be guessed.
        package var guessed: [String] = []
        /// Test targets it names that its project no longer has (nos' `NosUITests` scheme, whose
        /// target was deleted): nothing to run, left out.
        package var staleBundles: [String] = []
        /// Its default test plan, relative to the root.
        package var testPlan: String?
        /// What the scheme and its plan skip in the bundles they run, as xcodebuild's `-skip-testing:`
        /// names them: `Bundle/Class` or `Bundle/Class/test`.
        package var skippedTests: [String] = []
        /// Its bundles built for macOS only, which an iPhone destination cannot run (read from a Tuist manifest).
        package var macOnlyBundles: [String] = []
        /// The XcodeGen spec the scheme comes from, when its project is generated rather than committed.
        package var generatedFrom: String?
        /// The folders (relative, `""` for the root) of the local Swift packages whose test targets it runs.
        package var packages: [String] = []
        /// The package folders each of its test plans runs, by plan name (`NetNewsWire-CI`): a
        /// command that names a plan (`-testPlan NetNewsWire-CI`) runs those.
        package var planPackages: [String: [String]] = [:]
        /// The bundles each of its test plans runs, by plan name (`UnitTests`: `ENATests`,
        /// `HealthCertificateToolkitTests`): a stage that names a plan runs those.
        package var planBundles: [String: [String]] = [:]
        /// The UI-test bundles of each of its plans but the default, by plan name.
        package var planUIBundles: [String: [String]] = [:]
        /// Its test bundles built for another platform than iOS, with the SDKs they name
        /// (`WatchUITests (watchos)`): kept out of `unitBundles` and `uiBundles`, as an iPhone
        /// simulator cannot run them.
        package var otherPlatformBundles: [String] = []
        /// Its UI bundles that take screenshots and nothing else: fastlane's `SnapshotHelper.swift`
        /// is among their sources, or every test class the scheme runs in them takes screenshots.
        package var screenshotBundles: [String] = []
        /// The classes that take screenshots in its other UI bundles (`Bundle/Class`), which a UI stage skips.
        package var screenshotClasses: [String] = []
        /// Its screenshot bundles that also hold classes every test plan of the bundle skips: the
        /// scheme has no plan and would run them, though the team never does (`noteClassesNoPlanRuns`).
        package var screenshotBundlesBesidesSkipped: [String] = []
        /// Its unit bundles whose sources import a snapshot-testing library (`SnapshotTesting`,
        /// `iOSSnapshotTestCase`): they compare against images recorded on one simulator.
        package var snapshotBundles: [String] = []
    }

    package private(set) var containers: [Container] = []
    /// The committed workspace that lists a project (`apps/ios/iOS.xcodeproj` → `ProtonVPN.xcworkspace`), the first found.
    private var workspaceOfProject: [String: String] = [:]
    package internal(set) var schemes: [SchemeTests] = []
    /// Folders (relative, `""` for the root) whose `Package.swift` declares a `.testTarget`.
    package private(set) var testPackages: [String] = []
    /// Folders whose `Package.swift` declares none (command-line tools, a library without tests).
    package private(set) var packagesWithoutTests: [String] = []
    /// Test packages (by folder) that build for iOS only, with why (their `platforms:`, a source
    /// that imports UIKit unguarded): `swift test` on the Mac cannot build them.
    package private(set) var iOSOnlyPackages: [String: String] = [:]
    /// Nested packages whose tests compare snapshots, by folder, with the first test file that
    /// imports a snapshot library: their images are those of the simulator they were recorded on.
    package private(set) var snapshotPackages: [String: String] = [:]
    /// The scheme Xcode makes for each test package (by folder), to test it with xcodebuild.
    package private(set) var packageSchemes: [String: String] = [:]
    /// XcodeGen specs whose generated project CocoaPods completes (a Podfile beside it), with the
    /// command that installs the pods after generation (`bundle exec pod install`).
    package private(set) var cocoaPodsSpecs: [String: String] = [:]
    /// XcodeGen and Tuist specs, relative to the root.
    package private(set) var generatorSpecs: [String] = []
    /// The folders (their last component) holding fastlane's `SnapshotHelper.swift`: a UI bundle
    /// named so takes screenshots.
    package private(set) var snapshotHelperFolders: Set<String> = []
    /// The UI bundles whose sources build phase compiles fastlane's `SnapshotHelper.swift`.
    package internal(set) var snapshotHelperBundles: Set<String> = []
    /// UI bundles with fastlane's helper whose test classes are not all screenshot ones (Mullvad's
    /// `MullvadVPNUITests`: its end-to-end tests beside `ScreenshotTests`): whether a scheme takes
    /// screenshots with one is decided by the classes it runs, not by the helper.
    package internal(set) var mixedScreenshotBundles: Set<String> = []

    /// Whether a UI bundle holds test classes that take no screenshots beside ones that do.
    package func holdsOtherTestsThanScreenshots(_ bundle: String) -> Bool {
        guard let reading = bundleReadings[bundle] else { return false }
        return !reading.screenshotClasses.isEmpty && !reading.testClasses.isSubset(of: reading.screenshotClasses)
    }
    /// Files that could not be read, with why.
    package private(set) var problems: [String] = []

    /// Folders never looked into: dependencies and build output.
    static let skipped: Set<Substring> = ["Pods", "Carthage", "DerivedData", "SourcePackages", "checkouts", "node_modules", "vendor"]

    /// The sources of the team's `Tuist/ProjectDescriptionHelpers`.
    private var tuistHelpers: [String] = []
    /// Tuist's `Workspace.swift` (relative) and the workspace it names.
    private var tuistWorkspace: (spec: String, name: String)?

    /// The folder surveyed, and the project files read so far (a scheme's bundles name theirs).
    package let root: String
    /// Each project file read, by project; nil for one that could not be read (said once).
    var projectFiles: [String: XcodeProjectFile?] = [:]
    /// What each UI bundle's sources say about screenshots, by `project/target`.
    var screenshotReadings: [String: (reading: ScreenshotTests.Reading, helper: Bool)] = [:]
    /// What each UI bundle's sources declare, by bundle name (for `noteClassesNoPlanRuns`).
    var bundleReadings: [String: ScreenshotTests.Reading] = [:]
    /// The whole classes each test plan skips in each bundle, by plan path then bundle name.
    var planSkippedClasses: [String: [String: Set<String>]] = [:]
    /// Each project's target claims by project path, read once: a project with several UI bundles
    /// was read again for each (9% of `init`'s CPU in element-x).
    private var projectClaims: [String: [ShippedSources.Claim]] = [:]
    /// Whether a unit bundle (by project and target) imports a snapshot-testing library, read once.
    var snapshotImports: [String: Bool] = [:]

    /// XcodeGen specs the team's commands name (`xcodegen --spec project-app.yml`), with the
    /// folder each writes its project to (`--project`; nil: beside the spec).
    private var namedSpecs: [String: String?] = [:]

    /// Surveys `root`; `generators` are the team's XcodeGen and Tuist commands
    /// (`TeamCommands.generatorInvocations`): a spec one names is read whatever its name.
    package init(root: String, generators: [GeneratorInvocation] = []) {
        self.root = root
        for invocation in generators where invocation.tool == .xcodegen {
            let spec = invocation.spec ?? "project.yml"
            if namedSpecs[spec] == nil || invocation.projectFolder != nil { namedSpecs[spec] = .some(invocation.projectFolder) }
        }
        let named = namedSpecs
        let paths = SourceTree.files(under: root) { path in
            guard !path.split(separator: "/").dropLast().contains(where: { Self.skipped.contains($0) }) else { return false }
            return named[path] != nil || path.hasSuffix(".xcscheme") || path.hasSuffix("/project.pbxproj") || path.hasSuffix("contents.xcworkspacedata")
                || path.hasSuffix("Package.swift") || path.hasSuffix("project.yml") || path.hasSuffix("Project.swift")
                || path.hasSuffix("SnapshotHelper.swift") || path.hasSuffix("Workspace.swift")
                || (path.hasSuffix(".swift") && path.contains("ProjectDescriptionHelpers/"))
        }
        // The team's Tuist helpers are read before the manifests that call them.
        for path in paths where path.contains("ProjectDescriptionHelpers/") {
            if let bytes = read(path, limit: 4_000_000) { tuistHelpers.append(String(decoding: bytes, as: UTF8.self)) }
        }
        var specs: [GeneratedProject] = []
        let helperFunctions = tuistHelpers.isEmpty ? [:] : TuistHelperEvaluation.functions(in: tuistHelpers)
        for path in paths where !path.contains("ProjectDescriptionHelpers/") { note(path, specs: &specs, helpers: helperFunctions) }
        if let workspace = tuistWorkspace { specs = Self.joined(specs, into: workspace) }
        containers.sort { ($0.isWorkspace ? 0 : 1, $0.path) < ($1.isWorkspace ? 0 : 1, $1.path) }
        for path in paths where path.hasSuffix(".xcscheme") {
            if let tests = schemeTests(path) { schemes.append(tests) }
        }
        noteClassesNoPlanRuns()
        // A scheme two specs generate (Immuni's `project_debug.yml` includes `project.yml`) is the
        // one of the spec the team's command names.
        for spec in specs.filter({ named[$0.spec] != nil }) + specs.filter({ named[$0.spec] == nil }) { addGeneratedSchemes(spec) }
    }

    /// Counts the UI bundles of the plans the team's commands name for a scheme among those it
    /// runs (the Habitica workflow's `-scheme Habitica -testPlan "UI Tests"`, whose default plan
    /// has unit bundles only): the scheme then has a UI stage, which runs that plan.
    package mutating func addPlans(_ plans: [String], toScheme name: String) {
        guard let index = schemes.firstIndex(where: { $0.name == name }) else { return }
        for plan in plans {
            for bundle in schemes[index].planUIBundles[plan] ?? [] where !schemes[index].uiBundles.contains(bundle) {
                schemes[index].uiBundles.append(bundle)
            }
        }
    }

    /// A test plan's name from its path (`Test Plans/Screenshots.xctestplan` → `Screenshots`), as
    /// `-testPlan` takes it.
    package static func planName(_ path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file.hasSuffix(".xctestplan") ? String(file.dropLast(".xctestplan".count)) : file
    }

    /// The `.xcodeproj` or `.xcworkspace` sharing a scheme at `path`.
    static func schemeOwner(_ path: String) -> String? {
        path.firstRange(of: "/xcshareddata/xcschemes/").map { String(path[..<$0.lowerBound]) }
    }

    /// A file's bytes, or nil with the problem noted: why it could not be read (missing, a folder,
    /// too large, the system's reason), never a bare "cannot be read".
    private mutating func read(_ path: String, limit: Int = 50_000_000) -> [UInt8]? {
        switch FileReading.read(FilePath.join(root, path), limit: limit) {
        case .success(let bytes):
            return bytes
        case .failure(let failure):
            problems.append("\(path): \(failure.description)")
            return nil
        }
    }

    /// The project file of the project at `path`, read once (a failure is said once, not per bundle).
    private mutating func project(_ path: String) -> XcodeProjectFile? {
        if let known = projectFiles[path] { return known }
        projectFiles[path] = .some(nil)
        guard let bytes = read(path + "/project.pbxproj") else { return nil }
        do throws(XcodeProjectFile.ReadError) {
            let file = try XcodeProjectFile(bytes: bytes, file: path + "/project.pbxproj")
            projectFiles[path] = file
            return file
        } catch {
            problems.append(error.description)
            return nil
        }
    }

    /// What holds a bundle a scheme or plan names, from its container reference resolved against
    /// `folder` (the folder of the project or workspace that shares the scheme): a project, whose
    /// file says the bundle's kind, or a local Swift package (`container:..`, `container:Packages/Kit`),
    /// whose test targets are unit tests.
    private mutating func bundleKind(_ bundle: (identifier: String, name: String, container: String), from folder: String)
        -> (kind: TestBundleKind?, package: String?, platforms: Set<String>) {
        let path = FilePath.normalize(FilePath.join(folder, bundle.container))
        let relative = path == "." ? "" : path
        if relative.hasSuffix(".xcodeproj") {
            let target = project(relative)?.targets[bundle.identifier]
            return (target?.testKind, nil, target.map { $0.runsOnIOS ? [] : $0.platforms } ?? [])
        }
        if testPackages.contains(relative) || packagesWithoutTests.contains(relative) { return (.unit, relative, []) }
        problems.append("\(FilePath.join(relative, "Package.swift")): does not exist; \(bundle.name) is tested from \(relative.isEmpty ? "the root" : relative), which holds neither a project nor a package")
        return (nil, nil, [])
    }

    /// Why a package builds for iOS only, or nil: its `platforms:` name iOS and not macOS, or a source in
    /// its `Sources` imports UIKit outside `#if canImport(UIKit)` (the first such file is named).
    private mutating func iOSOnly(_ manifest: PackageManifest, folder: String) -> String? {
        if manifest.iOSOnlyByPlatforms { return "its platforms: name iOS only" }
        if manifest.leavesOutTheMac, manifest.platforms.contains("ios") { return "its platforms: name \(manifest.platforms.joined(separator: ", ")) but not macOS" }
        let sources = FilePath.join(folder, "Sources")
        for file in SourceTree.files(under: FilePath.join(root, sources), where: { $0.hasSuffix(".swift") }).prefix(3000) {
            let path = FilePath.join(sources, file)
            guard case .success(let bytes) = FileReading.read(FilePath.join(root, path), limit: 2_000_000),
                  ByteSearch.contains(bytes, Array("import UIKit".utf8)),
                  let line = PackageManifest.unguardedUIKitImport(in: String(decoding: bytes, as: UTF8.self)) else { continue }
            return "\(path):\(line) imports UIKit outside #if canImport(UIKit)"
        }
        return nil
    }

    /// What one found file says: a package with or without tests, a generator spec, a container.
    private mutating func note(_ path: String, specs: inout [GeneratedProject], helpers: [String: FunctionDeclSyntax]) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        switch name {
        case "Package.swift":
            guard let bytes = read(path, limit: 4_000_000) else { return }
            guard ByteSearch.contains(bytes, Array(".testTarget(".utf8)) else { packagesWithoutTests.append(folder); return }
            testPackages.append(folder)
            let manifest = PackageManifest(text: String(decoding: bytes, as: UTF8.self))
            packageSchemes[folder] = manifest.scheme
            if let why = iOSOnly(manifest, folder: folder) { iOSOnlyPackages[folder] = why }
            if let file = snapshotTestFile(folder: folder) { snapshotPackages[folder] = file }
        case _ where namedSpecs[path] != nil || name == "project.yml":
            // XcodeGen's spec names `targets:`; other project.yml files (a docs site's) do not.
            guard let bytes = read(path, limit: 4_000_000),
                  ByteSearch.contains(bytes, Array("targets:".utf8)) || ByteSearch.contains(bytes, Array("include:".utf8)) else { return }
            generatorSpecs.append(path)
            // `xcodegen --project DIR` writes the project there rather than beside the spec.
            let projectFolder = namedSpecs[path].flatMap { $0 }.map { $0 == "." ? "" : $0 } ?? folder
            do throws(YAMLError) {
                // An included file is read only inside the repository, as a regular file.
                let root = self.root
                let include = { (relative: String) -> String? in
                    guard case .success(let absolute) = RepositoryPath.fileInside(FilePath.join(folder, relative), root: root),
                          case .success(let bytes) = FileReading.read(absolute, limit: 4_000_000) else { return nil }
                    return String(decoding: bytes, as: UTF8.self)
                }
                if let spec = try XcodeGenSpec(text: String(decoding: bytes, as: UTF8.self), file: path, read: include) {
                    // CocoaPods (a Podfile beside the project) makes `<name>.xcworkspace`, which is what builds it.
                    let pods = FileSystem.stamp(of: FilePath.join(root, FilePath.join(projectFolder, "Podfile"))) != nil
                    if pods { cocoaPodsSpecs[path] = Self.podInstall(root: root, folder: projectFolder) }
                    specs.append(GeneratedProject(spec: path, container: Container(path: FilePath.join(projectFolder, spec.name + ".xcodeproj"), isWorkspace: false),
                                                  testTargets: spec.testTargets, schemes: spec.schemes,
                                                  otherPlatforms: spec.platforms.filter { $0.value.lowercased() != "ios" },
                                                  packageTests: spec.packageTests.mapValues { $0.map { (FilePath.normalize(FilePath.join(folder, $0.folder)), $0.target) } },
                                                  workspace: pods ? FilePath.join(projectFolder, spec.name + ".xcworkspace") : nil))
                }
            } catch {
                problems.append(error.description)
            }
        case "Project.swift":
            guard let bytes = read(path, limit: 4_000_000), ByteSearch.contains(bytes, Array("ProjectDescription".utf8)) else { return }
            generatorSpecs.append(path)
            guard let manifest = TuistManifest(text: String(decoding: bytes, as: UTF8.self), helperFunctions: helpers) else { return }
            specs.append(GeneratedProject(spec: path, container: Container(path: FilePath.join(folder, manifest.name + ".xcworkspace"), isWorkspace: true),
                                          testTargets: manifest.testTargets, schemes: tuistSchemes(manifest, folder: folder), macOnly: manifest.macOnly))
        case "Workspace.swift":
            guard tuistWorkspace == nil, let bytes = read(path, limit: 4_000_000), ByteSearch.contains(bytes, Array("ProjectDescription".utf8)),
                  let name = TuistManifest.workspaceName(text: String(decoding: bytes, as: UTF8.self)) else { return }
            generatorSpecs.append(path)
            tuistWorkspace = (path, name)
        case "SnapshotHelper.swift":
            if let last = folder.split(separator: "/").last { snapshotHelperFolders.insert(String(last)) }
        case "project.pbxproj":
            if !containers.contains(Container(path: folder, isWorkspace: false)) { containers.append(Container(path: folder, isWorkspace: false)) }
        case "contents.xcworkspacedata":
            // A project's own embedded workspace (`App.xcodeproj/project.xcworkspace`) is not one to build with.
            if folder.hasSuffix(".xcworkspace"), !folder.contains(".xcodeproj/") {
                containers.append(Container(path: folder, isWorkspace: true))
                if let bytes = read(path, limit: 4_000_000) {
                    for project in Self.workspaceProjects(String(decoding: bytes, as: UTF8.self), folder: Container(path: folder, isWorkspace: true).folder)
                    where workspaceOfProject[project] == nil { workspaceOfProject[project] = folder }
                }
            }
        default:
            // A project known by its shared schemes alone (its project file not checked in, or generated).
            if let owner = Self.schemeOwner(path), owner.hasSuffix(".xcodeproj"), !containers.contains(Container(path: owner, isWorkspace: false)) {
                containers.append(Container(path: owner, isWorkspace: false))
            }
        }
    }

    /// A shared scheme and what it tests: its testables and its default plan's targets, each kind
    /// from the project file that declares the bundle (guessed from the name without one).
    private mutating func schemeTests(_ path: String) -> SchemeTests? {
        guard let owner = Self.schemeOwner(path), owner.hasSuffix(".xcodeproj") || owner.hasSuffix(".xcworkspace"),
              let bytes = read(path) else { return nil }
        let name = String(path.split(separator: "/").last!.dropLast(".xcscheme".count))
        let scheme: XcodeScheme
        do throws(XMLError) {
            scheme = try XcodeScheme(name: name, bytes: bytes, file: path)
        } catch {
            problems.append(error.description)
            return nil
        }
        let own = Container(path: owner, isWorkspace: owner.hasSuffix(".xcworkspace"))
        // A project's scheme is built through the workspace beside it (CocoaPods, local packages), if there is one.
        // Else the workspace that lists it (ProtonVPN's root workspace holds `apps/ios/iOS.xcodeproj`).
        let container = own.isWorkspace ? own : (containers.first { $0.isWorkspace && $0.folder == own.folder }
            ?? workspaceOfProject[owner].map { Container(path: $0, isWorkspace: true) } ?? own)
        var tests = SchemeTests(name: name, container: container, hasTestAction: scheme.hasTestAction)
        // A scheme that uses test plans runs a plan, not its own testables: those left in it from before
        // (NetNewsWire's, naming package folders that have moved since) are not read.
        let testables = scheme.testPlans.isEmpty ? scheme.testables.filter { !$0.skipped } : []
        var bundles = testables.map { (identifier: $0.identifier, name: $0.name, container: $0.container) }
        tests.skippedTests = testables.flatMap { testable in testable.skippedTests.map { Self.skipName(testable.name, $0) } }
        // What the plan selects in each bundle (`selectedTests`); absent: all of it.
        var selected: [String: [String]] = [:]
        // The whole classes the scheme or its plan skips in each bundle (`"FlowTests"`, not `"FlowTests/testShow()"`).
        var skippedClasses: [String: Set<String>] = [:]
        for testable in testables { skippedClasses[testable.name, default: []].formUnion(testable.skippedTests.filter { !$0.contains("/") }) }
        if let plan = scheme.testPlans.first {
            let planPath = onDisk(FilePath.normalize(FilePath.join(own.folder, plan)))
            tests.testPlan = planPath
            if let bytes = read(planPath), let testPlan = XcodeTestPlan(bytes: bytes) {
                for target in testPlan.targets where target.enabled && !bundles.contains(where: { $0.identifier == target.identifier }) {
                    bundles.append((target.identifier, target.name, target.container))
                }
                tests.skippedTests += testPlan.targets.filter(\.enabled).flatMap { target in target.skippedTests.map { Self.skipName(target.name, $0) } }
                for target in testPlan.targets where target.enabled && !target.selectedTests.isEmpty { selected[target.name] = target.selectedTests }
                notePlanSkips(testPlan, path: planPath)
                skippedClasses.merge(planSkippedClasses[planPath] ?? [:]) { $0.union($1) }
            }
        }
        // The packages each of its plans runs, by the plan's name (`-testPlan NetNewsWire-CI`).
        for plan in scheme.testPlans.dropFirst() {
            let planPath = onDisk(FilePath.normalize(FilePath.join(own.folder, plan)))
            guard let bytes = read(planPath), let testPlan = XcodeTestPlan(bytes: bytes) else { continue }
            notePlanSkips(testPlan, path: planPath)
            let name = Self.planName(planPath)
            tests.planPackages[name] = testPlan.targets.filter(\.enabled).compactMap { target in
                bundleKind((target.identifier, target.name, target.container), from: own.folder).package
            }
            tests.planBundles[name] = testPlan.targets.filter(\.enabled).map(\.name)
            tests.planUIBundles[name] = testPlan.targets.filter { target in
                guard target.enabled else { return false }
                let read = bundleKind((target.identifier, target.name, target.container), from: own.folder)
                return read.platforms.isEmpty && (read.kind == .ui || (read.kind == nil && Self.namedForUITests(target.name)))
            }.map(\.name)
        }
        for bundle in bundles {
            let (kind, package, platforms) = bundleKind(bundle, from: own.folder)
            if let package, !tests.packages.contains(package) { tests.packages.append(package) }
            switch kind {
            case _? where !platforms.isEmpty: tests.otherPlatformBundles.append("\(bundle.name) (\(platforms.sorted().joined(separator: ", ")))")
            case .unit:
                tests.unitBundles.append(bundle.name)
                if comparesSnapshots(bundle, from: own.folder) { tests.snapshotBundles.append(bundle.name) }
            case .ui:
                tests.uiBundles.append(bundle.name)
                noteScreenshots(bundle, from: own.folder, selected: selected[bundle.name], skipped: skippedClasses[bundle.name] ?? [], in: &tests)
            case nil:
                // The project was read and has no such target: the scheme is older than the project.
                let project = FilePath.normalize(FilePath.join(own.folder, bundle.container))
                if project.hasSuffix(".xcodeproj"), let file = self.project(project == "." ? "" : project), file.targets[bundle.identifier] == nil {
                    tests.staleBundles.append(bundle.name)
                    continue
                }
                tests.guessed.append(bundle.name)
                if Self.namedForUITests(bundle.name) { tests.uiBundles.append(bundle.name) } else { tests.unitBundles.append(bundle.name) }
            }
        }
        if let plan = tests.testPlan {
            let name = Self.planName(plan)
            tests.planPackages[name] = tests.packages
            tests.planBundles[name] = bundles.map(\.name)
        }
        return tests
    }

    /// The target claims of a project (its folder, relative to the root), read on first use; none
    /// when its project file cannot be read.
    mutating func claims(of project: String) -> [ShippedSources.Claim] {
        if let known = projectClaims[project] { return known }
        var claims: [ShippedSources.Claim] = []
        if case .success(let bytes) = FileReading.read(FilePath.join(root, project + "/project.pbxproj"), limit: 50_000_000) {
            claims = ShippedSources.projectClaims(bytes, folder: ShippedSources.parent(project))
        }
        projectClaims[project] = claims
        return claims
    }

    /// `Bundle/Class/test` for a skip named `Class/test()` in bundle `Bundle`. Schemes and plans
    /// write an XCTest method with `()`; xcodebuild's `-skip-testing:` names it without (a Swift
    /// Testing function, whose name does not start with `test`, keeps them).
    static func skipName(_ bundle: String, _ skipped: String) -> String {
        var name = skipped
        if let last = name.split(separator: "/").last, last.hasPrefix("test"), name.hasSuffix("()") { name.removeLast(2) }
        return bundle + "/" + name
    }

    /// A project generated from a spec (XcodeGen's `project.yml`, Tuist's `Project.swift`).
    struct GeneratedProject {
        /// The spec, relative to the root.
        let spec: String
        /// What the generator writes: XcodeGen a project, Tuist a workspace.
        let container: Container
        var testTargets: [String: TestBundleKind]
        var schemes: [(name: String, targets: [String])]
        var macOnly: Set<String> = []
        /// Test targets for another platform than iOS, with it (XcodeGen's `platform: watchOS`).
        var otherPlatforms: [String: String] = [:]
        /// Each scheme's test targets in local packages, with the package's folder (relative to the root).
        var packageTests: [String: [(folder: String, target: String)]] = [:]
        /// The workspace CocoaPods makes beside the generated project (a Podfile there), relative to the root.
        var workspace: String? = nil
    }

    /// Tuist projects of a workspace (`Workspace.swift`): generated together from the workspace's
    /// folder and built through its `<name>.xcworkspace`, with the `<name>-Workspace` scheme Tuist
    /// adds that tests every project's test targets (what teams' CI runs).
    static func joined(_ specs: [GeneratedProject], into workspace: (spec: String, name: String)) -> [GeneratedProject] {
        let folder = workspace.spec.lastIndex(of: "/").map { String(workspace.spec[..<$0]) } ?? ""
        let container = Container(path: FilePath.join(folder, workspace.name + ".xcworkspace"), isWorkspace: true)
        var joined: [GeneratedProject] = []
        var all = GeneratedProject(spec: workspace.spec, container: container, testTargets: [:], schemes: [])
        for spec in specs {
            guard spec.spec.hasSuffix("Project.swift") else { joined.append(spec); continue }
            joined.append(GeneratedProject(spec: workspace.spec, container: container, testTargets: spec.testTargets, schemes: spec.schemes, macOnly: spec.macOnly))
            all.testTargets.merge(spec.testTargets) { first, _ in first }
            all.macOnly.formUnion(spec.macOnly)
        }
        guard !all.testTargets.isEmpty else { return joined }
        all.schemes = [(workspace.name + "-Workspace", all.testTargets.keys.sorted())]
        return [all] + joined
    }

    /// Replaces the schemes read from Tuist manifests with those of Tuist's graph (see `adopting`).
    mutating func replaceGeneratedSchemes(from graph: TuistGraph, spec: String) {
        schemes.removeAll { $0.generatedFrom?.hasSuffix(".swift") == true }
        let folder = spec.lastIndex(of: "/").map { String(spec[..<$0]) } ?? ""
        let container = Container(path: FilePath.join(folder, graph.name + ".xcworkspace"), isWorkspace: true)
        var all = GeneratedProject(spec: spec, container: container, testTargets: [:], schemes: [])
        var projects: [GeneratedProject] = []
        for project in graph.projects {
            projects.append(GeneratedProject(spec: spec, container: container, testTargets: project.testTargets,
                                             schemes: project.schemes.map { ($0.name, $0.targets) }))
            all.testTargets.merge(project.testTargets) { first, _ in first }
        }
        if !all.testTargets.isEmpty, spec.hasSuffix("Workspace.swift") { all.schemes = [(graph.name + "-Workspace", all.testTargets.keys.sorted())] }
        for generated in [all] + projects { addGeneratedSchemes(generated) }
    }

    /// A generated project's schemes, from its spec, when the project is not checked in.
    private mutating func addGeneratedSchemes(_ generated: GeneratedProject) {
        var container = generated.container
        let root = self.root
        let committed = { (other: Container) -> Bool in
            FileSystem.stamp(of: FilePath.join(root, other.path + (other.isWorkspace ? "/contents.xcworkspacedata" : "/project.pbxproj"))) != nil
        }
        // A committed project or workspace there is what Xcode opens: its shared schemes are the ones.
        guard !schemes.contains(where: { $0.generatedFrom == nil && ($0.container.path == container.path || $0.container.folder == container.folder) && committed($0.container) })
        else { return }
        // Schemes left in the folder of a project the spec generates, whose project file is not
        // committed (element-ios' 2023 `Riot.xcscheme` beside a gitignored project), are stale: the
        // spec's replace them, and what reading their bundles said is no problem of the project.
        let stale = Set(schemes.filter { $0.generatedFrom == nil && !committed($0.container) && [container.path, generated.workspace].contains($0.container.path) }.map(\.name))
        schemes.removeAll { stale.contains($0.name) && $0.generatedFrom == nil }
        if !stale.isEmpty { problems.removeAll { $0.hasPrefix(container.path + "/project.pbxproj: ") } }
        // CocoaPods makes a workspace beside the generated project: that is what builds it.
        if let workspace = generated.workspace { container = Container(path: workspace, isWorkspace: true) }
        for (name, targets) in generated.schemes where !schemes.contains(where: { $0.name == name }) {
            var tests = SchemeTests(name: name, container: container, hasTestAction: true)
            tests.generatedFrom = generated.spec
            tests.macOnlyBundles = targets.filter(generated.macOnly.contains)
            for (folder, target) in generated.packageTests[name] ?? [] {
                tests.unitBundles.append(target)
                if !tests.packages.contains(folder) { tests.packages.append(folder) }
            }
            for target in targets {
                switch generated.testTargets[target] {
                case .ui where generated.otherPlatforms[target] != nil || generated.macOnly.contains(target):
                    tests.otherPlatformBundles.append("\(target) (\(generated.otherPlatforms[target] ?? "macOS"))")
                case .unit: tests.unitBundles.append(target)
                case .ui: tests.uiBundles.append(target)
                case nil: break
                }
            }
            schemes.append(tests)
        }
    }

    /// A Tuist manifest's schemes with the targets they test: a `.testPlans` scheme's are its plans'
    /// targets (the globs matched beside the manifest); a test target no scheme tests gets the scheme
    /// Tuist generates for every target, named after it.
    private mutating func tuistSchemes(_ manifest: TuistManifest, folder: String) -> [(name: String, targets: [String])] {
        var schemes = manifest.schemes
        for (index, scheme) in schemes.enumerated() {
            for pattern in manifest.testPlans[scheme.name] ?? [] {
                let glob = Glob(pattern)
                let plans = SourceTree.files(under: FilePath.join(root, folder)) { glob.matches($0) }
                for plan in plans {
                    guard let bytes = read(FilePath.join(folder, plan)), let testPlan = XcodeTestPlan(bytes: bytes) else { continue }
                    schemes[index].targets += testPlan.targets.filter(\.enabled).map(\.name)
                }
            }
        }
        let tested = Set(schemes.flatMap(\.targets))
        for target in manifest.testTargets.keys.sorted() where !tested.contains(target) { schemes.append((target, [target])) }
        return schemes
    }

    /// The scheme to run unit tests with: one whose bundles are all unit tests (a name with `Unit`,
    /// else the one with most bundles), else one that runs unit bundles among UI ones (a name with
    /// `Test` first); nil when no scheme tests a unit bundle.
    package var unitScheme: SchemeTests? {
        let only = schemes.filter { !$0.unitBundles.isEmpty && $0.uiBundles.isEmpty }
        if let named = only.first(where: { $0.name.contains("Unit") }) { return named }
        if let most = only.max(by: { $0.unitBundles.count < $1.unitBundles.count }) { return most }
        let mixed = schemes.filter { !$0.unitBundles.isEmpty }
        // Else the one that tests the most (Eurofurence's app scheme, not its App Clip's).
        return mixed.first { $0.name.contains("Test") } ?? Self.widest(mixed, by: \.unitBundles)
    }

    /// The first of `schemes` with the most `bundles`.
    static func widest(_ schemes: [SchemeTests], by bundles: KeyPath<SchemeTests, [String]>) -> SchemeTests? {
        schemes.reduce(nil) { best, next in best.map { next[keyPath: bundles].count > $0[keyPath: bundles].count ? next : $0 } ?? next }
    }

    /// The scheme to run UI tests with: one whose bundles are all UI tests (a name with `UITest`
    /// first), else one that runs a UI bundle among unit ones (a name with `Test` first, else the one
    /// with the most UI bundles); nil when no
    /// scheme tests a UI-testing bundle.
    package var uiScheme: SchemeTests? { uiScheme(excluding: []) }

    /// `uiScheme` among the schemes not named in `excluded` (screenshot schemes the team's CI never runs).
    package func uiScheme(excluding excluded: Set<String>) -> SchemeTests? {
        let schemes = self.schemes.filter { !excluded.contains($0.name) }
        let only = schemes.filter { !$0.uiBundles.isEmpty && $0.unitBundles.isEmpty }
        if let scheme = only.first(where: { $0.name.contains("UITest") }) ?? only.first { return scheme }
        let mixed = schemes.filter { !$0.uiBundles.isEmpty }
        return mixed.first { $0.name.contains("Test") } ?? Self.widest(mixed, by: \.uiBundles)
    }
}
