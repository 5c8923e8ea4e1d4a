/// String constants declared anywhere in a repository (`enum A11y { enum Checkout { static let pay =
/// "checkout_button_pay" } }` in `A11yIdentifiers.swift`), found by a scan of the text rather than a
/// parse: it runs over every Swift file of a tree, and only when a checked file passes an identifier
/// that its own constants do not explain.
///
/// What it sees: `static let name = "literal"` (no interpolation) inside `enum`, `struct`, `class` and
/// `extension` blocks, named by the path of those blocks; `let name = "literal"` directly inside a
/// type (a struct of identifiers reached through an instance); and `static let screen = Screen()`,
/// an instance through which those are named (`A11yIdentifiers.roomScreen.sendButton`). What it does
/// not: computed properties, constants built from other constants, `let`s outside a type, and string
/// literals that hold braces inside multi-line (`"""`) strings, which can mislead its brace count.
/// The cases of an enum whose raw type is `String` (`enum SceneID: String { case welcome; case
/// about = "about-window" }`) are constants too, named `SceneID.welcome.rawValue`: the raw value
/// is the literal given, else the case's name.
package enum ConstantIndex {
    /// The constants of one file's text by qualified name.
    package static func scan(_ text: String) -> ConstantTable {
        scan(bytes: Array(text.utf8))
    }

    /// The constants of one file's bytes (UTF-8) by qualified name.
    package static func scan(bytes: [UInt8]) -> ConstantTable {
        var constants = ConstantTable()
        var stack: [(name: String?, depth: Int, stringEnum: Bool)] = []
        var depth = 0
        var pendingType: String?
        var pendingStringEnum = false
        var index = 0
        func word(at start: Int) -> (String, Int)? { Self.word(bytes, at: start) }
        func skipBlanks(_ start: Int) -> Int { Self.skipBlanks(bytes, start) }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
                while index < bytes.count && bytes[index] != 10 { index += 1 }
                continue
            case UInt8(ascii: "\""):
                // Skip a string literal (escapes honoured; a `"""` block as a whole).
                if index + 2 < bytes.count && bytes[index + 1] == 34 && bytes[index + 2] == 34 {
                    index += 3
                    while index + 2 < bytes.count && !(bytes[index] == 34 && bytes[index + 1] == 34 && bytes[index + 2] == 34) { index += 1 }
                    index += 3
                    continue
                }
                index += 1
                while index < bytes.count && bytes[index] != 34 && bytes[index] != 10 {
                    if bytes[index] == 92 { index += 1 }
                    index += 1
                }
                index += 1
                continue
            case UInt8(ascii: "{"):
                depth += 1
                stack.append((pendingType, depth, pendingStringEnum))
                pendingType = nil
                pendingStringEnum = false
            case UInt8(ascii: "}"):
                if let last = stack.last, last.depth == depth { stack.removeLast() }
                depth = max(0, depth - 1)
            default:
                guard isIdentifier(byte), index == 0 || !isIdentifier(bytes[index - 1]) else { break }
                var end = index
                while end < bytes.count, isIdentifier(bytes[end]) { end += 1 }
                // Only the few keywords the scan follows become Strings: most words are not one.
                guard let found = keyword(bytes, index, end) else {
                    index = end
                    continue
                }
                switch found {
                case "enum", "struct", "class", "extension", "actor":
                    // A dotted name for an extension (`extension A11y.Checkout`).
                    let start = skipBlanks(end)
                    var after = start
                    while after < bytes.count, isIdentifier(bytes[after]) || (bytes[after] == UInt8(ascii: ".") && after > start) { after += 1 }
                    if after > start {
                        pendingType = String(decoding: bytes[start..<after], as: UTF8.self)
                        pendingStringEnum = found == "enum" && Self.declaresStringRawType(bytes, after: after)
                        index = after
                        continue
                    }
                case "case":
                    // A case directly inside a `String` enum (not a `switch` in one of its members).
                    guard let enclosing = stack.last, enclosing.stringEnum, enclosing.depth == depth else { break }
                    index = Self.enumCases(bytes, after: end, path: stack.compactMap(\.name), into: &constants)
                    continue
                case "static", "let":
                    // `static let name = …`, or `let name = …` directly inside a type.
                    var afterLet = end
                    if found == "static" {
                        guard let (keyword, next) = word(at: skipBlanks(end)), keyword == "let" else { break }
                        afterLet = next
                    } else if stack.last?.name == nil {
                        break
                    }
                    guard let (name, afterName) = word(at: skipBlanks(afterLet)) else { break }
                    let path = (stack.compactMap(\.name) + [name]).joined(separator: ".")
                    if let next = Self.value(bytes, after: afterName, path: path, into: &constants) {
                        index = next
                        continue
                    }
                default:
                    break
                }
                index = end
                continue
            }
            index += 1
        }
        return constants
    }

    /// Whether `text` passes something other than a string literal to `.accessibilityIdentifier(`:
    /// only then can constants of other files matter.
    package static func usesIdentifierConstants(_ text: String) -> Bool {
        let marker = Array(".accessibilityIdentifier(".utf8)
        let bytes = Array(text.utf8)
        var index = 0
        while index + marker.count < bytes.count {
            if bytes[index] == UInt8(ascii: "."), bytes[index..<(index + marker.count)].elementsEqual(marker) {
                var at = index + marker.count
                while at < bytes.count && (bytes[at] == 32 || bytes[at] == 10) { at += 1 }
                if at < bytes.count && bytes[at] != 34 && bytes[at] != UInt8(ascii: ")") { return true }
                index = at
                continue
            }
            index += 1
        }
        return false
    }

    /// The identifier starting at `start` and the index after it.
    private static func word(_ bytes: [UInt8], at start: Int) -> (String, Int)? {
        var end = start
        while end < bytes.count, isIdentifier(bytes[end]) { end += 1 }
        return end > start ? (String(decoding: bytes[start..<end], as: UTF8.self), end) : nil
    }

    /// The index of the first byte at or after `start` that is not a space or a tab.
    private static func skipBlanks(_ bytes: [UInt8], _ start: Int) -> Int {
        var at = start
        while at < bytes.count, bytes[at] == 32 || bytes[at] == 9 { at += 1 }
        return at
    }

    /// After `name`: an optional `: Type`, `=`, then a plain string literal or `Type()`, recorded
    /// under `path`; the index after the value when it is one of those.
    private static func value(_ bytes: [UInt8], after afterName: Int, path: String, into constants: inout ConstantTable) -> Int? {
        var at = skipBlanks(bytes, afterName)
        if at < bytes.count && bytes[at] == UInt8(ascii: ":") {
            at = skipBlanks(bytes, at + 1)
            while at < bytes.count && (isIdentifier(bytes[at]) || bytes[at] == UInt8(ascii: ".")) { at += 1 }
            at = skipBlanks(bytes, at)
        }
        guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else { return nil }
        at = skipBlanks(bytes, at + 1)
        guard at < bytes.count else { return nil }
        if bytes[at] >= 65 && bytes[at] <= 90, let (type, afterType) = word(bytes, at: at),
           afterType + 1 < bytes.count, bytes[afterType] == UInt8(ascii: "("), bytes[afterType + 1] == UInt8(ascii: ")") {
            constants.instances[path] = type
            return afterType + 2
        }
        guard bytes[at] == 34, !(at + 1 < bytes.count && bytes[at + 1] == 34) else { return nil }
        var close = at + 1
        var plain = true
        while close < bytes.count && bytes[close] != 34 && bytes[close] != 10 {
            if bytes[close] == 92 { plain = false; close += 1 }
            close += 1
        }
        guard plain, close < bytes.count, bytes[close] == 34 else { return nil }
        constants.strings[path] = String(decoding: bytes[(at + 1)..<close], as: UTF8.self)
        return close + 1
    }

    /// Whether an enum's name at `after` is followed by `: String` (its raw type, first in the list).
    private static func declaresStringRawType(_ bytes: [UInt8], after: Int) -> Bool {
        var at = skipBlanks(bytes, after)
        guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return false }
        at = skipBlanks(bytes, at + 1)
        return word(bytes, at: at)?.0 == "String"
    }

    /// `case a, b = "x"` after the keyword at `after`: each case's raw value under
    /// `path.case.rawValue`; the index where the declaration ends.
    private static func enumCases(_ bytes: [UInt8], after: Int, path: [String], into constants: inout ConstantTable) -> Int {
        var at = after
        while true {
            guard let (name, afterName) = word(bytes, at: skipBlanks(bytes, at)) else { return at }
            let key = (path + [name, "rawValue"]).joined(separator: ".")
            at = skipBlanks(bytes, afterName)
            if at < bytes.count, bytes[at] == UInt8(ascii: "=") {
                // Recorded only when the value is a plain literal (`value` stops at anything else).
                guard let next = value(bytes, after: afterName, path: key, into: &constants) else { return at + 1 }
                at = skipBlanks(bytes, next)
            } else {
                constants.strings[key] = name
            }
            guard at < bytes.count, bytes[at] == UInt8(ascii: ",") else { return at }
            at += 1
        }
    }

    static let keywords = ["enum", "struct", "class", "extension", "actor", "static", "let", "case"].map { Array($0.utf8) }

    /// The keyword `bytes[start..<end]` spells, among those the scan follows.
    static func keyword(_ bytes: [UInt8], _ start: Int, _ end: Int) -> String? {
        let length = end - start
        guard length >= 3 && length <= 9 else { return nil }
        for keyword in keywords where keyword.count == length && bytes[start..<end].elementsEqual(keyword) {
            return String(decoding: keyword, as: UTF8.self)
        }
        return nil
    }

    static func isIdentifier(_ byte: UInt8) -> Bool {
        (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) || (byte >= 48 && byte <= 57) || byte == 95
    }
}

/// String constants and the instances that lead to them, by qualified name.
package struct ConstantTable: Sendable, Equatable {
    /// `A11y.Checkout.payButton` → `checkout_button_pay`.
    package var strings: [String: String]
    /// `A11yIdentifiers.roomScreen` → `RoomScreen`: a `let` holding an instance of a type whose own
    /// `let`s are identifiers.
    package var instances: [String: String]

    /// Creates a table.
    package init(strings: [String: String] = [:], instances: [String: String] = [:]) {
        self.strings = strings
        self.instances = instances
    }

    /// Whether it holds nothing.
    package var isEmpty: Bool { strings.isEmpty && instances.isEmpty }

    /// Adds `other`'s entries; for a name in both, this table's stays.
    package mutating func merge(_ other: ConstantTable) {
        strings.merge(other.strings) { first, _ in first }
        instances.merge(other.instances) { first, _ in first }
    }
}

/// A constant table ready for questions: each name answered by its full name or by its last
/// components when those name one entry, from dictionaries made once (a repository's table is asked
/// twice per identifier of every view checked; scanning its keys for a suffix each time was 57% of a
/// whole-app check with 5,400 constants).
package struct ConstantLookup: Sendable {
    let strings: NameIndex
    let instances: NameIndex

    /// Indexes `table`.
    package init(_ table: ConstantTable = ConstantTable()) {
        strings = NameIndex(table.strings)
        instances = NameIndex(table.instances)
    }

    /// The text a constant's name stands for in the first of `tables` that knows it: named in full
    /// (`A11y.Checkout.payButton`) or by its last components, also through instances
    /// (`A11yIdentifiers.roomScreen.sendButton`, `roomScreen` being a `RoomScreen()`).
    package static func text(of name: String, in tables: [ConstantLookup]) -> String? {
        text(of: name, in: tables, depth: 0)
    }

    private static func text(of name: String, in tables: [ConstantLookup], depth: Int) -> String? {
        for table in tables {
            if let text = table.strings.value(name) { return text }
        }
        // `A.roomScreen.send` → `RoomScreen.send` when `A.roomScreen` is an instance of `RoomScreen`.
        guard depth < 4 else { return nil }
        let parts = name.split(separator: ".")
        for cut in stride(from: parts.count - 1, to: 0, by: -1) {
            let head = parts[..<cut].joined(separator: ".")
            for table in tables {
                guard let type = table.instances.value(head) else { continue }
                return text(of: ([Substring(type)] + parts[cut...]).joined(separator: "."), in: tables, depth: depth + 1)
            }
        }
        return nil
    }

    /// The raw values of every case of the `String` enum one of whose cases `name` names
    /// (`SceneID.settings.rawValue`, in full or by its last components): the enum lists a family of
    /// values of which the code names one (the ids of an app's scenes). One pass over the table: asked
    /// only for the few names that need it.
    package func enumCaseValues(ofCase name: String) -> [String] {
        let parts = name.split(separator: ".")
        guard parts.count >= 3, parts.last == "rawValue" else { return [] }
        let enumName = parts.dropLast(2).joined(separator: ".")
        return strings.exact.compactMap { key, value in
            let keyParts = key.split(separator: ".")
            guard keyParts.count >= 3, keyParts.last == "rawValue" else { return nil }
            let keyEnum = keyParts.dropLast(2).joined(separator: ".")
            return keyEnum == enumName || keyEnum.hasSuffix("." + enumName) ? value : nil
        }.sorted()
    }
}

/// Values by full name and by every dotted suffix of it (`A11y.Checkout.pay` is also `Checkout.pay`
/// and `pay`); a suffix two names share answers nothing.
struct NameIndex: Sendable {
    /// The values by full name.
    let exact: [String: String]
    private var bySuffix: [String: String] = [:]
    private var ambiguous: Set<String> = []

    init(_ entries: [String: String]) {
        exact = entries
        for (key, value) in entries {
            var rest = Substring(key)
            while let dot = rest.firstIndex(of: ".") {
                rest = rest[rest.index(after: dot)...]
                let suffix = String(rest)
                if bySuffix.updateValue(value, forKey: suffix) != nil { ambiguous.insert(suffix) }
            }
        }
    }

    /// The value of `name`, given in full or by its last components when those name one entry.
    func value(_ name: String) -> String? {
        if let value = exact[name] { return value }
        return ambiguous.contains(name) ? nil : bySuffix[name]
    }
}
