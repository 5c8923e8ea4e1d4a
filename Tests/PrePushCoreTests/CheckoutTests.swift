import Foundation
import PrePushCore
import PrePushTestSupport
import Testing

/// The one confined way commands touch the checkout (issue 51): no symbolic link is followed at
/// any component, a tracked file is never a report, nothing is written into `.git`; and the digest
/// that provenance records, checked against `sha256sum`.
@Suite struct CheckoutTests {
    @Test func theDigestIsSHA256AsSha256sumComputesIt() throws {
        let folder = try TemporaryDirectory(prefix: "prepush-sha")
        // Lengths around the padding's edges (55, 56, 63, 64 bytes), empty, and a large one.
        let samples = ["", "abc", String(repeating: "a", count: 55), String(repeating: "b", count: 56), String(repeating: "c", count: 63),
                       String(repeating: "d", count: 64), String(repeating: "é🙂", count: 5_000)]
        for (index, sample) in samples.enumerated() {
            let path = try folder.write(sample, to: "sample\(index)")
            let expected = try Command.run("sha256sum", [path], environment: ProcessInfo.processInfo.environment).standardOutput.prefix(64)
            #expect(SHA256.hex(Array(sample.utf8)) == String(expected), "sample \(index)")
            // Read a piece at a time, as a report is hashed, and fed in uneven pieces: the same digest.
            let fd = open(path, O_RDONLY)
            #expect(SHA256.hex(readingToEnd: fd) == String(expected))
            close(fd)
            var hasher = SHA256.Hasher()
            let bytes = Array(sample.utf8)
            var offset = 0
            for size in [1, 63, 2, 64, 129, 7] + Array(repeating: 1000, count: 30) where offset < bytes.count {
                let end = min(bytes.count, offset + size)
                bytes[offset..<end].withUnsafeBytes { hasher.update($0) }
                offset = end
            }
            if offset < bytes.count { bytes[offset...].withUnsafeBytes { hasher.update($0) } }
            #expect(hasher.finalize() == SHA256.digest(bytes), "sample \(index) in pieces")
        }
    }

    static func checkout() throws -> (TemporaryDirectory, Checkout, TemporaryDirectory) {
        let folder = try TemporaryDirectory(prefix: "prepush-checkout")
        let outside = try TemporaryDirectory(prefix: "prepush-outside")
        try outside.write("SECRET\n", to: "secret.txt")
        try FileManager.default.createDirectory(atPath: folder.url("reports"), withIntermediateDirectories: true)
        let checkout = Checkout(root: folder.path) { $0 == "tracked.md" || $0 == "reports/tracked.md" }
        return (folder, checkout, outside)
    }

    @Test func aLinkAtAnyComponentIsNeverFollowed() throws {
        let (folder, checkout, outside) = try Self.checkout()
        try FileManager.default.createSymbolicLink(atPath: folder.url("reports/results.md"), withDestinationPath: outside.url("secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: folder.url("linked"), withDestinationPath: outside.path)
        // A link to a folder inside the checkout is refused as well: what it points at can change.
        try FileManager.default.createSymbolicLink(atPath: folder.url("inner"), withDestinationPath: folder.url("reports"))
        #expect(checkout.read("reports/results.md", limit: 1000) == .failure(.symbolicLink("reports/results.md", component: "reports/results.md")))
        #expect(checkout.read("linked/secret.txt", limit: 1000) == .failure(.symbolicLink("linked/secret.txt", component: "linked")))
        #expect(checkout.read("inner/x", limit: 1000) == .failure(.symbolicLink("inner/x", component: "inner")))
        #expect(throws: Checkout.Problem.symbolicLink("linked/new.md", component: "linked")) { try checkout.write("x", to: "linked/new.md") }
        #expect(throws: Checkout.Problem.symbolicLink("linked/sub/new.md", component: "linked")) { try checkout.makeFolder("linked/sub/new.md") }
        #expect(!FileManager.default.fileExists(atPath: outside.url("new.md")))
        // Replacing a link at the last component replaces the link itself: the file it pointed at is untouched.
        try checkout.write("## report\n", to: "reports/results.md")
        #expect(outside.read("secret.txt") == "SECRET\n")
        #expect(folder.read("reports/results.md") == "## report\n")
        #expect(try FileManager.default.attributesOfItem(atPath: folder.url("reports/results.md"))[.type] as? FileAttributeType == .typeRegular)
    }

    @Test func pathsStayInsideTheCheckoutAndOutOfGit() throws {
        let (_, checkout, _) = try Self.checkout()
        for path in ["/etc/passwd", "../x", "a/../../x", "", "."] {
            #expect(throws: Checkout.Problem.self, "\(path)") { try checkout.write("x", to: path) }
        }
        #expect(throws: Checkout.Problem.insideGit(".git/refs/heads/pp")) { try checkout.write("x", to: ".git/refs/heads/pp") }
        #expect(throws: Checkout.Problem.insideGit("sub/.GIT/hooks/pre-push")) { try checkout.write("x", to: "sub/.GIT/hooks/pre-push") }
        #expect(checkout.relative("/elsewhere/report.md", from: checkout.root) == nil)
        #expect(checkout.relative("reports/../reports/x.md", from: checkout.root) == "reports/x.md")
    }

    @Test func aTrackedFileIsNeverAReportNorWrittenOver() throws {
        let (folder, checkout, _) = try Self.checkout()
        try folder.write("## ✅ committed\n", to: "reports/tracked.md")
        #expect(checkout.read("reports/tracked.md", limit: 1000, untrackedOnly: true) == .failure(.tracked("reports/tracked.md")))
        #expect(checkout.read("reports/tracked.md", limit: 1000) == .success(Array("## ✅ committed\n".utf8)))
        #expect(throws: Checkout.Problem.tracked("reports/tracked.md")) { try checkout.write("x", to: "reports/tracked.md") }
        #expect(folder.read("reports/tracked.md") == "## ✅ committed\n")
    }

    @Test func aFIFOOrAFolderIsNotReadAndFoldersAreMade() throws {
        let (folder, checkout, _) = try Self.checkout()
        #expect(mkfifo(folder.url("reports/fifo"), 0o644) == 0)
        #expect(checkout.read("reports/fifo", limit: 1000) == .failure(.notRegularFile("reports/fifo")))
        #expect(checkout.read("reports", limit: 1000) == .failure(.notRegularFile("reports")))
        #expect(checkout.read("reports/none.md", limit: 1000) == .failure(.missing("reports/none.md")))
        try checkout.write("deep\n", to: "a/b/c/file.txt")
        #expect(folder.read("a/b/c/file.txt") == "deep\n")
        try folder.write(String(repeating: "x", count: 2000), to: "big.txt")
        #expect(checkout.read("big.txt", limit: 1000) == .failure(.tooLarge("big.txt", bytes: 2000, limit: 1000)))
    }
}
