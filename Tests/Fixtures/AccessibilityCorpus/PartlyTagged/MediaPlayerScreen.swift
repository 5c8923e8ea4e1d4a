import AVKit
import SwiftUI

/// A full-screen player: taps show and hide the controls; the scrim dismisses.
struct MediaPlayerScreen: View {
    let player: AVPlayer
    @Environment(\.dismiss) private var dismiss
    @State private var showControls = true

    var body: some View {
        ZStack {
            Color.black.opacity(0.85)
                .ignoresSafeArea()
                .onTapGesture { dismiss() }
            VideoPlayer(player: player)
                .onTapGesture {
                    withAnimation(.easeInOut) { showControls.toggle() }
                }
            if showControls { controls }
        }
    }

    private var controls: some View {
        VStack {
            HStack {
                Image(systemName: "xmark")
                    .font(.title3)
                    .frame(width: 24, height: 24)
                    .padding(10)
                    .contentShape(Rectangle())
                    .onTapGesture { dismiss() }
                    .accessibilityLabel(L10n.close)
                    .accessibilityAddTraits(.isButton)
                Spacer()
                Menu {
                    Button(L10n.share) { share() }
                    Button(L10n.save) { save() }
                } label: {
                    Image(systemName: "ellipsis.circle")
                }
                .accessibilityLabel(L10n.more)
                .onTapGesture { Haptics.selection() }
            }
            Spacer()
            Button { player.rate == 0 ? player.play() : player.pause() } label: {
                Image(systemName: "playpause.fill")
                    .frame(width: 30, height: 30) // expect: small-touch-target
            }
            .accessibilityLabel(L10n.playPause)
        }
        .foregroundStyle(.white)
    }
}
