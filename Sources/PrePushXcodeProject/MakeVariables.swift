/// A Makefile read as make reads it when nobody sets a variable: its own variables expanded in
/// every line (`xcodegen generate --spec "${PROJECT_YAML_FILE}"`, `-scheme $(SCHEME)`), so the
/// readers of the team's commands see the values make would run. Only what the file itself
/// decides is taken: an assignment under a condition counts when the condition reads "the
/// variable is not set" (`ifeq ($(EXCLUDE_DEV_TOOLING),)`, `ifndef CI`) or its `else` of the
/// opposite; under any other condition it is left out, and a variable nobody assigns stays as
/// written (a reader then sees a `$` and copies nothing).
package enum MakeVariables {
    /// `text` with the values its unconditional and not-set-branch assignments give expanded in
    /// every line, and a recipe's `$$` made the shell's `$`. Lines are neither added nor removed.
    package static func expanded(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var values: [String: String] = [:]
        // Per open conditional: whether the branch being read is the one taken with nothing set
        // (nil: cannot tell, its assignments are left out).
        var branches: [Bool?] = []
        var inRecipe = false
        var output: [String] = []
        output.reserveCapacity(lines.count)
        for line in lines {
            let code = line.drop { $0 == " " || $0 == "\t" }
            let words = code.split(separator: " ", maxSplits: 1)
            let directive = words.first.map(String.init) ?? ""
            if line.first == "\t", inRecipe {
                output.append(expand(String(line), values, recipe: true))
                continue
            }
            inRecipe = false
            switch directive {
            case "ifeq", "ifneq", "ifdef", "ifndef":
                branches.append(takenUnset(directive, words.count > 1 ? String(words[1]) : ""))
            case "else":
                // `else ifeq …` chains are not followed: the rest of the block counts as undecided.
                if let last = branches.indices.last { branches[last] = words.count > 1 ? nil : branches[last].map { !$0 } }
            case "endif":
                _ = branches.popLast()
            default:
                if let (name, operation, value) = assignment(code) {
                    guard branches.allSatisfy({ $0 == true }) else { break }
                    let value = expand(value, values, recipe: false)
                    switch operation {
                    case "?=": if values[name] == nil { values[name] = value }
                    case "+=": values[name] = values[name].map { $0 + " " + value } ?? value
                    default: values[name] = value
                    }
                } else if line.first != "\t", !code.isEmpty, !code.hasPrefix("#"), code.contains(":") {
                    inRecipe = true
                }
            }
            output.append(expand(String(line), values, recipe: false))
        }
        return output.joined(separator: "\n")
    }

    /// Whether a conditional's first branch is the one make takes when no variable is set: true
    /// for `ifndef V` and `ifeq ($(V),)`, false for `ifdef V` and `ifneq ($(V),)`, nil otherwise.
    static func takenUnset(_ directive: String, _ condition: String) -> Bool? {
        let condition = Substring(condition).trimmingCharacters(in: " \t")
        switch directive {
        case "ifndef": return true
        case "ifdef": return false
        default:
            // `($(V),)`, `(,$(V))`, `"$(V)" ""`: one side a lone variable reference, the other empty.
            var sides: [Substring]
            if condition.hasPrefix("("), condition.hasSuffix(")") {
                sides = condition.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
            } else {
                sides = condition.split(separator: " ")
            }
            sides = sides.map { $0.trimmingCharacters(in: " \"'") }
            guard sides.count == 2, sides.contains(where: \.isEmpty),
                  let reference = sides.first(where: { !$0.isEmpty }), isReference(reference) else { return nil }
            return directive == "ifeq"
        }
    }

    /// `$(NAME)` or `${NAME}` alone.
    static func isReference(_ text: Substring) -> Bool {
        let parenthesized = text.hasPrefix("$(") && text.hasSuffix(")")
        let braced = text.hasPrefix("${") && text.hasSuffix("}")
        return (parenthesized || braced) && isName(text.dropFirst(2).dropLast())
    }

    /// A line's variable assignment (`export NAME := value`, `NAME ?= value`), or nil. A rule
    /// (`target: prerequisite`) and a target's own variable (`immuni: export ID = 1`) are none.
    static func assignment(_ code: Substring) -> (name: String, operation: String, value: String)? {
        var text = code
        for keyword in ["export ", "override "] where text.hasPrefix(keyword) { text = text.dropFirst(keyword.count).drop { $0 == " " } }
        let name = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard !name.isEmpty, isName(name) else { return nil }
        let rest = text.dropFirst(name.count).drop { $0 == " " || $0 == "\t" }
        for operation in ["::=", ":=", "?=", "+=", "="] where rest.hasPrefix(operation) {
            return (String(name), operation, String(rest.dropFirst(operation.count).trimmingCharacters(in: " \t")))
        }
        return nil
    }

    static func isName(_ text: Substring) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// `line` with each `$(NAME)`/`${NAME}` of a known variable replaced by its value; in a recipe
    /// `$$` is the shell's `$`. Unknown references and make's functions (`$(shell …)`) stay.
    static func expand(_ line: String, _ values: [String: String], recipe: Bool) -> String {
        guard line.contains("$") else { return line }
        var result = ""
        var rest = Substring(line)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            if after.first == "$" {
                result += recipe ? "$" : "$$"
                rest = after.dropFirst()
                continue
            }
            if let open = after.first, open == "(" || open == "{" {
                let close: Character = open == "(" ? ")" : "}"
                if let end = after.firstIndex(of: close) {
                    let name = after[after.index(after: after.startIndex)..<end]
                    // A value still holding make's functions (`$(call udid_for,iOS 17.4)`) is no literal: the reference stays.
                    if isName(name), let value = values[String(name)], !value.contains("$") {
                        result += value
                        rest = after[after.index(after: end)...]
                        continue
                    }
                }
            }
            result += "$"
            rest = after
        }
        return result + rest
    }
}
