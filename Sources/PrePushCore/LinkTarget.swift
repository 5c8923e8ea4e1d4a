/// The one check of an address a report makes clickable (a scenario's `links:`, through
/// `traceability.linkPattern`): only `http:`, `https:` or a path relative to the report. A
/// `javascript:`, `vbscript:`, `data:` or `file:` link in traceability.html or a pull request's
/// Markdown would run or open what the change chose when a reviewer clicks it.
public enum LinkTarget {
    /// Whether `url` may become a link: an `http://` or `https://` URL (any case), or a relative
    /// path. Refused, besides other schemes: anything holding a space, a control character (C0, DEL,
    /// C1), U+2028/U+2029, a backslash, `<`, `>`, `"` or a backtick (a browser drops tabs and line
    /// breaks from an address and trims what leads, so `java\tscript:` and ` javascript:` are
    /// schemes to it); a protocol-relative `//host` (a file opened from disk resolves it to `file:`);
    /// and a relative path whose first segment holds `&` (`javascript&#58;` decodes to a scheme in
    /// Markdown and HTML attributes). The scheme is what precedes the first `:` before any `/`, `?`
    /// or `#`, as a browser reads it.
    public static func isAllowed(_ url: String) -> Bool {
        guard !url.isEmpty else { return false }
        for scalar in url.unicodeScalars {
            let value = scalar.value
            if value <= 0x20 || (value >= 0x7F && value <= 0xA0) || value == 0x2028 || value == 0x2029 || value == 0xFEFF { return false }
            if scalar.properties.isWhitespace { return false }
            if "\\<>\"`".unicodeScalars.contains(scalar) { return false }
        }
        if url.hasPrefix("//") { return false }
        let head = url.unicodeScalars.prefix { $0 != ":" && $0 != "/" && $0 != "?" && $0 != "#" }
        let rest = url.unicodeScalars.dropFirst(head.count)
        guard rest.first == ":" else {
            // Relative: no entity in the part a decoder could turn into a scheme.
            return !head.contains("&")
        }
        let scheme = String(String.UnicodeScalarView(head)).lowercased()
        guard scheme == "http" || scheme == "https" else { return false }
        // `http:` followed by `//` and a host: `http:foo` is a relative reference to some readers.
        let afterColon = rest.dropFirst()
        return afterColon.starts(with: "//".unicodeScalars) && afterColon.count > 2
    }
}
