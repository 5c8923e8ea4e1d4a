import PrePushAccessibility
import Testing

@Suite struct ConstantIndexTests {
    @Test func nestedConstantsAreNamedByTheirPath() {
        let constants = ConstantIndex.scan(#"""
        import Foundation

        // Identifiers for UI tests { not a block }
        enum A11y {
            enum Checkout {
                static let payButton = "checkout_button_pay"
                static let promoField: String = "checkout_field_promo"
                static let row = "checkout_cell_\(index)"
                static func cell(_ id: String) -> String { "checkout_cell_\(id)" }
            }
            struct Settings {
                static let brace = "settings_label_{"
                static let toggle = "settings_toggle_dark"
            }
        }

        extension A11y.Checkout {
            static let laterButton = "checkout_button_later"
        }

        let stray = "not_a_constant"
        """#)
        #expect(constants == [
            "A11y.Checkout.payButton": "checkout_button_pay",
            "A11y.Checkout.promoField": "checkout_field_promo",
            "A11y.Settings.brace": "settings_label_{",
            "A11y.Settings.toggle": "settings_toggle_dark",
            "A11y.Checkout.laterButton": "checkout_button_later",
        ])
    }

    @Test func onlyNonLiteralIdentifiersAskForTheIndex() {
        #expect(!ConstantIndex.usesIdentifierConstants(#"Button("A") {}.accessibilityIdentifier("home_button_a")"#))
        #expect(ConstantIndex.usesIdentifierConstants("Button(\"A\") {}.accessibilityIdentifier(A11y.Home.add)"))
        #expect(ConstantIndex.usesIdentifierConstants("Button(\"A\") {}\n    .accessibilityIdentifier(\n        ids.add)"))
    }
}
