#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// The one confined way commands touch files under the checkout. In CI the checkout is a pull
/// request's: any of its components may be a committed symbolic link (`.prepush -> /`,
/// `merged -> ~/.ssh`, `results.md -> /proc/self/environ`). Every path is walked from the root one
/// component at a time with `openat(…, O_NOFOLLOW)`, so no symbolic link is followed anywhere
/// along it, whatever it points at and whenever it appears; a report is never written over a file
/// git tracks (the pull request's own "report"), nor inside `.git`.
///
/// Paths are relative to the root; `relative(_:from:)` says whether a path a user gave lies in the
/// checkout at all (a path outside it, `/tmp/reports`, is the user's own and not confined).
public struct Checkout {
    /// The checkout's root folder (absolute; the user's own, so a link to it is followed).
    public let root: String
    /// Whether git tracks the file at a root-relative path.
    let tracks: (String) -> Bool

    /// Why a path was refused or a file not read or written. The description quotes the path, never
    /// anything a file holds.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// Absolute, empty, or climbing out with `..`.
        case outside(String)
        /// A component of the path is a symbolic link (`component` is the path up to it).
        case symbolicLink(String, component: String)
        /// A component that should be a folder is a file.
        case notAFolder(String, component: String)
        /// The file is tracked by git: it is the repository's content, not a report of a run.
        case tracked(String)
        /// Inside `.git`, where a file can pass for git's metadata.
        case insideGit(String)
        /// Nothing is there.
        case missing(String)
        /// A folder, a FIFO, a socket or a device where a file is read.
        case notRegularFile(String)
        /// Larger than the reader takes.
        case tooLarge(String, bytes: Int, limit: Int)
        /// The system's refusal.
        case system(String, reason: String)

        public var description: String {
            switch self {
            case .outside(let path):
                return "\(path) is not a path inside the checkout (absolute, empty or climbing out with '..')"
            case .symbolicLink(let path, let component):
                return "\(path): \(component) is a symbolic link; prepush follows none inside the checkout, which a pull request controls"
            case .notAFolder(let path, let component):
                return "\(path): \(component) is not a folder"
            case .tracked(let path):
                return "\(path) is tracked by git: it is the repository's content, not a file a run of prepush wrote"
            case .insideGit(let path):
                return "\(path) is inside .git, git's own folder, where files pass for git's metadata"
            case .missing(let path):
                return "\(path) does not exist"
            case .notRegularFile(let path):
                return "\(path) is not a regular file"
            case .tooLarge(let path, let bytes, let limit):
                return "\(path) is \(FileReading.Problem.size(bytes)), over the limit of \(FileReading.Problem.size(limit))"
            case .system(let path, let reason):
                return "\(path): \(reason)"
            }
        }
    }

    /// A checkout at `root`; `tracks` answers whether git tracks a root-relative path.
    public init(root: String, tracks: @escaping (String) -> Bool = { _ in false }) {
        self.root = root
        self.tracks = tracks
    }

    /// `path` (absolute, or relative to `here`) relative to the root when it lies inside the
    /// checkout as written (no symlink resolved); nil for a path outside it.
    public func relative(_ path: String, from here: String) -> String? {
        let absolute = FilePath.normalize(FilePath.absolute(path, base: here))
        let base = FilePath.normalize(root)
        if absolute == base { return "." }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        guard absolute.hasPrefix(prefix) else { return nil }
        return String(absolute.dropFirst(prefix.count))
    }

    /// The absolute path of a root-relative one, for messages and for tools that take paths.
    public func absolute(_ relative: String) -> String {
        relative == "." ? root : FilePath.join(root, relative)
    }

    /// Whether git tracks the file at the root-relative path.
    public func isTracked(_ relative: String) -> Bool { tracks(FilePath.normalize(relative)) }

    /// The components of a root-relative path, or `.outside`.
    func components(_ relative: String) throws(Problem) -> [String] {
        guard !relative.hasPrefix("/") else { throw .outside(relative) }
        let parts = FilePath.normalize(relative).split(separator: "/").map(String.init).filter { $0 != "." }
        guard !parts.isEmpty, !parts.contains("..") else { throw .outside(relative) }
        return parts
    }

    /// A descriptor of the folder `parts` (from the root), each component opened without following
    /// a link; folders that do not exist are made when `create`.
    func openFolder(_ parts: ArraySlice<String>, of relative: String, create: Bool) throws(Problem) -> Int32 {
        var fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .system(root, reason: String(cString: strerror(errno))) }
        var walked = ""
        for part in parts {
            walked = walked.isEmpty ? part : walked + "/" + part
            var next = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0, errno == ENOENT, create {
                if mkdirat(fd, part, 0o755) != 0 && errno != EEXIST {
                    let reason = String(cString: strerror(errno))
                    close(fd)
                    throw .system(relative, reason: "cannot make \(walked): \(reason)")
                }
                next = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            if next < 0 {
                let code = errno
                let problem = Self.describe(code, at: fd, name: part, path: relative, walked: walked)
                close(fd)
                throw problem
            }
            close(fd)
            fd = next
        }
        return fd
    }

    /// What a failed `openat` of `name` in `folder` means, looked at without following it.
    static func describe(_ code: Int32, at folder: Int32, name: String, path: String, walked: String) -> Problem {
        var info = stat()
        if fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFLNK: return .symbolicLink(path, component: walked)
            case S_IFDIR: break
            default: if code == ENOTDIR { return .notAFolder(path, component: walked) }
            }
        }
        if code == ENOENT { return .missing(path) }
        if code == ELOOP { return .symbolicLink(path, component: walked) }
        return .system(path, reason: String(cString: strerror(code)))
    }

    /// The bytes of the regular file at the root-relative path, read without following a link at
    /// any component and without blocking (a FIFO cannot hang the read); refused past `limit`.
    /// With `untrackedOnly`, a file git tracks is refused: what prepush reads back as its own output.
    public func read(_ relative: String, limit: Int, untrackedOnly: Bool = false) -> Result<[UInt8], Problem> {
        withFile(relative, untrackedOnly: untrackedOnly) { fd, size throws(Problem) in
            guard size <= limit else { throw .tooLarge(relative, bytes: size, limit: limit) }
            let bytes = FileSystem.readAll(fd)
            guard bytes.count <= limit else { throw .tooLarge(relative, bytes: bytes.count, limit: limit) }
            return bytes
        }
    }

    /// `body` given a descriptor of the regular file at the root-relative path (opened without
    /// following a link at any component, without blocking) and its size; the one way this type
    /// opens a file to read.
    func withFile<T>(_ relative: String, untrackedOnly: Bool, _ body: (Int32, Int) throws(Problem) -> T) -> Result<T, Problem> {
        do {
            let parts = try components(relative)
            if untrackedOnly && isTracked(relative) { return .failure(.tracked(relative)) }
            let folder = try openFolder(parts.dropLast(), of: relative, create: false)
            defer { close(folder) }
            let fd = openat(folder, parts[parts.count - 1], O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { return .failure(Self.describe(errno, at: folder, name: parts[parts.count - 1], path: relative, walked: relative)) }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .failure(.notRegularFile(relative)) }
            return .success(try body(fd, Int(info.st_size)))
        } catch {
            return .failure(error)
        }
    }

    /// The SHA-256 (hex) of the regular file at the root-relative path, read as `read` reads it
    /// but a piece at a time (a large report is not held).
    public func digest(_ relative: String, untrackedOnly: Bool = false) -> Result<String, Problem> {
        withFile(relative, untrackedOnly: untrackedOnly) { fd, _ throws(Problem) in
            guard let hex = SHA256.hex(readingToEnd: fd) else { throw .system(relative, reason: String(cString: strerror(errno))) }
            return hex
        }
    }

    /// Why the regular file at the root-relative path would be refused by `read`, or nil: for a
    /// reader that takes the file by its path afterwards (a streaming parser), in a job where
    /// nothing of the pull request runs any more.
    public func problem(reading relative: String, untrackedOnly: Bool = false) -> Problem? {
        if case .failure(let problem) = withFile(relative, untrackedOnly: untrackedOnly, { _, _ throws(Problem) in () }) { return problem }
        return nil
    }

    /// Whether something is at the root-relative path (not followed); false for anything refused.
    public func exists(_ relative: String) -> Bool {
        guard let parts = try? components(relative), let folder = try? openFolder(parts.dropLast(), of: relative, create: false) else { return false }
        defer { close(folder) }
        var info = stat()
        return fstatat(folder, parts[parts.count - 1], &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// Makes the folder at the root-relative path and those above it, none through a link, none in `.git`.
    public func makeFolder(_ relative: String) throws(Problem) {
        guard relative != "." else { return }
        let parts = try components(relative)
        if parts.contains(where: { $0.lowercased() == ".git" }) { throw .insideGit(relative) }
        close(try openFolder(parts[...], of: relative, create: true))
    }

    /// Writes the file at the root-relative path whole: what `body` sends to the descriptor it is
    /// given (false: the write failed) goes into a new temporary file in the same folder, which is
    /// then renamed into place (a link there is replaced, never written through). Folders are made
    /// as needed. Refused: a path through a link, into `.git`, or over a file git tracks unless
    /// `replacingTracked` (a file the repository keeps, such as `.prepush.yml` or a baseline,
    /// rather than a report).
    public func write(to relative: String, permissions: mode_t = 0o644, replacingTracked: Bool = false, _ body: (Int32) -> Bool) throws(Problem) {
        let parts = try components(relative)
        if parts.contains(where: { $0.lowercased() == ".git" }) { throw .insideGit(relative) }
        if !replacingTracked && isTracked(relative) { throw .tracked(relative) }
        let folder = try openFolder(parts.dropLast(), of: relative, create: true)
        defer { close(folder) }
        let name = parts[parts.count - 1]
        var info = stat()
        if fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw .notRegularFile(relative)
        }
        let temporary = ".\(name).\(getpid())-\(UInt32.random(in: .min ... .max)).tmp"
        let fd = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw .system(relative, reason: "cannot create a temporary file: \(String(cString: strerror(errno)))") }
        _ = fchmod(fd, permissions)
        let written = body(fd)
        let writeError = errno
        let closed = close(fd) == 0
        guard written, closed, renameat(folder, temporary, folder, name) == 0 else {
            let reason = String(cString: strerror(written ? errno : writeError))
            unlinkat(folder, temporary, 0)
            throw .system(relative, reason: reason)
        }
    }

    /// Writes `bytes` whole to the root-relative path (see `write(to:permissions:_:)`).
    public func write(_ bytes: [UInt8], to relative: String, permissions: mode_t = 0o644) throws(Problem) {
        try write(to: relative, permissions: permissions) { fd in bytes.withUnsafeBytes { FileSystem.write($0, to: fd) } }
    }

    /// Writes `text` as UTF-8 to the root-relative path.
    public func write(_ text: String, to relative: String, permissions: mode_t = 0o644, replacingTracked: Bool = false) throws(Problem) {
        let bytes = Array(text.utf8)
        try write(to: relative, permissions: permissions, replacingTracked: replacingTracked) { fd in bytes.withUnsafeBytes { FileSystem.write($0, to: fd) } }
    }
}

extension Checkout {
    /// Writes the file at the absolute `path`: through `checkout`'s confinement when it lies inside
    /// the checkout (a committed link on the way is refused), else as given (a folder the user named
    /// outside the checkout is theirs). Always whole: a temporary file renamed into place.
    public static func write(to path: String, in checkout: Checkout?, permissions: mode_t = 0o644, replacingTracked: Bool = false,
                             _ body: (Int32) -> Bool) throws(Problem) {
        if let checkout, let relative = checkout.relative(path, from: checkout.root), relative != "." {
            return try checkout.write(to: relative, permissions: permissions, replacingTracked: replacingTracked, body)
        }
        do {
            try AtomicFile.write(to: path, permissions: permissions, body)
        } catch {
            throw .system(path, reason: error.reason)
        }
    }

    /// Writes `text` whole to the absolute `path` (see `write(to:in:permissions:replacingTracked:_:)`).
    public static func write(_ text: String, to path: String, in checkout: Checkout?, replacingTracked: Bool = false) throws(Problem) {
        try makeFolder(FilePath.parent(path), in: checkout)
        let bytes = Array(text.utf8)
        try write(to: path, in: checkout, replacingTracked: replacingTracked) { fd in bytes.withUnsafeBytes { FileSystem.write($0, to: fd) } }
    }

    /// Makes the folder at the absolute `path` and those above it: confined inside the checkout, as
    /// given outside it.
    public static func makeFolder(_ path: String, in checkout: Checkout?) throws(Problem) {
        if let checkout, let relative = checkout.relative(path, from: checkout.root) { return try checkout.makeFolder(relative) }
        guard mkdirAll(path) else { throw .system(path, reason: String(cString: strerror(errno))) }

    }

    /// `mkdir -p`.
    static func mkdirAll(_ path: String) -> Bool {
        var info = stat()
        if stat(path, &info) == 0 { return (info.st_mode & S_IFMT) == S_IFDIR }
        let parent = FilePath.parent(path)
        if parent != path, !parent.isEmpty, !mkdirAll(parent) { return false }
        return mkdir(path, 0o755) == 0 || errno == EEXIST
    }
}
