/// Which run of prepush wrote a report: the commit it checked and, in CI, the run, its attempt and
/// the job. Every report prepush writes carries it (results.json inline, every file of a reports
/// folder through its `provenance.json`), and every command that reads a report back (`comment`,
/// the merge of shards, `report`) takes only reports of its own run: a file a pull request commits
/// or a stage leaves behind is not a report, however it is named and whatever it says.
public struct RunProvenance: Sendable, Hashable, Codable {
    /// The checked-out commit (full object name), when known.
    public var commit: String?
    /// The CI run every job of one workflow run or pipeline shares (`GITHUB_RUN_ID`, GitLab's
    /// `CI_PIPELINE_ID`, Buildkite's build, CircleCI's workflow).
    public var run: String?
    /// The attempt of that run (`GITHUB_RUN_ATTEMPT`): a re-run's reports are not the first's.
    public var attempt: String?
    /// The job (`GITHUB_JOB`, `CI_JOB_NAME`, …).
    public var job: String?

    /// Creates a provenance.
    public init(commit: String? = nil, run: String? = nil, attempt: String? = nil, job: String? = nil) {
        self.commit = commit
        self.run = run
        self.attempt = attempt
        self.job = job
    }

    /// This process's run: `commit` and what the CI system's environment says.
    public static func current(commit: String?, environment: [String: String]) -> RunProvenance {
        func first(_ names: [String]) -> String? { names.lazy.compactMap { environment[$0] }.first { !$0.isEmpty } }
        return RunProvenance(commit: commit,
                             run: first(["GITHUB_RUN_ID", "CI_PIPELINE_ID", "BUILDKITE_BUILD_ID", "CIRCLE_WORKFLOW_ID"]),
                             attempt: first(["GITHUB_RUN_ATTEMPT"]),
                             job: first(["GITHUB_JOB", "CI_JOB_NAME", "BUILDKITE_STEP_KEY", "CIRCLE_JOB"]))
    }

    /// What differs between a report's provenance (`self`) and the run reading it (`reader`), or nil
    /// when the report is the reader's: the same commit and run, and with `sameJob` the same attempt
    /// and job. A field the reader does not know (no CI run outside CI) is not compared.
    public func mismatch(with reader: RunProvenance, sameJob: Bool) -> String? {
        func differs(_ mine: String?, _ theirs: String?) -> Bool { theirs != nil && mine != theirs }
        if differs(commit, reader.commit) {
            return "it is of commit \(commit.map { String($0.prefix(12)) } ?? "(none named)"), not \(String(reader.commit!.prefix(12)))"
        }
        if differs(run, reader.run) { return "it is of CI run \(run ?? "(none named)"), not this run \(reader.run!)" }
        if sameJob && differs(attempt, reader.attempt) { return "it is of attempt \(attempt ?? "(none named)") of the run, not \(reader.attempt!)" }
        if sameJob && differs(job, reader.job) { return "it is of job \(job ?? "(none named)"), not this job \(reader.job!)" }
        return nil
    }
}
