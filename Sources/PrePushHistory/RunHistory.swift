#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import PrePushCore

/// One stage's run as the history keeps it.
package struct RecordedRun: Sendable, Equatable {
    /// When it started, seconds since 1970.
    package var started: Double
    /// The git tree the run tested (nil when the working tree differed from every commit).
    package var tree: String?
    /// The commit pushed or checked, when there was one.
    package var commit: String?
    /// The stage's name (`unit`), or `imported` for results read from a file.
    package var stage: String
    /// `passed` or `failed` (a timeout, a crash, a refused flaky run are failed).
    package var status: String
    /// Seconds, every attempt included.
    package var duration: Double
    /// Where it came from: `push`, `run`, or `import <file>`.
    package var origin: String
    /// Each test's outcome.
    package var tests: [RecordedTest]

    /// Creates a record.
    package init(started: Double, tree: String?, commit: String?, stage: String, status: String, duration: Double,
                origin: String, tests: [RecordedTest]) {
        self.started = started
        self.tree = tree
        self.commit = commit
        self.stage = stage
        self.status = status
        self.duration = duration
        self.origin = origin
        self.tests = tests
    }
}

/// One test's outcome in one run.
package struct RecordedTest: Sendable, Equatable {
    /// `Suite.name` (the results' `testIdentifier`).
    package var identifier: String
    /// `TestStatus`'s raw value, or `flaky` for a test that failed and then passed on a retry.
    package var status: String
    /// Seconds, every attempt added up (as results.json's `duration`).
    package var duration: Double
    /// How many times it ran.
    package var attempts: Int

    /// Creates a record; `failed` and `unfinished` count as failures.
    package init(identifier: String, status: String, duration: Double, attempts: Int) {
        self.identifier = identifier
        self.status = status
        self.duration = duration
        self.attempts = attempts
    }

    /// The status of a test that failed and then passed on a retry (`FlakyJudgement.recordedFlaky`).
    package static let flaky = FlakyJudgement.recordedFlaky

    /// Whether the test did not fail (a flaky test passed).
    package var passed: Bool { status != "failed" && status != "unfinished" }

    /// How this run of it is judged (`FlakyJudgement`): flaky when it failed and then passed on a retry.
    package var judgement: FlakyJudgement { FlakyJudgement(recorded: status) }

    /// Whether it failed and then passed on a retry (`judgement == .flaky`).
    package var isFlaky: Bool { judgement == .flaky }
}

/// Every run remembered, in `.git/prepush/history.sqlite`: each stage's run (tree, commit, status,
/// time) and each test's status, duration and attempts. SQLite in WAL mode, so that two pushes at
/// once both land; a damaged or foreign file is moved aside (with a note) and a new one started,
/// never a failed push.
package final class RunHistory {
    /// The schema's version, in `PRAGMA user_version`: 2 once every row names its test by its one
    /// identity (`Module.Suite.test()`); a version 1 file may hold the console's shorter names
    /// (`test()`, `Class.test`) until `migrateNames` runs.
    static let version = 2
    static let schema = """
    PRAGMA journal_mode = WAL;
    PRAGMA synchronous = NORMAL;
    CREATE TABLE IF NOT EXISTS runs (
        id INTEGER PRIMARY KEY,
        started REAL NOT NULL,
        tree TEXT,
        commit_id TEXT,
        stage TEXT NOT NULL,
        status TEXT NOT NULL,
        duration REAL NOT NULL,
        origin TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS results (
        run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        test TEXT NOT NULL,
        status TEXT NOT NULL,
        duration REAL NOT NULL,
        attempts INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS results_by_test ON results(test, run);
    CREATE INDEX IF NOT EXISTS results_by_run ON results(run);
    """

    /// The history of the repository whose common git folder is `commonDirectory`.
    package static func path(commonDirectory: String) -> String {
        FilePath.join(FilePath.join(commonDirectory, "prepush"), "history.sqlite")
    }

    package let path: String
    /// How many runs are kept: recording one more forgets the oldest beyond these (their results
    /// too), so the file stops growing. 1,000 runs is months of pushes; at 500 tests a run, about 50 MB.
    package var keptRuns = 1000
    private var connection: SQLiteConnection
    /// Said when the file was moved aside: where to, and why.
    package private(set) var notes: [String] = []

    /// Opens the history at `path`, creating it (and its folder) when missing.
    package init(path: String) throws(SQLiteError) {
        self.path = path
        mkdir(FilePath.parent(path), 0o755)
        do throws(SQLiteError) {
            connection = try Self.open(path)
        } catch where error.isDamage {
            notes.append(Self.moveAside(path, because: error))
            connection = try Self.open(path)
        }
    }

    private static func open(_ path: String) throws(SQLiteError) -> SQLiteConnection {
        let connection = try SQLiteConnection.openOwned(path, schema: schema, ownObjects: ownSchemaObjects, what: "the history")
        // A new file has nothing to migrate: it starts at the current version.
        var version = 0
        try connection.query("PRAGMA user_version", [], "read the history's version") { version = $0.integer(0) }
        if version == 0 { try connection.execute("PRAGMA user_version = \(Self.version)", "set the history's version") }
        return connection
    }

    /// Whether rows recorded before tests had one identity (a version 1 file) may still name a
    /// test as the console did (`test()`, `Class.test`).
    package var namesNeedMigration: Bool {
        var version = Self.version
        try? connection.query("PRAGMA user_version", [], "read the history's version") { version = $0.integer(0) }
        return version < Self.version
    }

    /// Renames the rows of each short name in `identities` (`compileXib()` → `RenderTests.XibRenderer.compileXib()`,
    /// given only for names the sources give one test) to the test's identity, in one transaction,
    /// and marks the file migrated: one test is then one row set whichever output its runs came from.
    package func migrateNames(_ identities: [String: String]) throws(SQLiteError) {
        try connection.execute("BEGIN IMMEDIATE", "begin migrating names")
        do throws(SQLiteError) {
            try connection.run("UPDATE results SET test = ? WHERE test = ?",
                               forEach: identities.sorted { $0.key < $1.key }.map { [.text($0.value), .text($0.key)] }, "migrate a test's name")
            try connection.execute("PRAGMA user_version = \(Self.version)", "mark the history migrated")
            try connection.execute("COMMIT", "commit the migration")
        } catch {
            try? connection.execute("ROLLBACK", "roll back")
            throw error
        }
    }

    /// The tables and indexes `schema` makes.
    static let ownSchemaObjects = ["runs", "results", "results_by_test", "results_by_run"]

    private static func moveAside(_ path: String, because error: SQLiteError) -> String {
        SQLiteConnection.moveAside(path, because: error, what: "the run history")
    }

    /// Records a run and its tests in one transaction. A damaged file found while writing is moved
    /// aside and the run recorded in a new one.
    package func record(_ run: RecordedRun) throws(SQLiteError) {
        do throws(SQLiteError) {
            try insert(run)
        } catch where error.isDamage {
            notes.append(Self.moveAside(path, because: error))
            connection = try Self.open(path)
            try insert(run)
        }
    }

    private func insert(_ run: RecordedRun) throws(SQLiteError) {
        try connection.execute("BEGIN IMMEDIATE", "begin recording a run")
        do throws(SQLiteError) {
            try connection.query("INSERT INTO runs (started, tree, commit_id, stage, status, duration, origin) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                 [.real(run.started), .text(run.tree), .text(run.commit), .text(run.stage), .text(run.status),
                                  .real(run.duration), .text(run.origin)], "record a run")
            var id = 0
            try connection.query("SELECT last_insert_rowid()", [], "read the run's id") { id = $0.integer(0) }
            try connection.run("INSERT INTO results (run, test, status, duration, attempts) VALUES (?, ?, ?, ?, ?)",
                               forEach: run.tests.map { [.integer(id), .text($0.identifier), .text($0.status), .real($0.duration), .integer($0.attempts)] },
                               "record a test result")
            // Ids only grow: the runs beyond the newest `keptRuns` are those at or below this one.
            if id > keptRuns {
                try connection.query("DELETE FROM results WHERE run <= ?", [.integer(id - keptRuns)], "forget the oldest results")
                try connection.query("DELETE FROM runs WHERE id <= ?", [.integer(id - keptRuns)], "forget the oldest runs")
            }
            try connection.execute("COMMIT", "commit the run")
        } catch {
            try? connection.execute("ROLLBACK", "roll back")
            throw error
        }
    }

    /// One run, as `prepush history` lists them.
    package struct RunSummary: Sendable, Equatable {
        package let started: Double
        package let stage: String
        package let status: String
        package let commit: String?
        package let tree: String?
        package let duration: Double
        package let origin: String
        package let tests: Int
        package let failed: Int
        package let flaky: Int
    }

    /// The last `limit` runs, newest first.
    package func runs(limit: Int) throws(SQLiteError) -> [RunSummary] {
        var found: [RunSummary] = []
        try connection.query("""
            SELECT runs.started, runs.stage, runs.status, runs.commit_id, runs.tree, runs.duration, runs.origin,
                   COUNT(results.test),
                   SUM(CASE WHEN results.status IN ('failed', 'unfinished') THEN 1 ELSE 0 END),
                   SUM(CASE WHEN results.status = 'flaky' THEN 1 ELSE 0 END)
            FROM runs LEFT JOIN results ON results.run = runs.id
            GROUP BY runs.id ORDER BY runs.id DESC LIMIT ?
            """, [.integer(limit)], "list the runs") { row in
            found.append(RunSummary(started: row.real(0), stage: row.text(1) ?? "", status: row.text(2) ?? "", commit: row.text(3),
                                    tree: row.text(4), duration: row.real(5), origin: row.text(6) ?? "", tests: row.integer(7),
                                    failed: row.integer(8), flaky: row.integer(9)))
        }
        return found
    }

    /// One test's result in one run, as `prepush history TEST` lists them.
    package struct TestEntry: Sendable, Equatable {
        package let started: Double
        package let stage: String
        package let commit: String?
        package let tree: String?
        package let test: RecordedTest
    }

    /// The last `limit` results of the tests whose identifier is `test` or ends in `.test`, newest first.
    package func results(of test: String, limit: Int) throws(SQLiteError) -> [TestEntry] {
        var found: [TestEntry] = []
        try connection.query("""
            SELECT runs.started, runs.stage, runs.commit_id, runs.tree, results.test, results.status, results.duration, results.attempts
            FROM results JOIN runs ON runs.id = results.run
            WHERE results.test IN (?, ?) OR results.test LIKE ? ESCAPE '\\' OR results.test LIKE ? ESCAPE '\\'
            ORDER BY runs.id DESC LIMIT ?
            """, Self.spellings(of: test).flatMap { [.text($0)] } + Self.spellings(of: test).map { .text("%." + Self.likeEscaped($0)) } + [.integer(limit)],
            "read a test's history") { row in
            found.append(TestEntry(started: row.real(0), stage: row.text(1) ?? "", commit: row.text(2), tree: row.text(3),
                                   test: RecordedTest(identifier: row.text(4) ?? "", status: row.text(5) ?? "", duration: row.real(6),
                                                      attempts: row.integer(7))))
        }
        return found
    }

    /// The two spellings a name the user types can have in the history: with `/` between suites
    /// and test written `.` (`Suite/test` is `Suite.test`), and without and with `()` (a Swift
    /// Testing function is recorded as `test()`, an XCTest method as `test`).
    static func spellings(of test: String) -> [String] {
        let dotted = test.replacing("/", with: ".")
        if dotted.hasSuffix("()") { return [String(dotted.dropLast(2)), dotted] }
        return dotted.contains("(") ? [dotted, dotted] : [dotted, dotted + "()"]
    }

    static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// Each test's result in the last `runs` runs, oldest first: what `FlakyAnalysis` reads.
    package func recentResults(runs: Int) throws(SQLiteError) -> [(run: Int, tree: String?, test: RecordedTest)] {
        var found: [(Int, String?, RecordedTest)] = []
        try connection.query("""
            SELECT runs.id, runs.tree, results.test, results.status, results.duration, results.attempts
            FROM results JOIN runs ON runs.id = results.run
            WHERE runs.id IN (SELECT id FROM runs ORDER BY id DESC LIMIT ?)
            ORDER BY runs.id
            """, [.integer(runs)], "read the recent results") { row in
            found.append((row.integer(0), row.text(1),
                          RecordedTest(identifier: row.text(2) ?? "", status: row.text(3) ?? "", duration: row.real(4), attempts: row.integer(5))))
        }
        return found
    }

    /// Each test's duration in its latest run that passed, for balancing shards, leaving out the
    /// runs of `excludedCommit`: every shard of one commit, run one after another on one machine
    /// (each recording its own run), then reads the same durations and splits the same way.
    package func latestDurations(excludingCommit excludedCommit: String?) throws(SQLiteError) -> [String: Double] {
        var durations: [String: Double] = [:]
        try connection.query("""
            SELECT results.test, results.duration FROM results JOIN runs ON runs.id = results.run
            WHERE results.status NOT IN ('failed', 'unfinished') AND (runs.commit_id IS NULL OR runs.commit_id != ?)
            ORDER BY results.run
            """, [.text(excludedCommit ?? "")], "read the durations") { row in
            if let test = row.text(0) { durations[test] = row.real(1) }
        }
        return durations
    }
}
