import Foundation
import PrePushCore
import PrePushTestSupport
import PrePushTraceability
import Testing

/// The catalog reader on thousands of damaged catalogs (a seeded generator, so every run is the
/// same): it either reads one or says what is wrong with a place inside the file — never crashes.
@Suite struct CatalogMutationTests {
    /// A small deterministic generator (SplitMix64).
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let pieces: [[UInt8]] = [":", "-", "[", "{", "\"", "'", "\n", "  ", "&a", "*a", "!!str", "P9", "--", "test_", "\u{FEFF}"].map { Array($0.utf8) }

    @Test func damagedCatalogsAreReadOrRefusedWithAPlace() throws {
        let original = Array(try String(contentsOfFile: Fixtures.own + "/traceability/scenarios.yml", encoding: .utf8).utf8)
        var random = Seeded(state: 7)
        var refused = 0
        for _ in 0..<2_000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let index = Int.random(in: 0...bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...20, using: &random)))
                case 1: bytes.insert(contentsOf: Self.pieces.randomElement(using: &random)!, at: index)
                default:
                    let from = Int.random(in: 0..<bytes.count, using: &random)
                    bytes.insert(contentsOf: bytes[from..<min(bytes.count, from + 30)], at: index)
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let lineCount = Diagnostic.lines(of: text).count
            do {
                let catalog = try ScenarioCatalog.decode(text, path: "s.yml")
                #expect(catalog.entries.allSatisfy { TestScenario.isValidTestMethodName($0.scenario.testMethodName) })
            } catch {
                refused += 1
                #expect(!error.description.isEmpty)
                for problem in error.problems {
                    #expect(problem.location.line >= 1 && problem.location.line <= max(1, lineCount), "\(problem)")
                }
            }
        }
        #expect(refused > 500, "most damage is noticed")
    }
}
