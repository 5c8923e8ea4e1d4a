import Foundation
import PrePushTestSupport
import PrePushXcodeProject
import Testing

/// What `init` reads of the team's files holds only text: a binary file in a CI folder (ugglan keeps
/// 35 snapshot PNGs in `ci_scripts/__Snapshots__`) names no command, even where its bytes spell one.
@Suite struct TeamFilesTests {
    @Test func aBinaryFileInACIFolderHoldsNoCommand() throws {
        let root = try TemporaryDirectory(prefix: "prepush-team-files")
        try root.write("xcodebuild test -scheme App -skipMacroValidation -destination 'platform=iOS Simulator,name=iPhone 15'\n", to: "ci_scripts/test.sh")
        // A PNG's signature and a NUL byte, then bytes that read as commands.
        try root.write("\u{89}PNG\r\n\u{1A}\n\u{0}\u{0}\nxcodebuild test -scheme Ghost -skipPackagePluginValidation\ntuist generate --path Ghost\n",
                       to: "ci_scripts/__Snapshots__/shot.png")
        #expect(TeamCommands.xcodebuildTests(root: root.path).map(\.schemes) == [["App"]])
        #expect(TeamCommands.validationFlags(root: root.path).map(\.flag) == ["-skipMacroValidation"])
        #expect(TeamCommands.generatorInvocations(root: root.path).isEmpty)
        #expect(TeamCommands.destination(root: root.path)?.value == "platform=iOS Simulator,name=iPhone 15")

        // The same bytes without the NUL are text, and are read.
        try root.write("xcodebuild test -scheme Ghost -skipPackagePluginValidation\ntuist generate --path Ghost\n", to: "ci_scripts/__Snapshots__/shot.png")
        #expect(TeamCommands.xcodebuildTests(root: root.path).flatMap(\.schemes).sorted() == ["App", "Ghost"])
        #expect(TeamCommands.generatorInvocations(root: root.path).map(\.path) == ["Ghost"])
    }

    @Test func aFileWithCRLFLineEndsHasItsLines() throws {
        // A workflow saved on Windows: Swift reads "\r\n" as one Character, so without care the
        // whole file was one line and its commands were never found.
        let root = try TemporaryDirectory(prefix: "prepush-team-crlf")
        try root.write("jobs:\r\n  test:\r\n    steps:\r\n      - run: xcodebuild test -scheme App -destination 'platform=iOS Simulator,name=iPhone 15'\r\n      - run: make test\r\n",
                       to: ".github/workflows/ci.yml")
        try root.write("test:\r\n\txcodebuild test -scheme Lib\r\n", to: "Makefile")
        #expect(TeamCommands.xcodebuildTests(root: root.path).flatMap(\.schemes).sorted() == ["App", "Lib"])
        #expect(TeamCommands.destination(root: root.path)?.value == "platform=iOS Simulator,name=iPhone 15")
        #expect(TeamCommands.testCommands(root: root.path).map(\.text).contains("make test"))
        #expect(PackageManifest.unguardedUIKitImport(in: "import SwiftUI\r\nimport UIKit\r\n") == 2)
    }
}
