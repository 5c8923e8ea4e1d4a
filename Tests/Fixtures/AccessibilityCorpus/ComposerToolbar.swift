import SwiftUI

struct ComposerToolbar: View {
    @Binding var text: String
    let isSending: Bool
    let send: () -> Void
    let attach: () -> Void

    private var attachIcon: some View {
        Image(systemName: "paperclip")
    }

    var body: some View {
        HStack(spacing: 8) {
            Button(action: attach) { // expect: icon-button-missing-label
                attachIcon
            }
            .accessibilityIdentifier("composer_button_attach")
            .frame(width: 32, height: 32) // expect: small-touch-target

            TextEditor(text: $text)
                // Not a small target: a text editor given only a least height spans its row and grows
                // with its text (judged false on real apps in the sixth and eighth blind rounds).
                .frame(minHeight: 36)
                .accessibilityIdentifier("composer_field_message")

            Button(action: send) { // expect: icon-button-missing-label
                Group {
                    if isSending {
                        ProgressView()
                    } else {
                        Image(systemName: "paperplane.fill")
                    }
                }
            }
            .accessibilityIdentifier("composer_button_send")
            .disabled(text.isEmpty)
        }
        .padding(.horizontal)
    }
}
