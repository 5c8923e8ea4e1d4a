import SwiftUI

/// A checkbox look for Toggles: the Toggle it draws is announced as one.
struct CheckboxToggleStyle: ToggleStyle {
    func makeBody(configuration: Configuration) -> some View {
        HStack {
            Image(systemName: configuration.isOn ? "checkmark.square.fill" : "square")
                .accessibilityHidden(true)
            configuration.label
        }
        .contentShape(Rectangle())
        .onTapGesture { configuration.isOn.toggle() }
    }
}

/// A site's letter favicon and a byline with a separator dot.
struct SiteByline: View {
    let site: Site

    var body: some View {
        HStack(spacing: 4) {
            Text(site.name.prefix(1).uppercased())
                .font(.system(size: 11, weight: .bold))
                .frame(width: 18, height: 18)
                .background(Circle().fill(site.tint))
                .accessibilityHidden(true)
            Text(site.name).font(.footnote)
            Text(verbatim: "·").font(.system(size: 8))
            Text(site.updated, style: .relative).font(.footnote)
        }
        Text(site.summary)
            .font(.system(size: 13)) // expect: fixed-font-size
    }
}
