import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// The repository's identifier constants are kept in `.git/prepush/constants` by blob id: a file git
/// already knows is not read again, a changed file is, and a damaged store is as good as none.
@Suite struct ConstantIndexCacheTests {
    let identifiers = """
    enum A11yIdentifiers {
        static let home = Home()
        struct Home {
            let add = "homeAddButton"
        }
    }

    """
    let view = """
    import SwiftUI

    struct HomeView: View {
        var body: some View {
            Button("Add") { add() }
                .accessibilityIdentifier(A11yIdentifiers.home.add)
        }
    }

    """

    func check(_ repo: GitRepository) throws -> String {
        let run = try InProcessCLI.run(["a11y", "App/HomeView.swift"], in: repo.path, environment: repo.environment)
        #expect(run.status == 1, "\(run)")
        return run.standardOutput
    }

    @Test func constantsAreKeptByBlobAndScannedAgainOnlyWhenTheirFileChanges() throws {
        let repo = try GitRepository()
        try repo.write(identifiers, to: "App/A11yIdentifiers.swift")
        try repo.write(view, to: "App/HomeView.swift")
        // One identifier shows no convention of the team's: the rule is asked for, so its finding
        // shows which constant the run resolved.
        try repo.write("accessibility:\n  rules:\n    identifier-convention: error\n", to: ".prepush.yml")
        try repo.commitAll("home and its identifiers")
        let store = "work/.git/prepush/constants"

        // The identifier is resolved through the instance and the struct's `let`, in another file.
        #expect(try check(repo).contains(#""homeAddButton" (A11yIdentifiers.home.add) does not follow"#))
        let blob = try repo.git("rev-parse", "HEAD:App/A11yIdentifiers.swift")
        #expect(repo.root.read(store)?.contains("\(blob)\ts\tA11yIdentifiers.Home.add\thomeAddButton\n") == true, "\(repo.root.read(store) ?? "")")

        // What the store says of a blob is what the next run knows: the file is not scanned again.
        try repo.root.write(try #require(repo.root.read(store)).replacingOccurrences(of: "\thomeAddButton", with: "\tstoredAddButton"), to: store)
        #expect(try check(repo).contains(#""storedAddButton" (A11yIdentifiers.home.add)"#))

        // An edited file is a new blob: scanned, and the store keeps only this tree's blobs.
        try repo.write(identifiers.replacingOccurrences(of: "homeAddButton", with: "homeAddButtonEdited"), to: "App/A11yIdentifiers.swift")
        #expect(try check(repo).contains(#""homeAddButtonEdited" (A11yIdentifiers.home.add)"#))
        let rewritten = try #require(repo.root.read(store))
        #expect(rewritten.contains("\thomeAddButtonEdited\n") && !rewritten.contains("storedAddButton"), "\(rewritten)")

        // A damaged store is ignored and written again.
        try repo.root.write("prepush constants 1\nnot a blob\n", to: store)
        #expect(try check(repo).contains(#""homeAddButtonEdited" (A11yIdentifiers.home.add)"#))
        #expect(repo.root.read(store)?.contains("\thomeAddButtonEdited\n") == true)
    }
}
