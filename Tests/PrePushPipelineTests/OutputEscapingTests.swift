import Foundation
import PrePushConfig
import PrePushCore
import PrePushPipeline
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// Text a pull request writes reaches three more output languages than the terminal: Markdown
/// (results.md, the step summary, the pull-request comment), HTML (traceability.html) and YAML
/// (`prepush init`'s file). In each, a line break or markup in it stays text.
@Suite struct OutputEscapingTests {
    /// The lines a Markdown or YAML reader sees: cut at LF, CR, CRLF, VT, FF, NEL, U+2028 and U+2029.
    static func lines(_ text: String) -> [String] {
        text.replacing("\r\n", with: "\n").unicodeScalars
            .split(omittingEmptySubsequences: false) { MarkdownText.isLineBreak($0) }.map { String(String.UnicodeScalarView($0)) }
    }

    /// A failure message with lone CRs, as a JUnit file carries it: results.md and the step summary
    /// show it as one line of text, with no heading and no HTML comment of its own.
    @Test func aFailureMessageCannotForgeAHeadingOrHideTheReport() throws {
        let folder = try TemporaryDirectory()
        try folder.write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites><testsuite name="A" tests="1" failures="1">
        <testcase classname="A" name="test_a" time="0.5"><failure message="boom&#13;## ✅ Tests passed&#13;&lt;!--"/></testcase>
        </testsuite></testsuites>
        """, to: "junit.xml")
        var environment = ProcessInfo.processInfo.environment
        environment["GITHUB_ACTIONS"] = "true"
        environment["GITHUB_STEP_SUMMARY"] = folder.url("summary.md")
        environment.removeValue(forKey: "GITHUB_OUTPUT")
        let result = try InProcess.results(["results", "junit.xml", "--format", "markdown", "--output", folder.url("results.md")],
                                           in: folder.path, environment: environment)
        #expect(result.status == 1, "\(result)")
        for file in ["results.md", "summary.md"] {
            let markdown = try #require(folder.read(file), "\(file)")
            let lines = Self.lines(markdown)
            #expect(!lines.contains { $0.hasPrefix("## ✅") }, "\(file): \(markdown.debugDescription)")
            #expect(!markdown.contains("\r") && !markdown.contains("<!--\n") && !markdown.contains("&#13;"), "\(file): \(markdown.debugDescription)")
            #expect(lines.contains("- **A.test_a**"), "\(file): \(markdown)")
            #expect(lines.contains("  - boom ⏎ ## ✅ Tests passed ⏎ &lt;!--"), "\(file): \(markdown)")
        }
    }

    /// A hostile clone: a nested package whose folder's name holds line breaks and a stage. `init`
    /// keeps the name one line in its comments and quotes it as a value; the file reads back as the
    /// stages init meant, and `prepush run --stage lint` has no such stage to run.
    @Test func initWritesAFolderNameWithLineBreaksAsText() throws {
        let repo = try GitRepository()
        let manifest = "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"X\", targets: [.target(name: \"X\"), .testTarget(name: \"XTests\", dependencies: [\"X\"])])\n"
        // Written by init's old code, this name gave the nested stage a run, then a `lint:` stage,
        // then a stage that took init's own lines after it: `prepush run --stage lint` touched pwned.
        let folder = "Evil\n    run: \"true\"\n  lint:\n    run: touch pwned\n  other:\n    #"
        try repo.write(manifest, to: "Package.swift")
        try repo.write(manifest, to: folder + "/Package.swift")
        let initialised = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(initialised.status == 0, "\(initialised)")
        let text = try #require(repo.root.read("work/.prepush.yml"))
        #expect(!Self.lines(text).contains { $0.hasPrefix("  lint:") }, "\(text)")
        let file = try ConfigurationFile.decode(text, path: ".prepush.yml")
        #expect(Set(file.stages.keys.map(\.rawValue)) == ["unit", "package-evil-----run---true----lint------run--touch-pwned---othe"], "\(file.stages.keys)")
        #expect(file.stages.values.compactMap { $0.workingDirectory?.value } == [folder])
        let config = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(config.status == 0, "\(config)")
        let run = try InProcessCLI.run(["run", "--stage", "lint"], in: repo.path, environment: repo.environment)
        #expect(run.status == 2, "\(run)")
        #expect(!repo.exists("pwned"), "the folder's name ran as a stage: \(run)")
    }

    /// A shared scheme named with line breaks: its name goes into a comment and, shell-quoted, into
    /// the UI stage's `run:`, which reads back as exactly that command.
    @Test func initQuotesASchemeNameWithLineBreaks() throws {
        let repo = try GitRepository()
        let scheme = "Evil\n    run: \"true\"\n  lint:\n    run: touch pwned\n  other:\n    #"
        try repo.write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <Scheme><TestAction><Testables><TestableReference skipped="NO">
        <BuildableReference BuildableIdentifier="primary" BlueprintIdentifier="1" BuildableName="AppUITests.xctest" BlueprintName="AppUITests" ReferencedContainer="container:App.xcodeproj"/>
        </TestableReference></Testables></TestAction></Scheme>
        """, to: "App.xcodeproj/xcshareddata/xcschemes/\(scheme).xcscheme")
        let initialised = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(initialised.status == 0, "\(initialised)")
        let text = try #require(repo.root.read("work/.prepush.yml"))
        let file = try ConfigurationFile.decode(text, path: ".prepush.yml")
        #expect(file.stages.keys.map(\.rawValue) == ["ui"], "\(text)")
        let run = try #require(file.stages[.ui]?.run?.value)
        #expect(run.contains(" -scheme \(ShellQuoting.word(scheme)) -destination "), "\(run)")
        let lint = try InProcessCLI.run(["run", "--stage", "lint"], in: repo.path, environment: repo.environment)
        #expect(lint.status == 2 && !repo.exists("pwned"), "\(lint)")
    }

    /// A hostile clone's CI "copies" its mock to an ignored name that is shell syntax, and names a
    /// server and an example file with YAML in them: the copy is one quoted word in the stage's
    /// `run:` (the stage still the only one), the rest comments.
    @Test func initQuotesTheSetUpItReadsFromTheCI() throws {
        let repo = try GitRepository()
        let target = "x;touch pwned"
        try repo.write("\(target)\nSecret.txt\n", to: ".gitignore")
        try repo.write("mock", to: "mock.plist")
        try repo.write("example", to: "Secret.example.txt")
        try repo.write("""
        jobs:
          test:
            steps:
              - run: cp mock.plist "\(target)"
              - run: php -S localhost:8080 -t "x:\\n  lint:\\n    run: touch pwned" &
              - run: xcodebuild test -project App.xcodeproj -scheme App -destination 'platform=iOS Simulator,name=iPhone 16'
        """, to: ".github/workflows/ci.yml")
        try repo.write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <Scheme><TestAction><Testables><TestableReference skipped="NO">
        <BuildableReference BuildableIdentifier="primary" BlueprintIdentifier="1" BuildableName="AppTests.xctest" BlueprintName="AppTests" ReferencedContainer="container:App.xcodeproj"/>
        </TestableReference></Testables></TestAction></Scheme>
        """, to: "App.xcodeproj/xcshareddata/xcschemes/App.xcscheme")
        let initialised = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(initialised.status == 0, "\(initialised)")
        let text = try #require(repo.root.read("work/.prepush.yml"))
        let file = try ConfigurationFile.decode(text, path: ".prepush.yml")
        #expect(file.stages.keys.map(\.rawValue) == ["unit"], "\(text)")
        let run = try #require(file.stages[.unit]?.run?.value)
        #expect(run.hasPrefix("test -e \(ShellQuoting.word(target)) || cp mock.plist \(ShellQuoting.word(target)) && "), "\(run)")
        #expect(text.contains("  # The team's CI starts a server before its tests (php -S localhost:8080 "), "\(text)")
        #expect(text.contains("  # Secret.txt is not committed (the .gitignore names it) but Secret.example.txt is: "), "\(text)")
        let lint = try InProcessCLI.run(["run", "--stage", "lint"], in: repo.path, environment: repo.environment)
        #expect(lint.status == 2 && !repo.exists("pwned"), "\(lint)")
    }
}
