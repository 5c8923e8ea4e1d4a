import PrePushCore
import PrePushGit

/// `prepush range`: the commits and changed lines a range sends, which is what the view checks read.
package enum RangeRun {
    /// What to show.
    package struct Request: Sendable {
        package var base: String
        package var head: String
        /// Also how the base was chosen.
        package var verbose = false
        /// Only the files.
        package var namesOnly = false
        /// How long opening the repository and computing the range took, on standard error.
        package var timing = false

        /// A request for `base...head`.
        package init(base: String, head: String) {
            self.base = base
            self.head = head
        }
    }

    /// Prints the range: 0 shown, 2 it cannot be computed.
    package static func run(_ request: Request, console: Console) -> ExitStatus {
        let diagnostics = Diagnostics(console: console)
        GitLibrary.initialize()
        let range: PushRange
        let clock = ContinuousClock()
        let started = clock.now
        do {
            range = try CommandContext.now.openRepository().range(base: request.base, head: request.head, lineDetail: !request.namesOnly)
            if request.timing {
                let elapsed = (clock.now - started).components
                let milliseconds = Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
                diagnostics.aside("range: \(Int(milliseconds * 1000)) µs")
            }
        } catch {
            diagnostics.error(describing: error)
            return .usage
        }
        if request.verbose { console.line("base: \(range.baseDescription)") }
        console.line("\(TextFormatting.count(range.commits.count, "commit")), \(TextFormatting.count(range.files.count, "changed file"))")
        // A path is the repository's text (git allows a CR or ESC in a name): the console shows it safe.
        for file in range.files {
            if request.namesOnly { console.line(file.path); continue }
            let origin = file.oldPath.map { " (from \($0))" } ?? ""
            let added = file.change == .added ? "every line" : lines(file.addedLines)
            let replaced = file.replacedModifiersAfterLines.isEmpty ? "" : ", modifiers replaced after \(lines(file.replacedModifiersAfterLines))"
            console.line("\(file.path)\(origin): \(file.change.rawValue), added \(added), removed after \(lines(file.removedAfterLines))\(replaced)")
        }
        return .success
    }

    /// `1-3,7` for [1, 2, 3, 7]; `none` for [].
    static func lines(_ numbers: [Int]) -> String {
        guard var start = numbers.first else { return "none" }
        var parts: [String] = []
        var previous = start
        for number in numbers.dropFirst() {
            if number == previous + 1 { previous = number; continue }
            parts.append(start == previous ? "\(start)" : "\(start)-\(previous)")
            start = number
            previous = number
        }
        parts.append(start == previous ? "\(start)" : "\(start)-\(previous)")
        return parts.joined(separator: ",")
    }
}
