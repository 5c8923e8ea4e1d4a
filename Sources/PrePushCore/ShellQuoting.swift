/// The one way prepush writes a value into a `/bin/sh` command line (the hook script, a stage
/// command it adds to, the Mac's shell for a remote run, the commands `prepush init` proposes).
public enum ShellQuoting {
    /// `word` in single quotes, each `'` inside written as `'\''`: safe for any text.
    public static func quoted(_ word: String) -> String {
        "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// `word` as it is when it holds only letters, digits and `._-/` (what a reader expects to see
    /// plain), else `quoted(word)`.
    public static func word(_ word: String) -> String {
        !word.isEmpty && word.allSatisfy({ $0.isLetter || $0.isNumber || "._-/".contains($0) }) ? word : quoted(word)
    }
}
