import PrePushCore

/// What a team's own CI files say about running its tests: the simulator destination its
/// `xcodebuild` commands name (GitHub workflows, a Makefile, fastlane's Fastfile, Xcode Cloud's
/// `ci_scripts`). A value built from variables (`name=$SIMULATOR`) is not one to copy.
public enum TeamCommands {
    /// Files teams keep their test commands in, relative to the root (folders: every file in them).
    static let places = [".github/workflows", "Makefile", "fastlane/Fastfile", "ci_scripts", "scripts", ".circleci/config.yml", "Fastfile"]

    /// The first literal `-destination` value an `xcodebuild` command of the team's files names, and
    /// where (`.github/workflows/ci.yml:36`).
    public static func destination(root: String) -> (value: String, place: String)? {
        for place in places {
            let absolute = FilePath.join(root, place)
            let files = FileSystem.isDirectory(absolute)
                ? SourceTree.files(under: absolute) { _ in true }.map { FilePath.join(place, $0) } : [place]
            for file in files {
                guard case .success(let bytes) = FileReading.read(FilePath.join(root, file), limit: 1_000_000) else { continue }
                let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                for (number, line) in lines.enumerated() {
                    guard let value = value(after: "-destination", in: line) ?? value(after: "destination:", in: line),
                          !value.contains("$"), !value.contains("#{"), value.contains("platform=") || value.hasPrefix("id=") else { continue }
                    return (value, "\(file):\(number + 1)")
                }
            }
        }
        return nil
    }

    /// The quoted or bare word after `flag` on a line (`-destination 'platform=…'`, fastlane's
    /// `destination: "platform=…"`).
    static func value(after flag: String, in line: Substring) -> String? {
        guard let range = line.firstRange(of: flag) else { return nil }
        var rest = line[range.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let first = rest.first else { return nil }
        if first == "'" || first == "\"" {
            rest = rest.dropFirst()
            guard let end = rest.firstIndex(of: first) else { return nil }
            return String(rest[..<end])
        }
        let word = rest.prefix { $0 != " " && $0 != "\\" }
        return word.isEmpty ? nil : String(word)
    }
}
