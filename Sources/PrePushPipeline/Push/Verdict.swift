import PrePushCore

/// Why a run refuses.
enum Refusal: Equatable {
    /// Findings of severity error in the views the push (or branch) changes; no stage ran.
    case accessibility(findings: Int)
    /// A stage failed, timed out or could not start (`summary` says which); `notRun` are the stages
    /// after it that were left out.
    case stage(summary: String, notRun: [String])
    /// A stage exited 0 while its results show failures (`swift test | tee log`).
    case hiddenFailures(stage: String, failingTests: Int)
    /// A `selective: tests` stage passed having run fewer tests than it chose (`missing` names some):
    /// a filter that matches nothing exits 0, so the run proves nothing about those tests.
    case selectionNotRun(stage: String, chosen: Int, ran: Int, missing: [String])
    /// A stage passed only because `tests` of its tests passed on a retry, and its policy is `flaky: refuse`.
    case flaky(stage: String, tests: Int)
    /// The traceability gate: `scenarios` of the blocking `priorities` fail or have no test.
    case traceability(scenarios: Int, priorities: [String])
    /// A signal stopped the run: during a stage (`stage`), or between stages (`before`, with the signal).
    case interrupted(stage: String?, before: String?, signal: String?)
}

/// How a run ends: the one place that writes the last line and decides the exit status.
enum Verdict: Equatable {
    /// Nothing to check: an empty push, a push of deletions only, or `PREPUSH_SKIP`; the words say which.
    case nothingToCheck(String)
    /// No stage is configured (`noneConfigured`), or every configured stage was left out.
    case nothingToRun(noneConfigured: Bool)
    /// The stages ran (or were taken from the cache) and passed; each entry is one stage's part of the line.
    case passed(stages: [String])
    /// Every stage was left out after the plan was made (selective, shards); the reasons.
    case passedWithoutStages(reasons: [String])
    /// The run refuses.
    case refused(Refusal)

    /// One line of the verdict with its tone.
    struct Line: Equatable {
        let text: String
        let tone: Console.Tone?
    }

    /// The exit status (README's table).
    var exitStatus: ExitStatus {
        switch self {
        case .nothingToCheck, .nothingToRun, .passed, .passedWithoutStages: return .success
        case .refused(.interrupted): return .interrupted
        case .refused: return .failure
        }
    }

    /// The verdict's lines; `hook` is true in git's pre-push hook (a push is refused, and
    /// `--no-verify` is named), false for `prepush run` (checks failed).
    func lines(hook: Bool) -> [Line] {
        switch self {
        case .nothingToCheck(let words):
            return [Line(text: "prepush: \(words)", tone: nil)]
        case .nothingToRun(let noneConfigured):
            return [Line(text: noneConfigured ? "prepush: nothing to run: no stage is configured (see docs/configuration.md)"
                                              : "prepush: nothing to run: every configured stage is skipped", tone: nil)]
        case .passed(let stages):
            return [Line(text: "prepush: all stages passed (\(stages.joined(separator: ", ")))", tone: .verdict)]
        case .passedWithoutStages(let reasons):
            return [Line(text: "prepush: passed; no stage ran (\(reasons.isEmpty ? "none is configured" : reasons.joined(separator: "; ")))", tone: .verdict)]
        case .refused(let refusal):
            var lines = [Line(text: Self.text(of: refusal, hook: hook), tone: .bad)]
            if hook, exitStatus == .failure { lines.append(Line(text: "prepush: to push once without checks: git push --no-verify", tone: nil)) }
            return lines
        }
    }

    /// Writes the verdict and returns its exit status.
    func render(hook: Bool, console: Console) -> ExitStatus {
        for line in lines(hook: hook) {
            if let tone = line.tone { console.line(line.text, tone: tone) } else { console.line(line.text) }
        }
        return exitStatus
    }

    private static func text(of refusal: Refusal, hook: Bool) -> String {
        if case .interrupted = refusal { return "prepush: " + reason(refusal, hook: hook) }
        return "prepush: \(hook ? "push refused" : "checks failed"): " + reason(refusal, hook: hook)
    }

    /// Why the run was refused, in the verdict's words (without `push refused:`): what the
    /// reports state when the tests alone do not show it.
    static func reason(_ refusal: Refusal, hook: Bool) -> String {
        switch refusal {
        case .accessibility(let findings):
            let scope = hook ? "the views this push changes" : "the views this branch changes"
            return "\(TextFormatting.count(findings, "accessibility finding")) in \(scope) (no stage ran)"
        case .stage(let summary, let notRun):
            return summary + (notRun.isEmpty ? "" : " (not run: \(notRun.joined(separator: ", ")))")
        case .hiddenFailures(let stage, let failing):
            let what = failing > 0 ? TextFormatting.count(failing, "failing test") : "a failed test run"
            return "\(stage): exited 0, but its results show \(what) (a command that ignores its tests' failures, such as swift test | tee log, hides the runner's exit status)"
        case .selectionNotRun(let stage, let chosen, let ran, let missing):
            let named = missing.isEmpty ? "" : ", not run: \(TextFormatting.list(Array(missing.prefix(3))))\(missing.count > 3 ? ", …" : "")"
            return "\(stage): selective: chose \(TextFormatting.count(chosen, "test")), ran \(ran)\(named) (a filter that matched nothing; PREPUSH_SELECTIVE=0 runs every test)"
        case .flaky(let stage, let tests):
            return "\(stage): \(TextFormatting.count(tests, "flaky test")) failed and then passed on a retry (flaky: refuse)"
        case .traceability(let scenarios, let priorities):
            // Each problem is an error line above: a scenario not proven, a run failure, a gate option.
            return "the traceability gate found \(TextFormatting.count(scenarios, "problem")) (blocking: \(priorities.joined(separator: "/")))"
        case .interrupted(let stage, let before, let signal):
            if let stage { return "interrupted; the \(stage) stage and every process it started were stopped" }
            return "interrupted by \(signal ?? "a signal") before the \(before ?? "next") stage started"
        }
    }
}
