import Foundation
import PrePushTestSupport
import Testing

/// The fenced `sh` blocks the docs mark `<!-- runnable: … -->` are run as written, in a new
/// repository holding a Swift package called MyApp, with this build's prepush first on PATH: a
/// new user copying them gets what the docs say.
/// Own process: the docs' blocks are run by /bin/sh as written, calling the `prepush` first on PATH.
@Suite struct RunnableDocsTests {
    static let pages = ["README.md", "docs/getting-started.md"]

    /// Each marked block of `page`, with the line it starts on.
    static func runnableBlocks(in page: String) throws -> [(line: Int, text: String)] {
        let lines = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(page), encoding: .utf8)
            .components(separatedBy: "\n")
        var blocks: [(Int, String)] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index].hasPrefix("<!-- runnable"), index + 1 < lines.count, lines[index + 1] == "```sh" else { continue }
            var body: [String] = []
            var end = index + 2
            while end < lines.count, lines[end] != "```" { body.append(lines[end]); end += 1 }
            blocks.append((index + 2, body.joined(separator: "\n")))
            index = end
        }
        return blocks
    }

    @Test(arguments: RunnableDocsTests.pages)
    func everyRunnableBlockRuns(page: String) throws {
        for (line, text) in try Self.runnableBlocks(in: page) {
            let folder = try TemporaryDirectory(prefix: "prepush-docs")
            let repo = try GitRepository(prefix: "prepush-docs")
            // The block starts from the folder holding MyApp.
            let app = folder.url("MyApp")
            try FileManager.default.moveItem(atPath: repo.path, toPath: app)
            try Data("// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(name: \"MyApp\", targets: [.target(name: \"MyApp\"), .testTarget(name: \"MyAppTests\", dependencies: [\"MyApp\"])])\n".utf8)
                .write(to: URL(fileURLWithPath: app + "/Package.swift"))
            var environment = repo.environment
            environment["PATH"] = (PrepushBinary.path as NSString).deletingLastPathComponent + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            let result = try Command.run("/bin/sh", ["-ec", text], in: folder.path, environment: environment)
            #expect(result.status == 0, "\(page):\(line): the block failed: \(result)")
            #expect(FileManager.default.fileExists(atPath: app + "/.prepush.yml"), "\(page):\(line)")
            #expect(FileManager.default.fileExists(atPath: app + "/.git/hooks/pre-push"), "\(page):\(line)")
        }
    }

    @Test func thePagesMarkAtLeastOneBlock() throws {
        let blocks = try Self.pages.flatMap { try Self.runnableBlocks(in: $0) }
        #expect(!blocks.isEmpty)
    }
}
