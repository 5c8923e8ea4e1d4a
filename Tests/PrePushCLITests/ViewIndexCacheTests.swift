import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// The view index through the binary: a component declared in one file decides a finding in
/// another, its traits are kept in `.git/prepush/constants` by blob id, and a changed component is
/// read again. Modelled on Aidoku's `LargeButton` (a Button around what it is given) and the
/// `AddSourceView` that gives it an icon and a title.
@Suite struct ViewIndexCacheTests {
    let component = """
    import SwiftUI

    struct LargeButton<Content: View>: View {
        var action: () -> Void
        @ViewBuilder var label: Content
        var body: some View {
            Button { action() } label: { label.padding(12).frame(maxWidth: .infinity) }
        }
    }

    """
    let screen = """
    import SwiftUI

    struct AddSourceView: View {
        var body: some View {
            LargeButton { install() } label: {
                HStack { Image(systemName: "plus.circle"); Text("Add Source") }
            }
        }
    }

    """

    func imageFindings(_ repo: GitRepository) throws -> [String] {
        let run = try InProcessCLI.run(["a11y", "App/AddSourceView.swift"], in: repo.path, environment: repo.environment)
        #expect(run.status == 0, "\(run)")
        return run.standardOutput.split(separator: "\n").map(String.init).filter { $0.hasSuffix("[image-missing-label]") }
    }

    @Test func aComponentOfAnotherFileDecidesAndIsKeptByBlob() throws {
        let repo = try GitRepository()
        try repo.write(component, to: "Design/LargeButton.swift")
        try repo.write(screen, to: "App/AddSourceView.swift")
        try repo.commitAll("a screen and its button")

        // The image is in LargeButton's label, beside its text: no finding.
        #expect(try imageFindings(repo).isEmpty)
        let blob = try repo.git("rev-parse", "HEAD:Design/LargeButton.swift")
        let store = try #require(repo.root.read("work/.git/prepush/constants"))
        #expect(store.contains("\(blob)\tV\t\t\n") && store.contains("\(blob)\tv\tLargeButton\t1\n"), "\(store)")

        // The component no longer a Button: a new blob, read again, and the image is reported.
        try repo.write(component.replacingOccurrences(of: "Button { action() } label: {", with: "VStack {"), to: "Design/LargeButton.swift")
        #expect(try imageFindings(repo).count == 1)
    }

    /// A ButtonStyle's label padding (`b`) and a view's uses as an ImageRenderer's content (`R`) are
    /// kept by blob, and read back by the next run: the findings stay the same.
    @Test func aStylesPaddingAndARenderedViewAreKeptByBlob() throws {
        let repo = try GitRepository()
        try repo.write("""
        import SwiftUI
        struct CircleStyle: ButtonStyle {
            func makeBody(configuration: Configuration) -> some View { configuration.label.padding(8).background(Circle()) }
        }

        """, to: "Design/CircleStyle.swift")
        try repo.write("""
        import SwiftUI
        struct Photo: View {
            var body: some View { Text(total).font(.system(size: 40)) }
        }
        struct Log: View {
            var body: some View {
                Button(action: play) { Image(systemName: "play.fill").frame(width: 30, height: 30) }
                    .buttonStyle(CircleStyle()).accessibilityLabel("Play")
                Button("Save") { if let image = ImageRenderer(content: Photo()).uiImage { save(image) } }
            }
        }

        """, to: "App/Log.swift")
        try repo.commitAll("a style and a photo")
        for _ in 0..<2 {
            let run = try InProcessCLI.run(["a11y", "--all"], in: repo.path, environment: repo.environment)
            #expect(run.status == 0 && !run.standardOutput.contains(": warning: ") && !run.standardOutput.contains(": error: "), "\(run)")
        }
        let style = try repo.git("rev-parse", "HEAD:Design/CircleStyle.swift")
        let log = try repo.git("rev-parse", "HEAD:App/Log.swift")
        let store = try #require(repo.root.read("work/.git/prepush/constants"))
        #expect(store.contains("\(style)\tb\tCircleStyle\t8.0\n") && store.contains("\(log)\tR\tPhoto\t1\n"), "\(store)")
    }

    /// Flipper's hub: a card with text of its own, shown only as the label of a Button, through a
    /// view whose body it is. Who makes each view outside a control's label (`L`) is kept by blob; a
    /// screen that shows the card outside any control makes its chevron an element again.
    @Test func aCardShownOnlyInButtonsLabelsSpeaksThroughThemAcrossFiles() throws {
        let repo = try GitRepository()
        try repo.write("""
        import SwiftUI
        struct HubCard: View {
            let title: String
            var body: some View { HStack { Text(title); Spacer(); Image("ChevronRight") } }
        }

        """, to: "Hub/HubCard.swift")
        try repo.write("""
        import SwiftUI
        struct ReaderCard: View {
            var body: some View { HubCard(title: "Reader") }
        }

        """, to: "Hub/ReaderCard.swift")
        try repo.write("""
        import SwiftUI
        struct HubView: View {
            var body: some View {
                Button { openReader() } label: { ReaderCard() }
            }
        }

        """, to: "Hub/HubView.swift")
        try repo.commitAll("a hub")
        let check = { try InProcessCLI.run(["a11y", "Hub/HubCard.swift"], in: repo.path, environment: repo.environment) }
        let first = try check()
        #expect(first.status == 0 && !first.standardOutput.contains("[image-missing-label]"), "\(first)")
        let blob = try repo.git("rev-parse", "HEAD:Hub/ReaderCard.swift")
        let store = try #require(repo.root.read("work/.git/prepush/constants"))
        #expect(store.contains("\(blob)\tL\tHubCard\tReaderCard\n"), "\(store)")
        // Read back from the store: the same verdict.
        #expect(try check().standardOutput == first.standardOutput)
        try repo.write("""
        import SwiftUI
        struct HubView: View {
            var body: some View {
                Button { openReader() } label: { ReaderCard() }
                HubCard(title: "Remote")
            }
        }

        """, to: "Hub/HubView.swift")
        #expect(try check().standardOutput.contains("HubCard.swift:4:"), "the card is shown outside a control")
    }
}
