#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The files of a working tree that a check reads, walked without build output and dependencies.
public enum SourceTree {
    /// Folders never walked: version control, build output, dependency managers, prepush's own.
    public static let skippedFolders: Set<String> = [".git", ".build", ".swiftpm", "DerivedData", "Pods", "Carthage", ".prepush", "node_modules"]

    /// The relative paths (`/`-separated, sorted) of the files under `root` that `selects` accepts.
    public static func files(under root: String, where selects: (String) -> Bool) -> [String] {
        var found: [String] = []
        var folders = [""]
        while let folder = folders.popLast() {
            let absolute = folder.isEmpty ? root : FilePath.join(root, folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: absolute)) ?? [] {
                let relative = folder.isEmpty ? name : "\(folder)/\(name)"
                if FileSystem.isDirectory(FilePath.join(root, relative)) {
                    if !skippedFolders.contains(name) { folders.append(relative) }
                } else if selects(relative) {
                    found.append(relative)
                }
            }
        }
        return found.sorted()
    }
}
