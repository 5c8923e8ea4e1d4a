import Foundation

/// A folder under the system's temporary directory, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The folder's absolute path (symlinks resolved, so it compares equal to what git reports).
    public let path: String

    /// Creates a fresh, empty folder; `prefix` shows up in its name to help debugging.
    public init(prefix: String = "prepush-test") throws {
        let base = (NSTemporaryDirectory() as NSString).resolvingSymlinksInPath
        let path = (base as NSString).appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(12))")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        self.path = path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Removes the folder when the test process exits: for a folder a `static` holds (a package
    /// built once for a whole suite), which is never released. Each run of the suite left about
    /// 0.8 GB of such folders in the temporary directory.
    public func removeAtExit() {
        ExitCleanup.add(path)
    }

    /// The absolute path of `relative` inside the folder.
    public func url(_ relative: String) -> String {
        (path as NSString).appendingPathComponent(relative)
    }

    /// Writes UTF-8 text to `relative`, creating folders on the way.
    @discardableResult
    public func write(_ text: String, to relative: String, executable: Bool = false) throws -> String {
        let full = url(relative)
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: full))
        if executable {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: full)
        }
        return full
    }

    /// Reads `relative` as UTF-8 text, or nil when it does not exist.
    public func read(_ relative: String) -> String? {
        try? String(contentsOfFile: url(relative), encoding: .utf8)
    }

    /// Whether `relative` exists.
    public func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: url(relative))
    }
}

/// Folders removed when the test process exits (`atexit`, registered with the first one).
private enum ExitCleanup {
    nonisolated(unsafe) static var paths: [String] = []
    static let lock = NSLock()
    static let registered: Void = { atexit { ExitCleanup.removeAll() } }()

    static func add(_ path: String) {
        _ = registered
        lock.lock(); defer { lock.unlock() }
        paths.append(path)
    }

    static func removeAll() {
        lock.lock(); let all = paths; lock.unlock()
        for path in all { try? FileManager.default.removeItem(atPath: path) }
    }
}
