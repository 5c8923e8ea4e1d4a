#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
internal import SwiftParser
internal import SwiftSyntax

/// Which source files a repository ships, from its projects' structure: the Swift files each target
/// of a `project.pbxproj` compiles (its sources build phase, and Xcode 16's synchronized folders less
/// their exceptions), and the folders of `Package.swift` targets. A file compiled only into test
/// bundles or command-line tools (`com.apple.product-type.tool`, an `.executableTarget`, a `.plugin`)
/// never reaches a user; one no project claims is unknown, and counts as shipped (nothing is left
/// out on a guess). Not by folder or type names: a `DebugMenu/` folder in the app target ships.
package struct ShippedSources: Sendable {
    /// One target's claim on files.
    struct Claim: Sendable {
        /// The target's name, for notes.
        let target: String
        /// Whether its product reaches users (an app, an extension, a framework or library).
        let ships: Bool
        /// Repository-relative files it compiles.
        var files: Set<String> = []
        /// Repository-relative folders whose Swift files it compiles, less the files of `excluded`.
        var folders: [String] = []
        var excluded: Set<String> = []
        /// The SDKs it builds for (`macosx`, `iphoneos`, …), from its configurations or the project's;
        /// empty when unsaid (a package target).
        var platforms: Set<String> = []
    }

    private(set) var claims: [Claim] = []

    /// No claims: every file counts as shipped.
    package init() {}

    /// Reads every `project.pbxproj` and `Package.swift` under `root` (build and vendored folders
    /// skipped); one that cannot be read claims nothing.
    package init(root: String) {
        let paths = SourceTree.files(under: root) { path in
            guard !path.split(separator: "/").dropLast().contains(where: { XcodeProjectSurvey.skipped.contains($0) }) else { return false }
            return path.hasSuffix("/project.pbxproj") || path == "Package.swift" || path.hasSuffix("/Package.swift")
        }
        for path in paths {
            guard case .success(let bytes) = FileReading.read(FilePath.join(root, path), limit: 50_000_000) else { continue }
            if path.hasSuffix("project.pbxproj") {
                // `App/App.xcodeproj/project.pbxproj`: paths are relative to `App/`.
                let folder = Self.parent(Self.parent(path))
                claims += Self.projectClaims(bytes, folder: folder)
            } else if let text = String(validating: bytes, as: UTF8.self) {
                claims += Self.packageClaims(text, folder: Self.parent(path))
            }
        }
    }

    /// The names of the targets that claim `path` when none of them ships (a file only test bundles
    /// or tools compile); nil when it ships, or no target claims it.
    package func unshippedTargets(of path: String) -> [String]? {
        let owners = owners(of: path)
        guard !owners.isEmpty, !owners.contains(where: \.ships) else { return nil }
        return Array(Set(owners.map(\.target))).sorted()
    }

    /// Whether every target that compiles `path` builds for macOS or tvOS only (`SDKROOT = macosx`,
    /// `appletvos`): no Dynamic Type there, and a pointer or a remote's focus rather than a finger.
    /// False when no target claims it, or one does not say its platform.
    package func isWithoutTouch(_ path: String) -> Bool {
        let owners = owners(of: path)
        return !owners.isEmpty && owners.allSatisfy { !$0.platforms.isEmpty && $0.platforms.isSubset(of: ["macosx", "appletvos"]) }
    }

    /// The targets that list `path`, else those whose folders hold it.
    private func owners(of path: String) -> [Claim] {
        let listing = claims.filter { $0.files.contains(path) }
        guard listing.isEmpty else { return listing }
        return claims.filter { claim in
            !claim.excluded.contains(path) && claim.folders.contains { $0.isEmpty || path.hasPrefix($0 + "/") }
        }
    }

    /// The folder of a relative path (`""` at the top).
    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// `a/b/../c` → `a/c`, `./a` → `a`; nil for a path that leaves the repository.
    static func normalized(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// Product types that never reach a user: test bundles and command-line tools.
    static let unshippedProducts: Set<String> = [
        "com.apple.product-type.bundle.unit-test", "com.apple.product-type.bundle.ui-testing", "com.apple.product-type.tool",
    ]

    /// Each native target's Swift files (through its groups' paths) and synchronized folders.
    static func projectClaims(_ bytes: [UInt8], folder: String) -> [Claim] {
        guard let root = try? PropertyListReader.openStep(bytes),
              let objects = (root as? [String: Any])?["objects"] as? [String: Any] else { return [] }
        var parents: [String: String] = [:]
        for (id, value) in objects {
            guard let children = (value as? [String: Any])?["children"] as? [String] else { continue }
            for child in children { parents[child] = id }
        }
        // The repository-relative path of a file or group, through its groups; nil outside the tree.
        func path(of id: String, depth: Int = 0) -> String? {
            guard depth < 64, let object = objects[id] as? [String: Any] else { return nil }
            let own = object["path"] as? String ?? ""
            switch object["sourceTree"] as? String {
            case "SOURCE_ROOT": return normalized(folder.isEmpty ? own : folder + "/" + own)
            case "<group>":
                guard let parent = parents[id] else { return normalized(folder.isEmpty ? own : folder + "/" + own) }
                guard let base = path(of: parent, depth: depth + 1) else { return nil }
                return normalized(base.isEmpty ? own : base + "/" + own)
            default: return nil
            }
        }
        var claims: [Claim] = []
        let projectPlatforms = objects.values.compactMap { $0 as? [String: Any] }.first { $0["isa"] as? String == "PBXProject" }
            .map { XcodeProjectFile.platforms(of: $0, in: objects) } ?? []
        for value in objects.values {
            guard let target = value as? [String: Any], target["isa"] as? String == "PBXNativeTarget" else { continue }
            let productType = target["productType"] as? String ?? ""
            var claim = Claim(target: target["name"] as? String ?? "", ships: !unshippedProducts.contains(productType))
            let own = XcodeProjectFile.platforms(of: target, in: objects)
            claim.platforms = own.isEmpty ? projectPlatforms : own
            for phase in target["buildPhases"] as? [String] ?? [] {
                guard let object = objects[phase] as? [String: Any], object["isa"] as? String == "PBXSourcesBuildPhase" else { continue }
                for buildFile in object["files"] as? [String] ?? [] {
                    guard let reference = (objects[buildFile] as? [String: Any])?["fileRef"] as? String,
                          let file = path(of: reference), file.hasSuffix(".swift") else { continue }
                    claim.files.insert(file)
                }
            }
            for group in target["fileSystemSynchronizedGroups"] as? [String] ?? [] {
                guard let folderPath = path(of: group) else { continue }
                claim.folders.append(folderPath)
                for exception in (objects[group] as? [String: Any])?["exceptions"] as? [String] ?? [] {
                    guard let set = objects[exception] as? [String: Any] else { continue }
                    for name in set["membershipExceptions"] as? [String] ?? [] {
                        if let excluded = normalized(folderPath + "/" + name) { claim.excluded.insert(excluded) }
                    }
                }
            }
            if !claim.files.isEmpty || !claim.folders.isEmpty { claims.append(claim) }
        }
        return claims
    }

    /// The targets of a `Package.swift` (read with swift-syntax, never run): `.target`, `.executableTarget`,
    /// `.testTarget`, `.plugin`, `.macro` with their `path:` or the default folder.
    static func packageClaims(_ text: String, folder: String) -> [Claim] {
        let visitor = PackageTargetVisitor(viewMode: .sourceAccurate)
        visitor.walk(Parser.parse(source: text))
        return visitor.targets.compactMap { target in
            let relative = target.path ?? ((target.kind == "testTarget" ? "Tests/" : "Sources/") + target.name)
            guard let path = normalized(folder.isEmpty ? relative : folder + "/" + relative) else { return nil }
            // A library target ships in the app that links it; a tool, a plugin, a macro or tests do not.
            return Claim(target: target.name, ships: target.kind == "target", folders: [path])
        }
    }
}

/// `.target(name: "Core", path: "Sources/Core")` and its kin in a package manifest.
private final class PackageTargetVisitor: SyntaxVisitor {
    var targets: [(kind: String, name: String, path: String?)] = []
    static let kinds: Set<String> = ["target", "executableTarget", "testTarget", "plugin", "macro"]

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil,
              Self.kinds.contains(member.declName.baseName.text), !Self.isDependency(node) else { return .visitChildren }
        func literal(_ label: String) -> String? {
            guard let string = node.arguments.first(where: { $0.label?.text == label })?.expression.as(StringLiteralExprSyntax.self),
                  string.segments.count == 1, let segment = string.segments.first?.as(StringSegmentSyntax.self) else { return nil }
            return segment.content.text
        }
        if let name = literal("name") { targets.append((member.declName.baseName.text, name, literal("path"))) }
        return .visitChildren
    }

    /// `dependencies: [.target(name: "Core")]`: a reference to a target, not its declaration.
    static func isDependency(_ node: FunctionCallExprSyntax) -> Bool {
        var current = node.parent
        while let parent = current {
            if parent.as(LabeledExprSyntax.self)?.label?.text == "dependencies" { return true }
            current = parent.parent
        }
        return false
    }
}
