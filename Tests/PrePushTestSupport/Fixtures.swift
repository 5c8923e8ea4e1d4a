import Foundation

/// Captured output of other tools in `shared/fixtures` (beside the repository), and this
/// repository's own captures in `Tests/Fixtures`.
public enum Fixtures {
    /// `shared/fixtures`: `PREPUSH_SHARED_FIXTURES`, else `../shared/fixtures` beside the repository.
    public static let shared: String = {
        if let explicit = ProcessInfo.processInfo.environment["PREPUSH_SHARED_FIXTURES"] { return explicit }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures").path
    }()

    /// This repository's root.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Tests/Fixtures` of this repository.
    public static let own: String = repositoryRoot.appendingPathComponent("Tests/Fixtures").path

    /// The bytes of a shared fixture, by its path under `shared/fixtures`.
    public static func sharedData(_ relative: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: shared).appendingPathComponent(relative))
    }

    /// The text of a shared fixture.
    public static func sharedText(_ relative: String) throws -> String {
        String(decoding: try sharedData(relative), as: UTF8.self)
    }

    /// Every file under a folder of `shared/fixtures`, sorted.
    public static func sharedFiles(in folder: String) -> [String] {
        let path = URL(fileURLWithPath: shared).appendingPathComponent(folder).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { "\(folder)/\($0)" }
    }
}
