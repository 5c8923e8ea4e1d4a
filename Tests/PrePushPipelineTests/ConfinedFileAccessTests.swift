import Foundation
import PrePushTestSupport
import Testing

/// The commands outside a push touch the checkout through the one confined layer (`Checkout`,
/// `ReportFiles`), never by a file API of their own (issue 51: each new command repeated holes the
/// push path had closed). A scan of their sources for direct file APIs; what remains is listed
/// here with why it is not a path a pull request controls. A new use fails this test until it
/// goes through the layer or is listed with its reason.
@Suite struct ConfinedFileAccessTests {
    /// Direct ways to read or write a file.
    static let fileAPIs = ["FileManager.default.", "FileReading.read(", "AtomicFile.write(", "String(contentsOfFile", "fopen(",
                           "ReportPublisher.write"]

    /// File → API → (uses, why it is not a checkout path).
    static let allowed: [String: [String: (Int, String)]] = [
        "AccessibilityRun.swift": ["FileReading.read(": (1, "asks whether a named file is missing (limit 0) before the confined check reads it")],
        "CIRange.swift": ["FileManager.default.": (1, "the CI runner's event file (GITHUB_EVENT_PATH), outside the checkout")],
        "DemoFiles.swift": ["FileManager.default.": (2, "the demo's own example app, shipped with prepush")],
        "DemoRun.swift": ["FileManager.default.": (6, "the demo's temporary repository, made by prepush itself"),
                          "String(contentsOfFile": (1, "the demo's temporary repository")],
        "HistoryRun.swift": ["FileManager.default.": (1, "the modification date of a history file the user imports")],
        "HookInstaller.swift": ["FileManager.default.": (2, "the hooks folder of the user's own clone (install runs on a laptop)"),
                                "AtomicFile.write(": (1, "the hook script in the hooks folder")],
        "ImpactRun.swift": ["FileReading.read(": (1, "the map `impact import` reads: a file the developer names (CI's artifact), never one the checkout's configuration names")],
        "InitRun.swift": ["FileManager.default.": (2, "asks whether .prepush.yml or the baseline exists before writing (lstat-like); the writes are confined")],
        "InitTuistGraph.swift": ["FileManager.default.": (2, "finds tuist on PATH and removes the temporary folder tuist graph wrote to, outside the checkout"),
                                 "FileReading.read(": (1, "the graph.json tuist wrote in that temporary folder")],
        "PullRequestComment.swift": ["FileManager.default.": (1, "curl's private temporary folder (mkdtemp, 0700)"),
                                     "AtomicFile.write(": (2, "the token's header file and the body, in that private folder"),
                                     "FileReading.read(": (1, "the runner's event file (GITHUB_EVENT_PATH)"),
                                     "String(contentsOfFile": (1, "curl's response headers, in that private folder")],
        "ResultsRun.swift": ["FileManager.default.": (2, "whether a named input exists, for its message; ResultsTrust admits it through the layer")],
        "TraceabilityRun.swift": ["FileManager.default.": (2, "whether a named input exists, for its message; ResultsTrust admits it through the layer")],
        "TrackedHooks.swift": ["FileReading.read(": (1, "a committed hook's text, only searched for prepush's lines, never printed nor written")],
    ]

    @Test func commandsTouchTheCheckoutOnlyThroughTheConfinedLayer() throws {
        let folder = Fixtures.repositoryRoot.appendingPathComponent("Sources/PrePushPipeline/Commands").path
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 10, "the scan found the commands")
        var found: [String: [String: Int]] = [:]
        for file in files {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let code = line.trimmingCharacters(in: .whitespaces)
                // Comments, the current folder (not a file), and report writes given the checkout are fine.
                guard !code.hasPrefix("//"), !line.contains("checkout:") else { continue }
                let scanned = line.replacingOccurrences(of: "FileManager.default.currentDirectoryPath", with: "")
                for api in Self.fileAPIs where scanned.contains(api) { found[file, default: [:]][api, default: 0] += 1 }
            }
        }
        for (file, uses) in found.sorted(by: { $0.key < $1.key }) {
            for (api, count) in uses.sorted(by: { $0.key < $1.key }) {
                let allowance = Self.allowed[file]?[api]?.0 ?? 0
                #expect(count <= allowance, "\(file) uses \(api) \(count) times (\(allowance) listed): go through Checkout / ReportFiles, or list it with why")
            }
        }
        // The list stays short and true: every entry is still used.
        for (file, apis) in Self.allowed {
            for (api, (count, _)) in apis { #expect(found[file]?[api] == count, "\(file): \(api) is listed \(count) times, used \(found[file]?[api] ?? 0)") }
        }
    }
}
