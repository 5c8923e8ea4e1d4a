#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// What a clone lacks before it builds, and where a file is on disk: pods and Carthage frameworks
/// the repository does not commit, and a path spelled in another case than the folders it names.
extension XcodeProjectSurvey {
    /// How a stage installs the Pods of a committed workspace whose folder holds a Podfile while the
    /// repository ignores its `Pods` folder (a `.gitignore` line `Pods`, `Pods/`, `/Pods/` at the root
    /// or beside it); nil when there is no Podfile or the Pods are committed.
    package func podInstall(beside container: Container) -> String? {
        let folder = container.folder
        guard FileSystem.stamp(of: FilePath.join(root, FilePath.join(folder, "Podfile"))) != nil else { return nil }
        let ignored = Set([".gitignore", FilePath.join(folder, ".gitignore")]).contains { ignores(["Pods", "**/Pods"], in: $0) }
        return ignored ? Self.podInstall(root: root, folder: folder) : nil
    }

    /// Whether the repository builds with Carthage frameworks it does not commit: a `Cartfile` at
    /// the root, and a `.gitignore` line naming `Carthage/Build` (or all of `Carthage`). A clone then
    /// cannot build until `carthage bootstrap` ran, which takes minutes: said, not run on each push.
    package var carthageNotCommitted: Bool {
        FileSystem.stamp(of: FilePath.join(root, "Cartfile")) != nil && ignores(["Carthage", "Carthage/Build"], in: ".gitignore")
    }

    /// Whether the `.gitignore` at `file` (relative to the root) has a line naming one of `folders`,
    /// written with or without a leading or trailing `/`, or as all it holds (`Pods/*`, `Pods/**`,
    /// deltachat's).
    func ignores(_ folders: [String], in file: String) -> Bool {
        guard case .success(let bytes) = FileReading.read(FilePath.join(root, file), limit: 1_000_000) else { return false }
        let endings = ["", "/", "/*", "/**"]
        let lines = Set(folders.flatMap { folder -> [String] in endings.flatMap { ending in [folder + ending, "/" + folder + ending] } })
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").contains { lines.contains(String($0).trimmingSuffixBlanks()) }
    }

    /// How a stage installs the pods of the Podfile in `folder` (relative to the root): through
    /// Bundler when the Gemfile beside it or at the root names cocoapods, as the team pins it.
    static func podInstall(root: String, folder: String) -> String {
        let bundled = [FilePath.join(folder, "Gemfile"), "Gemfile"].contains { gemfile in
            guard case .success(let bytes) = FileReading.read(FilePath.join(root, gemfile), limit: 1_000_000) else { return false }
            return ByteSearch.contains(bytes, Array("cocoapods".utf8))
        }
        let directory = folder.isEmpty || folder == "." ? "" : " --project-directory=\(ShellQuoting.word(folder))"
        return (bundled ? "bundle exec pod install" : "pod install") + directory
    }

    /// `path` (relative to the root) as it is spelled on disk when it is not there as written but one
    /// entry of each folder matches it ignoring case: a Mac's usual file system ignores case, and
    /// Xcode finds anytype's `AnytypeTests/AnytypeTests.xctestplan` in `AnyTypeTests/`.
    /// (A clone on a case-sensitive disk may hold both spellings of a folder, which are one on the
    /// Mac: each is tried.)
    package func onDisk(_ path: String) -> String {
        guard FileSystem.stamp(of: FilePath.join(root, path)) == nil else { return path }
        func search(_ resolved: String, _ rest: ArraySlice<Substring>) -> String? {
            guard let component = rest.first?.lowercased() else { return FileSystem.stamp(of: FilePath.join(root, resolved)) == nil ? nil : resolved }
            let entries = ((try? FileManager.default.contentsOfDirectory(atPath: FilePath.join(root, resolved))) ?? []).sorted()
            for entry in entries where entry.lowercased() == component {
                if let found = search(resolved.isEmpty ? entry : resolved + "/" + entry, rest.dropFirst()) { return found }
            }
            return nil
        }
        return search("", path.split(separator: "/")[...]) ?? path
    }
}
