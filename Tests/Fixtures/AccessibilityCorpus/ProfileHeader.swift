import SwiftUI

struct ProfileCard: View {
    let name: String
    var body: some View {
        VStack {
            Text(name).font(.headline)
        }
        .padding()
        .accessibilityElement(children: .combine)
        .accessibilityAddTraits(.isButton)
    }
}

struct ProfileHeader: View {
    let name: String
    let avatarURL: URL?
    let editProfile: () -> Void
    let openFollowers: () -> Void

    var cardContent: some View {
        HStack {
            AsyncImage(url: avatarURL)
                .frame(width: 56, height: 56)
            Text(name)
        }
    }

    var body: some View {
        VStack(alignment: .leading, spacing: 12) {
            cardContent // expect: tap-gesture-missing-trait
                .onTapGesture(count: 1) { editProfile() }
            ProfileCard(name: name)
                .onTapGesture { openFollowers() }
            Text("Followers") // expect: tap-gesture-missing-trait
                .font(.custom("Avenir", fixedSize: 14)) // expect: fixed-font-size
                .onTapGesture { openFollowers() }
            Text("Double tap to like")
                .onTapGesture(count: 2) { like() }
            Button("Edit profile", action: editProfile)
                .accessibilityIdentifier("profile_button_edit")
                .hidden()
            Button("Share", action: share)
                .hidden()
        }
    }

    private func like() {}
    private func share() {}
}
