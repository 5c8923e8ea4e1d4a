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

/// Reads a command line the way /bin/sh reads simple commands: blanks separate words, single and
/// double quotes group, a backslash escapes, and `|`, `&`, `;` and a line break end a command.
/// Enough to find an argument's value, or to change one word and leave the rest as written.
package enum ShellWords {
    /// One word of a command line: where it is in the text and what it means unquoted. An
    /// operator (`|`, `&&`, `;`, a line break, a redirection such as `2>&1`) is a word of its own
    /// with `isOperator` set.
    package struct Token: Equatable {
        package let range: Range<String.Index>
        package let value: String
        package let isOperator: Bool
    }

    /// The words of `command`, operators included.
    package static func tokens(_ command: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        var start: String.Index?
        var quote: Character?
        var escaped = false
        var index = command.startIndex
        func finish(at end: String.Index) {
            if let begin = start { tokens.append(Token(range: begin..<end, value: current, isOperator: false)) }
            current = ""
            start = nil
        }
        while index < command.endIndex {
            let character = command[index]
            defer { index = command.index(after: index) }
            if escaped { current.append(character); escaped = false; continue }
            if character == "\\" && quote != "'" {
                escaped = true
                if start == nil { start = index }
                continue
            }
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
                continue
            }
            switch character {
            case "'", "\"":
                quote = character
                if start == nil { start = index }
            case " ", "\t":
                finish(at: index)
            case ">", "<":
                // A redirection (`2>&1`, `>> log`, `< input`) is an operator too: its file descriptor
                // (`2`) goes with it, and the words after it are no arguments of the command.
                let begin = start.flatMap { begin in current.allSatisfy(\.isNumber) && !current.isEmpty ? begin : nil }
                if begin == nil { finish(at: index) } else { current = ""; start = nil }
                var end = command.index(after: index)
                while end < command.endIndex, command[end] == ">" || command[end] == "&" || command[end] == "|" { end = command.index(after: end) }
                if command[command.index(before: end)] == "&" {
                    while end < command.endIndex, command[end].isNumber || command[end] == "-" { end = command.index(after: end) }
                }
                tokens.append(Token(range: (begin ?? index)..<end, value: String(command[(begin ?? index)..<end]), isOperator: true))
                index = command.index(before: end)
            case ";", "&", "|", "\n":
                finish(at: index)
                var end = command.index(after: index)
                // `&&` and `||` are one operator.
                if character != ";", character != "\n", end < command.endIndex, command[end] == character { end = command.index(after: end) }
                tokens.append(Token(range: index..<end, value: String(command[index..<end]), isOperator: true))
                index = command.index(before: end)
            default:
                current.append(character)
                if start == nil { start = index }
            }
        }
        finish(at: command.endIndex)
        return tokens
    }

    /// The words of `command`, without its operators.
    package static func split(_ command: String) -> [String] {
        tokens(command).filter { !$0.isOperator }.map(\.value)
    }
}
