internal import SwiftSyntax

/// What a tap gesture is for, when it is not a control's: a tap on a container whose own controls
/// VoiceOver reaches, on an invisible or scrim background, one that only dismisses, shows or hides
/// chrome, or expands text, one that only plays a haptic, or one drawn inside a control's style. A
/// VoiceOver user loses nothing there, and teams do not add a trait (measured on real apps: 9 of 22
/// tap findings were these).
enum TapPurpose {
    /// Controls that VoiceOver reaches on their own inside a tapped container.
    static let controls: Set<String> = [
        "Button", "Link", "NavigationLink", "Toggle", "Menu", "ShareLink", "Picker", "TextField", "SecureField",
        "TextEditor", "Slider", "Stepper", "DatePicker", "ColorPicker",
    ]
    /// Shapes and colours that, invisible or dimmed, are a hit area for something else.
    static let fills: Set<String> = ["Color", "Rectangle", "RoundedRectangle", "Circle", "Capsule", "Ellipse"]
    /// Words of state that shows, hides or expands something rather than acting.
    static let presentationWords = ["show", "expand", "collapse", "controls", "visible", "hidden", "hide", "present", "overlay",
                                    "fullscreen", "chrome", "focus", "keyboard", "editing"]

    /// Whether the tap on a view needs no trait: its content holds controls, it is an invisible or
    /// scrim fill, it is inside a style's `makeBody`, or every tap on it only presents or plays a haptic.
    static func isIncidental(receiver: some SyntaxProtocol, chain: some SyntaxProtocol, modifiers: [(name: String, call: FunctionCallExprSyntax)],
                             file: ParsedSource) -> Bool {
        if holdsControls(receiver, file: file) || isFill(receiver, chain: chain) || drawsNothing(receiver) || isInsideStyle(Syntax(receiver))
            || givesChildTrait(receiver) { return true }
        let actions = modifiers.filter { $0.name == "onTapGesture" }.compactMap { action(of: $0.call) }
        return !actions.isEmpty && actions.allSatisfy { onlyPresents($0.statements) }
    }

    /// The action closure of `.onTapGesture { … }` or `.onTapGesture(perform: { … })`.
    static func action(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        call.trailingClosure ?? call.arguments.first(where: { $0.label?.text == "perform" })?.expression.as(ClosureExprSyntax.self)
    }

    /// Whether the view (a `Name(…)` call with its closures, or a property or function of the file
    /// the receiver names) builds controls of its own.
    static func holdsControls(_ receiver: some SyntaxProtocol, file: ParsedSource) -> Bool {
        if buildsControl(receiver) { return true }
        // `row.onTapGesture`, `row(item).onTapGesture`, `self.row.onTapGesture`: the member's body.
        var name: String?
        if let call = receiver.as(FunctionCallExprSyntax.self) {
            name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
        } else if let reference = receiver.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
        } else if let member = receiver.as(MemberAccessExprSyntax.self), member.base?.trimmedDescription == "self" {
            name = member.declName.baseName.text
        }
        guard let name, let body = file.memberBodies[name] else { return false }
        return buildsControl(body)
    }

    /// A control's name followed by `(` or `{`, not after a `.` (`.buttonStyle` is no Button).
    static func buildsControl(_ node: some SyntaxProtocol) -> Bool {
        var previous: TokenSyntax?
        for token in node.tokens(viewMode: .sourceAccurate) {
            defer { previous = token }
            guard controls.contains(token.text), previous?.tokenKind != .period else { continue }
            if let next = token.nextToken(viewMode: .sourceAccurate), next.tokenKind == .leftParen || next.tokenKind == .leftBrace { return true }
        }
        return false
    }

    /// A child of the tapped view says it is the button (`Text("Open").accessibilityAddTraits(.isButton)`
    /// in a row combined for VoiceOver): the trait is there, on the element VoiceOver reaches.
    static func givesChildTrait(_ receiver: some SyntaxProtocol) -> Bool {
        guard receiver.is(FunctionCallExprSyntax.self) else { return false }
        var sawTraits = false
        for token in receiver.tokens(viewMode: .sourceAccurate) {
            if token.text == "accessibilityAddTraits" || token.text == "addTraits" { sawTraits = true }
            if sawTraits, token.text == "isButton" || token.text == "isLink" { return true }
        }
        return false
    }

    /// `Color.clear`, a shape filled with `.clear`, or a colour or shape that dims the screen
    /// (`.opacity(…)`, `.ignoresSafeArea()`): a background or scrim, not a control.
    static func isFill(_ receiver: some SyntaxProtocol, chain: some SyntaxProtocol) -> Bool {
        let root = receiver.trimmedDescription
        let head = root.prefix { $0 != "(" && $0 != "." }
        guard fills.contains(String(head)) else { return false }
        let text = chain.trimmedDescription
        if text.contains("clear") || text.contains("ignoresSafeArea") || text.contains("edgesIgnoringSafeArea") { return true }
        // A dimmed colour is a scrim; a dimmed shape may well be a swatch someone picks.
        return head == "Color" && text.contains("opacity(")
    }

    /// A view that draws nothing of its own (`EmptyView()`, `GeometryReader { _ in EmptyView() }`): VoiceOver
    /// has no element there, and the colour behind it is a scrim or a hit area (a side menu's backdrop).
    static func drawsNothing(_ receiver: some SyntaxProtocol) -> Bool {
        guard let call = receiver.as(FunctionCallExprSyntax.self) else { return false }
        if call.calledExpression.trimmedDescription == "EmptyView" { return true }
        guard call.arguments.isEmpty, call.additionalTrailingClosures.isEmpty, let closure = call.trailingClosure else { return false }
        return closure.statements.allSatisfy { item in
            let expression = item.item.as(ExprSyntax.self) ?? item.item.as(ExpressionStmtSyntax.self)?.expression
            return expression.map { drawsNothing($0) } ?? false
        }
    }

    /// Inside a style's `makeBody(configuration:)`: the control the style draws carries its own trait.
    static func isInsideStyle(_ node: Syntax) -> Bool {
        var current = node.parent
        while let parent = current {
            if let function = parent.as(FunctionDeclSyntax.self), function.name.text == "makeBody" { return true }
            current = parent.parent
        }
        return false
    }

    /// Whether every statement only dismisses, shows or hides something, or plays a haptic
    /// (`showControls.toggle()`, `isExpanded = true`, `dismiss()`, `withAnimation { … }` of those).
    static func onlyPresents(_ statements: CodeBlockItemListSyntax) -> Bool {
        !statements.isEmpty && statements.allSatisfy { item in
            if let call = item.item.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedDescription == "withAnimation",
               let inner = call.trailingClosure {
                return onlyPresents(inner.statements)
            }
            let text = item.item.trimmedDescription.lowercased()
            if text.contains("haptic") || text.contains("impactoccurred") || text.contains("selectionchanged")
                || text.contains("notificationoccurred") || text.contains("dismiss") || text.contains("endediting")
                || text.contains("resignfirstresponder") {
                return true
            }
            // `x.toggle()` or `x = …` of a state that shows or hides something.
            let target: Substring
            if let range = text.firstRange(of: ".toggle()") { target = text[..<range.lowerBound] }
            else if let range = text.firstRange(of: " = ") { target = text[..<range.lowerBound] }
            else { return false }
            let name = target.split(separator: ".").last ?? ""
            return presentationWords.contains { name.contains($0) }
        }
    }
}
