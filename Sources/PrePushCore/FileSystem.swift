#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// File-system questions answered with one system call each.
public enum FileSystem {
    /// The size and modification time of the regular file at `path` itself (a symlink is not
    /// followed, as git's index records it), or nil.
    public static func stamp(of path: String) -> FileStamp? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return FileStamp(size: Int(info.st_size), seconds: Int(modified.tv_sec), nanoseconds: Int(modified.tv_nsec))
    }

    /// What changes whenever anything writes, renames over or replaces the entry at `path` itself
    /// (not followed): its inode, size and status-change time, which no program can set back. Nil
    /// when nothing is there.
    public static func identity(of path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let changed = info.st_ctimespec
        #else
        let changed = info.st_ctim
        #endif
        return "\(info.st_ino) \(info.st_mode) \(info.st_size) \(changed.tv_sec).\(changed.tv_nsec)"
    }

    /// Whether `path` exists and is a directory (following symlinks).
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// `path` with every symlink resolved, or nil when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether a file descriptor is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }

    /// Everything readable from a file descriptor until end of file (standard input, say).
    public static func readAll(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += chunk[0..<count]
            } else if count == 0 || errno != EINTR {
                return bytes
            }
        }
    }

    /// Writes all of `text` to a file descriptor, retrying short writes.
    public static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { _ = write(UnsafeRawBufferPointer($0), to: fd) }
    }

    /// Writes all of `bytes` to a file descriptor, retrying short and interrupted writes; false on an error.
    @discardableResult
    public static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Darwin)
            let written = Darwin.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            #elseif canImport(Musl)
            let written = Musl.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            #else
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            #endif
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }
}

/// Files and folders the repository names (the catalog, the configuration, the reports folder):
/// in CI the repository is a pull request's content, so a name must not lead out of it — not by an
/// absolute path, not by `..`, not through a symlink — or prepush would print another file's lines
/// into a public log, or write where it should not.
public enum RepositoryPath {
    /// Why a path was refused; the description quotes the path, never anything the file holds.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// An absolute path where a path inside the repository is expected.
        case absolute(String)
        /// A relative path whose `..` climbs out of the repository.
        case climbsOut(String)
        /// A path that leads out of the repository through a symbolic link.
        case symlinkLeadsOut(String)
        /// Something other than a regular file (a folder, a FIFO, a device) where a file is read.
        case notRegularFile(String)
        /// A symbolic link whose target does not exist.
        case danglingSymlink(String)
        /// A folder inside `.git`, git's own: what is written there can pass for git's metadata (a ref).
        case insideGitFolder(String)

        public var description: String {
            switch self {
            case .absolute(let path):
                return "\(path) is an absolute path; a file the repository names must be inside it (give a path relative to the repository root)"
            case .climbsOut(let path):
                return "\(path) leads out of the repository with '..'; a file the repository names must be inside it"
            case .symlinkLeadsOut(let path):
                return "\(path) is or passes through a symbolic link that leads out of the repository; refused without reading it"
            case .notRegularFile(let path):
                return "\(path) is not a regular file"
            case .danglingSymlink(let path):
                return "\(path) is a symbolic link to something that does not exist; refused without following it"
            case .insideGitFolder(let path):
                return "\(path) is inside .git, git's own folder, where files pass for git's metadata; give a folder in the working tree"
            }
        }
    }

    /// The absolute path of `path` (relative to `root`) when it stays inside `root` once every symlink
    /// of its existing part is resolved. A path that does not exist yet is checked as far as it exists.
    public static func inside(_ path: String, root: String) -> Result<String, Problem> {
        if path.hasPrefix("/") { return .failure(.absolute(path)) }
        let normalized = FilePath.normalize(path)
        if normalized == ".." || normalized.hasPrefix("../") { return .failure(.climbsOut(path)) }
        let absolute = FilePath.absolute(normalized, base: root)
        let realRoot = FileSystem.realPath(root) ?? root
        // The deepest part of the path that exists decides: a symlink anywhere along it is resolved.
        var existing = absolute
        var missing: [String] = []
        while FileSystem.realPath(existing) == nil, existing != root, existing != "/" {
            missing.insert(String(existing.split(separator: "/").last ?? ""), at: 0)
            existing = FilePath.parent(existing)
        }
        // A dangling symlink does not resolve: refused, and said as what it is.
        if isSymbolicLink(absolute) && FileSystem.realPath(absolute) == nil { return .failure(.danglingSymlink(path)) }
        guard let resolved = FileSystem.realPath(existing) else { return .failure(.symlinkLeadsOut(path)) }
        guard resolved == realRoot || resolved.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/") else {
            return .failure(.symlinkLeadsOut(path))
        }
        return .success(missing.reduce(resolved) { FilePath.join($0, $1) })
    }

    /// Like `inside`, for a folder prepush writes into: it must also stay out of `.git` (followed
    /// through any symlink), where a report could pass for a ref or a hook.
    public static func writableFolderInside(_ path: String, root: String) -> Result<String, Problem> {
        inside(path, root: root).flatMap { absolute in
            let realRoot = FileSystem.realPath(root) ?? root
            let relative = absolute.hasPrefix(realRoot) ? String(absolute.dropFirst(realRoot.count)) : absolute
            let components = relative.split(separator: "/")
            if components.contains(where: { $0.lowercased() == ".git" }) { return .failure(.insideGitFolder(path)) }
            return .success(absolute)
        }
    }

    /// Like `inside`, for a file that is read: it must also be a regular file when it exists, so a
    /// FIFO cannot hang the read and a folder gets a sentence, not a Foundation error code.
    public static func fileInside(_ path: String, root: String) -> Result<String, Problem> {
        inside(path, root: root).flatMap { absolute in
            var info = stat()
            if stat(absolute, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG { return .failure(.notRegularFile(path)) }
            return .success(absolute)
        }
    }

    /// Whether `path` itself is a symbolic link (not followed).
    public static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }
}

/// Reading a whole file that a user or a repository names, with every way it can go wrong said
/// in words: a folder, a FIFO (opened without blocking, so it cannot hang a push), no permission,
/// or bigger than the caller wants to hold.
public enum FileReading {
    /// Largest file prepush reads from a repository to parse (test sources, views, the scenario
    /// catalog): hand-written sources are a few hundred KB at most, while parsing costs up to 100
    /// times a file's size (a 20 MB test source took 1.5 GB; an 8 MB one of 130,000 one-line tests
    /// 665 MB and 42 s; 2 MB of them, 196 MB). No configuration lifts it.
    public static let sourceCeiling = 2_000_000

    /// Why a file was not read.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case missing
        case folder
        case notRegularFile
        case tooLarge(bytes: Int, limit: Int)
        case system(String)

        public var description: String {
            switch self {
            case .missing: return "does not exist"
            case .folder: return "is a folder, not a file"
            case .notRegularFile: return "is not a regular file (a FIFO, a socket or a device)"
            case .tooLarge(let bytes, let limit): return "is \(Self.size(bytes)), over the limit of \(Self.size(limit))"
            case .system(let reason): return "cannot be read: \(reason)"
            }
        }

        /// "20.5 MB", "1088 KB", "12 bytes": KB up to 10 MB, so a file just over a 1 MB limit does not read "1.0 MB".
        public static func size(_ bytes: Int) -> String {
            if bytes >= 10_000_000 { let tenths = bytes / 100_000; return "\(tenths / 10).\(tenths % 10) MB" }
            if bytes >= 1_000 { return "\(bytes / 1_000) KB" }
            return "\(bytes) bytes"
        }
    }

    /// The bytes of the regular file at `path`, refused past `limit` bytes.
    public static func read(_ path: String, limit: Int = .max) -> Result<[UInt8], Problem> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            // A socket cannot be opened (ENXIO, "No such device or address"): say what it is.
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG, (info.st_mode & S_IFMT) != S_IFDIR { return .failure(.notRegularFile) }
            return .failure(code == ENOENT ? .missing : .system(String(cString: strerror(code))))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.system(String(cString: strerror(errno)))) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .failure(.folder)
        default: return .failure(.notRegularFile)
        }
        let size = Int(info.st_size)
        guard size <= limit else { return .failure(.tooLarge(bytes: size, limit: limit)) }
        var bytes = FileSystem.readAll(fd)
        // A file that grew while it was read is held to the limit too.
        if bytes.count > limit {
            let grown = bytes.count
            bytes = []
            return .failure(.tooLarge(bytes: grown, limit: limit))
        }
        return .success(bytes)
    }

    /// The size in bytes of the regular file at `path`, or nil (following symlinks).
    public static func size(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }
}

/// What a file's metadata says of its content: size and modification time.
public struct FileStamp: Equatable, Sendable {
    /// Size in bytes.
    public let size: Int
    /// Modification time: whole seconds since 1970, and the nanoseconds after them.
    public let seconds: Int
    public let nanoseconds: Int

    /// Creates a stamp.
    public init(size: Int, seconds: Int, nanoseconds: Int) {
        self.size = size
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }
}
