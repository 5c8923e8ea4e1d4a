/// The one grammar of a boolean prepush reads, from a flag, an environment variable, the
/// configuration file or the scenario catalog: true/false, yes/no, 1/0 in any case, blanks around
/// ignored. One grammar, so that `manual: 1` and `cache: 1` mean the same thing.
public enum BooleanWord {
    /// The value, or nil when `text` is none of the words.
    public static func parse(_ text: String) -> Bool? {
        switch TextFormatting.trimmed(text).lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: return nil
        }
    }

    /// The words, for messages.
    public static let expected = "true/false, yes/no or 1/0"
}
