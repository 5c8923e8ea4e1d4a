import Foundation
import PrePushCore
import PrePushTestSupport
import PrePushXcodeProject
import Testing

/// Issue 53: the spec and command the team names, Tuist manifests built through the team's
/// helpers, and packages tested once by what can build them. The files are real apps'
/// (Tests/Fixtures/generators/README.md names each origin and commit).
@Suite struct GeneratorAndPackageTests {
    static let fixtures = Fixtures.own + "/generators"

    /// Generator commands as teams write them: bitwarden's bootstrap script names its spec from
    /// the script's root variable, and CI runs that script (so a stage runs it too); a Makefile
    /// names a spec and a project folder; `tuist test` names a folder and a scheme (VanessaGames'
    /// documented command); installing a generator is not running it.
    @Test func theTeamsGeneratorCommandsSayWhichSpecFolderAndScheme() throws {
        let bitwarden = TeamCommands.generatorInvocations(root: Self.fixtures + "/bitwarden-authenticator")
        let bootstrap = try #require(bitwarden.first { $0.place == "Scripts-bwa/bootstrap.sh:11" }, "\(bitwarden)")
        #expect(bootstrap.tool == .xcodegen && bootstrap.spec == "project-bwa.yml" && bootstrap.projectFolder == nil, "\(bootstrap)")
        #expect(bootstrap.run == "./Scripts-bwa/bootstrap.sh", "CI runs the script: \(bootstrap)")
        #expect(!bitwarden.contains { $0.place.hasPrefix(".github") }, "`brew install mint` generates nothing: \(bitwarden)")

        let make = try #require(TeamCommands.generatorInvocation("\txcodegen generate --spec project-app.yml --project App", place: "Makefile:4"))
        #expect(make.spec == "project-app.yml" && make.projectFolder == "App" && make.run == "xcodegen generate --spec project-app.yml --project App", "\(make)")
        let short = try #require(TeamCommands.generatorInvocation("mint run xcodegen -s ./project-app.yml", place: "Makefile:9"))
        #expect(short.spec == "project-app.yml" && short.run == "mint run xcodegen -s project-app.yml", "\(short)")

        let tuist = try #require(TeamCommands.generatorInvocation("mise exec -- tuist test --path VanessaGames ClausyTheCloud", place: "scripts/test.sh:3"))
        #expect(tuist.tool == .tuist && tuist.action == "test" && tuist.path == "VanessaGames" && tuist.scheme == "ClausyTheCloud", "\(tuist)")
        #expect(tuist.run == "mise exec -- tuist generate --no-open --path VanessaGames", "\(tuist)")
        #expect(TeamCommands.generatorInvocation("tuist generate", place: "")?.run == "tuist generate --no-open")
        #expect(TeamCommands.generatorInvocation("      - run: xcodegen generate --spec App/project.yml", place: "")?.run == "xcodegen generate --spec App/project.yml")
        for line in ["      - name: Generate the project with xcodegen", "\techo 'xcodegen' # make it", "brew install xcodegen", "mint install yonaskolb/xcodegen", "mise install tuist@4.59.2", "tuist install", "xcodegen dump --type json", "which xcodegen"] {
            #expect(TeamCommands.generatorInvocation(line, place: "") == nil, "\(line)")
        }
    }

    /// bitwarden's spec is `project-bwa.yml`: read only because the team's script names it. Its
    /// `Authenticator` scheme runs two app bundles and the local package's `Networking/NetworkingTests`.
    @Test func aSpecTheTeamNamesIsReadWhateverItsName() throws {
        let root = Self.fixtures + "/bitwarden-authenticator"
        #expect(XcodeProjectSurvey(root: root).schemes.isEmpty, "project-bwa.yml is no project.yml: unread unless named")
        let survey = XcodeProjectSurvey(root: root, generators: TeamCommands.generatorInvocations(root: root))
        let scheme = try #require(survey.schemes.first { $0.name == "Authenticator" }, "\(survey.schemes.map(\.name))")
        #expect(scheme.unitBundles == ["NetworkingTests", "AuthenticatorTests", "AuthenticatorSharedTests"] && scheme.packages == ["Networking"], "\(scheme)")
        #expect(scheme.container.path == "Authenticator.xcodeproj" && scheme.generatedFrom == "project-bwa.yml")
        #expect(survey.generatorSpecs == ["project-bwa.yml"] && survey.problems.isEmpty, "\(survey.problems)")
        // Networking's `platforms:` name iOS alone: swift test on a Mac is not how to test it.
        #expect(survey.iOSOnlyPackages["Networking"] == "its platforms: name iOS only" && survey.packageSchemes["Networking"] == "Networking")

        let moved = try #require(TeamCommands.generatorInvocation("xcodegen --spec project-bwa.yml --project Generated", place: "Makefile:2"))
        let elsewhere = XcodeProjectSurvey(root: root, generators: [moved])
        #expect(elsewhere.schemes.first { $0.name == "Authenticator" }?.container.path == "Generated/Authenticator.xcodeproj")
    }

    /// ugglan's projects are made by `Project.framework(name:targets:)` in its helpers: Claims asks
    /// for `.tests`, so `ClaimsTests` (`"\(name)Tests"`, `.unitTests`) exists and its schemes test
    /// it; hCore does not ask, so it has none. `Workspace.swift` joins them into
    /// `Ugglan.xcworkspace`, whose `Ugglan-Workspace` scheme tests every bundle.
    @Test func tuistManifestsAreReadThroughTheTeamsHelpers() throws {
        let survey = XcodeProjectSurvey(root: Self.fixtures + "/ugglan")
        let workspace = try #require(survey.schemes.first { $0.name == "Ugglan-Workspace" }, "\(survey.schemes.map(\.name))")
        #expect(workspace.unitBundles == ["ClaimsTests"] && workspace.uiBundles.isEmpty, "\(workspace)")
        #expect(workspace.container == XcodeProjectSurvey.Container(path: "Ugglan.xcworkspace", isWorkspace: true) && workspace.generatedFrom == "Workspace.swift")
        let claims = try #require(survey.schemes.first { $0.name == "Claims" })
        #expect(claims.unitBundles == ["ClaimsTests"] && claims.container.path == "Ugglan.xcworkspace", "\(claims)")
        #expect(survey.schemes.first { $0.name == "ClaimsExample" }?.unitBundles == ["ClaimsTests"])
        #expect(!survey.schemes.contains { $0.name.hasPrefix("hCore") && !$0.unitBundles.isEmpty }, "hCore has no test target: \(survey.schemes)")
        #expect(Set(survey.generatorSpecs) == ["Workspace.swift", "Projects/Claims/Project.swift", "Projects/hCore/Project.swift"], "\(survey.generatorSpecs)")
        // Without the helpers the manifest names no project at all.
        let claimsManifest = try String(contentsOfFile: Self.fixtures + "/ugglan/Projects/Claims/Project.swift", encoding: .utf8)
        #expect(TuistManifest(text: claimsManifest) == nil)
    }

    /// A helper that builds targets from a list (`additionalTargets.flatMap { makeFrameworkTargets(name: $0) }`,
    /// Tuist's own `tuist init` template of ProjectDescriptionHelpers, 3.x) with default arguments.
    @Test func helpersThatMapOverNamesAreFollowed() throws {
        // Tuist 3's template `Project+Templates.swift` (tuist/tuist, Sources/TuistSupport/Templates), abridged to the target-making calls.
        let helpers = """
        import ProjectDescription
        extension Project {
            public static func app(name: String, platform: Platform, additionalTargets: [String]) -> Project {
                var targets = makeAppTargets(name: name, platform: platform, dependencies: additionalTargets.map { TargetDependency.target(name: $0) })
                targets += additionalTargets.flatMap({ makeFrameworkTargets(name: $0, platform: platform) })
                return Project(name: name, organizationName: "tuist.io", targets: targets)
            }
            private static func makeFrameworkTargets(name: String, platform: Platform) -> [Target] {
                let sources = Target(name: name, platform: platform, product: .framework, bundleId: "io.tuist.\\(name)", sources: ["Targets/\\(name)/Sources/**"])
                let tests = Target(name: "\\(name)Tests", platform: platform, product: .unitTests, bundleId: "io.tuist.\\(name)Tests", sources: ["Targets/\\(name)/Tests/**"])
                return [sources, tests]
            }
            private static func makeAppTargets(name: String, platform: Platform, dependencies: [TargetDependency]) -> [Target] {
                let mainTarget = Target(name: name, platform: platform, product: .app, bundleId: "io.tuist.\\(name)")
                let testTarget = Target(name: "\\(name)Tests", platform: platform, product: .unitTests, bundleId: "io.tuist.\\(name)Tests")
                return [mainTarget, testTarget]
            }
        }
        """
        let manifest = try #require(TuistManifest(text: "import ProjectDescription\nimport ProjectDescriptionHelpers\nlet project = Project.app(name: \"Shop\", platform: .iOS, additionalTargets: [\"ShopKit\", \"ShopUI\"])\n",
                                                  helpers: [helpers]))
        #expect(manifest.name == "Shop" && manifest.testTargets == ["ShopTests": .unit, "ShopKitTests": .unit, "ShopUITests": .unit], "\(manifest.testTargets)")
    }

    /// Azkar (seventh round) names its project with a constant and its targets and schemes with a
    /// String enum: `Target.target(name: rawValue, …)` inside `switch self { case .azkarAppTests: … }`
    /// and `Scheme.scheme(name: AzkarTarget.azkarAppUITests.rawValue, …)`. The names are read through them.
    @Test func namesFromConstantsAndEnumRawValuesAreRead() throws {
        // The shape of Azkar's Project.swift (AvocadoApps/azkar-ios ebd2ddde), abridged to the names.
        let text = """
        import ProjectDescription
        let projectName = "Azkar"
        enum AzkarTarget: String, CaseIterable {
            case azkarApp = "Azkar"
            case azkarAppTests = "AzkarTests"
            case azkarAppUITests = "AzkarUITests"
            var target: Target {
                switch self {
                case .azkarApp:
                    return Target.target(name: rawValue, destinations: .iOS, product: .app, bundleId: "app")
                case .azkarAppTests:
                    return Target.target(name: rawValue, destinations: .iOS, product: Product.unitTests, bundleId: "tests")
                case .azkarAppUITests:
                    return Target.target(name: rawValue, destinations: .iOS, product: Product.uiTests, bundleId: "uitests")
                }
            }
        }
        let project = Project(
            name: projectName,
            targets: AzkarTarget.allCases.map(\\.target),
            schemes: [
                Scheme.scheme(name: AzkarTarget.azkarAppUITests.rawValue, shared: true, testAction: TestAction.targets(["AzkarUITests"]))
            ]
        )
        """
        let manifest = try #require(TuistManifest(text: text))
        #expect(manifest.name == "Azkar" && manifest.testTargets == ["AzkarTests": .unit, "AzkarUITests": .ui], "\(manifest.testTargets)")
        #expect(manifest.schemes.map(\.name) == ["AzkarUITests"] && manifest.schemes.first?.targets == ["AzkarUITests"])
    }

    /// A graph written to Tuist's `ProjectAutomation` schema (tuist/tuist `Sources/ProjectAutomation`:
    /// `Graph{name,path,projects}`, `Project{name,path,isExternal,targets,schemes}`, `Target.product`
    /// as `unit_tests`/`ui_tests`, `Scheme.testActionTargets`). No graph written by a real `tuist`
    /// was at hand: this checks the reading of the schema, not of a real run's output.
    static let graph = """
    {"name": "Shop", "path": "/work/shop", "projects": {
      "/work/shop/Projects/App": {"name": "App", "path": "/work/shop/Projects/App", "isExternal": false, "packages": [],
        "targets": [{"name": "App", "product": "app", "bundleId": "shop.app", "sources": [], "resources": [], "settings": {"configurations": {}}, "dependencies": []},
                    {"name": "AppTests", "product": "unit_tests", "bundleId": "shop.tests", "sources": [], "resources": [], "settings": {"configurations": {}}, "dependencies": []},
                    {"name": "AppUITests", "product": "ui_tests", "bundleId": "shop.uitests", "sources": [], "resources": [], "settings": {"configurations": {}}, "dependencies": []}],
        "schemes": [{"name": "App", "testActionTargets": ["AppTests", "AppUITests"]}, {"name": "App-Release"}]},
      "/work/shop/Tuist/.build/checkouts/Alamofire": {"name": "Alamofire", "path": "/work/shop/Tuist/.build/checkouts/Alamofire", "isExternal": true,
        "targets": [{"name": "AlamofireTests", "product": "unit_tests"}], "schemes": []}
    }}
    """

    /// Tuist's graph, where `tuist` is installed, replaces the manifests' reading: its test
    /// targets' kinds and schemes, external projects left out, and the workspace scheme.
    @Test func aTuistGraphIsReadAndReplacesTheManifestsReading() throws {
        let graph = try #require(TuistGraph(json: Array(Self.graph.utf8)))
        #expect(graph.name == "Shop" && graph.projects.map(\.name) == ["App"] && graph.projects.first?.folder == "Projects/App", "\(graph)")
        #expect(graph.projects.first?.testTargets == ["AppTests": .unit, "AppUITests": .ui])
        #expect(graph.projects.first?.schemes == [TuistGraph.Scheme(name: "App", targets: ["AppTests", "AppUITests"]), TuistGraph.Scheme(name: "App-Release", targets: [])])
        #expect(TuistGraph(json: Array("{\"testNodes\": []}".utf8)) == nil)

        let survey = XcodeProjectSurvey(root: Self.fixtures + "/ugglan").adopting(graph, spec: "Workspace.swift")
        #expect(!survey.schemes.contains { $0.name == "Claims" }, "the static reading is replaced: \(survey.schemes.map(\.name))")
        let workspace = try #require(survey.schemes.first { $0.name == "Shop-Workspace" }, "\(survey.schemes.map(\.name))")
        #expect(workspace.unitBundles == ["AppTests"] && workspace.uiBundles == ["AppUITests"] && workspace.container.path == "Shop.xcworkspace")
        #expect(survey.schemes.first { $0.name == "App" }?.generatedFrom == "Workspace.swift")
    }

    /// A Fastfile that imports its lanes keeps them in `fastlane/lanes` (home-assistant/iOS,
    /// d722d7811aec, `fastlane/lanes/testing.rb` lines 38–52, verbatim but for the comment lines):
    /// the `test` lane is a team command and its destination is the team's.
    @Test func lanesInFastlaneLanesAreTheTeams() throws {
        let root = try TemporaryDirectory(prefix: "prepush-lanes")
        try root.write("""
        lane :test do
          code_coverage = ENV.key?('CI_ENABLE_COVERAGE') ? (ENV['CI_ENABLE_COVERAGE'] == 'true') : nil
          run_tests(
            project: 'HomeAssistant.xcodeproj',
            scheme: 'Tests-Unit',
            result_bundle: true,
            skip_package_dependencies_resolution: true,
            skip_detect_devices: true,
            skip_build: true,
            code_coverage: code_coverage,
            xcargs: 'COMPILER_INDEX_STORE_ENABLE=NO',
            destination: 'platform=iOS Simulator,name=iPhone 17,OS=latest'
          )

        """, to: "fastlane/lanes/testing.rb")
        #expect(TeamCommands.testCommands(root: root.path) == [TeamCommands.Command(text: "fastlane test", place: "fastlane/lanes/testing.rb:1")])
        let destination = try #require(TeamCommands.destination(root: root.path))
        #expect(destination.value == "platform=iOS Simulator,name=iPhone 17,OS=latest" && destination.place == "fastlane/lanes/testing.rb:12", "\(destination)")
    }

    /// A package's manifest, read as Swift: bitwarden's Networking names iOS alone; a package for
    /// every platform (ugglan's AppStateContainer, its `platforms:` line) does not; the scheme Xcode
    /// makes is the product's, or `<name>-Package` for several products.
    @Test func packageManifestsSayWhereTheyBuild() throws {
        let networking = PackageManifest(text: try String(contentsOfFile: Self.fixtures + "/bitwarden-authenticator/Networking/Package.swift", encoding: .utf8))
        #expect(networking.name == "Networking" && networking.platforms == ["ios"] && networking.iOSOnlyByPlatforms, "\(networking)")
        #expect(networking.products == ["Networking"] && networking.testTargets == ["NetworkingTests"] && networking.scheme == "Networking")
        let all = PackageManifest(text: """
        let package = Package(
            name: "AppStateContainer",
            platforms: [.macOS(.v11), .iOS(.v16), .tvOS(.v16), .watchOS(.v6), .macCatalyst(.v13)],
            products: [.library(name: "AppStateContainer", targets: ["AppStateContainer"]), .library(name: "AppStateTesting", targets: ["AppStateTesting"])],
            targets: [.target(name: "AppStateContainer"), .testTarget(name: "AppStateContainerTests", dependencies: ["AppStateContainer"])]
        )
        """)
        #expect(!all.iOSOnlyByPlatforms && !all.leavesOutTheMac && all.scheme == "AppStateContainer-Package", "\(all)")
        // IceCubesApp's Packages/Models/Package.swift: iOS 18 and visionOS, no macOS.
        let models = PackageManifest(text: "let package = Package(\n  name: \"Models\",\n  platforms: [\n    .iOS(.v18),\n    .visionOS(.v1),\n  ],\n  products: [.library(name: \"Models\", targets: [\"Models\"])],\n  targets: [.target(name: \"Models\"), .testTarget(name: \"ModelsTests\")]\n)\n")
        #expect(models.platforms == ["ios", "visionos"] && models.leavesOutTheMac && !models.iOSOnlyByPlatforms, "\(models)")
    }

    /// UIKit imported outside a guard makes a package iOS only (IceCubesApp's
    /// `Packages/Env/Sources/Env/HapticManager.swift` opens with `import CoreHaptics` / `import UIKit`);
    /// inside `#if canImport(UIKit)` or `#if os(iOS)` it does not, and the `#else` of one is unguarded.
    @Test func unguardedUIKitImportsAreFound() {
        #expect(PackageManifest.unguardedUIKitImport(in: "import CoreHaptics\nimport UIKit\n\n@MainActor\npublic class HapticManager {}\n") == 2)
        #expect(PackageManifest.unguardedUIKitImport(in: "import Foundation\n#if canImport(UIKit)\n  import UIKit\n#endif\n") == nil)
        #expect(PackageManifest.unguardedUIKitImport(in: "#if os(iOS) || os(tvOS)\nimport UIKit\n#elseif os(macOS)\nimport AppKit\n#endif\n") == nil)
        #expect(PackageManifest.unguardedUIKitImport(in: "#if os(macOS)\nimport AppKit\n#else\nimport UIKit\n#endif\n") == nil, "the Mac takes the first branch")
        #expect(PackageManifest.unguardedUIKitImport(in: "#if canImport(UIKit)\nimport UIKit\n#else\nimport AppKit\n#endif\n#if DEBUG\nimport UIKit\n#endif\n") == 7)
        #expect(PackageManifest.unguardedUIKitImport(in: "// import UIKit is not needed here\nimport SwiftUI\n") == nil)
    }
}
