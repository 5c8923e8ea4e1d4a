import SwiftUI

struct TimelineTab: View {
    @State private var showComposer = false
    @State private var timeline: TimelineFilter = .home
    let statuses: [Status]

    var body: some View {
        NavigationStack {
            List(statuses) { status in
                StatusRowView(status: status)
            }
            .listStyle(.plain)
            #if !os(visionOS)
            .scrollContentBackground(.hidden)
            #endif
            .toolbar {
                ToolbarItem(placement: .topBarTrailing) {
                    Button { showComposer = true } label: {
                        Image(systemName: "square.and.pencil")
                    }
                    #if targetEnvironment(macCatalyst)
                    .keyboardShortcut("n")
                    #endif
                    .accessibilityLabel("New post")
                }
                ToolbarItem(placement: .principal) {
                    Menu {
                        ForEach(TimelineFilter.allCases) { filter in
                            Button { timeline = filter } label: {
                                Label(filter.title, systemImage: filter.iconName)
                                    .frame(minHeight: 24)
                            }
                        }
                    } label: {
                        HStack {
                            Text(timeline.title)
                                .font(.headline)
                            Image(systemName: "chevron.down")
                                .font(.caption)
                        }
                    }
                }
                ToolbarItem(placement: .topBarLeading) {
                    Button { scrollToTop() } label: { // expect: icon-button-missing-label
                        timelineIcon
                            .frame(width: 30, height: 30) // expect: small-touch-target
                    }
                }
            }
        }
    }

    @ViewBuilder
    private var timelineIcon: some View {
        if timeline == .home {
            Image(systemName: "house")
        } else {
            Image(systemName: timeline.iconName)
        }
    }

    private func scrollToTop() {}
}
