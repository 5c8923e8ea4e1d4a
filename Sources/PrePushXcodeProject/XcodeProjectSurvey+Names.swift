import PrePushCore

extension XcodeProjectSurvey {
    /// The projects a workspace's `contents.xcworkspacedata` lists, relative to the root: its
    /// `FileRef`s to a `.xcodeproj` at `group:` or `container:` locations, which are relative to
    /// the workspace's folder (`folder`, relative to the root). Nothing outside the repository.
    package static func workspaceProjects(_ text: String, folder: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.firstRange(of: "location = \""), line.contains(".xcodeproj\"") else { return nil }
            let location = line[start.upperBound...].prefix { $0 != "\"" }
            guard let colon = location.firstIndex(of: ":"), ["group", "container"].contains(location[..<colon]) else { return nil }
            let relative = String(location[location.index(after: colon)...])
            guard relative.hasSuffix(".xcodeproj"), !relative.hasPrefix("/"), !relative.split(separator: "/").contains("..") else { return nil }
            return FilePath.join(folder, relative)
        }
    }

    /// Whether a bundle whose kind cannot be read is named for UI tests: `AppUITests`, `AppUITest`,
    /// `Habitica UI Tests` (spaces aside).
    static func namedForUITests(_ name: String) -> Bool {
        let joined = name.filter { $0 != " " }
        return joined.hasSuffix("UITests") || joined.hasSuffix("UITest")
    }
}
