import Foundation
@testable import PrePushXcodeProject
import PrePushTestSupport
import Testing

/// `PropertyListReader` reads what Foundation's `PropertyListSerialization` and `JSONSerialization`
/// read (it replaces them so that no binary links swift-corelibs-foundation and ICU): compared tree
/// for tree with Foundation's own readers on every real project file and test plan in the fixtures.
@Suite struct PropertyListReaderTests {
    /// Every file under shared/fixtures and Tests/Fixtures whose name ends so.
    static func sharedFiles(named suffix: String) -> [String] {
        [Fixtures.shared, Fixtures.own].flatMap { root in
            let found = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
            return found.filter { $0.hasSuffix(suffix) }.sorted().map { root + "/" + $0 }
        }
    }

    /// Whether two trees hold the same dictionaries, lists and strings (numbers and booleans by value).
    /// Whether a value is JSON's null: Foundation's `NSNull`, or ours, `Optional<Any>.none` held in an `Any`.
    static func isNull(_ value: Any?) -> Bool {
        guard let value else { return true }
        if value is NSNull { return true }
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }

    static func same(_ left: Any?, _ right: Any?, at path: String = "") -> String? {
        if let left = left as? [String: Any], let right = right as? [String: Any] {
            guard Set(left.keys) == Set(right.keys) else { return "\(path): keys differ" }
            for (key, value) in left { if let difference = same(value, right[key], at: path + "." + key) { return difference } }
            return nil
        }
        if let left = left as? [Any], let right = right as? [Any] {
            guard left.count == right.count else { return "\(path): \(left.count) items against \(right.count)" }
            for (index, pair) in zip(left, right).enumerated() { if let difference = same(pair.0, pair.1, at: "\(path)[\(index)]") { return difference } }
            return nil
        }
        if let left = left as? String, let right = right as? String { return left == right ? nil : "\(path): \"\(left)\" against \"\(right)\"" }
        if let left = left as? Bool, let right = right as? Bool { return left == right ? nil : "\(path): \(left) against \(right)" }
        if let left = left as? Double, let right = right as? Double { return left == right ? nil : "\(path): \(left) against \(right)" }
        if isNull(left), isNull(right) { return nil }
        return "\(path): \(type(of: left)) against \(type(of: right))"
    }

    @Test func everyRealProjectFileReadsAsFoundationReadsIt() throws {
        let files = Self.sharedFiles(named: "project.pbxproj")
        #expect(files.count >= 5, "the fixtures hold real project files")
        #expect(files.contains { $0.hasSuffix("ui-schemes/mastodon/Mastodon.xcodeproj/project.pbxproj") }, "this repository's own real projects are read too")
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
            // Two of XcodeGen's fixture projects are empty files: neither reader takes them.
            guard !bytes.isEmpty else {
                #expect(throws: PropertyListReader.ReadError.self) { try PropertyListReader.openStep(bytes) }
                continue
            }
            let foundation = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
            let ours = try PropertyListReader.openStep(bytes)
            #expect(Self.same(ours, foundation) == nil, "\(file): \(Self.same(ours, foundation) ?? "")")
        }
    }

    @Test func everyRealTestPlanReadsAsFoundationReadsIt() throws {
        let files = Self.sharedFiles(named: ".xctestplan")
        #expect(files.count >= 2, "the fixtures hold real test plans")
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
            let foundation = try JSONSerialization.jsonObject(with: Data(bytes))
            let ours = try PropertyListReader.json(bytes)
            #expect(Self.same(ours, foundation) == nil, "\(file): \(Self.same(ours, foundation) ?? "")")
        }
    }

    @Test func escapesCommentsAndUnquotedWordsAreRead() throws {
        let text = """
            // !$*UTF8*$!
            {
            \t/* a comment */ archiveVersion = 1;
            \tname = "a \\"quoted\\" name\\nwith \\U00e9 and \\101";
            \tlist = (one, "two", /* three */ four,);
            \tdata = <0fbd 77>;
            \tpath = Sources/App/View.swift;
            }
            """
        let tree = try #require(try PropertyListReader.openStep(Array(text.utf8)) as? [String: Any])
        #expect(tree["archiveVersion"] as? String == "1")
        #expect(tree["name"] as? String == "a \"quoted\" name\nwith é and A")
        #expect(tree["list"] as? [String] == ["one", "two", "four"])
        #expect(tree["data"] as? String == "<0fbd 77>")
        #expect(tree["path"] as? String == "Sources/App/View.swift")
    }

    @Test func aBrokenFileSaysWhereAndWhat() {
        for (text, line, words) in [("{\n  a = b\n}", 3, "expected \";\""), ("{\n  a = \"open\n", 3, "not closed"), ("(a b)", 1, "\",\" or \")\""),
                                    ("{ a = b; } }", 1, "end of the file")] {
            #expect(throws: PropertyListReader.ReadError.self, "\(text)") { try PropertyListReader.openStep(Array(text.utf8)) }
            do {
                _ = try PropertyListReader.openStep(Array(text.utf8))
            } catch {
                #expect(error.line == line && error.reason.contains(words), "\(text): \(error)")
            }
        }
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "(", count: 100_000) + String(repeating: ")", count: 100_000)
        do {
            _ = try PropertyListReader.openStep(Array(deep.utf8))
            Issue.record("100,000 levels were read")
        } catch {
            #expect(error.reason.contains("deeper than \(PropertyListReader.maximumDepth)"))
        }
    }
}
