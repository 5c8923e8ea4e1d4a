import SwiftUI

// Identifiers the way Element X keeps them: one struct per screen, reached through a `static let`
// instance, each identifier a `let` of that struct.
enum A11yIdentifiers {
    static let roomScreen = RoomScreen()
    static let roomMembers = RoomMembers()

    struct RoomScreen {
        let timeline = "room_list_timeline"
        let composer = "room_field_composer"
        let sendButton = "room_button_send"
        let attachButton = "room_button_attach"
        let attachPhotos = "room_button_attach_photos"
        let attachLocation = "room_button_attach_location"
        let jumpToBottom = "room_button_jump"
        let callButton = "roomCallButton"
        let favouriteButton = "room_button_favourite"
        let closeButton = "room_button_close"
    }

    struct RoomMembers {
        let inviteButton = "members_button_invite"
    }
}

enum RoomTab: String, CaseIterable, Identifiable {
    case chats, spaces
    var id: String { rawValue }
}

struct RoomTimelineScreen: View {
    @ObservedObject var context: RoomScreenViewModel.Context
    @State private var selection: RoomTab = .chats
    @FocusState private var composerFocused: Bool
    let isCompact: Bool
    let dismiss: () -> Void

    var body: some View {
        VStack(spacing: 0) {
            tabBar
            timeline
            composerBar
        }
        .toolbar { toolbar }
    }

    private var tabBar: some View {
        HStack {
            ForEach(RoomTab.allCases) { tab in
                Button { selection = tab } label: { // expect: icon-button-missing-label
                    tabIcon(for: tab)
                }
                .accessibilityIdentifier("room_button_tab_\(tab.rawValue)")
            }
            Spacer()
            Button(action: dismiss) { closeIcon }
                .accessibilityLabel("Close")
                .accessibilityIdentifier(A11yIdentifiers.roomScreen.closeButton)
        }
    }

    @ViewBuilder
    private func tabIcon(for tab: RoomTab) -> some View {
        switch tab {
        case .chats: Image(systemName: "bubble.left.and.bubble.right")
        case .spaces: Image(systemName: "square.grid.2x2")
        }
    }

    // The label moved from the image to the button that shows it: both are satisfied.
    private var closeIcon: some View {
        ZStack {
            Circle().fill(.quaternary)
            Image(systemName: "xmark")
                .font(.caption.bold())
        }
        .frame(width: 44, height: 44)
    }

    private var timeline: some View {
        ScrollView {
            LazyVStack {
                ForEach(context.items) { item in
                    TimelineItemView(item: item)
                        .accessibilityActions { itemActions(for: item) }
                }
            }
        }
        .accessibilityIdentifier(A11yIdentifiers.roomScreen.timeline)
        .overlay(alignment: .bottomTrailing) { jumpToBottomButton }
    }

    // VoiceOver actions, used only inside .accessibilityActions: not controls on screen.
    @ViewBuilder
    private func itemActions(for item: TimelineItem) -> some View {
        Button("Reply") { context.send(.reply(item)) }
        Button("React") { context.send(.react(item)) }
        if item.isEditable {
            Button("Edit") { context.send(.edit(item)) }
                .frame(width: 1, height: 1)
        }
    }

    private var jumpToBottomButton: some View {
        Button { context.send(.scrollToBottom) } label: {
            Image(systemName: "chevron.down")
                .font(.body.weight(.semibold))
                .frame(width: 32, height: 32) // expect: small-touch-target
                .background(Circle().fill(.background))
        }
        .accessibilityLabel("Jump to latest")
        .accessibilityIdentifier(A11yIdentifiers.roomScreen.jumpToBottom)
        #if os(iOS)
        .hoverEffect()
        #endif
    }

    private var composerBar: some View {
        HStack(alignment: .bottom) {
            Menu {
                Button { context.send(.attach(.photoLibrary)) } label: {
                    Label("Photo Library", systemImage: "photo")
                }
                .accessibilityIdentifier(A11yIdentifiers.roomScreen.attachPhotos)
                Button { context.send(.attach(.location)) } label: {
                    Label("Location", systemImage: "mappin")
                        .frame(minHeight: 28)
                }
                .accessibilityIdentifier(A11yIdentifiers.roomScreen.attachLocation)
            } label: {
                Image(systemName: "plus.circle.fill")
                    .font(.title2)
                    .frame(width: 30, height: 30) // expect: small-touch-target
            }
            .accessibilityLabel("Add attachment")
            .accessibilityIdentifier(A11yIdentifiers.roomScreen.attachButton)

            TextField("Message", text: $context.composerText, axis: .vertical)
                .focused($composerFocused)
                .accessibilityIdentifier(A11yIdentifiers.roomScreen.composer)

            Button { context.send(.sendMessage) } label: {
                Image(systemName: "paperplane.fill")
            }
            #if os(macOS)
            .keyboardShortcut(.return)
            #else
            .dynamicTypeSize(.large) // expect: fixed-font-size
            #endif
            .accessibilityLabel("Send")
            .accessibilityIdentifier(A11yIdentifiers.roomScreen.sendButton)
        }
    }

    @ToolbarContentBuilder
    private var toolbar: some ToolbarContent {
        ToolbarItem(placement: .primaryAction) {
            Button { context.send(.startCall) } label: { // expect: icon-button-missing-label
                let symbol = context.hasOngoingCall ? "phone.fill.arrow.up.right" : "phone"
                Image(systemName: symbol)
                    .frame(width: 28, height: 28) // expect: small-touch-target
            }
            .accessibilityIdentifier(A11yIdentifiers.roomScreen.callButton) // expect: identifier-convention
        }
        ToolbarItem(placement: .secondaryAction) {
            Button { context.send(.toggleFavourite) } label: { // expect: icon-button-missing-label
                if isCompact {
                    Image(systemName: context.isFavourite ? "star.fill" : "star")
                } else {
                    Label("Favourite", systemImage: context.isFavourite ? "star.fill" : "star")
                }
            }
            .accessibilityIdentifier(A11yIdentifiers.roomScreen.favouriteButton)
        }
    }
}

struct RoomMembersList: View {
    let members: [RoomMember]
    let invite: () -> Void

    var body: some View {
        List(members) { member in
            Text(member.displayName)
        }
        .toolbar {
            Button("Invite people", action: invite)
                .accessibilityIdentifier(A11yIdentifiers.roomMembers.inviteButton)
        }
        .overlay {
            if members.isEmpty {
                VStack {
                    Text("Nobody here yet")
                    Button("Invite", action: invite)
                        .accessibilityIdentifier(A11yIdentifiers.roomMembers.inviteButton) // expect: duplicate-identifier
                }
            }
        }
    }
}
