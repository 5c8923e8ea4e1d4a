#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The files of a working tree that a check reads, walked without build output and dependencies.
public enum SourceTree {
    /// Folders never walked: version control, build output, dependency managers, prepush's own.
    public static let skippedFolders: Set<String> = [".git", ".build", ".swiftpm", "DerivedData", "Pods", "Carthage", ".prepush", "node_modules"]

    /// Whether a folder of this name is never walked: one of `skippedFolders`, or another SwiftPM
    /// scratch folder (`.build-static`, `.build_linux`: `--scratch-path`), whose `checkouts` hold
    /// the dependencies' own tests (swift-syntax's 4,000 were once read as the project's).
    public static func isSkipped(folder name: String) -> Bool {
        skippedFolders.contains(name) || name.hasPrefix(".build")
    }

    /// The relative paths (`/`-separated, sorted) of the files under `root` that `selects` accepts.
    /// Symbolic links are not walked into as folders (a link to an ancestor would never end), and a
    /// linked file counts only when it resolves inside `root`: a pull request's link to a file
    /// elsewhere on the machine must not have its names printed in a report.
    public static func files(under root: String, where selects: (String) -> Bool) -> [String] {
        var found: [String] = []
        var folders = [""]
        let realRoot = FileSystem.realPath(root) ?? root
        while let folder = folders.popLast() {
            let absolute = folder.isEmpty ? root : FilePath.join(root, folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: absolute)) ?? [] {
                let relative = folder.isEmpty ? name : "\(folder)/\(name)"
                let path = FilePath.join(root, relative)
                if RepositoryPath.isSymbolicLink(path) {
                    guard let target = FileSystem.realPath(path), target.hasPrefix(realRoot + "/"), !FileSystem.isDirectory(target) else { continue }
                    if selects(relative) { found.append(relative) }
                    continue
                }
                if FileSystem.isDirectory(path) {
                    if !isSkipped(folder: name) { folders.append(relative) }
                } else if selects(relative) {
                    found.append(relative)
                }
            }
        }
        return found.sorted()
    }
}
