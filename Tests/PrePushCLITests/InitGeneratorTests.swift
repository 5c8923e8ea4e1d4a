import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// `prepush init` follows the spec and the generation command the team names, reads Tuist
/// projects made by the team's helpers, and tests each package once by what can build it
/// (issue 53). The apps are real (Tests/Fixtures/generators/README.md names each origin).
@Suite struct InitGeneratorTests {
    static let fixtures = Fixtures.own + "/generators"

    /// A repository holding a copy of the fixture folder `name`.
    static func repository(from name: String) throws -> GitRepository {
        let repo = try GitRepository()
        let source = fixtures + "/" + name
        let files = FileManager.default.enumerator(atPath: source)?.compactMap { $0 as? String } ?? []
        for file in files where !FileManager.default.isDirectory(source + "/" + file) {
            try repo.write(try String(contentsOfFile: source + "/" + file, encoding: .utf8), to: file)
        }
        return repo
    }

    /// XcodeGen's real test spec kept as `project-app.yml`, named only by the Makefile's
    /// `xcodegen --spec project-app.yml`: without the Makefile init saw "no Xcode project"; with
    /// it, the spec's schemes are the stages and each generates as the Makefile does.
    @Test func aSpecNamedByTheMakefileIsReadAndGeneratedAsTheTeamDoes() throws {
        let repo = try GitRepository()
        let spec = Fixtures.shared + "/xcode-projects/yonaskolb__XcodeGen__TestProject/Tests/Fixtures/TestProject/project.yml"
        try repo.write(try String(contentsOfFile: spec, encoding: .utf8), to: "project-app.yml")
        try repo.write("project:\n\tmint run xcodegen --spec project-app.yml\n", to: "Makefile")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("unit: xcodebuild test -scheme App_iOS (unit bundles: 1); ui: xcodebuild test -scheme App_iOS (UI bundles: 1)"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("    run: mint run xcodegen --spec project-app.yml && destination=$(\"${PREPUSH_BIN:-prepush}\" destination) && rm -rf .build/prepush-unit.xcresult && xcodebuild test -project Project.xcodeproj -scheme App_iOS -only-testing:App_iOS_Tests -destination \"$destination\""), "\(file)")
        #expect(file.contains("    # The project is generated from project-app.yml, as the team's Makefile:2 generates it; xcodegen must be on PATH.\n"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// bitwarden's authenticator: CI bootstraps with a script that runs `xcodegen --spec
    /// "$repo_root/project-bwa.yml"`, then tests the Authenticator scheme, whose test action runs the
    /// local Networking package's tests. The stage bootstraps as CI does and runs the team's
    /// command; the package (iOS only) gets no stage of its own, and the comment says why.
    @Test func bitwardensBootstrapSpecAndPackageTestedOnce() throws {
        let repo = try Self.repository(from: "bitwarden-authenticator")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("unit: xcodebuild test -scheme Authenticator (unit bundles: 3)"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("    run: ./Scripts-bwa/bootstrap.sh && destination=$(\"${PREPUSH_BIN:-prepush}\" destination) && rm -rf .build/prepush-unit.xcresult && xcodebuild test -project Authenticator.xcodeproj -scheme Authenticator -configuration Debug "), "\(file)")
        #expect(file.contains("  # Networking/Package.swift declares test targets, which scheme Authenticator runs (its testables): no stage of its own, so each test runs once.\n"), "\(file)")
        #expect(!file.contains("workingDirectory: Networking") && !file.contains("swift test\n"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// Two local packages no scheme tests: bitwarden's Networking (`platforms: [.iOS(.v15)]`) is
    /// tested by xcodebuild with the scheme Xcode makes for it on an iPhone simulator, a package
    /// whose source imports UIKit unguarded likewise, and a package for every platform by `swift test`.
    @Test func iOSOnlyPackagesAreTestedByXcodebuildAndOthersBySwiftTest() throws {
        let repo = try GitRepository()
        try repo.write(try String(contentsOfFile: Self.fixtures + "/bitwarden-authenticator/Networking/Package.swift", encoding: .utf8), to: "Packages/Networking/Package.swift")
        let manifest = "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"Env\", products: [.library(name: \"Env\", targets: [\"Env\"])], targets: [.target(name: \"Env\"), .testTarget(name: \"EnvTests\", dependencies: [\"Env\"])])\n"
        try repo.write(manifest, to: "Packages/Env/Package.swift")
        // IceCubesApp's Packages/Env/Sources/Env/HapticManager.swift opens so.
        try repo.write("import CoreHaptics\nimport UIKit\n\n@MainActor\npublic class HapticManager {}\n", to: "Packages/Env/Sources/Env/HapticManager.swift")
        try repo.write(manifest.replacingOccurrences(of: "Env", with: "Models"), to: "Packages/Models/Package.swift")
        try repo.write("import Foundation\n#if canImport(UIKit)\nimport UIKit\n#endif\npublic struct Status {}\n", to: "Packages/Models/Sources/Models/Status.swift")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("  package-networking:\n    # Packages/Networking/Package.swift declares test targets and does not build for the Mac (its platforms: name iOS only): swift test there cannot build it,\n"), "\(file)")
        #expect(file.contains("    run: destination=$(\"${PREPUSH_BIN:-prepush}\" destination) && rm -rf .build/prepush-package-networking.xcresult && xcodebuild test -scheme Networking -destination \"$destination\" -resultBundlePath .build/prepush-package-networking.xcresult\n    workingDirectory: Packages/Networking\n"), "\(file)")
        #expect(file.contains("(Packages/Env/Sources/Env/HapticManager.swift:2 imports UIKit outside #if canImport(UIKit))") && file.contains("xcodebuild test -scheme Env "), "\(file)")
        #expect(file.contains("  package-models:\n    # Packages/Models/Package.swift declares test targets.\n    run: swift test\n    workingDirectory: Packages/Models\n"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// The root's package builds for iOS only (bitwarden's Networking manifest at the root): the
    /// unit stage is xcodebuild of its scheme, and the line init prints says so, not `swift test`.
    @Test func aRootPackageForIOSOnlyIsTheUnitStageThroughXcodebuild() throws {
        let repo = try GitRepository()
        try repo.write(try String(contentsOfFile: Self.fixtures + "/bitwarden-authenticator/Networking/Package.swift", encoding: .utf8), to: "Package.swift")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.hasPrefix("prepush: wrote .prepush.yml (unit: xcodebuild test -scheme Networking (the package does not build for the Mac);"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("  unit:\n    # Package.swift declares test targets and does not build for the Mac (its platforms: name iOS only)"), "\(file)")
        #expect(file.contains("xcodebuild test -scheme Networking -destination \"$destination\" -resultBundlePath .build/prepush-unit.xcresult\n    timeout: 900\n") && !file.contains("run: swift test"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// A team that tests with `tuist test --path DIR SCHEME` (VanessaGames' documented command,
    /// in a script): the unit stage tests that scheme, not the one init would pick by itself
    /// (`Shop-Unit`), and generates in that folder as the command does.
    @Test func theSchemeTuistTestNamesIsTheUnitStage() throws {
        let repo = try GitRepository()
        try repo.write("""
        import ProjectDescription
        let project = Project(name: "Shop", targets: [
            .target(name: "Shop", destinations: .iOS, product: .app, bundleId: "shop"),
            .target(name: "ShopTests", destinations: .iOS, product: .unitTests, bundleId: "shop.tests"),
            .target(name: "ShopKitTests", destinations: .iOS, product: .unitTests, bundleId: "shop.kit.tests"),
        ], schemes: [
            .scheme(name: "Shop-Unit", testAction: .targets(["ShopKitTests"])),
            .scheme(name: "Shop-All", testAction: .targets(["ShopTests", "ShopKitTests"])),
        ])
        """, to: "VanessaGames/Project.swift")
        try repo.write("#!/bin/bash\nmise exec -- tuist test --path VanessaGames Shop-All\n", to: "scripts/test.sh")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("unit: xcodebuild test -scheme Shop-All (unit bundles: 2)"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("    run: mise exec -- tuist generate --no-open --path VanessaGames && destination=$(\"${PREPUSH_BIN:-prepush}\" destination) && rm -rf .build/prepush-unit.xcresult && xcodebuild test -workspace VanessaGames/Shop.xcworkspace -scheme Shop-All -destination"), "\(file)")
        #expect(file.contains("    # The project is generated from VanessaGames/Project.swift, as the team's scripts/test.sh:2 generates it; tuist must be on PATH.\n"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// ugglan: CI runs `scripts/post-checkout.sh` (which runs `tuist generate` among its steps) and
    /// tests the workspace scheme `Ugglan-Workspace`; the projects come from the team's helper. The
    /// unit stage is that scheme, generated as CI generates it, with the team's flags and destination.
    @Test func aTuistWorkspaceIsTestedAsTheTeamsCITestsIt() throws {
        let repo = try Self.repository(from: "ugglan")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("unit: xcodebuild test -scheme Ugglan-Workspace (unit bundles: 1)"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("    run: ./scripts/post-checkout.sh && rm -rf .build/prepush-unit.xcresult && xcodebuild test -workspace Ugglan.xcworkspace -scheme Ugglan-Workspace -enableCodeCoverage YES 'CODE_SIGNING_ALLOWED=NO' -destination 'platform=iOS Simulator,name=iPhone 16e,OS=latest' -resultBundlePath .build/prepush-unit.xcresult\n"), "\(file)")
        #expect(file.contains("    # The project is generated from Workspace.swift, as the team's scripts/post-checkout.sh:14 generates it; tuist must be on PATH.\n"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// Aidoku's CI only archives, with `-skipPackagePluginValidation` (its packages include
    /// SwiftLint's build-tool plugin); the unit stage of a scheme no team command tests takes that
    /// switch over, else xcodebuild stops at the untrusted plugin. (Aidoku's nightly.yml line 22, verbatim.)
    @Test func theTeamsValidationSwitchesAreTakenOver() throws {
        let repo = try GitRepository()
        try repo.write(InitRealAppTests.scheme([("F806E0D32D54DD3C0058A673", "AppTests", "Aidoku.xcodeproj")]), to: "Aidoku.xcodeproj/xcshareddata/xcschemes/Aidoku (iOS).xcscheme")
        let project = Fixtures.shared + "/xcode-projects/tuist__tuist__xcode_project_with_tests/fixtures/xcode_project_with_tests/App.xcodeproj/project.pbxproj"
        try repo.write(try String(contentsOfFile: project, encoding: .utf8), to: "Aidoku.xcodeproj/project.pbxproj")
        try repo.write("""
        jobs:
          build:
            steps:
              - name: Build
                run: xcodebuild -scheme "Aidoku (iOS)" -configuration Release archive -archivePath build/Aidoku.xcarchive -skipPackagePluginValidation CODE_SIGN_IDENTITY= CODE_SIGNING_REQUIRED=NO CODE_SIGNING_ALLOWED=NO

        """, to: ".github/workflows/nightly.yml")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("xcodebuild test -project Aidoku.xcodeproj -scheme 'Aidoku (iOS)' -skipPackagePluginValidation -destination"), "\(file)")
        #expect(file.contains("    # -skipPackagePluginValidation, as the team's .github/workflows/nightly.yml:5 turns that validation off: "), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// With `tuist` on PATH, init asks it for the graph (here a stand-in `tuist` that writes a
    /// graph to Tuist's schema where `--output-path` says): its schemes replace the static reading.
    @Test func anInstalledTuistsGraphIsUsed() throws {
        let repo = try Self.repository(from: "ugglan")
        let bin = repo.path + "/../fake-bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let graph = #"{"name": "Ugglan", "path": "/x", "projects": {"/x/Projects/Claims": {"name": "Claims", "path": "/x/Projects/Claims", "targets": [{"name": "ClaimsTests", "product": "unit_tests"}, {"name": "ClaimsUITests", "product": "ui_tests"}], "schemes": [{"name": "Claims", "testActionTargets": ["ClaimsTests", "ClaimsUITests"]}]}}}"#
        let script = "#!/bin/sh\nwhile [ $# -gt 0 ]; do if [ \"$1\" = --output-path ]; then mkdir -p \"$2\"; printf '%s' '\(graph)' > \"$2/graph.json\"; fi; shift; done\n"
        FileManager.default.createFile(atPath: bin + "/tuist", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
        var environment = repo.environment
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: environment)
        #expect(result.status == 0 && result.standardOutput.contains("unit: xcodebuild test -scheme Ugglan-Workspace (unit bundles: 1); ui: xcodebuild test -scheme Ugglan-Workspace (UI bundles: 1)"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("-scheme Ugglan-Workspace -enableCodeCoverage YES 'CODE_SIGNING_ALLOWED=NO' -only-testing:ClaimsTests "), "\(file)")
    }
}

extension FileManager {
    /// Whether `path` is a folder.
    func isDirectory(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }
}
