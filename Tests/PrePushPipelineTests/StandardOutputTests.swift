import Foundation
import PrePushTestSupport
import Testing

/// A report's payload reaches standard output one way, `Console.payload` (issue 55): a scan of the
/// sources for other writes to it. A payload written beside the console would skip what the
/// console decides for standard output (which stream carries notes when it is a report).
@Suite struct StandardOutputTests {
    /// Ways to write to standard output without the console.
    static let directWrites = ["to: console.output", "to: diagnostics.console.output", "STDOUT_FILENO", "FileHandle.standardOutput", "fputs(", " print("]

    @Test func payloadsReachStandardOutputOnlyThroughTheConsole() throws {
        let sources = Fixtures.repositoryRoot.appendingPathComponent("Sources").path
        let modules = ["PrePushPipeline", "PrePushCommands", "PrePushResults", "PrePushTraceability", "PrePushAccessibility", "PrePushConfig"]
        var scanned = 0
        var found: [String] = []
        for module in modules {
            let folder = sources + "/" + module
            guard let files = FileManager.default.enumerator(atPath: folder)?.compactMap({ $0 as? String }) else { continue }
            for file in files where file.hasSuffix(".swift") {
                scanned += 1
                let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    guard !code.hasPrefix("//") else { continue }
                    for write in Self.directWrites where line.contains(write) || code.hasPrefix(write.dropFirst()) && write.hasPrefix(" ") { found.append("\(module)/\(file):\(number + 1): \(code)") }
                }
            }
        }
        #expect(scanned > 100, "the scan found the sources")
        #expect(found.isEmpty, "write payloads with Console.payload: \(found.joined(separator: "\n"))")
    }
}
