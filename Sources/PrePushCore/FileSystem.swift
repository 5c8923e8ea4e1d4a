#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// File-system questions answered with one system call each.
public enum FileSystem {
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
