import Foundation
import PrePushGit
import PrePushTestSupport
import Testing

/// The changes between two trees in the old side's line numbers: what an impact map recorded on the
/// old tree is compared with.
@Suite struct OldSideChangesTests {
    init() { GitLibrary.initialize() }

    @Test func hunksGiveOldLinesAndAnInsertionCountsTheLinesAroundIt() throws {
        let repo = try GitRepository()
        let lines = (1...12).map { "line \($0)" }
        try repo.write(lines.joined(separator: "\n") + "\n", to: "Sources/Lib/A.swift")
        try repo.write("gone\n", to: "Sources/Lib/Gone.swift")
        try repo.write(Data([0, 1, 2, 3]), to: "Sources/Lib/blob.bin")
        try repo.commitAll("first")
        let first = try repo.git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
        var changed = lines
        changed[3] = "line 4 changed"              // old line 4 replaced
        changed.insert("inserted", at: 7)          // after old line 7
        changed.remove(at: 10)                     // old line 10 deleted (index 10 after the insertion)
        try repo.write(changed.joined(separator: "\n") + "\n", to: "Sources/Lib/A.swift")
        _ = try repo.git("rm", "-q", "Sources/Lib/Gone.swift")
        try repo.write("new\n", to: "Sources/Lib/New.swift")
        try repo.write(Data([0, 1, 2, 4]), to: "Sources/Lib/blob.bin")
        try repo.commitAll("second")
        let opened = try Repository.discover(from: repo.path)
        let changes = try opened.oldSideChanges(from: first, to: "HEAD").sorted { $0.path < $1.path }
        #expect(changes.map(\.path) == ["Sources/Lib/A.swift", "Sources/Lib/Gone.swift", "Sources/Lib/New.swift", "Sources/Lib/blob.bin"])
        #expect(changes[0] == OldSideChange(path: "Sources/Lib/A.swift", oldPath: "Sources/Lib/A.swift", kind: .modified,
                                            lines: [4...4, 7...8, 10...10], wholeFile: false))
        #expect(changes[1].kind == .deleted && changes[1].wholeFile)
        #expect(changes[2].kind == .added && changes[2].oldPath == nil)
        #expect(changes[3].kind == .modified && changes[3].wholeFile)
        let head = try opened.commitID("HEAD")
        #expect(opened.commitCount(from: first, to: head, limit: 10) == 1)
        #expect(opened.containsCommit(first))
        #expect(!opened.containsCommit(String(repeating: "1", count: 40)))
    }
}
