import SwiftUI

struct Room: Identifiable {
    let id: String
    let name: String
    var isFavourite: Bool
}

struct RoomListView: View {
    @State private var rooms: [Room] = []
    @State private var search = ""
    let createRoom: () -> Void

    var body: some View {
        NavigationStack {
            List(rooms) { room in
                NavigationLink(value: room.id) {
                    HStack {
                        Text(room.name)
                        Spacer()
                        favouriteButton(for: room)
                    }
                }
                .accessibilityIdentifier("rooms_cell_\(room.id)")
            }
            .searchable(text: $search)
            .toolbar {
                Button(action: createRoom) { // expect: icon-button-missing-label
                    plusIcon()
                }
                .accessibilityIdentifier("rooms_button_create")
            }
        }
    }

    @ViewBuilder
    private func plusIcon() -> some View {
        Image(systemName: "square.and.pencil")
    }

    private func favouriteButton(for room: Room) -> some View {
        Button { // expect: icon-button-missing-label
            toggleFavourite(room)
        } label: {
            Image(systemName: room.isFavourite ? "star.fill" : "star")
        }
        .accessibilityIdentifier("rooms_button_favourite_\(room.id)")
        .buttonStyle(.plain)
    }

    private func toggleFavourite(_ room: Room) {}
}
