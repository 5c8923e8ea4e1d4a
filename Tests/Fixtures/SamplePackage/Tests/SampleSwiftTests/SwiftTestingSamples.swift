import Testing
import Sample

@Suite struct SwiftTestingSamples {
    @Test func passes() {
        #expect(add(1, 1) == 2)
    }

    @Test("A display name that fails")
    func failsWithDisplayName() {
        #expect(add(1, 1) == 3)
    }

    @Test(.disabled("not ready"))
    func skipped() {}

    @Test(arguments: [1, 2, 3])
    func parameterized(value: Int) {
        #expect(add(value, 0) != 2)
    }

    @Test func knownIssue() {
        withKnownIssue {
            #expect(add(1, 1) == 5)
        }
    }
}
