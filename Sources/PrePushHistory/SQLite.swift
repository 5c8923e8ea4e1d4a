#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
internal import CSQLite

/// An error of SQLite: the call, its result code and message. `isDamage` tells a damaged or foreign
/// file (moved aside and started again) from a busy or full disk (reported).
package struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// What prepush asked for (`open`, `insert a result`).
    package let operation: String
    /// SQLite's primary result code.
    package let code: Int32
    /// SQLite's words.
    package let message: String

    /// Whether the file is not a database or is corrupt, or holds what prepush did not put there.
    package var isDamage: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }

    /// Whether a statement ran past `SQLiteConnection.statementSeconds` and was ended.
    package var isTimeout: Bool { code == SQLITE_INTERRUPT }

    /// A history holding schema objects prepush never makes (a trigger, a view, another table): a
    /// stage wrote them, and the file is treated as damaged.
    static func foreignSchema(_ names: [String], path: String) -> SQLiteError {
        SQLiteError(operation: "check \(path)", code: SQLITE_CORRUPT, message: "it holds \(names.prefix(5).joined(separator: ", ")) that prepush did not make")
    }

    package var description: String { "\(operation): \(message) (SQLite \(code))" }
}

/// One connection to one database file: statements prepared, run and finalised in place. Not
/// shared between threads (a push records from the thread that runs it).
final class SQLiteConnection {
    private let handle: OpaquePointer
    /// When (monotonic seconds) the statement running now is ended: see `statementSeconds`.
    private let deadline = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    /// Longest one statement may run. A history of 1,000 runs answers in milliseconds; a file a
    /// stage rewrote (a huge table, a schema built to make queries slow) is stopped here.
    static let statementSeconds = 10.0

    /// Opens (or creates) the file, waiting up to `busyMilliseconds` for another writer.
    init(path: String, busyMilliseconds: Int32 = 10_000) throws(SQLiteError) {
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let opened { sqlite3_close_v2(opened) }
            throw SQLiteError(operation: "open \(path)", code: code & 0xFF, message: message)
        }
        handle = opened
        deadline.pointee = .infinity
        let distrusted = prepush_sqlite3_distrust_schema(handle)
        guard distrusted == SQLITE_OK else {
            sqlite3_close_v2(handle)
            deadline.deallocate()
            throw SQLiteError(operation: "open \(path) without triggers and views", code: distrusted & 0xFF, message: "the SQLite library refused")
        }
        prepush_sqlite3_watch_deadline(handle, deadline)
        sqlite3_busy_timeout(handle, busyMilliseconds)
        _ = prepush_sqlite3_skip_checkpoint_on_close(handle)
    }

    deinit {
        sqlite3_close_v2(handle)
        deadline.deallocate()
    }

    /// Starts the clock of the next statement.
    private func armDeadline() {
        deadline.pointee = prepush_monotonic_seconds() + Self.statementSeconds
    }

    /// Runs SQL without results (several statements allowed).
    func execute(_ sql: String, _ operation: String) throws(SQLiteError) {
        armDeadline()
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        let words = message.map { String(cString: $0) } ?? ""
        sqlite3_free(message)
        guard code == SQLITE_OK else { throw SQLiteError(operation: operation, code: code & 0xFF, message: words) }
    }

    /// A value bound to a statement's parameter.
    enum Value {
        case text(String?)
        case real(Double)
        case integer(Int)
        case blob([UInt8])
    }

    /// Runs one statement with `values` bound in order, calling `row` for each row of its result.
    func query(_ sql: String, _ values: [Value] = [], _ operation: String, row: (Row) -> Void = { _ in }) throws(SQLiteError) {
        armDeadline()
        var statement: OpaquePointer?
        var code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(operation, code) }
        defer { sqlite3_finalize(statement) }
        try bind(values, to: statement, operation)
        while true {
            code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw error(operation, code) }
            row(Row(statement: statement))
        }
    }

    /// Runs one statement without results once per element of `rows`, prepared once: a run's
    /// thousands of results, where preparing the statement for each cost more than writing it.
    func run(_ sql: String, forEach rows: [[Value]], _ operation: String) throws(SQLiteError) {
        armDeadline()
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(operation, code) }
        defer { sqlite3_finalize(statement) }
        for values in rows {
            try bind(values, to: statement, operation)
            let stepped = sqlite3_step(statement)
            guard stepped == SQLITE_DONE else { throw error(operation, stepped) }
            sqlite3_reset(statement)
        }
    }

    private func bind(_ values: [Value], to statement: OpaquePointer, _ operation: String) throws(SQLiteError) {
        // SQLite copies the text at bind time (SQLITE_TRANSIENT).
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            let code: Int32
            switch value {
            case .text(let text?): code = sqlite3_bind_text(statement, position, text, -1, transient)
            case .text(nil): code = sqlite3_bind_null(statement, position)
            case .real(let number): code = sqlite3_bind_double(statement, position, number)
            case .integer(let number): code = sqlite3_bind_int64(statement, position, Int64(number))
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { sqlite3_bind_blob64(statement, position, $0.baseAddress, sqlite3_uint64($0.count), transient) }
            }
            guard code == SQLITE_OK else { throw error(operation, code) }
        }
    }

    private func error(_ operation: String, _ code: Int32) -> SQLiteError {
        SQLiteError(operation: operation, code: code & 0xFF, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// The columns of the current row.
    struct Row {
        let statement: OpaquePointer

        func text(_ column: Int32) -> String? {
            sqlite3_column_text(statement, column).map { String(cString: $0) }
        }

        func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

        func integer(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

        func blob(_ column: Int32) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let start = sqlite3_column_blob(statement, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: start, count: count))
        }
    }
}

extension SQLiteConnection {
    /// Opens `path` with `schema` set up, refusing a file that holds anything prepush did not make
    /// (`ownObjects` are its tables and indexes): triggers and views never run on this connection,
    /// and anything else is a stage's doing, so the file goes aside like a damaged one. `what`
    /// names the file in errors (`the history`).
    static func openOwned(_ path: String, schema: String, ownObjects: [String], what: String) throws(SQLiteError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path)
        try connection.execute(schema, "set up \(what)")
        var foreign: [String] = []
        try connection.query("SELECT type, name FROM sqlite_master WHERE name NOT IN (\(ownObjects.map { "'\($0)'" }.joined(separator: ", "))) AND name NOT LIKE 'sqlite_%'",
                             [], "read \(what)'s schema") { foreign.append("\($0.text(0) ?? "") \($0.text(1) ?? "")") }
        if !foreign.isEmpty { throw SQLiteError.foreignSchema(foreign, path: path) }
        return connection
    }

    /// Renames a damaged file (and its WAL) to `…damaged-<time>`; the note says where.
    static func moveAside(_ path: String, because error: SQLiteError, what: String) -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let aside = "\(path).damaged-\(now.tv_sec)"
        rename(path, aside)
        for suffix in ["-wal", "-shm"] { rename(path + suffix, aside + suffix) }
        return "\(what) \(path) could not be read (\(error.message)); moved aside to \(aside), a new one is started"
    }
}
