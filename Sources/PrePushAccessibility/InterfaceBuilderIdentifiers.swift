/// The accessibility identifiers an Interface Builder document (`.storyboard`, `.xib`) sets, read from
/// its XML as Xcode writes it: the Identity inspector's accessibility identifier
/// (`<accessibility key="accessibilityConfiguration" identifier="login_button"/>`), a user-defined
/// runtime attribute on `accessibilityIdentifier` (`<userDefinedRuntimeAttribute type="string"
/// keyPath="accessibilityIdentifier" value="login_button"/>`), and in a macOS document
/// (`targetRuntime="MacOSX.Cocoa"`) a view's or window's item identifier (`identifier="…"`), which
/// AppKit reports as its accessibility identifier. Segue and storyboard identifiers are not set on an
/// element a UI test can find, and are not read.
package enum InterfaceBuilderIdentifiers {
    /// Whether `path` names an Interface Builder document.
    package static func isDocument(_ path: String) -> Bool {
        path.hasSuffix(".storyboard") || path.hasSuffix(".xib")
    }

    /// The identifiers the document `bytes` (UTF-8 XML) sets, in document order.
    package static func identifiers(in bytes: [UInt8]) -> [String] {
        sites(in: bytes).map(\.identifier)
    }

    /// The identifiers the document `bytes` (UTF-8 XML) sets, in document order, each with the
    /// 1-based line of the element that sets it (what a refusal names as the place it was set).
    package static func sites(in bytes: [UInt8]) -> [(identifier: String, line: Int)] {
        let text = String(decoding: bytes, as: UTF8.self)
        let isMac = text.contains("targetRuntime=\"MacOSX.Cocoa\"")
        var found: [(identifier: String, line: Int)] = []
        var line = 1
        // Each element's start tag: `<name attr="v" …>`; the text before the first is no element.
        for (index, piece) in text.split(separator: "<", omittingEmptySubsequences: false).enumerated() {
            defer { line += piece.utf8.reduce(0) { $1 == 10 ? $0 + 1 : $0 } }
            guard index > 0, let first = piece.first, first.isLetter else { continue }
            let tag = piece.prefix { $0 != ">" }
            let name = tag.prefix { !$0.isWhitespace && $0 != "/" }
            switch name {
            case "accessibility":
                if let value = attribute("identifier", in: tag) { found.append((value, line)) }
            case "userDefinedRuntimeAttribute":
                if attribute("keyPath", in: tag) == "accessibilityIdentifier", let value = attribute("value", in: tag) { found.append((value, line)) }
            case "segue", "scene", "viewController", "navigationController", "tabBarController", "tableViewController",
                 "collectionViewController", "windowController", "viewControllerPlaceholder", "document", "capability":
                // Identifiers of segues and storyboard scenes, and the document's own id: nothing on screen.
                continue
            default:
                if isMac, let value = attribute("identifier", in: tag) { found.append((value, line)) }
            }
        }
        return found.filter { !$0.identifier.isEmpty }
    }

    /// The value of attribute `name` in a start tag (` name="value"`), XML entities decoded.
    static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let range = tag.firstRange(of: " " + name + "=\"") else { return nil }
        var value = tag[range.upperBound...].prefix { $0 != "\"" }
        var decoded = ""
        while let amp = value.firstIndex(of: "&") {
            decoded += value[..<amp]
            let rest = value[amp...]
            guard let entity = entities.first(where: { rest.hasPrefix($0.key) }) else {
                decoded += "&"
                value = rest.dropFirst()
                continue
            }
            decoded += entity.value
            value = rest.dropFirst(entity.key.count)
        }
        return decoded + value
    }

    /// The entities Xcode writes in attribute values.
    static let entities: [String: String] = ["&quot;": "\"", "&apos;": "'", "&lt;": "<", "&gt;": ">", "&amp;": "&"]
}
