import SwiftUI

/// Timeline rows: tapped as a whole to open, with buttons of their own; not tagged (no test uses them).
struct TimelineItemRow: View {
    let item: TimelineItem
    let context: RoomScreenViewModel.Context
    @State private var isExpanded = false

    var body: some View {
        HStack(alignment: .top) {
            LoadableAvatarImage(url: item.sender.avatarURL, name: item.sender.displayName)
                .frame(width: 32, height: 32)
                .accessibilityHidden(true)
            VStack(alignment: .leading) {
                Text(item.sender.displayName).font(.headline)
                Text(item.body)
                    .lineLimit(isExpanded ? nil : 4)
                    .onTapGesture { withAnimation { isExpanded.toggle() } }
                attachments
            }
            Spacer()
            Button { context.send(.react(item.id)) } label: {
                Image(systemName: "face.smiling")
            }
            .accessibilityLabel(L10n.react)
        }
        .contentShape(Rectangle())
        .onTapGesture { context.send(.openThread(item.id)) }
    }

    @ViewBuilder private var attachments: some View {
        ForEach(item.files) { file in
            HStack { // expect: tap-gesture-missing-trait
                Image(systemName: "paperclip").accessibilityHidden(true)
                Text(file.name)
            }
            .onTapGesture { context.send(.openFile(file)) }
        }
    }
}

/// A day separator whose invisible hit area selects the day, and a checkbox row that is a control.
struct DaySeparator: View {
    let day: Date
    @Binding var selectedDay: Date?
    @Binding var isIncluded: Bool

    var body: some View {
        ZStack {
            Color.clear
                .contentShape(Rectangle())
                .onTapGesture { selectedDay = day }
            Text(day, style: .date).font(.caption)
        }
        HStack { // expect: tap-gesture-missing-trait
            Image(systemName: isIncluded ? "checkmark.square" : "square").accessibilityHidden(true)
            Text(L10n.includeInExport)
        }
        .onTapGesture { isIncluded.toggle() }
    }
}
