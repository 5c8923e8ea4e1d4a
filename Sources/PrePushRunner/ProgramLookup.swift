#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

extension ProcessGroupRunner {
    /// The first executable file named `name` in the folders of `path`; `name` itself (for
    /// `posix_spawnp` and prepush's own `PATH`) when there is no `path` or no such file.
    static func lookUp(_ name: String, path: String?) -> String {
        guard let path else { return name }
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = String(folder.hasSuffix("/") ? folder + name : folder + "/" + name)
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return name
    }
}
