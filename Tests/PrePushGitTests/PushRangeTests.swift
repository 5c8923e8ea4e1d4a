import Foundation
import PrePushCore
import PrePushGit
import PrePushTestSupport
import Testing

/// The push range on real repositories with a bare remote, the ref line built as git builds it.
@Suite struct PushRangeTests {
    init() { GitLibrary.initialize() }

    let zero = String(repeating: "0", count: 40)

    func update(_ repo: GitRepository, branch: String = "main", remoteID: String? = nil) throws -> PushUpdate {
        PushUpdate(localRef: "refs/heads/\(branch)", localObjectID: try repo.git("rev-parse", branch),
                   remoteRef: "refs/heads/\(branch)", remoteObjectID: remoteID ?? zero)
    }

    func file(_ range: PushRange?, _ path: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> ChangedFile {
        try #require(range?.files.first { $0.path == path }, "no change for \(path) in \(range?.files.map(\.path) ?? [])", sourceLocation: sourceLocation)
    }

    @Test func aFirstPushToAnEmptyRemoteComparesWithTheEmptyTree() throws {
        let repo = try GitRepository()
        try repo.write("a\nb\n", to: "Views/HomeView.swift")
        try repo.commitAll("first")
        let range = try Repository.discover(from: repo.path).pushRange(for: try update(repo), remote: "origin")
        #expect(range?.base == nil)
        #expect(range?.commits.count == 1)
        // Every line of an added file is new: no diff is computed, and any node touches it.
        #expect(try file(range, "Views/HomeView.swift").change == .added)
        #expect(try file(range, "Views/HomeView.swift").touches(1, 1))
        #expect(range?.baseDescription.contains("empty tree") == true)
    }

    @Test func anUpdateGivesTheNewCommitsAndTheirLines() throws {
        let repo = try GitRepository()
        try repo.write("one\ntwo\nthree\nfour\n", to: "View.swift")
        try repo.commitAll("first")
        try repo.git("push", "--quiet", "origin", "main")
        let pushed = try repo.head()
        try repo.write("one\ntwo and a half\nthree\nfour\nfive\n", to: "View.swift")
        try repo.commitAll("edit")
        try repo.write("x\n", to: "Other.swift")
        try repo.commitAll("another")
        let range = try Repository.discover(from: repo.path).pushRange(for: try update(repo, remoteID: pushed), remote: "origin")
        #expect(range?.base == pushed)
        #expect(range?.commits.count == 2)
        let view = try file(range, "View.swift")
        #expect(view.change == .modified)
        #expect(view.addedLines == [2, 5])
        #expect(view.removedAfterLines.isEmpty, "a replaced line is an added line, not a removal point")
    }

    @Test func deletingATrailingModifierLeavesARemovalPointTheNodeTouches() throws {
        let repo = try GitRepository()
        try repo.write("""
        struct HomeView: View {
            var body: some View {
                Button("Add") { add() }
                    .padding()
                    .accessibilityIdentifier("home_button_add")
                Text("Tasks")
            }
        }

        """, to: "HomeView.swift")
        try repo.commitAll("button")
        try repo.git("push", "--quiet", "origin", "main")
        let pushed = try repo.head()
        try repo.write("""
        struct HomeView: View {
            var body: some View {
                Button("Add") { add() }
                    .padding()
                Text("Tasks")
            }
        }

        """, to: "HomeView.swift")
        try repo.commitAll("drop the identifier")
        let view = try file(try Repository.discover(from: repo.path).pushRange(for: try update(repo, remoteID: pushed), remote: "origin"), "HomeView.swift")
        #expect(view.addedLines.isEmpty)
        #expect(view.removedAfterLines == [4])
        #expect(view.touches(3, 4), "the Button's chain (lines 3-4) is touched")
        #expect(!view.touches(1, 2))
    }

    @Test func aModifierReplacedByOtherCodeLeavesItsPointButAReplacedViewDoesNot() throws {
        let repo = try GitRepository()
        let original = """
        struct HomeView: View {
            var body: some View {
                Toggle("On", isOn: $on)
                Button("Add") { add() }
                    .accessibilityIdentifier("home_button_add")
                Text("Tasks")
            }
        }

        """
        try repo.write(original, to: "HomeView.swift")
        try repo.commitAll("button")
        try repo.git("push", "--quiet", "origin", "main")
        let pushed = try repo.head()
        // The identifier's line becomes another view; "Tasks" becomes "All tasks" (not a modifier).
        try repo.write(original.replacingOccurrences(of: "        .accessibilityIdentifier(\"home_button_add\")", with: "Image(systemName: \"x\")")
            .replacingOccurrences(of: "Text(\"Tasks\")", with: "Text(\"All tasks\")"), to: "HomeView.swift")
        try repo.commitAll("replace")
        let view = try file(try Repository.discover(from: repo.path).pushRange(for: try update(repo, remoteID: pushed), remote: "origin"), "HomeView.swift")
        #expect(view.addedLines == [5, 6])
        #expect(view.removedAfterLines.isEmpty)
        #expect(view.replacedModifiersAfterLines == [4], "the Button ends on line 4; its identifier stood after it")
        #expect(view.touches(4, 4), "the Button is touched")
        #expect(!view.touches(3, 3), "the Toggle before it is not")
    }

    @Test func aNewBranchChecksOnlyItsOwnCommits() throws {
        let repo = try GitRepository()
        try repo.write("base\n", to: "Base.swift")
        try repo.commitAll("base")
        try repo.git("push", "--quiet", "origin", "main")
        try repo.git("remote", "set-head", "origin", "main")
        try repo.git("checkout", "--quiet", "-b", "feature")
        try repo.write("new\n", to: "Feature.swift")
        try repo.commitAll("feature work")
        let range = try Repository.discover(from: repo.path).pushRange(for: try update(repo, branch: "feature"), remote: "origin")
        #expect(range?.commits.count == 1)
        #expect(range?.files.map(\.path) == ["Feature.swift"])
        #expect(range?.base == (try repo.git("rev-parse", "origin/main")))
    }

    @Test func aForcePushComparesWithWhatBothSidesShare() throws {
        let repo = try GitRepository()
        try repo.write("v1\n", to: "A.swift")
        try repo.commitAll("one")
        let shared = try repo.head()
        try repo.write("v2\n", to: "A.swift")
        try repo.commitAll("two")
        try repo.git("push", "--quiet", "origin", "main")
        let remoteHead = try repo.head()
        try repo.git("reset", "--quiet", "--hard", shared)
        try repo.write("rewritten\n", to: "B.swift")
        try repo.commitAll("rewrite")
        let range = try Repository.discover(from: repo.path).pushRange(for: try update(repo, remoteID: remoteHead), remote: "origin")
        #expect(range?.base == shared)
        #expect(range?.files.map(\.path) == ["B.swift"])
    }

    @Test func aRemoteIdThatIsNotHereFallsBackToTheTrackingBranch() throws {
        let repo = try GitRepository()
        try repo.write("v1\n", to: "A.swift")
        try repo.commitAll("one")
        try repo.git("push", "--quiet", "origin", "main")
        let tracked = try repo.head()
        try repo.write("v2\n", to: "A.swift")
        try repo.commitAll("two")
        let unknown = "1234567890123456789012345678901234567890"
        let range = try Repository.discover(from: repo.path).pushRange(for: try update(repo, remoteID: unknown), remote: "origin")
        #expect(range?.base == tracked)
        #expect(range?.baseDescription.contains("is not here") == true)
        #expect(range?.baseDescription.contains("origin/main") == true)
    }

    @Test func renamesBinariesDeletionsAndSpacesBehave() throws {
        let repo = try GitRepository()
        try repo.write(String(repeating: "line\n", count: 20), to: "Old Name.swift")
        try repo.write("gone\n", to: "Deleted.swift")
        try repo.commitAll("first")
        try repo.git("push", "--quiet", "origin", "main")
        let pushed = try repo.head()
        try FileManager.default.createDirectory(atPath: repo.path + "/Views", withIntermediateDirectories: true)
        try repo.git("mv", "Old Name.swift", "Views/New Name.swift")
        try repo.git("rm", "--quiet", "Deleted.swift")
        FileManager.default.createFile(atPath: repo.path + "/icon.png", contents: Data([0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 1, 2, 3]))
        try repo.commitAll("rename, delete, binary")
        let range = try Repository.discover(from: repo.path).pushRange(for: try update(repo, remoteID: pushed), remote: "origin")
        let renamed = try file(range, "Views/New Name.swift")
        #expect(renamed.change == .renamed)
        #expect(renamed.oldPath == "Old Name.swift")
        #expect(renamed.addedLines.isEmpty, "a pure rename adds no lines")
        // The deleted file is left out; the added binary is left to the check (its content is not loaded here).
        #expect(!(range?.files.contains { $0.path == "Deleted.swift" } ?? true))
    }

    @Test func contentsAreThePushedBlobNotTheWorkingTree() throws {
        let repo = try GitRepository()
        try repo.write("committed\n", to: "V.swift")
        try repo.commitAll("one")
        try repo.write("edited\n", to: "V.swift")
        let repository = try Repository.discover(from: repo.path)
        #expect(try repository.contents(of: "V.swift", at: repo.head()) == Array("committed\n".utf8))
        let bytes: [UInt8] = [0x63, 0xFF, 0xFE, 0x0A]
        FileManager.default.createFile(atPath: repo.path + "/Latin1.swift", contents: Data(bytes))
        try repo.commitAll("not utf-8")
        #expect(try repository.contents(of: "Latin1.swift", at: repo.head()) == bytes)
    }

    @Test func aDeletionHasNoRange() throws {
        let repo = try GitRepository()
        let deletion = PushUpdate(localRef: "(delete)", localObjectID: zero, remoteRef: "refs/heads/x", remoteObjectID: String(repeating: "a", count: 40))
        #expect(try Repository.discover(from: repo.path).pushRange(for: deletion, remote: "origin") == nil)
    }

    @Test func aModifiedBinaryIsLeftOut() throws {
        let repo = try GitRepository()
        FileManager.default.createFile(atPath: repo.path + "/icon.png", contents: Data([0x89, 0x50, 0, 1, 2]))
        try repo.commitAll("one")
        try repo.git("push", "--quiet", "origin", "main")
        let pushed = try repo.head()
        FileManager.default.createFile(atPath: repo.path + "/icon.png", contents: Data([0x89, 0x50, 0, 9, 9]))
        try repo.commitAll("two")
        let range = try Repository.discover(from: repo.path).pushRange(for: try update(repo, remoteID: pushed), remote: "origin")
        #expect(range?.files.isEmpty == true)
    }

    @Test func namesOnlySkipsLineDetail() throws {
        let repo = try GitRepository()
        try repo.write("a\n", to: "A.swift")
        try repo.commitAll("one")
        try repo.git("branch", "base")
        try repo.write("a\nb\n", to: "A.swift")
        try repo.commitAll("two")
        let range = try Repository.discover(from: repo.path).range(base: "base", head: "HEAD", lineDetail: false)
        #expect(range.files.map(\.path) == ["A.swift"])
        #expect(range.files[0].addedLines.isEmpty)
    }

    @Test func aBaseAndHeadRangeForCI() throws {
        let repo = try GitRepository()
        try repo.write("a\n", to: "A.swift")
        try repo.commitAll("one")
        try repo.git("branch", "base")
        try repo.write("a\nb\n", to: "A.swift")
        try repo.commitAll("two")
        let range = try Repository.discover(from: repo.path).range(base: "base", head: "HEAD")
        #expect(range.commits.count == 1)
        #expect(try file(range, "A.swift").addedLines == [2])
    }
}
