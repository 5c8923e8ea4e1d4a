internal import SwiftSyntax

/// Where a fixed font is not a Dynamic Type problem, decided from the code's structure: what the
/// text is (emoji), which view draws it (a widget's), what holds it (a frame fixed in both
/// directions), and where its size comes from (a setting of the user's own, a scaled metric).
extension FixedFontSizeRule {
    /// A `Text` of emoji only (`Text("🔥")`, `Text(verbatim: "👍🏽")`): the font sizes a picture.
    static func isEmojiOnly(_ view: ViewCall) -> Bool {
        guard view.name == "Text", let literal = view.call.arguments.first?.expression.as(StringLiteralExprSyntax.self),
              !literal.isInterpolated else { return false }
        let text = literal.textWithPlaceholders.filter { !$0.isWhitespace }
        return !text.isEmpty && text.allSatisfy { character in
            // A pictographic scalar (emoji presentation, or a symbol made emoji by a selector) leads
            // each character; digits and `#` are emoji too, but only with a selector after them.
            guard let first = character.unicodeScalars.first else { return false }
            return first.properties.isEmojiPresentation
                || (first.properties.isEmoji && first.value > 0xFF && character.unicodeScalars.contains { $0.value == 0xFE0F })
        }
    }

    /// A text hidden from VoiceOver whose value a visible text near it shows too (damus's media count
    /// badge over an icon, beside `Text(pluralizedString(key: "media_count", count: artifacts.media.count))`):
    /// the visible text, not the ornament, is what grows with Dynamic Type. Looks two containers out.
    static func isHiddenDuplicate(_ view: ViewCall) -> Bool {
        guard view.name == "Text", view.isHiddenFromAccessibility, let argument = view.call.arguments.first?.expression else { return false }
        // The values it shows: each interpolation of a literal, or the argument itself.
        let values: [String]
        if let literal = argument.as(StringLiteralExprSyntax.self) {
            values = literal.segments.compactMap { $0.as(ExpressionSegmentSyntax.self)?.expressions.trimmedDescription }
        } else {
            values = [argument.trimmedDescription]
        }
        guard !values.isEmpty, values.allSatisfy({ $0.contains(".") || $0.first?.isLetter == true }) else { return false }
        return view.enclosingViews.prefix(2).contains { enclosing in
            enclosing.view.call.tokens(viewMode: .sourceAccurate).contains { token in
                guard token.text == "Text", let call = token.parent?.parent?.as(FunctionCallExprSyntax.self),
                      call.id != view.call.id, let other = ViewCall(call), other.name == "Text", !other.isHiddenFromAccessibility else { return false }
                let shown = call.arguments.trimmedDescription
                return values.allSatisfy { shown.contains($0) }
            }
        }
    }

    /// Whether the text is drawn by a widget or a complication: inside a view type a widget's
    /// configuration makes (or one those make), or one that reads `\.widgetFamily` or an accessory
    /// family. Widgets and complications do not follow Dynamic Type's sizes the way an app's
    /// screens do: the system fits them to the family.
    static func isOnWidgetSurface(_ view: ViewCall, in file: ParsedSource) -> Bool {
        guard !file.views.widgetSurfaces.isEmpty else { return false }
        var node = Syntax(view.chain)
        while let parent = node.parent {
            if let type = parent.as(StructDeclSyntax.self), file.views.widgetSurfaces.contains(type.name.text) { return true }
            node = parent
        }
        return false
    }

    /// Whether the text, or a view holding it, has a frame fixed in both directions by numbers
    /// (`.frame(width: 18, height: 18)`), or sits in a `ZStack` over a view of fixed size (a badge's
    /// circle, a framed icon, a component whose body is framed, such as Trio's 130-point ring): the
    /// text is fitted to that view, so a larger font would only be cut off or break the drawing.
    static func isInFixedContainer(_ view: ViewCall, in file: ParsedSource) -> Bool {
        let chains: [any ModifiedView] = [view] + view.enclosingViews.map(\.view)
        if chains.contains(where: { hasFixedFrame($0, in: file) }) { return true }
        let holders = Set(chains.map { Syntax($0.chain).id })
        return view.enclosingViews.contains { enclosing in
            guard enclosing.view.name == "ZStack", let content = enclosing.view.call.trailingClosure else { return false }
            return content.statements.contains { item in
                guard let expression = item.item.as(ExprSyntax.self),
                      let sibling = ModifierClimb.root(of: expression).as(FunctionCallExprSyntax.self).flatMap(ViewCall.init),
                      !holders.contains(Syntax(sibling.chain).id) else { return false }
                return hasFixedFrame(sibling, in: file) || file.views.traits(of: sibling.name).contains(.fixedSize)
            }
        }
    }

    /// `.frame(width: a, height: b)` with both numbers (literals or number constants of the file).
    static func hasFixedFrame(_ chain: some ModifiedView, in file: ParsedSource) -> Bool {
        chain.modifier("frame").contains { frame in
            let width = frame.arguments.first { $0.label?.text == "width" }?.expression
            let height = frame.arguments.first { $0.label?.text == "height" }?.expression
            guard let width, let height else { return false }
            return file.number(width) != nil && file.number(height) != nil
        }
    }

    /// Whether the text is a navigation bar's or a toolbar's (`.toolbar { ToolbarItem(placement:
    /// .principal) { … } }`): a bar keeps its height, and the system's own bar titles and items keep
    /// their size too, showing the Large Content Viewer instead of growing.
    static func isInBar(_ view: ViewCall) -> Bool {
        view.isInsideClosure(ofModifier: ["toolbar"])
            || view.enclosingViews.contains { ["ToolbarItem", "ToolbarItemGroup"].contains($0.view.name) }
    }

    /// A font's `size:` or `fixedSize:` argument.
    static func sizeArgument(of font: FunctionCallExprSyntax) -> ExprSyntax? {
        font.arguments.first { $0.label?.text == "size" || $0.label?.text == "fixedSize" }?.expression
    }

    /// Dynamic Type's largest size: Large Title at the largest accessibility size, in points.
    static let largestDynamicTypeSize = 60.0

    /// Whether the font's size is a number at least `largestDynamicTypeSize`: display type already
    /// larger than any text a reader's setting would give.
    static func isLargerThanDynamicType(_ font: FunctionCallExprSyntax, in file: ParsedSource) -> Bool {
        guard let size = sizeArgument(of: font), let points = file.number(size) else { return false }
        return points >= largestDynamicTypeSize
    }

    /// Property wrappers whose value is the user's own setting (`@AppStorage("fontSize")`), or a
    /// size that Dynamic Type scales (`@ScaledMetric`).
    static let settingWrappers: Set<String> = ["AppStorage", "SceneStorage", "ScaledMetric", "Default"]

    /// Whether the font's size is read from a property of the enclosing type declared with one of
    /// `settingWrappers`: a reader's chosen size, or one that already scales.
    static func isSizedBySetting(_ font: FunctionCallExprSyntax, in file: ParsedSource) -> Bool {
        guard let size = sizeArgument(of: font), file.number(size) == nil else { return false }
        let tokens = size.tokens(viewMode: .sourceAccurate)
        // UIKit's scaler (`UIFontMetrics.default.scaledValue(for: 20)`, IcySky's composer) scales with Dynamic Type.
        if tokens.contains(where: { $0.text == "scaledValue" }) { return true }
        let names = Set(tokens.filter { $0.tokenKind.isIdentifier }.map(\.text))
        var node = Syntax(font)
        while let parent = node.parent {
            if let members = parent.as(StructDeclSyntax.self)?.memberBlock ?? parent.as(ClassDeclSyntax.self)?.memberBlock {
                return !names.isDisjoint(with: settingMembers(members))
            }
            node = parent
        }
        return false
    }

    /// The members a setting or a `@ScaledMetric` sets, and the computed ones made from them
    /// (swift-paperless' `var fontSize: CGFloat { min(fontSizeRaw, 20) }` over a `@ScaledMetric
    /// fontSizeRaw`): a size read from one scales or follows the user.
    static func settingMembers(_ members: MemberBlockSyntax) -> Set<String> {
        var variables: [(name: String, variable: VariableDeclSyntax)] = []
        for member in members.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  let name = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            variables.append((name, variable))
        }
        var found = Set(variables.filter { entry in
            entry.variable.attributes.contains { attribute in
                guard let attribute = attribute.as(AttributeSyntax.self) else { return false }
                let type = attribute.attributeName.trimmedDescription
                return settingWrappers.contains(type.split(separator: "<").first.map(String.init) ?? type)
            }
        }.map(\.name))
        // A value the reader moves on screen (`Slider(value: $percentage)`, SimpleLogin's "show big"
        // view): a size made from it is the reader's own.
        found.formUnion(controlledMembers(members))
        // Two rounds: a computed size made from a computed size made from the setting.
        for _ in 0..<2 {
            for (name, variable) in variables where !found.contains(name) {
                guard let accessor = variable.bindings.first?.accessorBlock else { continue }
                if accessor.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind.isIdentifier && found.contains($0.text) }) { found.insert(name) }
            }
        }
        return found
    }
}

extension FixedFontSizeRule {
    /// Controls whose `value:` the reader sets by moving them.
    static let valueControls: Set<String> = ["Slider", "Stepper"]

    /// The members a `Slider` or `Stepper` of the type binds (`Slider(value: $percentage)`).
    static func controlledMembers(_ members: MemberBlockSyntax) -> Set<String> {
        var found: Set<String> = []
        for token in members.tokens(viewMode: .sourceAccurate) where valueControls.contains(token.text) {
            guard let call = token.parent?.parent?.as(FunctionCallExprSyntax.self), ViewCall.viewName(of: call) == token.text,
                  let value = call.arguments.first(where: { $0.label?.text == "value" })?.expression.trimmedDescription,
                  value.hasPrefix("$") else { continue }
            found.insert(String(value.dropFirst()))
        }
        return found
    }
}

private extension TokenKind {
    var isIdentifier: Bool {
        if case .identifier = self { return true }
        return false
    }
}
