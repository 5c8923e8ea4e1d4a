#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import PrePushCore

/// Finds a program on a `PATH` as a shell does: for the runner (a child's bare program name, on the
/// `PATH` the child is given) and for the verdict cache (the toolchain's programs).
package enum ProgramLookup {
    /// The first executable file (not a folder) called `name` in the folders of `path`.
    package static func executable(named name: String, path: String) -> String? {
        for folder in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = FilePath.join(String(folder), name)
            if access(candidate, X_OK) == 0, !FileSystem.isDirectory(candidate) { return candidate }
        }
        return nil
    }
}
