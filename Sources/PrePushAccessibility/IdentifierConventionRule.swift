import PrePushCore
internal import SwiftSyntax

/// Identifiers follow `{scope}_{type}_{name}`, and the type word agrees with the control.
package struct IdentifierConventionRule: AccessibilityRule {
    package static let description = RuleDescription(
        identifier: "identifier-convention",
        name: "Identifier outside the {scope}_{type}_{name} convention",
        rationale: """
        One convention lets a test author guess an identifier and a reviewer spot a wrong one: the \
        screen, the kind of control, then its name (login_button_submit). A Toggle's identifier says \
        toggle, a text field's says field.
        """,
        issueType: .identifierConvention,
        defaultSeverity: .error,
        nonTriggeringExamples: [
            RuleExample(#"Button("Log in") { submit() }.accessibilityIdentifier("login_button_submit")"#),
            RuleExample(#"Toggle("Dark", isOn: $dark).accessibilityIdentifier("settings_toggle_dark_mode")"#),
            RuleExample(#"TaskRow(task: task).accessibilityIdentifier("home_cell_task_\(task.id)")"#),
            RuleExample(#"HomeView().tabItem { Label("Home", systemImage: "house") }.accessibilityIdentifier("tab_home")"#),
            RuleExample(#"Button { dismiss() } label: { Image(systemName: "chevron.left") }.accessibilityIdentifier("nav_button_back")"#),
            RuleExample(#"List(tasks) { TaskRow(task: $0) }.accessibilityIdentifier("home_list_tasks")"#),
            RuleExample(#"Text(version).accessibilityIdentifier("settings_label_version")"#),
            RuleExample(#"Button("Save") { save() }.accessibilityIdentifier(Identifiers.save)"#),
        ],
        triggeringExamples: [
            RuleExample(#"editableCell(title: $title).accessibilityIdentifier(↓"TitleCell")"#),
            RuleExample("""
            enum A11yIdentifiers {
                static let roomScreen = RoomScreen()
                struct RoomScreen { let callButton = "roomCallButton" }
            }
            struct RoomView: View {
                var body: some View {
                    Button("Call") { call() }.accessibilityIdentifier(↓A11yIdentifiers.roomScreen.callButton)
                }
            }
            """),
            RuleExample(#"Button("Add") { add() }.accessibilityIdentifier(↓"addButton")"#),
            RuleExample(#"Toggle("Dark", isOn: $dark).accessibilityIdentifier(↓"settings_button_dark_mode")"#),
            RuleExample(#"TextField("Title", text: $title).accessibilityIdentifier(↓"modal-field-title")"#),
            RuleExample(#"Button("Add") { add() }.accessibilityIdentifier(↓"Home_Button_Add")"#),
        ]
    )

    let settings: AccessibilitySettings
    /// Whether an identifier (interpolations as `{}`) follows the convention: the default one by a
    /// hand-written scanner (a `Regex` match per identifier was a tenth of a whole check), any
    /// other pattern by `LinearRegex`.
    let follows: @Sendable (String) -> Bool

    package init(settings: AccessibilitySettings) {
        self.settings = settings
        if let scheme = settings.scheme {
            follows = { scheme.fits($0) }
        } else if settings.pattern == AccessibilitySettings.defaultPattern, settings.typeWordLast {
            follows = Self.followsTypeLastConvention
        } else if settings.pattern == AccessibilitySettings.defaultPattern {
            follows = Self.followsDefaultConvention
        } else if let regex = try? LinearRegex(settings.pattern) {
            // Linear time: the pattern comes from the repository's configuration.
            follows = { regex.wholeMatch($0) }
        } else {
            follows = { _ in true }
        }
    }

    /// Whether `identifier` follows `AccessibilitySettings.defaultPattern`, without a regular expression: `tab_` and lowercase
    /// words or digits joined by `_`; or a lowercase word starting with a letter, `_`, a word of
    /// letters, `_`, then one or more words of letters and digits or `{}`, joined by `_`.
    package static func followsDefaultConvention(_ identifier: String) -> Bool {
        let parts = identifier.utf8.split(separator: UInt8(ascii: "_"), omittingEmptySubsequences: false)
        func isWord(_ part: Substring.UTF8View.SubSequence, letters: Bool = false) -> Bool {
            !part.isEmpty && part.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (!letters && byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            }
        }
        func isPlaceholder(_ part: Substring.UTF8View.SubSequence) -> Bool { part.elementsEqual("{}".utf8) }
        if parts.count >= 2, parts[0].elementsEqual("tab".utf8), parts.dropFirst().allSatisfy({ isWord($0) }) { return true }
        guard parts.count >= 3, isWord(parts[0]), let first = parts[0].first, first >= UInt8(ascii: "a"),
              isWord(parts[1], letters: true) else { return false }
        return parts.dropFirst(2).allSatisfy { isWord($0) || isPlaceholder($0) }
    }

    /// Whether `identifier` follows `{scope}_{name}_{type}`: two or more lower-case words or digits (or `{}`)
    /// joined by `_`, the first starting with a letter (`post_button`, `side_menu_logout_button`).
    package static func followsTypeLastConvention(_ identifier: String) -> Bool {
        let parts = identifier.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].first?.isLetter == true else { return false }
        return parts.allSatisfy { part in
            part == "{}" || (!part.isEmpty && part.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) })
        }
    }

    package func findings(in file: ParsedSource) -> [AccessibilityFinding] {
        guard let severity = settings.severity(of: Self.description) else { return [] }
        var findings: [AccessibilityFinding] = []
        // `editableCell(…).accessibilityIdentifier("…")`: any receiver's identifier follows the convention.
        for chain in file.identifierChains {
            for call in chain.modifier("accessibilityIdentifier") {
                guard let argument = call.arguments.first?.expression, let identifier = file.identifierText(argument),
                      !follows(identifier) else { continue }
                findings.append(file.finding(Self.self, at: argument, message: convention(identifier, argument),
                                             severity: severity, span: chain.chain))
            }
        }
        for view in file.viewCalls {
            for call in view.modifier("accessibilityIdentifier") {
                // A literal, or a constant resolved to its text (`A11yIdentifiers.roomScreen.callButton`).
                guard let argument = call.arguments.first?.expression, let identifier = file.identifierText(argument) else { continue }
                guard follows(identifier) else {
                    findings.append(file.finding(Self.self, at: argument, message: convention(identifier, argument),
                                                 severity: severity, span: view.chain))
                    continue
                }
                guard settings.scheme == nil, let message = typeWordMismatch(identifier, of: view.name) else { continue }
                findings.append(file.finding(Self.self, at: argument, message: message, severity: severity, span: view.chain))
            }
        }
        return findings
    }

    /// The message when the identifier's type word disagrees with the control `name`, else nil. Second
    /// (`{scope}_{type}_{name}`), any word there that is not the control's is wrong; last, as a team
    /// that ends its identifiers with the type writes them, only another control's type word is (a
    /// name's last word, `onboarding_page_next_page`, is no claim to be a type).
    func typeWordMismatch(_ identifier: String, of name: String) -> String? {
        let parts = identifier.split(separator: "_")
        guard parts.first != "tab", let allowed = settings.typeWords[name] else { return nil }
        let word: String
        if settings.typeWordLast {
            guard parts.count >= 2, let last = parts.last, !allowed.contains(String(last)),
                  settings.typeWords.values.contains(where: { $0.contains(String(last)) }) else { return nil }
            word = String(last)
        } else {
            guard parts.count >= 3, !allowed.contains(String(parts[1])) else { return nil }
            word = String(parts[1])
        }
        return "a \(name)'s identifier says \(allowed.joined(separator: " or ")), not \(word): \"\(identifier)\""
    }

    /// The message for an identifier off the convention, naming the constant it came through.
    func convention(_ identifier: String, _ argument: ExprSyntax) -> String {
        let through = argument.is(StringLiteralExprSyntax.self) ? "" : " (\(argument.trimmedDescription))"
        if let scheme = settings.scheme {
            return "\"\(identifier)\"\(through) is not written like this repository's identifiers: \(scheme.description), as \(scheme.fitting) of its \(scheme.total) are (for example \(scheme.example))"
        }
        if settings.typeWordLast {
            return "\"\(identifier)\"\(through) does not follow {scope}_{name}_{type} (for example login_submit_button)"
        }
        return "\"\(identifier)\"\(through) does not follow {scope}_{type}_{name} (for example login_button_submit)"
    }
}
