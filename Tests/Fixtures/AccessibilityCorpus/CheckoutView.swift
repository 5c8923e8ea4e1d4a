import SwiftUI

enum A11y {
    enum Checkout {
        static let payButton = "checkout_button_pay"
        static let promoField = "checkout_field_promo"
    }
}

struct CheckoutView: View {
    @State private var promo = ""
    @State private var agreed = false
    let total: Decimal
    let pay: () -> Void

    var body: some View {
        VStack(spacing: 16) {
            TextField("Promo code", text: $promo)
                .accessibilityIdentifier(A11y.Checkout.promoField)
            Toggle(isOn: $agreed) {
                Text("I agree to the terms")
            }
            .accessibilityIdentifier("checkout_toggle_terms")
            Button(action: pay) {
                HStack {
                    Image(systemName: "creditcard")
                    Text("Pay \(total.formatted(.currency(code: "EUR")))")
                }
            }
            .accessibilityIdentifier(A11y.Checkout.payButton)
            .disabled(!agreed)
            Button("Pay with Apple Pay", action: pay)
                .accessibilityIdentifier(A11y.Checkout.payButton) // expect: duplicate-identifier
            Link("Terms", destination: URL(string: "https://example.com/terms")!) // expect: missing-identifier
            Button(action: pay) {
                Text("Pay later")
                    .frame(height: 30) // expect: small-touch-target
            }
            .accessibilityIdentifier("checkout_button_later")
        }
    }
}
