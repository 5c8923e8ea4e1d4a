import Foundation
import PrePushGit
import PrePushTestSupport
import Testing

/// A commit's files and what a diff changes or deletes, read from the object database: what the
/// accessibility check reads of a pushed tree instead of the working tree.
@Suite struct TreeFilesTests {
    init() { GitLibrary.initialize() }

    /// Regular and executable files with their blob ids; a symbolic link (whose blob is a path that
    /// could lead out of the checkout) and a submodule are left out.
    @Test func aCommitsRegularFilesAreListedWithTheirBlobsAndLinksAndSubmodulesAreNot() throws {
        let repo = try GitRepository()
        try repo.write("<document/>\n", to: "App/Base.lproj/Main.storyboard")
        try repo.write("#!/bin/sh\n", to: "scripts/tool.sh", executable: true)
        try repo.root.write("outside\n", to: "outside.storyboard")
        try FileManager.default.createSymbolicLink(atPath: repo.root.url("work/App/Linked.storyboard"), withDestinationPath: "../../outside.storyboard")
        try repo.commitAll("files")
        let head = try repo.git("rev-parse", "HEAD")
        try repo.git("update-index", "--add", "--cacheinfo", "160000,\(head),Vendor/Lib")
        try repo.git("commit", "--quiet", "-m", "a submodule")
        let opened = try Repository.discover(from: repo.path)

        let all = try opened.files(at: "HEAD") { _ in true }
        #expect(all.map(\.path) == ["App/Base.lproj/Main.storyboard", "scripts/tool.sh"])
        #expect(all.first?.blob == (try repo.git("rev-parse", "HEAD:App/Base.lproj/Main.storyboard")))
        let selected = try opened.files(at: "HEAD") { $0.hasSuffix(".storyboard") }
        #expect(selected.map(\.path) == ["App/Base.lproj/Main.storyboard"])
    }

    /// Modified, deleted and renamed files by their old path; added and untouched ones are not.
    @Test func changedOrDeletedFilesAreTheBasesPathsThatTheHeadNoLongerHoldsAsTheyWere() throws {
        let repo = try GitRepository()
        try repo.write("<document>main</document>\n", to: "App/Main.storyboard")
        try repo.write("<document>gone</document>\n", to: "App/Gone.xib")
        try repo.write("<document>same</document>\n", to: "App/Same.xib")
        try repo.write("<document>moved, long enough to be found as a rename</document>\n", to: "App/Old.xib")
        try repo.write("let a = 1\n", to: "App/A.swift")
        try repo.commitAll("first")
        let base = try repo.git("rev-parse", "HEAD")
        try repo.write("<document>main, changed</document>\n", to: "App/Main.storyboard")
        try repo.git("rm", "-q", "App/Gone.xib")
        try repo.git("mv", "App/Old.xib", "App/Moved.xib")
        try repo.write("<document>new</document>\n", to: "App/New.xib")
        try repo.write("let a = 2\n", to: "App/A.swift")
        try repo.commitAll("second")
        let opened = try Repository.discover(from: repo.path)

        let documents = try opened.changedOrDeletedFiles(from: base, to: "HEAD") { $0.hasSuffix(".xib") || $0.hasSuffix(".storyboard") }
        #expect(documents.map(\.path).sorted() == ["App/Gone.xib", "App/Main.storyboard", "App/Old.xib"])
        // Deleted or moved (renames are not looked for): the head has nothing at the path.
        #expect(documents.filter(\.deleted).map(\.path).sorted() == ["App/Gone.xib", "App/Old.xib"])
        #expect(try opened.changedOrDeletedFiles(from: base, to: base) { _ in true }.isEmpty)
    }
}
