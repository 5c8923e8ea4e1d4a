import Foundation
import PrePushCore
import PrePushResults
import PrePushTestSupport
import Testing

/// Swift Testing's event stream of parameterized tests, captured with the toolchain
/// (`Tests/Fixtures/captured/README.md`): a test is one result by its function, whatever its
/// argument cases; a failing case fails it.
@Suite struct ParameterizedEventStreamTests {
    func stream(_ name: String) throws -> TestRun {
        let path = Fixtures.own + "/captured/" + name
        return try SwiftTestingEventStream.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
    }

    @Test func eachParameterizedTestIsOneResultByItsFunction() throws {
        let run = try stream("parameterized-events-linux-6.3.1.jsonl")
        #expect(run.results.map(\.testIdentifier).sorted() == [
            "ShapesTests.AreaTests.oddSidesFail(side:)", "ShapesTests.AreaTests.plain()", "ShapesTests.AreaTests.rectangle(width:height:)",
            "ShapesTests.AreaTests.square(side:)", "ShapesTests.freeParameterized(text:)",
        ])
        let statuses = Dictionary(uniqueKeysWithValues: run.results.map { ($0.testIdentifier, $0.status) })
        #expect(statuses["ShapesTests.AreaTests.square(side:)"] == .passed)
        #expect(statuses["ShapesTests.freeParameterized(text:)"] == .passed)
        // Cases 1 and 3 fail: the test fails once, with both failures.
        let odd = try #require(run.results.first { $0.name == "oddSidesFail(side:)" })
        #expect(odd.status == .failed)
        #expect(odd.failures.count == 2)
        #expect(odd.failures.allSatisfy { $0.location?.line == 17 })
    }

    @Test func aStreamWhoseFilterMatchedNothingHoldsNoTest() throws {
        // `--filter 'square(side:)'`: the parentheses are a group, the id has none, and the run "passes".
        let run = try stream("unescaped-filter-events-linux-6.3.1.jsonl")
        #expect(run.results.isEmpty)
        #expect(run.isEmpty)
        #expect(ResultsInput.kind(of: Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.own + "/captured/unescaped-filter-events-linux-6.3.1.jsonl"))))
                == .swiftTestingEvents)
    }
}
