import Foundation
import PrePushTestSupport
import Testing

/// No module links swift-corelibs-foundation on Linux (issue 55): `import Foundation` only as the
/// fallback where FoundationEssentials does not exist (`#if canImport(FoundationEssentials)` …
/// `#else`). One plain import of it (for `JSONSerialization` or `PropertyListSerialization`) put all
/// of it, CoreFoundation's start-up and ICU's 34 MB of data into the static binary, and 6.5 MiB on
/// the hook's peak memory.
@Suite struct FoundationImportTests {
    @Test func foundationIsImportedOnlyWhereFoundationEssentialsIsMissing() throws {
        let sources = Fixtures.repositoryRoot.appendingPathComponent("Sources").path
        let files = (FileManager.default.enumerator(atPath: sources)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100, "the scan found the sources")
        var plain: [String] = []
        for file in files {
            let lines = try String(contentsOfFile: sources + "/" + file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces).hasSuffix("import Foundation") {
                let previous = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                if previous != "#else" { plain.append("\(file):\(index + 1)") }
            }
        }
        #expect(plain.isEmpty, "import FoundationEssentials, with Foundation only under #else: \(plain)")
    }
}
