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
        #expect(constants.instances.isEmpty)
        #expect(constants.strings == [
            "A11y.Checkout.payButton": "checkout_button_pay",
            "A11y.Checkout.promoField": "checkout_field_promo",
            "A11y.Settings.brace": "settings_label_{",
            "A11y.Settings.toggle": "settings_toggle_dark",
            "A11y.Checkout.laterButton": "checkout_button_later",
        ])
    }

    /// Element X's way: a struct per screen whose `let`s are the identifiers, reached through a
    /// `static let` instance (`A11yIdentifiers.roomScreen.sendButton`).
    @Test func letsOfIdentifierStructsAndTheirInstancesAreSeen() {
        let constants = ConstantIndex.scan(#"""
        enum A11yIdentifiers {
            static let roomScreen = RoomScreen()
            static let settingsScreen: SettingsScreen = SettingsScreen()

            struct RoomScreen {
                let sendButton = "room-send_button"
                let composer = Composer()
                func avatar(_ id: String) -> String {
                    let local = "not-a-constant"
                    return "room-avatar-\(id)"
                }
            }
            struct Composer {
                let attach = "room-composer-attach"
            }
            struct SettingsScreen {
                let done = "settings-done"
            }
        }
        """#)
        #expect(constants.strings == [
            "A11yIdentifiers.RoomScreen.sendButton": "room-send_button",
            "A11yIdentifiers.Composer.attach": "room-composer-attach",
            "A11yIdentifiers.SettingsScreen.done": "settings-done",
        ])
        #expect(constants.instances == [
            "A11yIdentifiers.roomScreen": "RoomScreen",
            "A11yIdentifiers.settingsScreen": "SettingsScreen",
            "A11yIdentifiers.RoomScreen.composer": "Composer",
        ])
    }

    @Test func onlyNonLiteralIdentifiersAskForTheIndex() {
        #expect(!ConstantIndex.usesIdentifierConstants(#"Button("A") {}.accessibilityIdentifier("home_button_a")"#))
        #expect(ConstantIndex.usesIdentifierConstants("Button(\"A\") {}.accessibilityIdentifier(A11y.Home.add)"))
        #expect(ConstantIndex.usesIdentifierConstants("Button(\"A\") {}\n    .accessibilityIdentifier(\n        ids.add)"))
    }
}
