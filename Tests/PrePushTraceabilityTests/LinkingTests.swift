@testable import PrePushTraceability
import Testing

@Suite struct LinkingTests {
    /// The banded edit distance agrees with the whole table wherever the distance is within the
    /// limit, and says nil exactly where it is not.
    @Test func theBandedEditDistanceAgreesWithTheWholeTable() {
        func full(_ a: [UInt8], _ b: [UInt8]) -> Int {
            var previous = Array(0...b.count)
            for i in stride(from: 1, through: a.count, by: 1) {
                var current = [i] + Array(repeating: 0, count: b.count)
                for j in stride(from: 1, through: b.count, by: 1) {
                    current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                }
                previous = current
            }
            return previous[b.count]
        }
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abc_".utf8)
        for _ in 0..<3000 {
            let a = (0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let b = (0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let limit = Int.random(in: 0...4, using: &generator)
            let exact = full(a, b)
            let banded = TestLinker.editDistance(a, b, atMost: limit)
            #expect(banded == (exact <= limit ? exact : nil), "\(String(decoding: a, as: UTF8.self)) / \(String(decoding: b, as: UTF8.self)) limit \(limit)")
        }
    }

    @Test func aRenameBetweenXCTestAndSwiftTestingIsSuggested() {
        #expect(TestLinker.renamed("testBooksLend") == TestLinker.renamed("test_books_lend"))
        #expect(TestLinker.renamed("booksLend") == TestLinker.renamed("testBooksLend"))
        #expect(TestLinker.renamed("test_books_lend") != TestLinker.renamed("test_books_return"))
    }
}
