import SwiftUI

struct OnboardingPage: Identifiable {
    let id: Int
    let imageName: String
    let title: String
}

// `Asset` is SwiftGen's generated code, in Generated/Assets.swift.

struct OnboardingView: View {
    let pages: [OnboardingPage]
    @State private var selection = 0
    let finish: () -> Void

    var body: some View {
        VStack {
            TabView(selection: $selection) {
                ForEach(pages) { page in
                    VStack(spacing: 20) {
                        Image(page.imageName) // expect: image-missing-label
                            .resizable()
                            .scaledToFit()
                        Text(page.title)
                            .font(.largeTitle)
                    }
                    .tag(page.id)
                }
            }
            .tabViewStyle(.page)
            .accessibilityIdentifier("onboarding_list_pages")

            HStack {
                ForEach(pages) { page in
                    Circle()
                        .fill(page.id == selection ? Color.primary : Color.secondary)
                        .frame(width: 8, height: 8) // expect: small-touch-target
                        .onTapGesture { selection = page.id }
                }
            }
            .accessibilityElement(children: .ignore)
            .accessibilityLabel("Page \(selection + 1) of \(pages.count)")

            Button("Get started", action: finish)
                .accessibilityIdentifier("onboarding_button_start")
                .padding()
            Image("wave-footer") // expect: image-missing-label
            Asset.Images.logo.swiftUIImage // expect: image-missing-label
                .resizable()
                .frame(width: 120, height: 40)
        }
        .background(Image(decorative: "onboarding-background"))
    }
}
