import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// A stage that fails to compile, in GitHub Actions with real step-summary and output files: each
/// compiler error is said once, from the repository root, annotated at its place, and every report
/// says the build failed before any test ran (issue 43: red builds report too; issue 38: the error
/// was printed twice, once with an absolute path).
@Suite struct RedBuildReportTests {
    @Test func aCompileErrorIsSaidOnceAnnotatedAndReported() throws {
        let repo = try GitRepository(prefix: "prepush-red-build")
        try repo.write("""
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(name: "Shop", targets: [.target(name: "Shop"), .testTarget(name: "ShopTests", dependencies: ["Shop"])])

        """, to: "Package.swift")
        try repo.write("public let answer = 42\n", to: "Sources/Shop/Shop.swift")
        try repo.write("""
        import Testing
        @testable import Shop

        @Test func answers() {
            #expect(answr == 42)
        }

        """, to: "Tests/ShopTests/ShopTests.swift")
        try repo.write(".build/\n", to: ".gitignore")
        try repo.write("cache: false\nstages:\n  unit:\n    run: swift test\n", to: ".prepush.yml")
        try repo.commitAll("a typo in a test")
        let summary = repo.root.url("summary.md"), outputs = repo.root.url("outputs.txt")
        try repo.root.write("", to: "summary.md")
        try repo.root.write("", to: "outputs.txt")
        var environment = repo.environment
        environment["GITHUB_ACTIONS"] = "true"
        environment["GITHUB_STEP_SUMMARY"] = summary
        environment["GITHUB_OUTPUT"] = outputs
        let run = try InProcessCLI.run(["run"], in: repo.path, environment: environment)
        #expect(run.status == 1, "\(run)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let error = "Tests/ShopTests/ShopTests.swift:5:13: error: cannot find 'answr' in scope"
        #expect(lines.filter { $0.hasSuffix(error) }.count == 1, "said once: \(run.standardOutput)")
        #expect(lines.first { $0.hasSuffix(error) } == "   " + error, "\(run.standardOutput)")
        #expect(!lines.contains { $0.contains(repo.path + "/Tests/ShopTests/ShopTests.swift") }, "no absolute path: \(run.standardOutput)")
        #expect(run.standardOutput.contains("prepush: tests: none ran: the build failed ("), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("::error file=Tests/ShopTests/ShopTests.swift,line=5,col=13,title=the build failed::cannot find 'answr' in scope\n"), "\(run.standardOutput)")
        let written = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(written.hasPrefix("<!-- prepush:tests -->\n## ❌ The build failed before any test ran\n"), "\(written)")
        #expect(written.contains("- **build**: `Tests/ShopTests/ShopTests.swift:5:13`: cannot find 'answr' in scope"), "\(written)")
        // Then the stage and its log's end, for what has no `error:` line of its own.
        #expect(written.contains("\nStage `unit` failed before its tests ran; its log ends:\n\n~~~~\n"), "\(written)")
        let tail = try #require(written.split(separator: "~~~~\n").dropFirst().first)
        #expect(tail.split(separator: "\n").count >= 3 && tail.contains("answr"), "\(tail)")
        let json = try #require(repo.root.read("work/.prepush/reports/results.json"))
        #expect(json.contains("\"buildLogs\": [") && json.contains("\"stage\": \"unit\""), "\(json.prefix(600))")
        let stepOutputs = try String(contentsOfFile: outputs, encoding: .utf8)
        #expect(stepOutputs.contains("conclusion=failure\n") && stepOutputs.contains("total=0\n"), "\(stepOutputs)")
        #expect(stepOutputs.split(separator: "\n").contains { $0.hasPrefix("summary=") && $0.hasSuffix(".prepush/reports/results.md") }, "\(stepOutputs)")
        let junit = try #require(repo.root.read("work/.prepush/reports/junit.xml"))
        #expect(junit.contains("type=\"build\">Tests/ShopTests/ShopTests.swift:5:13: cannot find &apos;answr&apos; in scope</error>")
                || junit.contains("type=\"build\">Tests/ShopTests/ShopTests.swift:5:13: cannot find 'answr' in scope</error>"), "\(junit)")
    }
}
