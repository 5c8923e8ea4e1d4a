import Foundation
import Testing

/// A warning is reported, and the test still passes.
@Suite struct Warnings {
    @Test func warnsAndPasses() {
        Issue.record("the cache is cold", severity: .warning)
        #expect(1 + 1 == 2)
    }

    @Test func plainPass() {
        #expect(Array("ok").count == 2)
    }
}

/// A test that cancels itself is neither passed nor failed.
@Suite struct Cancellations {
    @Test func cancelledWithReason() throws {
        try Test.cancel("the simulator is not booted")
    }

    @Test func runsToTheEnd() {
        #expect("run".uppercased() == "RUN")
    }
}

/// An issue recorded by a task that outlives its test belongs to no test, and the run fails.
@Suite(.serialized) struct DetachedIssues {
    @Test func leavesATaskBehind() {
        Task.detached {
            try? await Task.sleep(for: .milliseconds(200))
            Issue.record("recorded after the test ended")
        }
    }

    @Test func waitsForIt() async throws {
        try await Task.sleep(for: .milliseconds(800))
    }
}

/// Known issues pass; an unexpected one beside them fails.
@Suite struct KnownIssues {
    @Test func knownIssuePasses() {
        withKnownIssue("the parser drops emoji") {
            #expect("a" == "b")
        }
    }

    @Test func intermittentKnownIssueThatDidNotHappen() {
        withKnownIssue(isIntermittent: true) {
            #expect(Int("1") == 1)
        }
    }
}

/// One of three arguments fails; the test fails once, with the argument named.
@Suite struct Parameterized {
    @Test(arguments: [1, 2, 3]) func isSmall(value: Int) {
        #expect(value < 3, "value \(value) is too big")
    }

    @Test(arguments: ["a", "b"]) func allPass(letter: String) {
        #expect(letter.count == 1)
    }
}

/// Messages over several lines: a comment with line breaks, a collection difference.
@Suite struct MultiLineMessages {
    @Test func commentOverLines() {
        #expect(1 == 2, "first line\nsecond line\n\nfourth line")
    }

    @Test func collectionDifference() {
        let expected = [1, 2, 3, 4]
        let actual = [1, 2, 5, 4]
        #expect(actual == expected)
    }
}

/// Every test passes.
@Suite struct AllPass {
    @Test func one() { #expect([1, 2].contains(1)) }
    @Test func two() { #expect("two".count == 3) }
    @Test("A display name with spaces") func three() { #expect(Set([3, 3]).count == 1) }
}

/// Same-named tests in two suites, one failing.
@Suite struct SameNameA {
    @Test func check() { #expect("A" < "B") }
}

@Suite struct SameNameB {
    @Test func check() { #expect(Bool(false), "only B fails") }
}

/// Flips between runs: fails on odd repetitions of the process (repetitions run it again in-process).
@Suite struct Repeated {
    nonisolated(unsafe) static var runs = 0

    @Test func failsTheFirstTime() {
        Repeated.runs += 1
        #expect(Repeated.runs > 1, "run \(Repeated.runs)")
    }
}
