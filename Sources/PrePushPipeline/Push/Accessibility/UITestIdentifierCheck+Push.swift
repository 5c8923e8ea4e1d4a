import PrePushAccessibility
import PrePushCore
import PrePushGit

extension UITestIdentifierCheck {
    /// Queries of UI tests (as pushed) naming an identifier that the range's files set before it and
    /// that nothing in the pushed tree sets after it, each naming the line that set it before. Every
    /// setter the rule knows counts on both sides: SwiftUI's modifier, UIKit's and AppKit's setters,
    /// item identifiers, a component's argument, scene ids (`maySetIdentifiers`), storyboards and xibs.
    func removals(_ range: PushRange, in repository: Repository) -> [AccessibilityFinding] {
        guard step.checker.settings.severity(of: UITestIdentifierRule.description) != nil, let base = range.base else { return [] }
        // One diff of the two trees (no content loaded): the storyboards and xibs the push changes
        // or deletes, and the Swift files it deletes, which the range (files that exist) does not hold.
        let differing = (try? repository.changedOrDeletedFiles(from: base, to: range.head) { PushedSetters.isDocument($0) || PushedSetters.isSwiftSource($0) }) ?? []
        let deletedSwift = differing.filter { $0.deleted && PushedSetters.isSwiftSource($0.path) && !step.isExcluded($0.path) }.map(\.path)
        let earlierSwift = earlierSwiftSetters(range, deleted: deletedSwift, base: base, in: repository)
        let earlierDocuments = earlierInterfaceBuilderDocuments(differing.map(\.path).filter(PushedSetters.isDocument), base: base, in: repository)
        // Most pushes change no file that set an identifier: nothing more is read.
        guard !earlierSwift.isEmpty || !earlierDocuments.isEmpty else { return [] }
        let files = facts
        let constants = constants(files)
        var before: [String: String] = [:]
        func setBefore(_ sites: [(identifier: String, line: Int)], in path: String) {
            for site in sites where !site.identifier.contains("{}") && before[site.identifier] == nil {
                before[site.identifier] = "\(path):\(site.line)"
            }
        }
        for (path, text) in earlierSwift {
            setBefore(UITestIdentifierRule.identifierSites(path: path, text: text, constants: constants), in: path)
        }
        for (path, bytes) in earlierDocuments { setBefore(InterfaceBuilderIdentifiers.sites(in: bytes), in: path) }

        let pushed = PushedSetters(range, in: repository, index: step.repositoryIndex, files: files, maxFileSize: step.maxFileSize)
        var after = setIdentifiers(pushed.unchanged, skipping: [], constants: constants)
        for (path, text) in pushed.changed where !pushed.uiTests.contains(path) {
            after += UITestIdentifierRule.identifierSites(path: path, text: text, constants: constants).map(\.identifier)
        }
        let set = ViewIdentifiers(after)
        var removed = before.filter { !set.sets($0.key) }
        guard !removed.isEmpty else { return [] }
        // Set by a storyboard or xib of the pushed tree: not gone. Read only now, when one went away.
        let documents = ViewIdentifiers(pushed.interfaceBuilderIdentifiers(in: repository))
        removed = removed.filter { !documents.sets($0.key) }
        guard !removed.isEmpty else { return [] }
        var findings: [AccessibilityFinding] = []
        for (path, text) in pushed.uiTestTexts(in: repository, maxFileSize: step.maxFileSize) where !isExcludedByConfiguration(path) {
            // The test as pushed: a push that renames the identifier in the test too passes.
            findings += rule.removedQueries(path: path, text: text, constants: constants, removed: removed)
        }
        return findings
    }

    /// The Swift files the range changes, and those the push `deleted`, that may have set an identifier
    /// (`maySetIdentifiers`), as of `base`. The range holds the files the check selects (a renamed file
    /// by its old path here); a deleted one is selected the same way.
    private func earlierSwiftSetters(_ range: PushRange, deleted: [String], base: String, in repository: Repository) -> [(path: String, text: String)] {
        let changed = range.files.filter { $0.path.hasSuffix(".swift") && $0.change != .added }.map { $0.oldPath ?? $0.path }
        let known = Set(changed)
        var earlier: [(path: String, text: String)] = []
        for path in changed + deleted.filter({ !known.contains($0) }) {
            guard let bytes = try? repository.contents(of: path, at: base), bytes.count <= step.maxFileSize,
                  UITestIdentifierRule.maySetIdentifiers(bytes), let text = String(validating: bytes, as: UTF8.self) else { continue }
            earlier.append((path, text))
        }
        return earlier
    }

    /// The storyboards and xibs at `paths` (outside build and vendored folders, changed or deleted by
    /// the range), as of `base`.
    private func earlierInterfaceBuilderDocuments(_ paths: [String], base: String, in repository: Repository) -> [(path: String, bytes: [UInt8])] {
        paths.compactMap { path in
            guard let bytes = try? repository.contents(of: path, at: base), bytes.count <= Self.documentLimit else { return nil }
            return (path, bytes)
        }
    }
}

/// What the pushed commit sets and queries, for `ui-test-identifier` on a push, read from the commit
/// through libgit2 and never from the working tree, which may hold uncommitted edits, untracked files
/// or another branch (the hook checks the commits pushed; in CI the checkout is the pull request's,
/// and a link in it is never followed: a tree's link is a blob holding a path, and is left out).
/// The working tree's census (`RepositoryIndex`) stands for a file only where the file there is the
/// pushed blob; every other Swift file of the pushed tree, and each the push changes, is read as pushed.
struct PushedSetters {
    /// The working tree's Swift files whose bytes are the pushed ones, with their census.
    let unchanged: [(path: String, facts: RepositoryIndex.Facts)]
    /// The pushed tree's Swift files that may set an identifier or drive an app and whose census is
    /// not theirs (changed by the push, edited or missing in the working tree), with their pushed text.
    let changed: [(path: String, text: String)]
    /// The paths of `changed` that are UI tests.
    let uiTests: Set<String>
    /// The working tree's UI tests among `unchanged`.
    private let unchangedTests: [String]
    /// The pushed tree's storyboards and xibs outside build and vendored folders.
    private let documents: [String]
    /// The pushed commit.
    private let head: String

    /// The pushed tree of `range` against the working tree's `files` (`index` knows their blobs).
    /// When the tree cannot be listed (it was just diffed: in practice never), the working tree's
    /// files stand for those the push does not change, as they did before trees were read.
    init(_ range: PushRange, in repository: Repository, index: RepositoryIndex,
         files: [(path: String, facts: RepositoryIndex.Facts)], maxFileSize: Int) {
        head = range.head
        var toRead = range.files.map(\.path).filter { $0.hasSuffix(".swift") }
        let pushed = Set(toRead)
        var unchanged: [(path: String, facts: RepositoryIndex.Facts)] = []
        if let listed = try? repository.files(at: range.head, selecting: { Self.isSwiftSource($0) || Self.isDocument($0) }) {
            let known = Dictionary(files.map { ($0.path, $0.facts) }, uniquingKeysWith: { first, _ in first })
            for (path, blob) in listed where Self.isSwiftSource(path) && !pushed.contains(path) {
                if let facts = known[path], index.blob(of: path) == blob { unchanged.append((path, facts)) } else { toRead.append(path) }
            }
            documents = listed.map(\.path).filter(Self.isDocument)
        } else {
            let renamedFrom = Set(range.files.compactMap(\.oldPath))
            unchanged = files.filter { !pushed.contains($0.path) && !renamedFrom.contains($0.path) }
            documents = []
        }
        self.unchanged = unchanged
        unchangedTests = unchanged.filter { $0.facts.census.isUITest }.map(\.path)
        var changed: [(path: String, text: String)] = []
        var uiTests: Set<String> = []
        for path in toRead {
            guard let bytes = try? repository.contents(of: path, at: range.head), bytes.count <= maxFileSize else { continue }
            let drivesApp = ByteSearch.contains(bytes, Self.appMark)
            guard drivesApp || UITestIdentifierRule.maySetIdentifiers(bytes), let text = String(validating: bytes, as: UTF8.self) else { continue }
            changed.append((path, text))
            if drivesApp, UITestIdentifierRule.isUITest(path: path, text: text) { uiTests.insert(path) }
        }
        self.changed = changed
        self.uiTests = uiTests
    }

    /// A UI test drives its app through `XCUIApplication` (`UITestIdentifierRule.isUITest`).
    private static let appMark = Array("XCUIApplication".utf8)

    /// A Swift file outside build and vendored folders: what the working tree's census covers.
    static func isSwiftSource(_ path: String) -> Bool {
        path.hasSuffix(".swift") && !IdentifierPolicy.isVendored(path)
    }

    /// A storyboard or xib outside build and vendored folders.
    static func isDocument(_ path: String) -> Bool {
        InterfaceBuilderIdentifiers.isDocument(path) && !IdentifierPolicy.isVendored(path)
    }

    /// The identifiers the pushed tree's storyboards and xibs set.
    func interfaceBuilderIdentifiers(in repository: Repository) -> [String] {
        documents.flatMap { path -> [String] in
            guard let bytes = try? repository.contents(of: path, at: head), bytes.count <= UITestIdentifierCheck.documentLimit else { return [] }
            return InterfaceBuilderIdentifiers.identifiers(in: bytes)
        }
    }

    /// The pushed tree's UI tests with their pushed text.
    func uiTestTexts(in repository: Repository, maxFileSize: Int) -> [(path: String, text: String)] {
        let unchangedTexts = unchangedTests.compactMap { path -> (path: String, text: String)? in
            guard let bytes = try? repository.contents(of: path, at: head), bytes.count <= maxFileSize,
                  let text = String(validating: bytes, as: UTF8.self) else { return nil }
            return (path, text)
        }
        return unchangedTexts + changed.filter { uiTests.contains($0.path) }
    }
}
