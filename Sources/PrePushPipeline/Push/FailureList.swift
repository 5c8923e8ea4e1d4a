import PrePushCore

/// The failing tests on the terminal, compiler style (`place: error: Suite.test: message`), with
/// the message's further lines indented, up to a screenful each; the rest is in the reports. The
/// one renderer for a failed stage's list and for the failures of a stage that exited 0.
enum FailureList {
    /// How many failing tests are listed.
    static let limit = 10
    /// Most lines of one failure message shown.
    static let messageLineLimit = 12

    /// Writes the list; places are shown from the repository root.
    static func show(_ failing: [UITestResult], places: SourcePlaces, console: Console) {
        for test in failing.prefix(limit) {
            // The whole message (an expectation's diff runs over several lines), up to a screenful.
            let lines = (test.failureMessage ?? "failed").split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            let place = test.failureLocation.map { places.describe($0) + ": " } ?? ""
            console.line("   \(place)error: \(test.testIdentifier): \(lines.first ?? "failed")", tone: .bad)
            for line in lines.dropFirst().prefix(messageLineLimit - 1) { console.line("      \(line)", tone: .bad) }
            if lines.count > messageLineLimit { console.line("      … \(lines.count - messageLineLimit) more lines in the reports") }
        }
        if failing.count > limit { console.line("   … and \(failing.count - limit) more in the reports") }
    }
}
