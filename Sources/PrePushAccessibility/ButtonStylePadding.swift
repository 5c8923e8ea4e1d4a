internal import SwiftSyntax

/// How much a ButtonStyle of the repository pads the button's label, read from its `makeBody`
/// (damus's `PlayerCircleButtonStyle`: `configuration.label.padding(padding).background { Circle() }`,
/// `padding` defaulting to 8): the padded area is drawn, so it takes the tap as the label does.
enum ButtonStylePadding {
    /// The points `makeBody` pads `configuration.label` by on every side, when a later `background`
    /// or `contentShape` fills the padding (padding alone is transparent and takes no tap); nil when it
    /// pads only some sides, by an amount it cannot read, or draws something else.
    static func labelPadding(_ members: MemberBlockSyntax) -> Double? {
        guard let makeBody = members.members.lazy.compactMap({ $0.decl.as(FunctionDeclSyntax.self) }).first(where: { $0.name.text == "makeBody" }),
              let statements = makeBody.body?.statements, statements.count == 1, let item = statements.first,
              let expression = item.item.as(ExprSyntax.self) ?? item.item.as(ReturnStmtSyntax.self)?.expression else { return nil }
        let root = ModifierClimb.root(of: expression)
        guard root.trimmedDescription == "configuration.label" else { return nil }
        let modifiers = ModifierChain(root: root).modifiers
        guard let first = modifiers.firstIndex(where: { $0.name == "padding" }),
              modifiers[first...].contains(where: { $0.name == "background" || $0.name == "contentShape" }) else { return nil }
        var total = 0.0
        for padding in modifiers where padding.name == "padding" {
            guard let points = allSides(padding.call, members: members) else { return nil }
            total += points
        }
        return total
    }

    /// `.padding()` (16), `.padding(8)`, or `.padding(size)` with `size` a stored property whose default,
    /// or the default of the initializer's parameter of that name, is a number; nil for edges.
    private static func allSides(_ call: FunctionCallExprSyntax, members: MemberBlockSyntax) -> Double? {
        guard let argument = call.arguments.first else { return 16 }
        guard call.arguments.count == 1, argument.label == nil else { return nil }
        if let points = SmallTouchTargetRule.number(argument.expression) { return points }
        guard let name = argument.expression.as(DeclReferenceExprSyntax.self)?.baseName.text else { return nil }
        return defaultValue(of: name, in: members)
    }

    /// The number a stored property starts as: its initial value, or the default of the parameter of
    /// the same name of the type's only initializer (`init(padding: CGFloat = 8.0)`).
    private static func defaultValue(of name: String, in members: MemberBlockSyntax) -> Double? {
        for member in members.members {
            if let variable = member.decl.as(VariableDeclSyntax.self),
               let binding = variable.bindings.first(where: { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name }),
               let value = binding.initializer?.value {
                return SmallTouchTargetRule.number(value)
            }
        }
        let initializers = members.members.compactMap { $0.decl.as(InitializerDeclSyntax.self) }
        guard initializers.count == 1, let parameter = initializers[0].signature.parameterClause.parameters.first(where: {
            ($0.secondName ?? $0.firstName).text == name
        }), let value = parameter.defaultValue?.value else { return nil }
        return SmallTouchTargetRule.number(value)
    }
}
