#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// The one way prepush replaces a file: written into a new temporary file beside it (created
/// exclusively, never through a symlink), then renamed into place. A killed run or a full disk
/// leaves the old file or the new one, never half of one; two writers never share a temporary.
public enum AtomicFile {
    /// Why a file could not be written.
    public struct Problem: Error, CustomStringConvertible {
        /// The file that was not written.
        public let path: String
        /// The system's words.
        public let reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// Writes what `body` sends to the descriptor it is given (false: the write failed), then
    /// renames it to `path` with `permissions`.
    public static func write(to path: String, permissions: mode_t = 0o644, _ body: (Int32) -> Bool) throws(Problem) {
        let temporary = "\(path).\(getpid())-\(UInt32.random(in: .min ... .max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, permissions)
        guard fd >= 0 else { throw Problem(path: path, reason: "cannot create \(temporary): \(String(cString: strerror(errno)))") }
        // The mode given to open is masked by the umask; a hook must be executable whatever it is.
        _ = fchmod(fd, permissions)
        let written = body(fd)
        let writeError = errno
        let closed = close(fd) == 0
        guard written, closed, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(written ? errno : writeError))
            unlink(temporary)
            throw Problem(path: path, reason: reason)
        }
    }

    /// Writes `bytes` to `path`.
    public static func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644) throws(Problem) {
        try write(to: path, permissions: permissions) { fd in bytes.withUnsafeBytes { FileSystem.write($0, to: fd) } }
    }

    /// Writes `text` as UTF-8 to `path`.
    public static func write(_ text: String, to path: String, permissions: mode_t = 0o644) throws(Problem) {
        try write(Array(text.utf8), to: path, permissions: permissions)
    }
}
