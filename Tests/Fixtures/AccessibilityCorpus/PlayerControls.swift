import SwiftUI

enum PlayerLayout {
    static let smallControl: CGFloat = 28
}

struct PlayerControls: View {
    @Binding var isPlaying: Bool
    let skipBack: () -> Void
    let skipForward: () -> Void
    let showQueue: () -> Void

    var body: some View {
        HStack(spacing: 32) {
            Button(action: skipBack) {
                Image(systemName: "gobackward.15")
            }
            .accessibilityLabel("Back 15 seconds")
            .accessibilityIdentifier("player_button_back")
            .frame(width: PlayerLayout.smallControl, height: PlayerLayout.smallControl) // expect: small-touch-target

            Button { // expect: icon-button-missing-label
                isPlaying.toggle()
            } label: {
                switch isPlaying {
                case true:
                    Image(systemName: "pause.fill")
                case false:
                    Image(systemName: "play.fill")
                }
            }
            .accessibilityIdentifier("player_button_play")
            .frame(width: 64, height: 64)

            Button(action: skipForward) {
                Image(systemName: "goforward.15")
                    .accessibilityLabel("Forward 15 seconds")
            }
            .accessibilityIdentifier("player_button_forward")

            Menu { // expect: icon-button-missing-label, missing-identifier
                Button("Queue", action: showQueue)
                    .accessibilityIdentifier("player_button_queue")
            } label: {
                Image(systemName: "ellipsis")
            }
        }
        .font(.system(size: 28))
        .dynamicTypeSize(.large) // expect: fixed-font-size
    }
}

struct VolumeBar: View {
    @Binding var volume: Double

    var body: some View {
        HStack {
            Image(systemName: "speaker.fill")
                .accessibilityHidden(true)
            Slider(value: $volume)
                .accessibilityIdentifier("VolumeSlider") // expect: identifier-convention
            Image(decorative: "speaker-max")
        }
        .dynamicTypeSize(...DynamicTypeSize.accessibility2)
    }
}
