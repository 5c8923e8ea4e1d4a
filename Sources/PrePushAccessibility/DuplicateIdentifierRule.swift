import PrePushCore
internal import SwiftSyntax

/// The same identifier twice in one file, where both can show at once: not in two branches of an
/// `if`/`else`, a `switch`, a ternary or an `#if` (issue 52: 5 such findings on real apps).
package struct DuplicateIdentifierRule: AccessibilityRule {
    package static let description = RuleDescription(
        identifier: "duplicate-identifier",
        name: "Identifier used twice",
        rationale: """
        A UI test that looks an identifier up gets whichever element comes first; the second element \
        can never be tested, and which one is first can change with layout.
        """,
        issueType: .identifierConvention,
        defaultSeverity: .error,
        nonTriggeringExamples: [
            // Hackers (LoginView.swift): each screen is a property, shown on either side of body's `if`.
            RuleExample("""
            struct LoginView: View {
                var body: some View {
                    NavigationStack { if signedIn { accountView } else { loginView } }
                }
                private var loginView: some View {
                    Form { fields }.toolbar { Button("Close", action: dismiss).accessibilityIdentifier("login.close") }
                }
                private var accountView: some View {
                    List { rows }.toolbar { Button("Close", action: dismiss).accessibilityIdentifier("login.close") }
                }
            }
            """),
            // Yattee (SettingsView.swift): one member for tvOS, another for iOS; no build has both.
            RuleExample("""
            struct SettingsView: View {
                #if os(tvOS)
                private var tvOSSettings: some View { Button("Close") { close() }.accessibilityIdentifier("settings.view") }
                #endif
                #if os(iOS) || os(visionOS)
                private var iOSSettings: some View { List { }.accessibilityIdentifier("settings.view") }
                #endif
            }
            """),
            RuleExample("""
            Button("Save") { save() }.accessibilityIdentifier("modal_button_save")
            Button("Cancel") { cancel() }.accessibilityIdentifier("modal_button_cancel")
            """),
            RuleExample(#"ForEach(tasks) { task in TaskRow(task: task).accessibilityIdentifier("home_cell_task_\(task.id)") }"#),
            RuleExample("""
            if isLoggedIn {
                Button("Profile") { open() }.accessibilityIdentifier("home_button_account")
            } else if isGuest {
                Button("Sign up") { signUp() }.accessibilityIdentifier("home_button_account")
            } else {
                Button("Sign in") { signIn() }.accessibilityIdentifier("home_button_account")
            }
            """),
            RuleExample("""
            switch state {
            case .loading:
                ProgressView().accessibilityIdentifier("feed_view_content")
            case .loaded(let items):
                List(items) { Row($0) }.accessibilityIdentifier("feed_view_content")
            default:
                Text("Nothing yet").accessibilityIdentifier("feed_view_content")
            }
            """),
            RuleExample("""
            Group {
                isPlaying
                    ? Button("Pause") { pause() }.accessibilityIdentifier("player_button_toggle")
                    : Button("Play") { play() }.accessibilityIdentifier("player_button_toggle")
            }
            """),
            // Yattee (AddRemoteServerView.swift): the action button is in the toolbar or in the form, by one flag.
            RuleExample("""
            struct AddServerView: View {
                var form: some View { Form { if !usesToolbarButton { Button("Add") { add() }.accessibilityIdentifier("addServer.action") } } }
                var body: some View {
                    form.toolbar { if isRevealed, usesToolbarButton { Button("Add") { add() }.accessibilityIdentifier("addServer.action") } }
                }
            }
            """),
            RuleExample("""
            #if os(iOS)
            Button("Share") { share() }.accessibilityIdentifier("detail_button_share")
            #else
            ShareLink(item: url).accessibilityIdentifier("detail_button_share")
            #endif
            """),
        ],
        triggeringExamples: [
            // Two properties shown together.
            RuleExample("""
            struct Pane: View {
                var body: some View { VStack { header; footer } }
                private var header: some View { Button("Close", action: dismiss).accessibilityIdentifier("pane.close") }
                private var footer: some View { Button("Close", action: dismiss).accessibilityIdentifier(↓"pane.close") }
            }
            """),
            // The same flag holding in both places: both show.
            RuleExample("""
            VStack {
                if isEditing { Button("Save") { save() }.accessibilityIdentifier("form_button_save") }
                if isEditing, canCopy { Button("Save a copy") { copy() }.accessibilityIdentifier(↓"form_button_save") }
            }
            """),
            // Platforms that overlap (macOS in both) can show both.
            RuleExample("""
            #if os(iOS) || os(macOS)
            Button("Add") { add() }.accessibilityIdentifier("sources.addButton")
            #endif
            #if os(macOS)
            Button("Add") { add() }.accessibilityIdentifier(↓"sources.addButton")
            #endif
            """),
            RuleExample("""
            enum A11y { enum Form { static let save = "form_button_save" } }
            struct FormView: View {
                var body: some View {
                    Button("Save") { save() }.accessibilityIdentifier(A11y.Form.save)
                    Button("Save draft") { draft() }.accessibilityIdentifier(↓A11y.Form.save)
                }
            }
            """),
            RuleExample("""
            enum A11yIdentifiers {
                static let members = Members()
                struct Members { let invite = "members_button_invite" }
            }
            struct MembersView: View {
                var body: some View {
                    Button("Invite people") { invite() }.accessibilityIdentifier(A11yIdentifiers.members.invite)
                    Button("Invite") { invite() }.accessibilityIdentifier(↓A11yIdentifiers.members.invite)
                }
            }
            """),
            RuleExample("""
            Button("Save") { save() }.accessibilityIdentifier("modal_button_save")
            Button("Save draft") { draft() }.accessibilityIdentifier(↓"modal_button_save")
            """),
            RuleExample("""
            if isEditing {
                Button("Save") { save() }.accessibilityIdentifier("form_button_save")
                Button("Save a copy") { copy() }.accessibilityIdentifier(↓"form_button_save")
            } else {
                Button("Edit") { edit() }.accessibilityIdentifier("form_button_edit")
            }
            """),
            RuleExample("""
            Button("Retry") { retry() }.accessibilityIdentifier("feed_button_retry")
            switch state {
            case .failed:
                Button("Try again") { retry() }.accessibilityIdentifier(↓"feed_button_retry")
            default:
                EmptyView()
            }
            """),
        ]
    )

    let settings: AccessibilitySettings

    package init(settings: AccessibilitySettings) {
        self.settings = settings
    }

    package func findings(in file: ParsedSource) -> [AccessibilityFinding] {
        guard let severity = settings.severity(of: Self.description) else { return [] }
        // Where each identifier was seen, with the branches it is in; a line is worked out only for
        // a duplicate.
        var seen: [String: [(expression: ExprSyntax, branches: [Branch], platforms: Set<String>, conditions: Set<Condition>)]] = [:]
        var findings: [AccessibilityFinding] = []
        // Each member's one use, looked up once per file (a walk of its tokens).
        var uses: [String: Syntax?] = [:]
        let singleUse = { (member: String) -> Syntax? in
            if let known = uses[member] { return known }
            let use = file.singleUse(of: member)
            uses[member] = use
            return use
        }
        for view in file.viewCalls {
            for call in view.modifier("accessibilityIdentifier") {
                // A literal, or a constant of this file (`A11y.Checkout.payButton`).
                guard let literal = call.arguments.first?.expression, let identifier = file.identifierText(literal),
                      !identifier.contains("{}") else { continue }
                let branches = Self.branches(of: Syntax(literal), singleUse: singleUse)
                let platforms = CompiledPlatforms.of(Syntax(literal))
                let conditions = Self.conditions(of: Syntax(literal))
                // Two that can never show together (`if`/`else`, two `case`s, `? :`, `#if`/`#else`,
                // `#if os(tvOS)` and `#if os(iOS)` members, `if flag` and `if !flag` apart) are one
                // element to a UI test.
                if let earlier = seen[identifier]?.first(where: { !Self.exclusive($0.branches, branches) && !$0.platforms.isDisjoint(with: platforms)
                                                                  && !Self.contradict($0.conditions, conditions) }) {
                    findings.append(file.finding(Self.self, at: literal, message: "\"\(identifier)\" is already used on line \(file.line(of: earlier.expression))",
                                                 severity: severity, span: view.chain))
                }
                seen[identifier, default: []].append((literal, branches, platforms, conditions))
            }
        }
        return findings
    }

    /// One branch of a construct that shows one of its branches: which construct, which branch.
    struct Branch: Equatable {
        let construct: SyntaxIdentifier
        let branch: Int
    }

    /// Whether two places are in different branches of one construct: they never show together.
    static func exclusive(_ first: [Branch], _ second: [Branch]) -> Bool {
        first.contains { one in second.contains { $0.construct == one.construct && $0.branch != one.branch } }
    }

    /// The branches `node` is in, and, when it is in a property or function of the file used once
    /// (Hackers' `loginView` and `loggedInView`, the two sides of `body`'s `if`), the branches of that
    /// use too, a few members deep.
    static func branches(of node: Syntax, singleUse: (String) -> Syntax?) -> [Branch] {
        var branches = branches(of: node)
        var place = node
        for _ in 0..<3 {
            guard let member = ImageMissingLabelRule.enclosingMemberName(place), member != "body", let use = singleUse(member) else { break }
            branches += Self.branches(of: use)
            place = use
        }
        return branches
    }

    /// The branches `node` is in, innermost first: an `if`'s body or its `else` (an `else if` is an
    /// `if` inside the `else`), a `switch`'s case, a ternary's two sides (unfolded, as the parser
    /// gives them: `cond`, `? then :`, `else`, …), an `#if` clause. A condition is in no branch.
    static func branches(of node: Syntax) -> [Branch] {
        var branches: [Branch] = []
        var child = node
        while let parent = child.parent {
            if let choice = parent.as(IfExprSyntax.self) {
                if child.id == choice.body.id { branches.append(Branch(construct: parent.id, branch: 0)) }
                if let other = choice.elseBody, child.id == Syntax(other).id { branches.append(Branch(construct: parent.id, branch: 1)) }
            } else if let choice = parent.as(TernaryExprSyntax.self) {
                if child.id == choice.thenExpression.id { branches.append(Branch(construct: parent.id, branch: 0)) }
                if child.id == choice.elseExpression.id { branches.append(Branch(construct: parent.id, branch: 1)) }
            } else if parent.is(SwitchCaseListSyntax.self) || parent.is(IfConfigClauseListSyntax.self) {
                let index = parent.children(viewMode: .sourceAccurate).enumerated().first { $0.element.id == child.id }?.offset ?? 0
                branches.append(Branch(construct: parent.id, branch: index))
            } else if let elements = parent.as(ExprListSyntax.self) {
                branches += ternaryBranches(of: child, in: elements)
            }
            child = parent
        }
        return branches
    }

    /// A Boolean the code tests, and whether it holds where an element shows: `if showsToolbar, isReady`
    /// gives (showsToolbar, true) and (isReady, true) in its body; `if !showsToolbar` gives
    /// (showsToolbar, false), as does the `else` of an `if showsToolbar` with one condition.
    struct Condition: Hashable {
        let text: String
        let holds: Bool
    }

    /// Whether one place needs a Boolean to hold and the other needs it not to: two places of one
    /// file (two members of a view) that a flag of the view chooses between never show together.
    static func contradict(_ first: Set<Condition>, _ second: Set<Condition>) -> Bool {
        first.contains { second.contains(Condition(text: $0.text, holds: !$0.holds)) }
    }

    /// The conditions of the `if`s `node` sits in (their body, or the `else` of a one-condition `if`).
    static func conditions(of node: Syntax) -> Set<Condition> {
        var found: Set<Condition> = []
        var child = node
        while let parent = child.parent {
            if let choice = parent.as(IfExprSyntax.self) {
                let tests = choice.conditions.compactMap { element -> Condition? in
                    guard case .expression(let expression) = element.condition else { return nil }
                    if let negated = expression.as(PrefixOperatorExprSyntax.self), negated.operator.text == "!" {
                        return Condition(text: negated.expression.trimmedDescription, holds: false)
                    }
                    return Condition(text: expression.trimmedDescription, holds: true)
                }
                if child.id == choice.body.id { found.formUnion(tests) }
                if let other = choice.elseBody, child.id == Syntax(other).id, choice.conditions.count == 1, let only = tests.first {
                    found.insert(Condition(text: only.text, holds: !only.holds))
                }
            }
            child = parent
        }
        return found
    }

    /// In an unfolded sequence, the element `child` is the then-side of a ternary (`? x :`), and the
    /// else-side of every ternary before it.
    private static func ternaryBranches(of child: Syntax, in elements: ExprListSyntax) -> [Branch] {
        var branches: [Branch] = []
        for element in elements {
            if element.id == child.id {
                if element.is(UnresolvedTernaryExprSyntax.self) { branches.append(Branch(construct: element.id, branch: 0)) }
                break
            }
            if element.is(UnresolvedTernaryExprSyntax.self) { branches.append(Branch(construct: element.id, branch: 1)) }
        }
        return branches
    }
}
