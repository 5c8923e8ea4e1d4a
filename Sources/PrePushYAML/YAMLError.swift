import PrePushCore

/// Why a YAML text could not be read into nodes, with the place and the source line it points at
/// (kept from the text the loader read, so no one reads the file a second time to quote it).
public struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Problem: Sendable, Equatable {
        /// libyaml could not parse the text; its words.
        case syntax(String)
        /// A second YAML document after the first.
        case extraDocument
        /// Nesting deeper than `YAMLLoader.maximumDepth`.
        case tooDeep
        /// Aliases that repeat more nodes than `limit` (an alias bomb).
        case aliasExpansion(limit: Int)
        /// Aliases that repeat more bytes than `limit`.
        case aliasBytes(limit: Int)
        /// The same key twice in one mapping.
        case duplicateKey(String, firstAt: SourceLocation)
    }

    /// Where the problem is (1-based line and column).
    public let location: SourceLocation
    /// What went wrong.
    public let problem: Problem
    /// The line of the text at `location`, for the caret under it.
    public let sourceLine: String?

    package init(_ problem: Problem, at location: SourceLocation, sourceLine: String?) {
        self.problem = problem
        self.location = location
        self.sourceLine = sourceLine
    }

    /// `file:line:column: error: …` with the line and a caret.
    public var description: String {
        Diagnostic(location: location, message: message, sourceLine: sourceLine).description
    }

    /// The message alone, without the place.
    public var message: String {
        switch problem {
        case .syntax(let words):
            return "invalid YAML: \(words)"
        case .extraDocument:
            return "a second YAML document; the file is one document (remove the '---')"
        case .tooDeep:
            return "nesting deeper than \(YAMLLoader.maximumDepth) levels"
        case .aliasExpansion(let limit):
            return "aliases repeat more than \(limit) nodes; write the values out or use fewer aliases"
        case .aliasBytes(let limit):
            return "aliases repeat more than \(limit / 1024) KB of text; write the values out or use fewer aliases"
        case .duplicateKey(let key, let first):
            return "duplicate key \"\(Diagnostic.excerpt(key))\" (first at line \(first.line), column \(first.column))"
        }
    }
}
