import PrePushCore

/// The check's settings: which controls need identifiers, the identifier convention, severities.
package struct AccessibilitySettings: Sendable {
    /// Interactive controls that need an `.accessibilityIdentifier`.
    package static let defaultControls = [
        "Button", "TextField", "SecureField", "TextEditor", "Toggle", "Picker", "DatePicker", "ColorPicker",
        "Slider", "Stepper", "Link", "NavigationLink", "Menu", "ShareLink",
    ]

    /// The `{type}` words each control's identifier may use; a control not listed may use any.
    package static let defaultTypeWords: [String: [String]] = [
        "Button": ["button", "cell", "link"], "Link": ["link", "button"], "NavigationLink": ["link", "button", "cell"],
        "Menu": ["menu", "button"], "ShareLink": ["button", "link"],
        "TextField": ["field"], "SecureField": ["field"], "TextEditor": ["field"],
        "Toggle": ["toggle"], "Picker": ["picker"], "DatePicker": ["picker"], "ColorPicker": ["picker"],
        "Slider": ["slider"], "Stepper": ["stepper"], "List": ["list"], "Text": ["label"],
    ]

    /// `{scope}_{type}_{name}`, or `tab_{name}` for tab items; lowercase words, digits and `_`,
    /// an interpolation (`\(id)`, checked as `{}`) allowed in the name.
    package static let defaultPattern = #"^(tab_[a-z0-9]+(_[a-z0-9]+)*|[a-z][a-z0-9]*_[a-z]+_([a-z0-9]+|\{\})(_([a-z0-9]+|\{\}))*)$"#

    /// Controls that need identifiers (the defaults plus the team's own).
    package var controls: Set<String>
    /// Type words per control.
    package var typeWords: [String: [String]]
    /// The identifier pattern.
    package var pattern: String
    /// The repository's own identifier scheme, inferred from its identifiers when no pattern is
    /// configured: when set, `identifier-convention` flags only identifiers outside it (and checks no
    /// type words, which a scheme of the team's own does not have).
    package var scheme: IdentifierScheme?
    /// Whether the repository's identifiers put the type word last (`{scope}_{name}_{type}`,
    /// `side_menu_logout_button`), as read from them when no pattern is configured: then
    /// `identifier-convention` reads the type word from the end.
    package var typeWordLast = false
    /// Severity per rule id; a rule set to nil is off.
    package var severities: [String: Severity?]
    /// Whether `#Preview`, `PreviewProvider` types and `#if DEBUG` code are checked (they never ship).
    package var checkPreviews = false
    package var checkDebugCode = false
    /// The team's own views that draw only an icon (`CompoundIcon`): a Button whose label is one of
    /// them needs an accessibility label like one showing an `Image`.
    package var iconViews: Set<String> = []
    /// Text-entry views beyond TextField, SecureField and TextEditor: VoiceOver announces them as text
    /// fields, so a tap on them needs no button trait.
    package var textEntryViews: Set<String> = ["TextField", "SecureField", "TextEditor"]

    /// The defaults, with extra controls of the team's own (`PrimaryButton`).
    package init(extraControls: [String] = [], typeWords: [String: [String]] = AccessibilitySettings.defaultTypeWords,
                pattern: String = AccessibilitySettings.defaultPattern, severities: [String: Severity?] = [:]) {
        controls = Set(Self.defaultControls + extraControls)
        self.typeWords = typeWords
        self.pattern = pattern
        self.severities = severities
    }

    /// The severity `rule` runs with, or nil when it is off.
    package func severity(of rule: RuleDescription) -> Severity? {
        if let configured = severities[rule.identifier] { return configured }
        return rule.defaultSeverity
    }
}
