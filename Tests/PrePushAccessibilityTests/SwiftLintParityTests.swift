import Foundation
import PrePushAccessibility
import Testing

/// The examples of SwiftLint's `accessibility_label_for_image` and `accessibility_trait_for_button` rules
/// (realm/SwiftLint, MIT licence, `Source/SwiftLintBuiltInRules/Rules/Lint/*RuleExamples.swift`), each
/// view body as SwiftLint writes it, with SwiftLint's `↓` markers: our rules must give the same verdicts.
enum SwiftLintExamples {
    static let imageNonTriggering = [
        #"Image(decorative: "my-image")"#,
        #"Image("my-image", label: Text("Alt text for my image"))"#,
        #"Image("my-image").accessibility(hidden: true)"#,
        #"Image("my-image").accessibilityHidden(true)"#,
        #"Image("my-image").accessibility(label: Text("Alt text for my image"))"#,
        #"Image("my-image").accessibilityLabel(Text("Alt text for my image"))"#,
        #"Image(uiImage: myUiImage).renderingMode(.template).foregroundColor(.blue).accessibilityHidden(true)"#,
        #"Image(uiImage: myUiImage).accessibilityLabel(Text("Alt text for my image"))"#,
        #"SwiftUI.Image(uiImage: "my-image").resizable().accessibilityHidden(true)"#,
        """
        VStack {
            Image(decorative: "my-image")
                .renderingMode(.template)
                .foregroundColor(.blue)
            Image("my-image")
                .accessibility(label: Text("Alt text for my image"))
        }
        """,
        """
        VStack {
            Image("my-image")
                .renderingMode(.template)
                .foregroundColor(.blue)
            Image("my-image")
                .accessibility(label: Text("Alt text for my image"))
        }.accessibilityElement()
        """,
        """
        VStack {
            Image("my-image")
                .renderingMode(.template)
                .foregroundColor(.blue)
            Image("my-image")
                .accessibility(label: Text("Alt text for my image"))
        }.accessibilityHidden(true)
        """,
        """
        HStack(spacing: 8) {
            Image(decorative: "my-image")
                .renderingMode(.template)
                .foregroundColor(.blue)
            Text("Text to accompany my image")
        }.accessibilityElement(children: .combine)
        .padding(16)
        """,
        """
        HStack(spacing: 8) {
            Image("my-image")
                .renderingMode(.template)
                .foregroundColor(.blue)
            Text("Text to accompany my image")
        }.accessibilityElement(children: .ignore)
        .padding(16)
        .accessibilityLabel(Text("Label for my image and text"))
        """,
        """
        Button(action: { doAction() }) {
            Image("my-image")
                .renderingMode(.template)
                .foregroundColor(.blue)
        }
        .accessibilityLabel(Text("Label for my image"))
        """,
        """
        NavigationLink("Go to Details") {
            DetailView()
        } label: {
            HStack {
                Image(systemName: "arrow.right")
                Text("Navigate Here")
            }
        }
        """,
        """
        Button("Save Changes") {
            saveAction()
        } label: {
            Label("Save", systemImage: "square.and.arrow.down")
        }
        """,
        """
        Button(action: performAction) {
            HStack {
                Image(uiImage: UIImage(systemName: "star") ?? UIImage())
                Text("Favorite")
            }
        }
        .accessibilityLabel("Add to Favorites")
        """,
        """
        VStack {
            Image(systemName: "wifi")
            Image("network-icon")
            Text("Network Status")
        }.accessibilityElement(children: .ignore)
        .accessibilityLabel("Connected to WiFi")
        """,
        """
        HStack {
            Image(uiImage: statusImage)
                .foregroundColor(.green)
            Text("System Status")
        }.accessibilityElement(children: .ignore)
        .accessibilityLabel("System is operational")
        """,
        """
        NavigationLink(destination: SettingsView()) {
            HStack {
                Image(nsImage: NSImage(named: "gear") ?? NSImage())
                Text("Preferences")
                Spacer()
                Image(systemName: "chevron.right")
            }
        }
        """,
        """
        Button {
            toggleState()
        } label: {
            Image(systemName: isEnabled ? "eye" : "eye.slash")
                .foregroundColor(isEnabled ? .blue : .gray)
        }
        .accessibilityLabel(isEnabled ? "Hide content" : "Show content")
        """,
        """
        VStack {
            Image("card-background")
            Image(systemName: "checkmark.circle")
            Text("Task Complete")
        }
        .accessibilityElement(children: .ignore)
        .accessibilityLabel("Task completed successfully")
        """,
        // SwiftLint issue 6420: a Label's icon is labelled by the Label's title.
        """
        Label {
            Text("Connected")
        } icon: {
            Image(systemName: "checkmark.circle.fill")
        }
        """,
        #"Label(content: { Text("Download") }, icon: { Image("custom-download-icon") })"#,
    ]

    static let imageTriggering = [
        """
        ↓Image("my-image")
            .resizable(true)
            .frame(width: 48, height: 48)
        """,
        #"↓Image(uiImage: myUiImage)"#,
        #"↓SwiftUI.Image(uiImage: "my-image").resizable().accessibilityHidden(false)"#,
        """
        Image(uiImage: myUiImage)
            .resizable()
            .frame(width: 48, height: 48)
            .accessibilityLabel(Text("Alt text for my image"))
        ↓Image("other image")
        """,
        """
        Image(decorative: "image1")
        ↓Image("image2")
        Image(uiImage: "image3")
            .accessibility(label: Text("a pretty picture"))
        """,
        """
        VStack {
            Image(decorative: "my-image")
                .renderingMode(.template)
                .foregroundColor(.blue)
            ↓Image("my-image")
        }
        """,
        """
        VStack {
            ↓Image("my-image")
                .renderingMode(.template)
                .foregroundColor(.blue)
            Image("my-image")
                .accessibility(label: Text("Alt text for my image"))
        }.accessibilityElement(children: .contain)
        """,
        """
        VStack {
            ↓Image("my-image")
                .renderingMode(.template)
                .foregroundColor(.blue)
            Image("my-image")
                .accessibility(label: Text("Alt text for my image"))
        }.accessibilityHidden(false)
        """,
        """
        HStack(spacing: 8) {
            ↓Image("my-image")
                .renderingMode(.template)
                .foregroundColor(.blue)
            Text("Text to accompany my image")
        }.accessibilityElement(children: .combine)
        .padding(16)
        """,
        """
        Button(action: { doAction() }) {
            ↓Image("my-image")
                .renderingMode(.template)
                .foregroundColor(.blue)
        }
        """,
        #"↓Image(systemName: "circle.plus")"#,
        """
        HStack {
            ↓Image(uiImage: statusIcon)
                .foregroundColor(.green)
            Text("Status")
        }
        """,
        """
        VStack {
            ↓Image(nsImage: NSImage(named: "gear") ?? NSImage())
                .resizable()
                .frame(width: 24, height: 24)
            Text("Settings")
        }
        """,
        """
        ↓Image(uiImage: favicon ?? UIImage())
            .aspectRatio(contentMode: .fit)
            .frame(width: 16, height: 16)
        """,
        """
        HStack {
            ↓Image(uiImage: loadedImage)
                .resizable()
            ↓Image(systemName: "star.fill")
                .foregroundColor(.yellow)
        }.accessibilityElement(children: .combine)
        """,
        """
        VStack {
            ↓Image(uiImage: backgroundImage)
                .resizable()
                .aspectRatio(contentMode: .fill)
            Text("Card Content")
        }.accessibilityElement(children: .contain)
        """,
    ]

    static let traitNonTriggering = [
        """
        Button {
            print("tapped")
        } label: {
            Text("Learn more")
        }
        """,
        #"Link("Open link", destination: myUrl)"#,
        """
        Text("Learn more")
            .onTapGesture {
                print("tapped - open URL")
            }
            .accessibility(addTraits: .isLink)
        """,
        """
        Text("Learn more")
            .accessibilityAddTraits(.isButton)
            .onTapGesture {
                print("tapped")
            }
        """,
        """
        Text("Learn more")
            .accessibility(addTraits: [.isButton, .isHeader])
            .onTapGesture {
                print("tapped")
            }
        """,
        """
        Text("Learn more")
            .onTapGesture {
                print("tapped - open URL")
            }
            .accessibilityAddTraits([.isHeader, .isLink])
        """,
        """
        Text("Learn more")
            .onTapGesture(count: 1) {
                print("tapped")
            }
            .accessibility(addTraits: .isButton)
        """,
        """
        Text("Learn more")
            .onTapGesture(count: 1, perform: {
                print("tapped")
            })
            .accessibility(addTraits: .isButton)
        """,
        """
        Text("Learn more")
            .onTapGesture(count: 2) {
                print("double-tapped")
            }
        """,
        """
        Label("Learn more", systemImage: "info.circle")
            .onTapGesture(count: 1) {
                print("tapped")
            }
            .accessibility(addTraits: .isButton)
        """,
        """
        HStack {
            Image(systemName: "info.circle")
            Text("Learn more")
        }
        .onTapGesture {
            print("tapped")
        }
        .accessibilityElement(children: .combine)
        .accessibility(addTraits: .isButton)
        """,
        """
        Text("Learn more")
            .gesture(TapGesture().onEnded {
                print("tapped")
            })
            .accessibilityAddTraits(.isButton)
        """,
        """
        Text("Learn more")
            .simultaneousGesture(TapGesture(count: 1).onEnded {
                print("tapped - open URL")
            })
            .accessibilityAddTraits(.isLink)
        """,
        """
        Text("Learn more")
            .highPriorityGesture(TapGesture().onEnded {
                print("tapped")
            })
            .accessibility(addTraits: [.isButton])
        """,
        """
        Text("Learn more")
            .gesture(TapGesture(count: 2).onEnded {
                print("tapped")
            })
        """,
    ]

    static let traitTriggering = [
        """
        ↓Text("Learn more")
            .onTapGesture {
                print("tapped")
            }
        """,
        """
        ↓Text("Learn more")
            .accessibility(addTraits: .isHeader)
            .onTapGesture {
                print("tapped")
            }
        """,
        """
        ↓Text("Learn more")
            .onTapGesture(count: 1) {
                print("tapped")
            }
        """,
        """
        ↓Text("Learn more")
            .onTapGesture(count: 1, perform: {
                print("tapped")
            })
        """,
        """
        ↓Label("Learn more", systemImage: "info.circle")
            .onTapGesture(count: 1) {
                print("tapped")
            }
        """,
        """
        ↓HStack {
            Image(systemName: "info.circle")
            Text("Learn more")
        }
        .onTapGesture {
            print("tapped")
        }
        """,
        """
        ↓Text("Learn more")
            .gesture(TapGesture().onEnded {
                print("tapped")
            })
        """,
        """
        ↓Text("Learn more")
            .simultaneousGesture(TapGesture(count: 1).onEnded {
                print("tapped")
            })
        """,
        """
        ↓Text("Learn more")
            .highPriorityGesture(TapGesture().onEnded {
                print("tapped")
            })
        """,
    ]

    /// Each example inside `struct MyView: View { var body: some View { … } }`, as SwiftLint runs them.
    static func wrapped(_ body: String) -> String {
        let indented = body.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }.joined(separator: "\n")
        return "struct MyView: View {\n    var body: some View {\n\(indented)\n    }\n}\n"
    }

    static var all: [MarkedExample] {
        func marked(_ rule: String, _ codes: [String], _ triggering: Bool) -> [MarkedExample] {
            codes.map { MarkedExample(rule: rule, example: RuleExample(wrapped($0)), triggering: triggering) }
        }
        // One deliberate difference: an icon-only Button is reported once, as the button that needs a
        // label (icon-button-missing-label), not also as the image inside it, as SwiftLint does.
        let iconOnlyButtons = imageTriggering.filter { $0.hasPrefix("Button(action:") }
        let movedToTheButton = iconOnlyButtons.map { "↓" + $0.replacingOccurrences(of: "↓", with: "") }
        return marked("image-missing-label", imageNonTriggering + iconOnlyButtons.map { $0.replacingOccurrences(of: "↓", with: "") }, false)
            + marked("image-missing-label", imageTriggering.filter { !$0.hasPrefix("Button(action:") }, true)
            + marked("icon-button-missing-label", movedToTheButton, true)
            + marked("tap-gesture-missing-trait", traitNonTriggering, false) + marked("tap-gesture-missing-trait", traitTriggering, true)
    }
}

@Suite struct SwiftLintParityTests {
    @Test(arguments: SwiftLintExamples.all)
    func sameVerdictsAsSwiftLint(_ example: MarkedExample) {
        let findings = AccessibilityChecker().check(path: "Example.swift", text: example.code).filter { $0.ruleID == example.rule }
        #expect(findings.map(\.location) == example.markers, "\(findings.map { "\($0.location): \($0.message)" })")
    }

    @Test func theExampleCountsMatchSwiftLints() {
        // 25 + 16 image examples and 15 + 9 trait examples in SwiftLint at the time of writing.
        #expect((SwiftLintExamples.imageNonTriggering.count, SwiftLintExamples.imageTriggering.count) == (25, 16))
        #expect((SwiftLintExamples.traitNonTriggering.count, SwiftLintExamples.traitTriggering.count) == (15, 9))
    }
}
