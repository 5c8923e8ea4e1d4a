import PrePushCore
internal import SwiftSyntax

/// A tappable element given a frame under 44 points in either direction (a fixed size, a minimum
/// with no maximum, or a maximum under 44 beside a minimum).
package struct SmallTouchTargetRule: AccessibilityRule {
    /// Apple's minimum hit target, in points.
    package static let minimumSize = 44.0

    package static let description = RuleDescription(
        identifier: "small-touch-target",
        name: "Touch target under 44 points",
        rationale: """
        Apple's Human Interface Guidelines ask for hit targets of at least 44×44 points; smaller ones \
        are hard to hit for people with limited dexterity and are flagged by Xcode's hit-region audit.
        """,
        issueType: .touchTargetTooSmall,
        defaultSeverity: .warning,
        nonTriggeringExamples: [
            // No touch reaches it: a hidden field that only holds a keyboard's focus.
            RuleExample(#"TextField("", text: $reaction).focused($reacting).frame(width: 1, height: 1).opacity(0.01).allowsHitTesting(false)"#),
            // SwiftUI's bordered style draws its shape around the label, padding it (Vernissage's QR button).
            RuleExample(#"Button { showQRCode() } label: { Image(systemName: "qrcode").frame(width: 42, height: 42) }.buttonStyle(.bordered).accessibilityLabel("QR code")"#),
            // The hit area grown past the drawn frame.
            RuleExample(#"Image(systemName: "xmark").frame(width: 24, height: 24).padding(10).contentShape(Rectangle()).onTapGesture { close() }"#),
            RuleExample(#"Image(systemName: "xmark").frame(width: 24, height: 24).contentShape(Rectangle().inset(by: -10)).onTapGesture { close() }"#),
            RuleExample(#"Button(action: add) { Image(systemName: "plus") }.frame(width: 44, height: 44)"#),
            RuleExample(#"Image(systemName: "star").frame(width: 20, height: 20)"#),
            RuleExample(#"Button("Add") { add() }.frame(maxWidth: .infinity)"#),
            // A zero minimum beside a flexible maximum sets no small size: the view fills its space.
            RuleExample(#"Button("Continue") { next() }.frame(minWidth: 0, maxWidth: .infinity)"#),
            RuleExample(#"Text(card.title).frame(minWidth: 0, maxWidth: .infinity, minHeight: 0, maxHeight: .infinity).onTapGesture { open(card) }"#),
            RuleExample(#"Button(action: play) { Text("Play").frame(minWidth: 0, maxWidth: .infinity, minHeight: 48) }"#),
            // A text area given a least height spans its row and grows with its text (LLMFarm's prompt editor).
            RuleExample(#"TextEditor(text: $prompt).frame(minHeight: 30).onTapGesture { focused = true }"#),
            // Mlem (CollapsibleSheetView): the icon's row fills the width, 62 points high, and all of it takes the tap.
            RuleExample(#"Image(systemName: "chevron.down").frame(width: 16, height: 16).frame(maxWidth: .infinity, maxHeight: 62).contentShape(Rectangle()).onTapGesture { collapse() }"#),
            // The same inside a Button's label (Mlem's sheet handle).
            RuleExample(#"Button { expand() } label: { Image(systemName: "chevron.compact.up").frame(height: 16).frame(maxWidth: .infinity, maxHeight: 62).contentShape(.rect) }"#),
            // tvOS has no touch (Yattee's TVHomeItemRow): the focus engine moves between rows.
            RuleExample("""
            #if os(tvOS)
            Button(action: open) { Image(systemName: "star").frame(width: 24, height: 24) }
            #endif
            """),
            // zashi (TorSetupView.swift): a row label 40 high, padded by 20 inside the button: 80 points.
            RuleExample(#"Button { select() } label: { HStack { Text(title); Spacer() }.frame(minHeight: 40).padding(20).background { RoundedRectangle(cornerRadius: 12).stroke() } }"#),
            RuleExample(#"Button(action: next) { Text("Next").frame(height: 24).frame(maxWidth: .infinity).padding(.vertical, 12) }"#),
            // A style of the repository that pads the label and fills the padding (damus, DamusVideoControlsView.swift): 30 + 2 × 8.
            RuleExample("""
            struct PlayerCircleButtonStyle: ButtonStyle {
                let padding: CGFloat
                init(padding: CGFloat = 8.0) { self.padding = padding }
                func makeBody(configuration: Self.Configuration) -> some View {
                    return configuration.label.padding(padding).foregroundColor(.white).background { Circle().fill(Color.black.opacity(0.5)) }
                }
            }
            struct Controls: View {
                var body: some View {
                    Button(action: { muted.toggle() }, label: { Image(systemName: "speaker.slash").frame(width: 30, height: 30) })
                        .buttonStyle(PlayerCircleButtonStyle())
                }
            }
            """),
            // Aidoku (SettingView.swift): a spinner replaces the title while the login runs.
            RuleExample("""
            Button { login() } label: {
                if loading {
                    ProgressView().frame(width: 20, height: 20)
                } else {
                    Text("Log In")
                }
            }
            """),
            // Trio (TreatmentsRootView.swift): a button that is a list's row; the row is at least 44 high.
            RuleExample("""
            Section {
                Button { submit() } label: { Text("Enact bolus").frame(maxWidth: .infinity).frame(height: 35) }
            }
            """),
            // Trio (ToggleStyles.swift): the box toggles, and so does the whole row around it.
            RuleExample("""
            HStack {
                RoundedRectangle(cornerRadius: 5).frame(width: 20, height: 20).onTapGesture { configuration.isOn.toggle() }
                configuration.label
            }
            .contentShape(Rectangle())
            .onTapGesture { configuration.isOn.toggle() }
            """),
            // Menu items are drawn by the system as menu rows.
            RuleExample(#"Menu { Button { attach() } label: { Label("Location", systemImage: "mappin").frame(minHeight: 28) } } label: { Text("Attach") }"#),
        ],
        triggeringExamples: [
            RuleExample(#"Toggle("Mute", isOn: $muted).toggleStyle(.button).↓frame(minWidth: 30, minHeight: 30)"#),
            // A borderless button in a row is only its own label to the touch; a row that does something else.
            RuleExample(#"List { Button { play() } label: { Image(systemName: "play").↓frame(width: 24, height: 24) }.buttonStyle(.borderless) }"#),
            RuleExample(#"HStack { Image(systemName: "star").↓frame(width: 20, height: 20).onTapGesture { favorite() }; Text(title) }.contentShape(Rectangle()).onTapGesture { open() }"#),
            RuleExample(#"Button(action: close) { Image(systemName: "xmark").↓frame(width: 24, height: 24) }"#),
            RuleExample("""
            enum Layout { static let icon: CGFloat = 28 }
            struct Bar: View {
                var body: some View {
                    Button(action: back) { Image(systemName: "chevron.left") }.↓frame(width: Layout.icon, height: Layout.icon)
                }
            }
            """),
            RuleExample(#"Menu { Button("Delete", action: delete) } label: { Image(systemName: "ellipsis").↓frame(width: 30, height: 30) }"#),
            RuleExample("""
            Button { startCall() } label: {
                let symbol = hasOngoingCall ? "phone.fill" : "phone"
                Image(systemName: symbol).↓frame(width: 28, height: 28)
            }
            """),
            RuleExample(#"Button(action: add) { Image(systemName: "plus") }.↓frame(width: 24, height: 24)"#),
            RuleExample(#"Image(systemName: "xmark").onTapGesture { close() }.↓frame(height: 30)"#),
            // Padding that stays under 44, or a plain-styled button whose padding is empty: only drawn content takes the tap.
            RuleExample(#"Button(action: next) { Text("Next").↓frame(height: 24).padding(.vertical, 8) }"#),
            RuleExample(#"Button(action: next) { Text("Next").↓frame(height: 24).padding(.vertical, 12) }.buttonStyle(.plain)"#),
            // A style's padding that nothing fills is transparent: only the drawn label takes the tap.
            RuleExample("""
            struct LoosePadStyle: ButtonStyle {
                func makeBody(configuration: Configuration) -> some View { configuration.label.padding(8).foregroundColor(.white) }
            }
            struct Controls: View {
                var body: some View {
                    Button(action: play) { Image(systemName: "play.fill").↓frame(width: 30, height: 30) }.buttonStyle(LoosePadStyle())
                }
            }
            """),
            // Padding only tvOS applies, then a content shape: on a phone the row stays 36 points high (Yattee).
            RuleExample("""
            Button(action: onTap) {
                HStack { Text(title); Spacer() }
                    .↓frame(minHeight: 36)
                    #if os(tvOS)
                    .padding(.vertical, 12)
                    #endif
                    .contentShape(Rectangle())
            }
            """),
            // A larger frame without a content shape: only the drawn icon takes the tap.
            RuleExample(#"Image(systemName: "chevron.down").↓frame(width: 16, height: 16).frame(maxWidth: .infinity, maxHeight: 62).onTapGesture { collapse() }"#),
            // A maximum under 44 bounds the size whatever the minimum.
            RuleExample(#"Button(action: close) { Image(systemName: "xmark") }.↓frame(minWidth: 0, maxWidth: 32, minHeight: 0, maxHeight: 32)"#),
        ]
    )

    let settings: AccessibilitySettings

    package init(settings: AccessibilitySettings) {
        self.settings = settings
    }

    package func findings(in file: ParsedSource) -> [AccessibilityFinding] {
        guard let severity = settings.severity(of: Self.description) else { return [] }
        var findings: [AccessibilityFinding] = []
        for view in file.viewCalls {
            // Menu items and VoiceOver actions are drawn by the system, at its own size; a button
            // that is a list's row is the whole row to the touch; a view whose tap an enclosing
            // tappable area does too is hit anywhere in that area.
            if Self.isMenuItem(view) || file.isAccessibilityAction(view) || Self.isListRow(view) || Self.sharesEnclosingTap(view) { continue }
            // `.allowsHitTesting(false)`: no touch reaches it (Meshtastic's 1-point text field that
            // only holds the emoji keyboard's focus).
            if view.modifier("allowsHitTesting").contains(where: { $0.arguments.first?.expression.isFalseLiteral == true }) { continue }
            // A frame on a Button's (or Menu's) label content is the tappable area, unless the control
            // itself is given a size, padding or a content shape.
            if view.name == "Button" || view.name == "Menu",
               !view.modifiers.contains(where: { ["frame", "padding", "contentShape"].contains($0.name) }),
               let label = IconButtonMissingLabelRule.labelClosure(of: view.call) {
                // A ProgressView in one branch is the label while the action runs (Aidoku's login
                // button): the branch shown otherwise is the target people aim at.
                let plain = view.modifier("buttonStyle").contains { $0.arguments.first?.expression.trimmedDescription.contains("lain") == true }
                let styled = Self.stylePadding(of: view, views: file.views)
                for content in Self.contents(label.statements) where !Self.isProgress(content) {
                    let modifiers = ModifierChain(root: ModifierClimb.root(of: content)).modifiers
                    let frames = Self.framesNotEnlarged(modifiers).filter {
                        !Self.isPaddedToSize($0, in: modifiers, plainStyle: plain, stylePadding: styled, file: file)
                    }
                    findings += small(frames: frames, of: view, in: file, severity: severity)
                }
            }
            let tappable = settings.controls.contains(view.name) || !view.modifier("onTapGesture").isEmpty
            guard tappable else { continue }
            findings += small(frames: Self.framesNotEnlarged(view.modifiers), of: view, in: file, severity: severity)
        }
        return findings
    }

    /// The view a label shows, in each branch: the one expression of its statements (`let`s aside),
    /// through `if`/`else` and `switch`. Two views side by side are not one tappable area: none.
    static func contents(_ statements: CodeBlockItemListSyntax) -> [ExprSyntax] {
        let views = statements.compactMap { item -> ExprSyntax? in
            if let expression = item.item.as(ExprSyntax.self) { return expression }
            return item.item.as(ExpressionStmtSyntax.self)?.expression
        }
        guard views.count == 1, let only = views.first else { return [] }
        return contents(of: only)
    }

    private static func contents(of expression: ExprSyntax) -> [ExprSyntax] {
        if let branch = expression.as(IfExprSyntax.self) {
            switch branch.elseBody {
            case .ifExpr(let next): return contents(branch.body.statements) + contents(of: ExprSyntax(next))
            case .codeBlock(let block): return contents(branch.body.statements) + contents(block.statements)
            case nil: return contents(branch.body.statements)
            }
        }
        if let choice = expression.as(SwitchExprSyntax.self) {
            return choice.cases.flatMap { item -> [ExprSyntax] in
                guard case .switchCase(let switchCase) = item else { return [] }
                return contents(switchCase.statements)
            }
        }
        return [expression]
    }

    /// The `.frame` calls no later modifier makes bigger to the touch: padding followed by a
    /// content shape, or a content shape inset outwards or given a size (`.contentShape(Rectangle().inset(by: -10))`).
    static func framesNotEnlarged(_ modifiers: [(name: String, call: FunctionCallExprSyntax)]) -> [FunctionCallExprSyntax] {
        modifiers.enumerated().compactMap { index, modifier in
            guard modifier.name == "frame" else { return nil }
            // What only another platform applies (`#if os(tvOS) .padding(…) #endif`) enlarges nothing on a phone.
            let later = modifiers[(index + 1)...].filter { !isForOtherPlatform($0.call) }
            let padded = later.firstIndex { $0.name == "padding" }.map { padding in later[padding...].contains { $0.name == "contentShape" } } ?? false
            let grown = later.contains { later in
                later.name == "contentShape" && later.call.arguments.first.map { argument in
                    let text = argument.expression.trimmedDescription
                    return text.contains("inset(by: -") || text.contains("insetBy(dx: -") || text.contains(".size(")
                } == true
            }
            // A later frame of at least 44 points each way (or one that fills its space), followed by a
            // content shape: the whole larger frame takes the tap (a 16-point icon in a full-width row).
            let framed = later.firstIndex { $0.name == "frame" && isLarge($0.call) }.map { larger in
                later[larger...].contains { $0.name == "contentShape" }
            } ?? false
            return padded || grown || framed ? nil : modifier.call
        }
    }

    /// Whether `call` is compiled for neither iOS nor visionOS (`#if os(tvOS)`, `#if os(macOS)`,
    /// `#if os(watchOS)` around it): a phone's or a headset's build does not apply it.
    static func isForOtherPlatform(_ call: FunctionCallExprSyntax) -> Bool {
        let platforms = CompiledPlatforms.of(Syntax(call))
        return !platforms.contains("iOS") && !platforms.contains("visionOS")
    }

    /// Whether padding after `frame`, inside a Button's label, brings each of its small sides to 44
    /// points (zashi's rows: `.frame(minHeight: 40).padding(20)`): the label's padded frame takes
    /// the tap, unless the button is plain-styled, where only drawn content does (then a later
    /// background or content shape must fill it).
    static func isPaddedToSize(_ frame: FunctionCallExprSyntax, in modifiers: [(name: String, call: FunctionCallExprSyntax)],
                               plainStyle: Bool, stylePadding: Double = 0, file: ParsedSource) -> Bool {
        guard let index = modifiers.firstIndex(where: { $0.call.id == frame.id }) else { return false }
        let later = modifiers[(index + 1)...].filter { !isForOtherPlatform($0.call) }
        let firstPadding = later.firstIndex(where: { $0.name == "padding" })
        guard firstPadding != nil || stylePadding > 0 else { return false }
        if plainStyle, let firstPadding, !later[firstPadding...].contains(where: { ["background", "contentShape"].contains($0.name) }) { return false }
        // The button's style pads the whole label on every side, around what the label pads itself.
        var added = (width: 2 * stylePadding, height: 2 * stylePadding)
        for padding in later where padding.name == "padding" {
            guard let sides = paddingPoints(padding.call, file: file) else { return false }
            added.width += sides.width
            added.height += sides.height
        }
        func value(_ labels: [String]) -> Double? {
            labels.lazy.compactMap { label in frame.arguments.first { $0.label?.text == label }.flatMap { file.number($0.expression) } }.first
        }
        let width = value(["width", "minWidth"]), height = value(["height", "minHeight"])
        guard width != nil || height != nil else { return false }
        return (width.map { $0 + added.width >= minimumSize } ?? true) && (height.map { $0 + added.height >= minimumSize } ?? true)
    }

    /// The points a `.padding` adds across and down (both sides): `.padding()` is 16 a side,
    /// `.padding(8)`, `.padding(.vertical, 12)`, `.padding([.top, .bottom], 4)`; nil when its amount
    /// is not a number this file gives.
    static func paddingPoints(_ call: FunctionCallExprSyntax, file: ParsedSource) -> (width: Double, height: Double)? {
        let arguments = Array(call.arguments)
        let amountArgument = arguments.count == 2 ? arguments[1].expression : arguments.first.flatMap { $0.expression.is(MemberAccessExprSyntax.self) || $0.expression.is(ArrayExprSyntax.self) ? nil : $0.expression }
        let amount: Double
        if let amountArgument {
            guard let points = file.number(amountArgument) else { return nil }
            amount = points
        } else {
            amount = 16
        }
        let edges = arguments.count == 2 || (arguments.count == 1 && amountArgument == nil) ? arguments[0].expression : nil
        guard let edges else { return (2 * amount, 2 * amount) }
        let names = edges.tokens(viewMode: .sourceAccurate).map(\.text)
        var sides = (width: 0.0, height: 0.0)
        for name in names {
            switch name {
            case "all": sides = (2 * amount, 2 * amount)
            case "horizontal": sides.width += 2 * amount
            case "vertical": sides.height += 2 * amount
            case "leading", "trailing": sides.width += amount
            case "top", "bottom": sides.height += amount
            default: continue
            }
        }
        return sides
    }

    /// Whether a label's content is a progress indicator (`ProgressView()` and its modifiers).
    static func isProgress(_ content: ExprSyntax) -> Bool {
        ModifierClimb.root(of: content).as(FunctionCallExprSyntax.self).flatMap(ViewCall.viewName(of:)) == "ProgressView"
    }

    /// Whether a frame is at least 44 points in both directions, or fills its space in one
    /// (`maxWidth: .infinity`) and is at least 44 in the other.
    static func isLarge(_ frame: FunctionCallExprSyntax) -> Bool {
        func value(_ label: String) -> ExprSyntax? { frame.arguments.first { $0.label?.text == label }?.expression }
        func grows(_ size: String, _ minimum: String, _ maximum: String) -> Bool {
            if let fixed = value(size).flatMap(number) { return fixed >= minimumSize }
            if let least = value(minimum).flatMap(number), least >= minimumSize { return true }
            guard let most = value(maximum) else { return false }
            return most.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "infinity" || (number(most) ?? 0) >= minimumSize
        }
        return grows("width", "minWidth", "maxWidth") && grows("height", "minHeight", "maxHeight")
    }

    /// The points on every side the button's style pads its label by, filling the padding: a
    /// ButtonStyle of the repository made with no arguments (`.buttonStyle(PlayerCircleButtonStyle())`,
    /// `ViewIndex.labelPadding`); 0 for any other style, or one given arguments (they may set the padding).
    static func stylePadding(of view: ViewCall, views: ViewIndex) -> Double {
        // The innermost style is the one the button draws with.
        guard let argument = view.modifier("buttonStyle").first?.arguments.first?.expression else { return 0 }
        // SwiftUI's bordered styles draw their shape around the label with insets of their own
        // (Vernissage's 42-point label in `.buttonStyle(.bordered)`): at the regular control size at
        // least 6 points above and below (about 7 measured; `.small` and `.mini` less, so not counted).
        let system = argument.as(MemberAccessExprSyntax.self).map { $0.base == nil ? $0.declName.baseName.text : "" }
            ?? argument.as(FunctionCallExprSyntax.self).flatMap { $0.arguments.isEmpty ? $0.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text : nil }
        if let system, systemBorderedStyles.contains(system) {
            let smaller = view.modifier("controlSize").contains { size in
                ["small", "mini"].contains(size.arguments.first?.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? "")
            }
            return smaller ? 0 : 6
        }
        guard let style = argument.as(FunctionCallExprSyntax.self), style.arguments.isEmpty, style.trailingClosure == nil,
              let name = style.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text else { return 0 }
        return views.labelPadding[name] ?? 0
    }

    /// SwiftUI's button styles that draw a bordered shape around the label, padding it.
    static let systemBorderedStyles: Set<String> = ["bordered", "borderedProminent", "BorderedButtonStyle", "BorderedProminentButtonStyle"]

    /// A view in a Menu's content or a context menu: the system draws it as a menu row.
    static func isMenuItem(_ view: ViewCall) -> Bool {
        view.enclosingViews.contains { $0.view.name == "Menu" && $0.argument != "label" }
            || view.isInsideClosure(ofModifier: ["contextMenu"])
    }

    /// Whether the view is a `Button` that is a row of a `List`, `Form` or `Section` (through
    /// `ForEach` and `Group`), not plain- or borderless-styled: the list makes the whole row, at
    /// least 44 points high, the button's target (Trio's treatment button, `.frame(height: 35)`).
    static func isListRow(_ view: ViewCall) -> Bool {
        guard view.name == "Button" else { return false }
        let styled = view.modifier("buttonStyle").contains { style in
            let text = style.arguments.first?.expression.trimmedDescription ?? ""
            return text.contains("lain") || text.contains("orderless")
        }
        guard !styled, let row = view.enclosingViews.first(where: { !["ForEach", "Group"].contains($0.view.name) }) else { return false }
        return ["List", "Form", "Section"].contains(row.view.name) && (row.argument == nil || row.argument == "content")
    }

    /// Whether a view's `.onTapGesture` does what an enclosing view's does, and that view takes
    /// taps over its whole area (`.contentShape`): Trio's checkbox toggle style, whose 20-point
    /// box sits in a row that toggles too.
    static func sharesEnclosingTap(_ view: ViewCall) -> Bool {
        let own = Set(view.modifier("onTapGesture").compactMap { $0.trailingClosure?.statements.trimmedDescription })
        guard !own.isEmpty else { return false }
        return view.enclosingViews.contains { enclosing in
            !enclosing.view.modifier("contentShape").isEmpty
                && enclosing.view.modifier("onTapGesture").contains { $0.trailingClosure.map { own.contains($0.statements.trimmedDescription) } ?? false }
        }
    }

    /// Controls a reader types into: as wide as their row, and a text area grows with its text.
    static let textEntries: Set<String> = ["TextEditor", "TextField", "SecureField"]

    /// The maximum that bounds each minimum of a frame.
    static let maximumOf = ["minWidth": "maxWidth", "minHeight": "maxHeight"]

    /// Findings for the frames under 44 points among `frames`. A minimum beside its maximum
    /// (`minWidth: 0, maxWidth: .infinity`) is a flexible frame: the maximum says how small it can
    /// be, and only a number under 44 is small; a zero minimum alone constrains nothing.
    func small(frames: [FunctionCallExprSyntax], of view: ViewCall, in file: ParsedSource, severity: Severity) -> [AccessibilityFinding] {
        frames.compactMap { frame in
            // A text area or field given only a least height (`TextEditor(…).frame(minHeight: 30)`,
            // LLMFarm's prompt, a composer's box) spans its row and grows with its text: no small target.
            let labels = Set(frame.arguments.compactMap { $0.label?.text })
            if Self.textEntries.contains(view.name), labels.isSubset(of: ["minHeight", "maxHeight", "maxWidth", "alignment"]) { return nil }
            let small = frame.arguments.contains { argument in
                guard let label = argument.label?.text, ["width", "height", "minWidth", "minHeight"].contains(label),
                      let value = file.number(argument.expression) else { return false }
                if let maximum = Self.maximumOf[label], let bound = frame.arguments.first(where: { $0.label?.text == maximum }) {
                    return file.number(bound.expression).map { $0 < Self.minimumSize } ?? false
                }
                return value > 0 && value < Self.minimumSize
            }
            guard small, let name = frame.calledExpression.as(MemberAccessExprSyntax.self)?.declName else { return nil }
            return file.finding(Self.self, at: name,
                                message: "a tappable \(view.name) smaller than 44×44 points is hard to hit; make its frame at least 44 in each direction",
                                severity: severity, span: view.chain)
        }
    }

    static func number(_ expression: ExprSyntax) -> Double? {
        if let integer = expression.as(IntegerLiteralExprSyntax.self) { return Double(integer.literal.text) }
        if let float = expression.as(FloatLiteralExprSyntax.self) { return Double(float.literal.text) }
        return nil
    }
}
