import PrePushCore

/// A shared scheme's test action, read from its `.xcscheme` (XML): the bundles it tests and the test
/// plans it names. A scheme without a TestAction (a profiling or an extension scheme) tests nothing.
package struct XcodeScheme: Sendable, Equatable {
    /// A test bundle the scheme's TestAction runs.
    package struct Testable: Sendable, Equatable {
        /// The target's id in its project (`BlueprintIdentifier`).
        package let identifier: String
        /// The target's name (`BlueprintName`).
        package let name: String
        /// The project holding the target, as the scheme names it (`container:App.xcodeproj`, without `container:`).
        package let container: String
        /// Whether the scheme lists it as skipped.
        package let skipped: Bool
        /// The classes and tests the scheme skips in it (`SkippedTests`: `Class` or `Class/test`).
        package var skippedTests: [String] = []
    }

    /// The scheme's name (its file name).
    package let name: String
    /// Whether it has a TestAction at all.
    package let hasTestAction: Bool
    /// The bundles its TestAction lists.
    package let testables: [Testable]
    /// The test plans it names (`container:` references, without the prefix), the default first.
    package let testPlans: [String]

    /// Reads a scheme's XML; `name` is its file name without `.xcscheme`.
    package init(name: String, bytes: [UInt8], file: String) throws(XMLError) {
        self.name = name
        var inTest = false, sawTest = false, inTestable = false, skipped = false, inSkipped = false
        var testables: [Testable] = []
        var plans: [(String, Bool)] = []
        // Schemes are a few KB: the events are gathered, then read.
        let events = try bytes.withUnsafeBufferPointer { buffer throws(XMLError) in
            var reader = XMLScanner(buffer: buffer, file: file)
            var all: [XMLEvent] = []
            while let event = try reader.next() { all.append(event) }
            return all
        }
        for event in events {
            switch event {
            case .start(let element, let attributes, let selfClosing):
                switch element {
                case "TestAction":
                    inTest = !selfClosing
                    sawTest = true
                case "TestableReference" where inTest:
                    inTestable = !selfClosing
                    skipped = attributes["skipped"] == "YES"
                case "BuildableReference" where inTestable:
                    guard let identifier = attributes["BlueprintIdentifier"] else { continue }
                    // Xcode leaves out `BlueprintName` for a target in a synchronized folder (home-assistant's
                    // WatchApp scheme): the product's name without `.xctest` is the target's then.
                    let product = attributes["BuildableName"].map { $0.hasSuffix(".xctest") ? String($0.dropLast(7)) : $0 }
                    testables.append(Testable(identifier: identifier, name: attributes["BlueprintName"] ?? product ?? "",
                                              container: Self.container(attributes["ReferencedContainer"] ?? ""), skipped: skipped))
                case "Test" where inTestable && inSkipped:
                    if let identifier = attributes["Identifier"], !testables.isEmpty { testables[testables.count - 1].skippedTests.append(identifier) }
                case "SkippedTests" where inTestable:
                    inSkipped = !selfClosing
                case "TestPlanReference" where inTest:
                    if let reference = attributes["reference"] { plans.append((Self.container(reference), attributes["default"] == "YES")) }
                default:
                    break
                }
            case .end(let element):
                if element == "TestAction" { inTest = false }
                if element == "TestableReference" { inTestable = false }
                if element == "SkippedTests" { inSkipped = false }
            case .text:
                break
            }
        }
        hasTestAction = sawTest
        self.testables = testables
        testPlans = plans.filter(\.1).map(\.0) + plans.filter { !$0.1 }.map(\.0)
    }

    /// `container:App.xcodeproj` → `App.xcodeproj`.
    static func container(_ reference: String) -> String {
        reference.hasPrefix("container:") ? String(reference.dropFirst("container:".count)) : reference
    }
}
