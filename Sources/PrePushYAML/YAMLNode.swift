import PrePushCore

/// A node of a YAML document, copied out of libyaml with the place it starts at.
package struct YAMLNode: Sendable {
    /// What the node holds.
    package enum Content: Sendable {
        /// A scalar's text; `isPlain` is false for quoted and block scalars.
        case scalar(String, isPlain: Bool)
        /// A sequence's items in order.
        case sequence([YAMLNode])
        /// A mapping's pairs in document order (duplicates are rejected by the loader).
        case mapping([(key: YAMLNode, value: YAMLNode)])
    }

    /// What the node holds.
    package let content: Content
    /// Where the node starts (1-based line and column).
    package let location: SourceLocation

    /// The scalar's text, or nil for collections.
    package var scalar: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// YAML's null: an empty plain scalar, `~` or `null` (any capitalisation YAML 1.1 allows).
    package var isNull: Bool {
        if case .scalar(let text, isPlain: true) = content {
            return text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
        }
        return false
    }

    /// The scalar as a boolean in `BooleanWord`'s grammar (the one flags, variables and every file
    /// use); nil for collections and other words.
    package var boolean: Bool? { scalar.flatMap(BooleanWord.parse) }

    /// "a mapping", "a sequence", "nothing" or the quoted scalar: used in "found ..." messages.
    package var kindDescription: String {
        switch content {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let text, _): return isNull ? "nothing" : "\"\(Diagnostic.excerpt(text))\""
        }
    }
}
