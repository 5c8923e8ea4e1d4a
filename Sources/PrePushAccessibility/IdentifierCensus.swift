/// What one Swift file shows of a team's identifier practice, from a byte scan (it runs over every
/// Swift file of a repository, so it is one pass and no parse): the interactive controls its views
/// build and how many identifiers they set, the identifiers written as literals, and, for a UI test,
/// the strings and names its element queries use.
package struct IdentifierCensus: Sendable, Equatable {
    /// Interactive controls built here (`Button(`, `Toggle(`, … and the team's own controls).
    package var controls = 0
    /// The controls among `controls` that have an identifier: an `.accessibilityIdentifier(…)` call
    /// or an `accessibilityIdentifier:` argument after a control not tagged yet. An identifier on a
    /// container, a text or an image, or a second one on the same control, tags no control, so this
    /// is never more than `controls` (it was once every identifier: "53 of 41 controls").
    package var tagged = 0
    /// Identifiers given as string literals, interpolations as `{}`.
    package var identifiers: [String] = []
    /// Identifiers given by name (`A11y.Login.email`), as written: resolved through the
    /// repository's constants by whoever needs their text.
    package var identifierNames: [String] = []
    /// Identifiers set other than by SwiftUI's `.accessibilityIdentifier(…)`, as literals
    /// (interpolations as `{}`): UIKit's and AppKit's `accessibilityIdentifier = …` and
    /// `setAccessibilityIdentifier(…)`, AppKit's item identifiers (`NSUserInterfaceItemIdentifier(…)`,
    /// which AppKit reports as the accessibility identifier), an `accessibilityIdentifier:` argument
    /// (a component that sets it), and the ids of SwiftUI scenes (`Window(_:id:)`, `WindowGroup(id:)`,
    /// `openWindow(id:)`: a window's identifier). What UI tests query, and not the tagging practice:
    /// the identifier policy governs SwiftUI controls and does not count these.
    package var otherIdentifiers: [String] = []
    /// The same given by name, as written (`A11y.playButton`, `SceneID.settings.rawValue`); a scene's
    /// id prefixed with `scene ` (`scene SceneID.settings.rawValue`): every case of its enum names a scene.
    package var otherIdentifierNames: [String] = []
    /// The file imports XCTest and drives an app (`XCUIApplication`): a UI test, or a helper of one.
    /// Not fastlane's `SnapshotHelper.swift` (it declares `setupSnapshot`): it drives any app to
    /// take screenshots and queries no identifier of one.
    package var isUITest = false
    /// Element queries by identifier that need no view to say so: `matching(identifier:)`,
    /// `element(matching:identifier:)`, `containing(_:identifier:)`, `identifier ==` in a predicate
    /// (not `Locale(identifier:)`).
    package var explicitIdentifierQueries = 0
    /// What element subscripts ask for (`app.buttons["home_button_add"]`, `app.buttons[A11y.add]`):
    /// a literal's text, or a name's last component. XCUITest matches these against the identifier
    /// or the label, so only one that a view sets as an identifier counts as a query by identifier.
    package var subscriptQueries: [String] = []

    /// Counts `bytes`; `controls` are the names of interactive controls.
    package init(bytes: [UInt8], controls: Set<String>) {
        self.init(bytes: bytes, vocabulary: Vocabulary(controls: controls))
    }

    /// Counts `bytes` with the words made once for a whole repository.
    package init(bytes: [UInt8], vocabulary: Vocabulary) {
        let scanner = CensusScanner(bytes: bytes, known: vocabulary.known)
        scanner.run(into: &self)
    }

    /// The words a census looks for (the controls, the identifier modifier, XCUITest's queries),
    /// by hash: made once per run, not per file.
    package struct Vocabulary: Sendable {
        let known: [UInt64: (word: CensusScanner.Word, bytes: [UInt8])]

        /// The vocabulary with `controls` as the interactive controls.
        package init(controls: Set<String>) {
            known = CensusScanner.table(controls: controls)
        }
    }

    /// An empty census.
    package init() {}
}

/// The one pass behind `IdentifierCensus`.
struct CensusScanner {
    let bytes: [UInt8]
    let known: [UInt64: (word: Word, bytes: [UInt8])]
    /// `XCUIElementQuery` properties whose subscripts find elements.
    static let queries: Set<String> = [
        "buttons", "staticTexts", "textFields", "secureTextFields", "switches", "toggles", "otherElements", "cells",
        "images", "links", "sliders", "steppers", "pickers", "pickerWheels", "datePickers", "segmentedControls",
        "searchFields", "textViews", "menuItems", "menus", "menuButtons", "popUpButtons", "tabs", "scrollViews",
        "tables", "collectionViews", "navigationBars", "tabBars", "toolbars", "alerts", "sheets", "windows",
        "keys", "icons", "progressIndicators", "activityIndicators", "maps", "webViews", "radioButtons", "checkBoxes",
        "any", "descendants", "children", "containing",
    ]

    func isWordByte(_ byte: UInt8) -> Bool { ConstantIndex.isIdentifier(byte) }

    func skipBlanks(_ start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == 32 || bytes[index] == 9 || bytes[index] == 10 || bytes[index] == 13 { index += 1 }
        return index
    }

    /// The last non-blank byte before `index`.
    func previousByte(_ index: Int) -> UInt8? {
        var at = index - 1
        while at >= 0, bytes[at] == 32 || bytes[at] == 9 || bytes[at] == 10 || bytes[at] == 13 { at -= 1 }
        return at >= 0 ? bytes[at] : nil
    }

    /// Functions whose `identifier:` argument names an element (`Locale(identifier:)` does not).
    static let identifierFunctions: Set<String> = ["matching", "element", "containing"]

    /// The word that ends right before `index`, blanks skipped (`import` before `XCTest`).
    func word(before index: Int) -> String {
        var end = index
        while end > 0, bytes[end - 1] == 32 || bytes[end - 1] == 9 { end -= 1 }
        var start = end
        while start > 0, isWordByte(bytes[start - 1]) { start -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The name of the call whose parentheses hold `index` (`matching` for `matching(identifier:`),
    /// looked for within the 400 bytes before it: arguments span a line or a few.
    func enclosingCall(before index: Int) -> String? {
        var depth = 0
        var at = index - 1
        while at >= max(0, index - 400) {
            switch bytes[at] {
            case UInt8(ascii: ")"), UInt8(ascii: "]"): depth += 1
            case UInt8(ascii: "["): depth -= 1
            case UInt8(ascii: "("):
                if depth == 0 {
                    let name = word(before: at)
                    return name.isEmpty ? nil : name
                }
                depth -= 1
            default: break
            }
            at -= 1
        }
        return nil
    }

    /// A string literal's text starting at the `"` at `start` (interpolations as `{}`), and where it ends.
    func literal(at start: Int) -> (String, Int)? {
        var index = start + 1
        var text: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { return (String(decoding: text, as: UTF8.self), index + 1) }
            if byte == 10 { return nil }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "(") {
                // Skip to the matching parenthesis.
                var depth = 0
                index += 1
                while index < bytes.count {
                    if bytes[index] == UInt8(ascii: "(") { depth += 1 }
                    if bytes[index] == UInt8(ascii: ")") { depth -= 1; if depth == 0 { break } }
                    if bytes[index] == 10 { return nil }
                    index += 1
                }
                text += Array("{}".utf8)
                index += 1
                continue
            }
            text.append(byte)
            index += 1
        }
        return nil
    }

    /// Where a region the census leaves out ends, when one starts at `start` (a `#`): a `#Preview`
    /// to its closing brace; an `#if DEBUG` block to its `#endif`, or to its `#else`, whose code
    /// runs in release and is counted.
    func excludedRegionEnd(from start: Int) -> Int? {
        if matches("#Preview", at: start) {
            guard var index = bytes[start...].firstIndex(of: UInt8(ascii: "{")) else { return nil }
            var depth = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "{") { depth += 1 }
                if bytes[index] == UInt8(ascii: "}") { depth -= 1; if depth == 0 { return index + 1 } }
                index += 1
            }
            return bytes.count
        }
        guard matches("#if", at: start) else { return nil }
        var after = start + 3
        while after < bytes.count, bytes[after] == 32 || bytes[after] == 9 { after += 1 }
        guard matches("DEBUG", at: after) else { return nil }
        var nesting = 0
        var line = bytes[after...].firstIndex(of: 10) ?? bytes.count
        while line < bytes.count {
            var first = line + 1
            while first < bytes.count, bytes[first] == 32 || bytes[first] == 9 { first += 1 }
            let end = bytes[first...].firstIndex(of: 10) ?? bytes.count
            if matches("#if", at: first) {
                nesting += 1
            } else if matches("#endif", at: first) {
                if nesting == 0 { return end }
                nesting -= 1
            } else if nesting == 0, matches("#else", at: first) || matches("#elseif", at: first) {
                return end
            }
            line = end
        }
        return bytes.count
    }

    /// Whether `word` is at `index`, not followed by more of a word.
    func matches(_ word: StaticString, at index: Int) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let same = word.withUTF8Buffer { $0.elementsEqual(bytes[index..<(index + count)]) }
        return same && (index + count == bytes.count || !isWordByte(bytes[index + count]))
    }

    /// The controls a scan has seen whose modifier chain may still be running, by bracket depth: an
    /// `.accessibilityIdentifier(` tags one at its own depth. A chain ends at a closing bracket
    /// below it, or at a line that does not go on with `.`, so an identifier on a container
    /// (`VStack { Toggle(…) }.accessibilityIdentifier(…)`) or a text after a control tags no control.
    struct UntaggedControls {
        /// Brackets open (`(`, `{`, `[`); brackets inside string literals are not told apart.
        var depth = 0
        /// Controls not tagged yet whose chain may go on, by the depth their name is at.
        var counts: [Int: Int] = [:]

        /// Follows a byte that is not part of a word; after a line break, whether the next line
        /// goes on with the chain (a modifier, `#if`, a comment).
        mutating func pass(_ byte: UInt8, nextLineGoesOn: Bool) {
            switch byte {
            case 10 where !nextLineGoesOn:
                counts[depth] = nil
            case UInt8(ascii: "("), UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "}"), UInt8(ascii: "]"):
                counts[depth] = nil
                depth = max(0, depth - 1)
            default:
                break
            }
        }

        /// Tags the nearest control waiting at `level` or further out, if there is one.
        mutating func tagOutward(from level: Int) -> Bool {
            for candidate in stride(from: level, through: 0, by: -1) where tag(at: candidate) { return true }
            return false
        }

        /// Tags a control at `level`, if one is waiting there.
        mutating func tag(at level: Int) -> Bool {
            guard let waiting = counts[level], waiting > 0 else { return false }
            counts[level] = waiting - 1
            return true
        }
    }

    /// A dotted name (`A11y.Login.email`, `.email`) starting at `start`, and where it ends.
    func dottedName(at start: Int) -> (String, Int)? {
        var index = start
        while index < bytes.count, isWordByte(bytes[index]) || bytes[index] == UInt8(ascii: ".") { index += 1 }
        guard index > start else { return nil }
        let name = String(decoding: bytes[start..<index], as: UTF8.self)
        return (name.hasPrefix(".") ? String(name.dropFirst()) : name, index)
    }

    /// The identifier SwiftUI's modifier is given at `position` (blanks skipped), `.accessibilityIdentifier(…)`
    /// or the older `.accessibility(identifier: …)`: a literal's text, or a name as written.
    func recordModifierIdentifier(at position: Int, into census: inout IdentifierCensus) {
        let argument = skipBlanks(position)
        if argument < bytes.count, bytes[argument] == UInt8(ascii: "\"") {
            if let (text, _) = literal(at: argument) { census.identifiers.append(text) }
        } else if let (name, _) = dottedName(at: argument) {
            census.identifierNames.append(name)
        }
    }

    /// The identifier given at `position` (blanks skipped): a literal's text, or a name as written;
    /// `prefix` marks a name (`scene `).
    func recordIdentifier(at position: Int, into census: inout IdentifierCensus, namePrefix: String = "") {
        let at = skipBlanks(position)
        guard at < bytes.count else { return }
        if bytes[at] == UInt8(ascii: "\"") {
            if let (text, _) = literal(at: at), !text.isEmpty { census.otherIdentifiers.append(text) }
        } else if isWordByte(bytes[at]) || bytes[at] == UInt8(ascii: "."), let (name, _) = dottedName(at: at), !name.isEmpty {
            census.otherIdentifierNames.append(namePrefix + name)
        }
    }

    /// Where the value of the argument labelled `label` starts in the call whose `(` is at `open`,
    /// looking only at its own arguments (not those of calls inside it), and within 400 bytes.
    func argument(labelled label: StaticString, inCallAt open: Int) -> Int? {
        var depth = 0
        var index = open
        let end = min(bytes.count, open + 400)
        while index < end {
            switch bytes[index] {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return nil }
            case UInt8(ascii: "\""):
                guard let (_, after) = literal(at: index) else { return nil }
                index = after
                continue
            default:
                if depth == 1, matches(label, at: index), index > 0, !isWordByte(bytes[index - 1]),
                   [UInt8(ascii: "("), UInt8(ascii: ",")].contains(previousByte(index)) {
                    let colon = skipBlanks(index + label.utf8CodeUnitCount)
                    if colon < bytes.count, bytes[colon] == UInt8(ascii: ":") { return colon + 1 }
                }
            }
            index += 1
        }
        return nil
    }

    /// What a word the scan stops at is.
    enum Word: Sendable {
        case control, identifierModifier, application, identifierLabel, query, xctest, snapshotSetup
        /// `setAccessibilityIdentifier(…)`, `NSUserInterfaceItemIdentifier(…)`: a call whose first
        /// argument is an identifier.
        case identifierCall
        /// A SwiftUI scene or window action whose `id:` argument is a window's identifier.
        case scene
    }

    /// The scenes and actions whose `id:` names a window (`Window("Settings", id: "settings")`).
    static let scenes: Set<String> = ["Window", "WindowGroup", "UtilityWindow", "openWindow", "dismissWindow"]

    /// FNV-1a of a word's bytes: words are looked up without making a String of each (a census
    /// runs over every Swift file of a repository, and most of its words are nothing to it).
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for index in start..<end { hash = (hash ^ UInt64(bytes[index])) &* 0x100_0000_01b3 }
        return hash
    }

    /// The words the scan knows, by hash, with their bytes to confirm a match.
    static func table(controls: Set<String>) -> [UInt64: (word: Word, bytes: [UInt8])] {
        var table: [UInt64: (word: Word, bytes: [UInt8])] = [:]
        func add(_ text: String, _ word: Word) {
            let bytes = Array(text.utf8)
            table[bytes.withUnsafeBufferPointer { hash($0, 0, $0.count) }] = (word, bytes)
        }
        for name in controls { add(name, .control) }
        for name in queries { add(name, .query) }
        add("accessibilityIdentifier", .identifierModifier)
        add("XCUIApplication", .application)
        add("identifier", .identifierLabel)
        add("XCTest", .xctest)
        add("setupSnapshot", .snapshotSetup)
        add("setAccessibilityIdentifier", .identifierCall)
        add("NSUserInterfaceItemIdentifier", .identifierCall)
        for name in scenes { add(name, .scene) }
        return table
    }

    func run(into census: inout IdentifierCensus) {
        var subscripts: [String] = []
        var drivesApp = false, importsXCTest = false, isSnapshotHelper = false
        var untagged = UntaggedControls()
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            let count = buffer.count
            while index < count {
                let byte = buffer[index]
                // Comments say nothing about practice (a commented-out Button is not a control).
                if byte == UInt8(ascii: "/"), index + 1 < count, buffer[index + 1] == UInt8(ascii: "/") {
                    while index < count, buffer[index] != 10 { index += 1 }
                    continue
                }
                // Previews and debug-only code need no identifiers (the rules say nothing there): their
                // controls would count as untagged ones.
                if byte == UInt8(ascii: "#"), let after = excludedRegionEnd(from: index) {
                    // UI tests run the Debug build: identifiers set in debug-only code are there for them.
                    if !matches("#Preview", at: index) { noteDebugIdentifiers(from: index + 1, to: after, into: &census) }
                    index = after
                    continue
                }
                guard isWordByte(byte), index == 0 || !isWordByte(buffer[index - 1]) else {
                    // A chain goes on past `#if`/`#endif` lines and comment lines.
                    let next = byte == 10 ? skipBlanks(index + 1) : count
                    untagged.pass(byte, nextLineGoesOn: next < count && [UInt8(ascii: "."), UInt8(ascii: "#"), UInt8(ascii: "/")].contains(buffer[next]))
                    index += 1
                    continue
                }
                var end = index
                while end < count, isWordByte(buffer[end]) { end += 1 }
                defer { index = end }
                guard end - index >= 3, let entry = known[Self.hash(buffer, index, end)],
                      entry.bytes.count == end - index, entry.bytes.elementsEqual(buffer[index..<end]) else { continue }
                switch entry.word {
                case .application: drivesApp = true
                case .xctest: importsXCTest = importsXCTest || word(before: index) == "import"
                case .snapshotSetup: isSnapshotHelper = isSnapshotHelper || word(before: index) == "func"
                default: note(entry.word, from: index, to: end, into: &census, subscripts: &subscripts, untagged: &untagged)
                }
            }
        }
        census.isUITest = drivesApp && importsXCTest && !isSnapshotHelper
        // Queries matter only in a file that drives an app.
        if census.isUITest {
            census.subscriptQueries = subscripts
        } else {
            census.explicitIdentifierQueries = 0
        }
    }

    /// The identifiers set in the debug-only region `start..<end` (`#if DEBUG … #endif`), any way,
    /// as `otherIdentifiers`: what a UI test of the Debug build may query, and no tagging practice.
    func noteDebugIdentifiers(from start: Int, to end: Int, into census: inout IdentifierCensus) {
        var region = IdentifierCensus()
        var subscripts: [String] = []
        var untagged = UntaggedControls()
        bytes.withUnsafeBufferPointer { buffer in
            var index = start
            while index < end {
                if buffer[index] == UInt8(ascii: "/"), index + 1 < end, buffer[index + 1] == UInt8(ascii: "/") {
                    while index < end, buffer[index] != 10 { index += 1 }
                    continue
                }
                guard isWordByte(buffer[index]), !isWordByte(buffer[index - 1]) else {
                    index += 1
                    continue
                }
                var wordEnd = index
                while wordEnd < end, isWordByte(buffer[wordEnd]) { wordEnd += 1 }
                if wordEnd - index >= 3, let entry = known[Self.hash(buffer, index, wordEnd)], entry.bytes.count == wordEnd - index,
                   entry.bytes.elementsEqual(buffer[index..<wordEnd]), [.identifierModifier, .identifierCall, .scene].contains(entry.word) {
                    note(entry.word, from: index, to: wordEnd, into: &region, subscripts: &subscripts, untagged: &untagged)
                }
                index = wordEnd
            }
        }
        census.otherIdentifiers += region.identifiers + region.otherIdentifiers
        census.otherIdentifierNames += region.identifierNames + region.otherIdentifierNames
    }

    /// Counts a known word at `start..<end` by what surrounds it.
    private func note(_ word: Word, from start: Int, to end: Int, into census: inout IdentifierCensus, subscripts: inout [String],
                      untagged: inout UntaggedControls) {
        let next = skipBlanks(end)
        let following = next < bytes.count ? bytes[next] : 0
        let previous = previousByte(start)
        switch word {
        case .control:
            if following == UInt8(ascii: "(") || following == UInt8(ascii: "{"), previous != UInt8(ascii: ".") {
                census.controls += 1
                untagged.counts[untagged.depth, default: 0] += 1
            }
        case .identifierModifier:
            if previous == UInt8(ascii: "."), following == UInt8(ascii: "(") {
                if untagged.tag(at: untagged.depth) { census.tagged += 1 }
                recordModifierIdentifier(at: next + 1, into: &census)
            } else if following == UInt8(ascii: ":"), previous == UInt8(ascii: "(") || previous == UInt8(ascii: ",") {
                // An argument of a call in a control's chain (`.buttonStyle(Primary(accessibilityIdentifier: …))`)
                // or of the control's own call: the nearest control waiting further out.
                if untagged.tagOutward(from: untagged.depth - 1) { census.tagged += 1 }
                recordIdentifier(at: next + 1, into: &census)
            } else if following == UInt8(ascii: "="), next + 1 < bytes.count, bytes[next + 1] != UInt8(ascii: "="),
                      !["let", "var"].contains(self.word(before: previous == UInt8(ascii: ".") ? start - 1 : start)) {
                // UIKit and AppKit: `button.accessibilityIdentifier = "play"`, or a view's own
                // `accessibilityIdentifier = …` in its initializer.
                recordIdentifier(at: next + 1, into: &census)
            }
        case .application, .xctest, .snapshotSetup:
            break
        case .identifierCall:
            guard following == UInt8(ascii: "(") else { return }
            // `NSUserInterfaceItemIdentifier(rawValue: "workspace")` or `("workspace")`.
            recordIdentifier(at: argument(labelled: "rawValue", inCallAt: next) ?? next + 1, into: &census)
        case .scene:
            guard following == UInt8(ascii: "("), let value = argument(labelled: "id", inCallAt: next) else { return }
            recordIdentifier(at: value, into: &census, namePrefix: "scene ")
        case .identifierLabel:
            let inCall = following == UInt8(ascii: ":") && (previous == UInt8(ascii: "(") || previous == UInt8(ascii: ","))
            let call = inCall ? enclosingCall(before: start) : nil
            // SwiftUI's older `.accessibility(identifier: "x")` tags its control as the modifier does.
            if call == "accessibility", previous == UInt8(ascii: "(") {
                if untagged.tag(at: untagged.depth - 1) { census.tagged += 1 }
                recordModifierIdentifier(at: next + 1, into: &census)
                return
            }
            let isArgument = inCall && Self.identifierFunctions.contains(call ?? "")
            if isArgument || (following == UInt8(ascii: "=") && next + 1 < bytes.count && bytes[next + 1] == UInt8(ascii: "=")) {
                census.explicitIdentifierQueries += 1
            }
        case .query:
            guard previous == UInt8(ascii: "."), following == UInt8(ascii: "[") else { return }
            let argument = skipBlanks(next + 1)
            if argument < bytes.count, bytes[argument] == UInt8(ascii: "\"") {
                if let (text, _) = literal(at: argument) { subscripts.append(text) }
            } else if let (name, _) = dottedName(at: argument) {
                subscripts.append(String(name.split(separator: ".").last ?? ""))
            }
        }
    }
}
