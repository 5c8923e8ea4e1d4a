import ArgumentParser
import PrePushCore
import PrePushGit

extension Prepush {
    struct Range: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "range",
            abstract: "Show the commits and changed lines a range sends: what the view checks look at.",
            discussion: """
            Example: prepush range --base origin/main --head HEAD
            Each file: its path, how it changed, the added lines and the points where lines were removed.
            """
        )

        @Option(help: "The revision the range starts from (its merge base with --head is compared).")
        var base: String

        @Option(help: "The revision the range ends at.")
        var head: String = "HEAD"

        @Flag(help: "Also say how the base was chosen.")
        var verbose = false

        @Flag(help: "Only the files, without added lines and removal points.")
        var namesOnly = false

        @Flag(help: "Print how long opening the repository and computing the range took, to stderr (the benchmark's in-process figure).")
        var timing = false

        func run() throws {
            GitLibrary.initialize()
            let range: PushRange
            let clock = ContinuousClock()
            let started = clock.now
            do {
                range = try Repository.openFromEnvironment().range(base: base, head: head, lineDetail: !namesOnly)
                if timing {
                    let elapsed = (clock.now - started).components
                    let milliseconds = Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
                    FileStandardError.write("range: \(Int(milliseconds * 1000)) µs")
                }
            } catch {
                FileStandardError.write("\(error)")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            if verbose { print("base: \(range.baseDescription)") }
            print("\(range.commits.count) commit\(range.commits.count == 1 ? "" : "s"), \(range.files.count) changed file\(range.files.count == 1 ? "" : "s")")
            // A path is the repository's text (git allows a CR or ESC in a name): shown safe.
            for file in range.files {
                let path = FileStandardError.safe(file.path)
                if namesOnly { print(path); continue }
                let origin = file.oldPath.map { " (from \(FileStandardError.safe($0)))" } ?? ""
                let added = file.change == .added ? "every line" : Self.lines(file.addedLines)
                let replaced = file.replacedModifiersAfterLines.isEmpty ? "" : ", modifiers replaced after \(Self.lines(file.replacedModifiersAfterLines))"
                print("\(path)\(origin): \(file.change.rawValue), added \(added), removed after \(Self.lines(file.removedAfterLines))\(replaced)")
            }
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
}
