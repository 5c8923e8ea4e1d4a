#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import PrePushCore

/// The impact maps `prepush impact record` and `import` keep, in `.git/prepush/impact.sqlite` beside
/// the run history: the newest few per stage and package, each stored whole as `ImpactMap.exported()`
/// bytes. A damaged or foreign file is moved aside and a new one started (the push then runs as if
/// no map were recorded, and says so), never a failed push.
package final class ImpactStore {
    static let schema = """
    PRAGMA journal_mode = WAL;
    PRAGMA synchronous = NORMAL;
    CREATE TABLE IF NOT EXISTS maps (
        id INTEGER PRIMARY KEY,
        stage TEXT NOT NULL,
        package_folder TEXT NOT NULL,
        commit_id TEXT NOT NULL,
        toolchain TEXT NOT NULL,
        recorded REAL NOT NULL,
        body BLOB NOT NULL
    );
    CREATE INDEX IF NOT EXISTS maps_by_stage ON maps(stage, package_folder, id);
    """
    static let ownSchemaObjects = ["maps", "maps_by_stage"]

    /// The store of the repository whose common git folder is `commonDirectory`.
    package static func path(commonDirectory: String) -> String {
        FilePath.join(FilePath.join(commonDirectory, "prepush"), "impact.sqlite")
    }

    package let path: String
    /// Maps kept per stage and package: the newest, and one before it while a new one is checked.
    package var keptMaps = 2
    /// Largest map stored or read (a 700-test package's map is about 2 MB).
    package static let byteLimit = 64 * 1024 * 1024
    private var connection: SQLiteConnection
    /// Said when the file was moved aside: where to, and why.
    package private(set) var notes: [String] = []

    /// Opens the store at `path`, creating it (and its folder) when missing.
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
        try SQLiteConnection.openOwned(path, schema: schema, ownObjects: ownSchemaObjects, what: "the impact maps")
    }

    private static func moveAside(_ path: String, because error: SQLiteError) -> String {
        SQLiteConnection.moveAside(path, because: error, what: "the impact maps")
    }

    /// Stores `map` as the newest of its stage and package, forgetting the older ones beyond `keptMaps`.
    package func save(_ map: ImpactMap) throws {
        let body = try map.exported()
        guard body.count <= Self.byteLimit else {
            throw ImpactMapProblem(description: "the impact map is \(body.count / 1_048_576) MB, more than the \(Self.byteLimit / 1_048_576) MB kept")
        }
        try connection.execute("BEGIN IMMEDIATE", "begin storing an impact map")
        do throws(SQLiteError) {
            try connection.query("INSERT INTO maps (stage, package_folder, commit_id, toolchain, recorded, body) VALUES (?, ?, ?, ?, ?, ?)",
                                 [.text(map.stage), .text(map.packageFolder), .text(map.commit), .text(map.toolchain), .real(map.recorded),
                                  .blob(body)], "store an impact map")
            try connection.query("""
                DELETE FROM maps WHERE stage = ? AND package_folder = ? AND id NOT IN
                    (SELECT id FROM maps WHERE stage = ? AND package_folder = ? ORDER BY id DESC LIMIT ?)
                """, [.text(map.stage), .text(map.packageFolder), .text(map.stage), .text(map.packageFolder), .integer(keptMaps)],
                                 "forget older impact maps")
            try connection.execute("COMMIT", "commit the impact map")
        } catch {
            try? connection.execute("ROLLBACK", "roll back")
            throw error
        }
    }

    /// The newest map of `stage` for the package at `packageFolder`, nil when none is stored.
    /// A stored map that cannot be read is a problem the caller says (and then runs every test).
    package func latest(stage: String, packageFolder: String) throws -> ImpactMap? {
        var body: [UInt8]?
        try connection.query("SELECT body FROM maps WHERE stage = ? AND package_folder = ? ORDER BY id DESC LIMIT 1",
                             [.text(stage), .text(packageFolder)], "read the newest impact map") { body = $0.blob(0) }
        guard let body else { return nil }
        guard body.count <= Self.byteLimit else {
            throw ImpactMapProblem(description: "the stored impact map is larger than \(Self.byteLimit / 1_048_576) MB")
        }
        return try ImpactMap.imported(body).get()
    }
}
