import Foundation
import PrePushCore
import Testing

/// The byte reader of exported impact maps gives what JSONDecoder gives, and steps aside for what it does not expect.
@Suite struct ImpactMapReaderTests {
    static let map = ImpactMap(
        stage: "unit", packageFolder: "Packages/Core", commit: String(repeating: "ab", count: 20), toolchain: "Swift version 6.3.1 (swift-6.3.1-RELEASE)",
        recorded: 1_764_260_000.125, seconds: 12.5,
        // A file's functions come together and the reader reuses the last file's String: files that
        // repeat, differ by one byte, and come back after another.
        functions: [.init(file: "Sources/Lib/Lib.swift", name: "Lib.double(_:) -> Swift.Int", startLine: 3, endLine: 5),
                    .init(file: "Sources/Lib/Lib.swift", name: "Lib.triple(_:) -> Swift.Int", startLine: 7, endLine: 9),
                    .init(file: "Sources/Lib/Lib.swifT", name: "Lib.other()", startLine: 1, endLine: 2),
                    .init(file: "Sources/Lib/Ünicode \"quoted\"\\path/x.swift", name: "tab\there, line\nbreak, 🎉", startLine: 10, endLine: 20),
                    .init(file: "Sources/Lib/Lib.swift", name: "Lib.half(_:) -> Swift.Int", startLine: 11, endLine: 12)],
        tests: [.init(identifier: "LibTests.MathTests.testDouble", listed: "LibTests.MathTests/testDouble", file: "Tests/LibTests/MathTests.swift", functions: [0, 1]),
                .init(identifier: "LibTests.crashes()", listed: nil, file: nil, functions: [], unknown: "it crashed (signal 11)")])

    @Test func readsWhatExportWritesAsJSONDecoderDoes() throws {
        let bytes = try Self.map.exported()
        let read = try #require(ImpactMapReader.read(bytes))
        #expect(read == Self.map)
        #expect(read == (try JSONDecoder().decode(ImpactMap.self, from: Data(bytes))))
        #expect(try ImpactMap.imported(bytes).get() == Self.map)
    }

    @Test func readsSpacingEscapesAndKeysItDoesNotKnow() throws {
        let text = #"""
        { "version" : 1, "stage": "unit", "packageFolder": "", "commit": "c", "toolchain": "t\u00e9\ud83c\udf89", "recorded": 1e3,
          "seconds": 0, "extra": {"a": [1, 2.5, true, null, "x"]}, "functions": [], "tests": [
            {"identifier": "A.b()", "listed": null, "functions": []} ] }
        """#
        let read = try #require(ImpactMapReader.read(Array(text.utf8)))
        #expect(read.toolchain == "té🎉")
        #expect(read.recorded == 1000)
        #expect(read.tests == [ImpactMap.Test(identifier: "A.b()", listed: nil, file: nil, functions: [])])
    }

    @Test func stepsAsideForWhatItDoesNotExpect() {
        for text in ["", "[]", #"{"version": 1}"#, #"{"version": 1.5, "stage": "u"}"#, "{\"version\": 1,", #"{"stage": "unterminated}"#] {
            #expect(ImpactMapReader.read(Array(text.utf8)) == nil, "\(text)")
        }
        // JSONDecoder then says why.
        guard case .failure(let problem) = ImpactMap.imported(Array(#"{"version": 1}"#.utf8)) else { Issue.record("expected a problem"); return }
        #expect(problem.description.hasPrefix("not an impact map prepush wrote"))
    }
}
