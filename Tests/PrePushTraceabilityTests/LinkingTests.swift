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

@Suite struct ScenarioHistoryTests {
    /// Runs of one tree make one mark (flaky when they failed and passed), a retry that saved a test
    /// is flaky, and the strip says since which tree a scenario keeps failing.
    @Test func aStripHasAMarkPerTreeAndSaysSinceWhenItFails() {
        let results = [
            PastResult(run: 1, tree: "aaaaaaa1", status: "passed"),
            PastResult(run: 2, tree: "aaaaaaa1", status: "failed"),
            PastResult(run: 3, tree: "bbbbbbb2", status: "flaky"),
            PastResult(run: 4, tree: "ccccccc3", status: "failed"),
            PastResult(run: 4, tree: "ccccccc3", status: "skipped"),
            PastResult(run: 5, tree: "ddddddd4", status: "unfinished"),
        ]
        let marks = TraceabilityMatrix.marks(results)
        #expect(marks == [
            HistoryMark(tree: "aaaaaaa1", status: .passed, flaky: true),
            HistoryMark(tree: "bbbbbbb2", status: .passed, flaky: true),
            HistoryMark(tree: "ccccccc3", status: .failed, flaky: false),
            HistoryMark(tree: "ddddddd4", status: .failed, flaky: false),
        ])
        #expect(TraceabilityMatrix.stripText(marks) == "⚠️⚠️❌❌", "passed then failed on tree a is flaky, as a retry that saved one is")
        #expect(TraceabilityMatrix.failingSince(marks) == "failing since tree ccccccc (2 trees)")
        #expect(TraceabilityMatrix.failingSince(Array(marks.prefix(2))) == nil, "the latest tree passed")
        // Only the last trees are kept.
        let many = (1...30).map { PastResult(run: $0, tree: "t\($0)", status: "passed") }
        #expect(TraceabilityMatrix.marks(many).map(\.tree) == (21...30).map { "t\($0)" })
    }

    @Test func aTestIsTheSameInTheHistoryHoweverItsSuiteIsQualified() {
        #expect(TraceabilityMatrix.historyKey(identifier: "LibraryTests.FineTests.fine(days:)") == "FineTests.fine")
        #expect(TraceabilityMatrix.historyKey(identifier: "BooksTests.test_books_lend") == "BooksTests.test_books_lend")
    }
}
