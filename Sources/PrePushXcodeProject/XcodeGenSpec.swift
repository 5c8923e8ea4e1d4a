import PrePushCore
import PrePushYAML

/// An XcodeGen `project.yml` (YAML, through libyaml), for a project a team generates rather than
/// commits: the project's name, its test targets' kinds (`type: bundle.unit-test`,
/// `bundle.ui-testing`), and the schemes that test them (`schemes: … test: targets:`, and a target's
/// own `scheme: testTargets:`), with the files it `include:`s (element-ios keeps every target in
/// one: `include: - path: RiotSwiftUI/targetUITests.yml`). Target templates are not followed.
package struct XcodeGenSpec: Sendable {
    /// The generated project's name (`name:`): `<name>.xcodeproj` beside the spec.
    package let name: String
    /// Test targets by name, with their kind.
    package let testTargets: [String: TestBundleKind]
    /// Schemes and the targets their test action runs.
    package let schemes: [(name: String, targets: [String])]
    /// The test targets of local packages each scheme runs (`- package: Networking/NetworkingTests`),
    /// with the package's folder relative to the spec (`packages: Networking: path: Networking`).
    package let packageTests: [String: [(folder: String, target: String)]]
    /// Each target's `platform:` when it names one (`iOS`, `watchOS`; a list is not one platform).
    package let platforms: [String: String]

    /// Reads a spec; nil when it is not XcodeGen's (no `name` and no `targets` in it and what
    /// it includes). `read` gives an included file's text by its path relative to the spec's folder
    /// (nil: not there, or outside the repository); includes are followed 8 deep and 64 files at most.
    package init?(text: String, file: String, read: (String) -> String? = { _ in nil }) throws(YAMLError) {
        guard let root = try YAMLLoader.load(text, file: file), case .mapping(let main) = root.content else { return nil }
        // The spec's own keys come after what it includes: XcodeGen merges the spec over its includes.
        var documents: [[(key: YAMLNode, value: YAMLNode)]] = []
        var budget = 64
        try Self.collectIncludes(of: main, folder: "", read: read, depth: 0, budget: &budget, into: &documents)
        documents.append(main)
        // The name may come from an included spec (Immuni's `project_debug.yml` includes `project.yml`).
        guard let name = documents.last(where: { Self.value($0, "name")?.scalar != nil }).flatMap({ Self.value($0, "name")?.scalar }) else { return nil }
        let targetPairs = documents.flatMap { top -> [(key: YAMLNode, value: YAMLNode)] in
            guard let targets = Self.value(top, "targets"), case .mapping(let pairs) = targets.content else { return [] }
            return pairs
        }
        guard !targetPairs.isEmpty else { return nil }
        self.name = name
        var kinds: [String: TestBundleKind] = [:]
        var schemes: [(name: String, targets: [String])] = []
        var platforms: [String: String] = [:]
        for (key, target) in targetPairs {
            guard let targetName = key.scalar, case .mapping(let fields) = target.content else { continue }
            if let platform = Self.value(fields, "platform")?.scalar { platforms[targetName] = platform }
            switch Self.value(fields, "type")?.scalar {
            case "bundle.unit-test": kinds[targetName] = .unit
            case "bundle.ui-testing": kinds[targetName] = .ui
            default: break
            }
            // A target's own scheme (`scheme: testTargets: [...]`), named after the target.
            if let scheme = Self.value(fields, "scheme"), case .mapping(let options) = scheme.content,
               let tests = Self.value(options, "testTargets") {
                schemes.append((targetName, Self.names(tests)))
            }
        }
        // Local packages by name: `packages: Networking: path: Networking`.
        var localPackages: [String: String] = [:]
        for top in documents {
            guard let declared = Self.value(top, "packages"), case .mapping(let pairs) = declared.content else { continue }
            for (key, package) in pairs {
                if let packageName = key.scalar, case .mapping(let fields) = package.content, let path = Self.value(fields, "path")?.scalar {
                    localPackages[packageName] = path
                }
            }
        }
        var packageTests: [String: [(folder: String, target: String)]] = [:]
        for top in documents {
            guard let declared = Self.value(top, "schemes"), case .mapping(let pairs) = declared.content else { continue }
            for (key, scheme) in pairs {
                guard let schemeName = key.scalar, case .mapping(let actions) = scheme.content,
                      let test = Self.value(actions, "test"), case .mapping(let options) = test.content,
                      let tests = Self.value(options, "targets") else { continue }
                schemes.append((schemeName, Self.names(tests)))
                guard case .sequence(let items) = tests.content else { continue }
                for item in items {
                    guard case .mapping(let fields) = item.content, let reference = Self.value(fields, "package")?.scalar,
                          let slash = reference.firstIndex(of: "/"), let folder = localPackages[String(reference[..<slash])] else { continue }
                    packageTests[schemeName, default: []].append((folder, String(reference[reference.index(after: slash)...])))
                }
            }
        }
        self.packageTests = packageTests
        testTargets = kinds
        self.schemes = schemes
        self.platforms = platforms
    }

    /// The top-level mappings of the files `top` includes (`include: [a.yml]`, `include: - path: a.yml`),
    /// theirs first, each path relative to the including file's folder.
    static func collectIncludes(of top: [(key: YAMLNode, value: YAMLNode)], folder: String, read: (String) -> String?, depth: Int,
                                budget: inout Int, into documents: inout [[(key: YAMLNode, value: YAMLNode)]]) throws(YAMLError) {
        guard depth < 8, let include = value(top, "include") else { return }
        let items: [YAMLNode]
        if case .sequence(let list) = include.content { items = list } else { items = [include] }
        for item in items {
            var path = item.scalar
            if case .mapping(let fields) = item.content { path = value(fields, "path")?.scalar }
            guard let path, budget > 0 else { continue }
            budget -= 1
            let relative = FilePath.normalize(FilePath.join(folder, path))
            guard let text = read(relative), let node = try YAMLLoader.load(text, file: relative), case .mapping(let included) = node.content else { continue }
            try collectIncludes(of: included, folder: FilePath.parent(relative) == "." ? "" : FilePath.parent(relative), read: read, depth: depth + 1, budget: &budget, into: &documents)
            documents.append(included)
        }
    }

    /// The value of `key` in a mapping's pairs.
    static func value(_ pairs: [(key: YAMLNode, value: YAMLNode)], _ key: String) -> YAMLNode? {
        pairs.first { $0.key.scalar == key }?.value
    }

    /// Target names from a list of names or of `{name: …}` mappings.
    static func names(_ node: YAMLNode) -> [String] {
        guard case .sequence(let items) = node.content else { return [] }
        return items.compactMap { item in
            if let name = item.scalar { return name }
            if case .mapping(let fields) = item.content { return value(fields, "name")?.scalar }
            return nil
        }
    }
}
