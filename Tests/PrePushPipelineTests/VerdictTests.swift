import PrePushCore
@testable import PrePushPipeline
import Testing

/// Every verdict line and exit status comes from `Verdict`: one wording for each refusal, in a
/// push and in `prepush run`.
@Suite struct VerdictTests {
    func texts(_ verdict: Verdict, hook: Bool) -> [String] { verdict.lines(hook: hook).map(\.text) }

    @Test func aPassingRunNamesEveryStage() {
        let verdict = Verdict.passed(stages: ["unit 1.2 s", "ui cached"])
        #expect(texts(verdict, hook: true) == ["prepush: all stages passed (unit 1.2 s, ui cached)"])
        #expect(verdict.exitStatus == .success)
    }

    @Test func aRefusedPushNamesTheWayAroundIt() {
        let verdict = Verdict.refused(.stage(summary: "unit: failed (exit 1) after 2.0 s", notRun: ["ui"]))
        #expect(texts(verdict, hook: true) == [
            "prepush: push refused: unit: failed (exit 1) after 2.0 s (not run: ui)",
            "prepush: to push once without checks: git push --no-verify",
        ])
        #expect(texts(verdict, hook: false) == ["prepush: checks failed: unit: failed (exit 1) after 2.0 s (not run: ui)"])
        #expect(verdict.exitStatus == .failure)
    }

    @Test func theTraceabilityRefusalIsWordedOnceWhateverRan() {
        let verdict = Verdict.refused(.traceability(scenarios: 2, priorities: ["P1", "P2"]))
        #expect(texts(verdict, hook: true).first == "prepush: push refused: the traceability gate found 2 problems (blocking: P1/P2)")
        #expect(texts(Verdict.refused(.traceability(scenarios: 1, priorities: ["P1"])), hook: false)
                == ["prepush: checks failed: the traceability gate found 1 problem (blocking: P1)"])
    }

    @Test func accessibilityCountsItsFindings() {
        #expect(texts(.refused(.accessibility(findings: 1)), hook: true).first
                == "prepush: push refused: 1 accessibility finding in the views this push changes (no stage ran)")
        #expect(texts(.refused(.accessibility(findings: 3)), hook: false)
                == ["prepush: checks failed: 3 accessibility findings in the views this branch changes (no stage ran)"])
    }

    @Test func hiddenFailuresSayWhyTheExitStatusWasWrong() {
        let text = texts(.refused(.hiddenFailures(stage: "unit", failingTests: 1)), hook: false)[0]
        #expect(text.hasPrefix("prepush: checks failed: unit: exited 0, but its results show 1 failing test"))
        #expect(texts(.refused(.hiddenFailures(stage: "unit", failingTests: 0)), hook: false)[0].contains("show a failed test run"))
    }

    @Test func anInterruptedRunExits130WithoutTheNoVerifyHint() {
        let during = Verdict.refused(.interrupted(stage: "ui", before: nil, signal: nil))
        #expect(during.exitStatus == .interrupted)
        #expect(texts(during, hook: true) == ["prepush: interrupted; the ui stage and every process it started were stopped"])
        let between = Verdict.refused(.interrupted(stage: nil, before: "ui", signal: "SIGINT"))
        #expect(texts(between, hook: true) == ["prepush: interrupted by SIGINT before the ui stage started"])
    }

    @Test func nothingToRunAndNothingToCheckPass() {
        #expect(Verdict.nothingToRun(noneConfigured: true).exitStatus == .success)
        #expect(texts(.nothingToRun(noneConfigured: false), hook: true) == ["prepush: nothing to run: every configured stage is skipped"])
        #expect(texts(.nothingToCheck("the push only deletes refs; nothing to check"), hook: true) == ["prepush: the push only deletes refs; nothing to check"])
        #expect(texts(.passedWithoutStages(reasons: ["unit skipped (selective: docs only)"]), hook: true)
                == ["prepush: passed; no stage ran (unit skipped (selective: docs only))"])
    }
}
