#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// The demo repository's app: the AgenticTodo package of shared/spec/agentic-todo-demo.md, kept as
/// real files in `Examples/AgenticTodo` (it builds and opens in Xcode on its own), copied by
/// `prepush demo`; and the edit the demo's second commit makes.
enum DemoFiles {
    /// Where the example is read from: `PREPUSH_DEMO_SOURCE`; beside an installed binary
    /// (`<prefix>/share/prepush/AgenticTodo`); or the source checkout this binary was built from.
    static func sourceFolder(environment: [String: String], executablePath: String) -> String? {
        var candidates: [String] = []
        if let named = environment["PREPUSH_DEMO_SOURCE"], !named.isEmpty { candidates.append(named) }
        candidates.append(FilePath.join(FilePath.parent(FilePath.parent(executablePath)), "share/prepush/AgenticTodo"))
        // #filePath is Sources/PrePushPipeline/DemoFiles.swift in the checkout the binary came from.
        let checkout = FilePath.parent(FilePath.parent(FilePath.parent(#filePath)))
        candidates.append(FilePath.join(checkout, "Examples/AgenticTodo"))
        return candidates.first { FileManager.default.fileExists(atPath: FilePath.join($0, "Package.swift")) }
    }

    /// The example's files (relative paths), without build output.
    static func files(in folder: String) throws -> [String] {
        let skipped: Set<String> = [".build", ".swiftpm", ".git", ".prepush/reports"]
        var found: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let full = relative.isEmpty ? folder : FilePath.join(folder, relative)
            for entry in try FileManager.default.contentsOfDirectory(atPath: full).sorted() {
                let path = relative.isEmpty ? entry : FilePath.join(relative, entry)
                if skipped.contains(path) { continue }
                if FileSystem.isDirectory(FilePath.join(folder, path)) { pending.append(path) } else { found.append(path) }
            }
        }
        return found.sorted()
    }

    /// The second commit: the home screen's add button loses its identifier and a sort button with
    /// only an icon appears next to it. Both are refused before any stage runs.
    static func brokenHomeScreen(_ original: String) -> String? {
        let identifier = "                .accessibilityIdentifier(\"home_button_add\")\n"
        let iconButton = "                Button { } label: { Image(systemName: \"arrow.up.arrow.down\") }\n"
        guard original.contains(identifier) else { return nil }
        return original.replacing(identifier, with: iconButton)
    }

    /// The view the second commit edits.
    static let homeScreen = "Sources/AgenticTodoViews/Views/TaskListView.swift"

    /// The reports the first push must leave.
    static let expectedReports = ["unit.log", "ui.log", "junit.xml", "results.json", "results.md",
                                  "traceability.html", "traceability.md", "traceability.json"]
}
