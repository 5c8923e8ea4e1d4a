/// Path arithmetic on plain strings, so the hot path needs no `NSString` (which would load all of
/// Foundation and ICU on Linux just to join two paths).
public enum FilePath {
    /// `component` under `base`; an absolute `component` stands alone.
    public static func join(_ base: String, _ component: String) -> String {
        if component.hasPrefix("/") || base.isEmpty { return component }
        if component.isEmpty { return base }
        return base.hasSuffix("/") ? base + component : base + "/" + component
    }

    /// `path` made absolute against `base`, then normalised.
    public static func absolute(_ path: String, base: String) -> String {
        normalize(join(base, path))
    }

    /// Removes `.`, resolves `..` textually, collapses repeated and trailing slashes.
    public static func normalize(_ path: String) -> String {
        let isAbsolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part == ".." && isAbsolute {
                continue
            } else {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        if isAbsolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// The folder that holds `path`.
    public static func parent(_ path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// `path` as a person reads it from `folder`: relative where it is inside, else as it is.
    public static func shown(_ path: String, from folder: String) -> String {
        let relative = relative(path, to: folder)
        return relative.hasPrefix("/") || relative.hasPrefix("..") ? path : relative
    }

    /// `path` relative to `root` when it lies inside it, else `path` unchanged; `root` itself is ".".
    public static func relative(_ path: String, to root: String) -> String {
        if path == root { return "." }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
