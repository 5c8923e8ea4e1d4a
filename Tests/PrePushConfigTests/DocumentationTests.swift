import Foundation
import PrePushConfig
import Testing

@Suite struct DocumentationTests {
    let page: String = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/configuration.md").standardized.path
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }()

    @Test func everyKeyTheFileMayHoldIsDocumented() {
        #expect(!page.isEmpty)
        for (parent, keys) in ConfigurationFile.knownKeys {
            for key in keys {
                let full = parent.isEmpty ? key : "\(parent).\(key)"
                // Sections (stages, stages.ui, remote, ...) are documented by their keys.
                if ConfigurationFile.knownKeys[full] != nil { continue }
                #expect(page.contains("| `\(full)` |"), "docs/configuration.md has no row for \(full)")
            }
        }
    }

    /// The configuration examples of docs/flaky-tests.md are read as written.
    @Test func theFlakyTestExamplesAreValid() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/flaky-tests.md").standardized.path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let blocks = text.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 4)
        for block in blocks {
            let file = try ConfigurationFile.decode(block, path: "docs/flaky-tests.md")
            #expect(!file.stages.isEmpty || !file.quarantine.isEmpty)
        }
    }

    @Test func theCompleteExampleIsValid() throws {
        let start = try #require(page.range(of: "```yaml\n# .prepush.yml\n"))
        let end = try #require(page.range(of: "```", range: start.upperBound..<page.endIndex))
        let example = String(page[start.upperBound..<end.lowerBound])
        let file = try ConfigurationFile.decode(example, path: "docs/configuration.md")
        #expect(file.stages.count == 4)
        #expect(file.stageOrder.map(\.rawValue) == ["unit", "ui", "lint", "build-docs"])
        #expect(file.remote?.syncMode?.value == .rsync)
    }
}
