import Foundation
import PrePushTestSupport
import Testing

/// `selective: true` on a real package built here: Core ← Feature ← App, and Other beside them,
/// each with a test target. A change runs the tests of what it can affect and nothing else.
@Suite(.serialized) struct SelectiveTestsTests {
    static let manifest = """
    // swift-tools-version:6.0
    import PackageDescription

    let package = Package(
        name: "Chain",
        targets: [
            .target(name: "Core"),
            .target(name: "Feature", dependencies: ["Core"]),
            .target(name: "App", dependencies: ["Feature"]),
            .target(name: "Other"),
            .testTarget(name: "CoreTests", dependencies: ["Core"]),
            .testTarget(name: "FeatureTests", dependencies: ["Feature"]),
            .testTarget(name: "AppTests", dependencies: ["App"]),
            .testTarget(name: "OtherTests", dependencies: ["Other"]),
        ]
    )

    """

    static let built = BuiltOnce {
        let repo = try GitRepository(prefix: "prepush-selective")
        try repo.write(SelectiveTestsTests.manifest, to: "Package.swift")
        let modules: [(String, String?)] = [("Core", nil), ("Feature", "Core"), ("App", "Feature"), ("Other", nil)]
        for (name, dependency) in modules {
            let value = dependency.map { "\($0).value" } ?? "1"
            try repo.write("\(dependency.map { "import \($0)\n" } ?? "")public let value = \(value)\n", to: "Sources/\(name)/\(name).swift")
            try repo.write("import Testing\nimport \(name)\n\n@Test func works() { #expect(value == 1) }\n", to: "Tests/\(name)Tests/\(name)Tests.swift")
        }
        try repo.write("# Chain\n", to: "README.md")
        try repo.write(".build/\n", to: ".gitignore")
        try repo.write("""
        cache: false
        stages:
          unit:
            run: swift build --build-tests -q && swift test --skip-build --event-stream-output-path .build/events.jsonl --event-stream-version 0
            selective: true

        """, to: ".prepush.yml")
        try repo.commitAll("the package")
        _ = try Command.run("swift", ["build", "--build-tests", "-q"], in: repo.path, environment: repo.environment).checked()
        return repo
    }

    static func package() throws -> GitRepository { try built.repository() }

    /// Commits `change` and runs the stage on that commit alone (`--base HEAD~1`).
    func runAfter(_ repo: GitRepository, writing text: String, to file: String) throws -> CommandResult {
        try repo.write(text, to: file)
        try repo.commitAll("change \(file)")
        return try PrepushBinary.run(["run", "--base", "HEAD~1"], in: repo.path, environment: repo.environment)
    }

    @Test func aChangeInTheMiddleRunsItsTestsAndItsDependentsOnly() throws {
        let repo = try Self.package()
        let result = try runAfter(repo, writing: "import Core\npublic let value = Core.value // \(UUID())\n", to: "Sources/Feature/Feature.swift")
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("prepush: unit: selective: 2 of 4 test targets (FeatureTests and AppTests), for changes in Feature"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("--filter '^(FeatureTests|AppTests)\\.'"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("prepush: tests: 2 passed, 0 failed"), "\(result.standardOutput)")
    }

    @Test func aChangeToALeafTestTargetRunsOnlyIt() throws {
        let repo = try Self.package()
        let result = try runAfter(repo, writing: "import Testing\nimport Other\n\n@Test func works() { #expect(value == 1) } // \(UUID())\n",
                                  to: "Tests/OtherTests/OtherTests.swift")
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("selective: 1 of 4 test targets (OtherTests), for changes in OtherTests"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("prepush: tests: 1 passed, 0 failed"), "\(result.standardOutput)")
    }

    @Test func aPushOfDocsOnlyRunsNoTestStageAndSaysWhy() throws {
        let repo = try Self.package()
        let result = try runAfter(repo, writing: "# Chain\n\(UUID())\n", to: "README.md")
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("prepush – unit: skipped (selective: the push changes no target, only README.md)"), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("prepush: tests:"))
    }

    @Test func aManifestChangeRunsEverything() throws {
        let repo = try Self.package()
        let result = try runAfter(repo, writing: Self.manifest + "// \(UUID())\n", to: "Package.swift")
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("prepush: note: unit: selective: every test runs (Package.swift changed)"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("prepush: tests: 4 passed, 0 failed"), "\(result.standardOutput)")
    }
}
