#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushGit
import PrePushHistory
import PrePushResults
import PrePushTraceability

/// `prepush history`, `prepush history import` and `prepush flaky`: the run history read back.
package enum HistoryRun {
    /// Opens the history of the repository around the current folder; an error said, or nil.
    static func open(diagnostics: Diagnostics) -> RunHistory? {
        openWithRoot(diagnostics: diagnostics)?.history
    }

    /// The history and the repository's working folder (empty for a bare repository).
    static func openWithRoot(diagnostics: Diagnostics) -> (history: RunHistory, root: String)? {
        guard let repository = diagnostics.repositoryHere() else { return nil }
        do {
            let history = try RunHistory(path: RunHistory.path(commonDirectory: repository.commonDirectory))
            for note in history.notes { diagnostics.note("\(note)") }
            return (history, repository.workingDirectory ?? "")
        } catch {
            diagnostics.error("the run history cannot be opened: \(error)")
            return nil
        }
    }

    /// The last `limit` runs, or the last `limit` results of `test` (its name as recorded, a short
    /// form of it, or a Swift Testing display name: `"A display name that fails"`, quoted or not).
    package static func show(test: String?, limit: Int, console: Console) -> ExitStatus {
        let diagnostics = Diagnostics(console: console, standardOutputIsReport: true)
        guard let (history, root) = openWithRoot(diagnostics: diagnostics) else { return .usage }
        do {
            if let test {
                var entries = try history.results(of: test, limit: limit)
                // The history records a test by its identity (`Module.Suite/function()`); its display
                // name is in the sources only, read when the name itself is not recorded.
                if entries.isEmpty, !root.isEmpty,
                   let identity = TestIdentities(inventory: TraceabilityStep(nil, root: root).testInventory(platform: nil)).identityOfShortName[test] {
                    entries = try history.results(of: identity, limit: limit)
                }
                guard !entries.isEmpty else {
                    console.line("prepush: no run of \(test) is in the history")
                    return .failure
                }
                // A short name several tests end in (four suites' `compileXib()`) is not one test's history.
                let identifiers = Array(Set(entries.map(\.test.identifier))).sorted()
                if identifiers.count > 1 {
                    console.line("prepush: \(test) names \(identifiers.count) tests; give one of them:")
                    for identifier in identifiers { console.line("  \(identifier)") }
                    return .failure
                }
                for entry in entries {
                    let outcome = entry.test.judgement == .flaky ? "flaky (passed on attempt \(entry.test.attempts))" : entry.test.status
                    console.line("\(time(entry.started))  \(entry.stage)  \(short(entry.commit))  \(outcome)  \(TextFormatting.testDuration(entry.test.duration))  \(entry.test.identifier)")
                }
                return .success
            }
            let runs = try history.runs(limit: limit)
            if runs.isEmpty { console.line("prepush: the run history is empty (every push and prepush run adds to it)") }
            for run in runs {
                let counts = "\(run.tests) tests, \(run.failed) failed" + (run.flaky > 0 ? ", \(run.flaky) flaky" : "")
                console.line("\(time(run.started))  \(run.stage)  \(short(run.commit))  \(run.status)  \(TextFormatting.duration(run.duration))  \(counts)  (\(run.origin))")
            }
            return .success
        } catch {
            diagnostics.error("the run history cannot be read: \(error)")
            return .failure
        }
    }

    /// Adds the results of `files` (any format `prepush results` reads: a CI job's artifacts) to
    /// the history, one run per file.
    package static func importResults(_ files: [String], console: Console) -> ExitStatus {
        let diagnostics = Diagnostics(console: console, standardOutputIsReport: true)
        guard let (history, root) = openWithRoot(diagnostics: diagnostics) else { return .usage }
        // Results that name a test as the console does take its identity from the repository's
        // test sources (`Tests/`, `*Tests/`), as a push records them.
        let identities = IdentitySource { TestIdentities(inventory: TraceabilityStep(nil, root: root).testInventory(platform: nil)) }
        var status = ExitStatus.success
        for file in files {
            do {
                let parsed = try ResultsInput.parse(file: file, at: FilePath.absolute(file, base: CommandContext.now.here))
                let tests = RunRecorder.recorded(root.isEmpty ? parsed.run : identities.resolve(parsed.run))
                let modified = (try? FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date)?.timeIntervalSince1970
                try history.record(RecordedRun(started: modified ?? Date().timeIntervalSince1970, tree: nil, commit: nil, stage: "imported",
                                               status: parsed.run.hasFailures ? "failed" : "passed", duration: parsed.run.elapsed,
                                               origin: "import \(file)", tests: tests))
                console.line("prepush: imported \(TextFormatting.count(tests.count, "test result")) from \(file)")
            } catch {
                diagnostics.error("\(file): \(ErrorText.describe(error))")
                status = .usage
            }
        }
        return status
    }

    /// The tests the last `runs` runs show as flaky, with their rates; `suggest` prints the
    /// `quarantine:` lines to add instead.
    package static func flaky(runs: Int, suggest: Bool, console: Console) -> ExitStatus {
        let diagnostics = Diagnostics(console: console, standardOutputIsReport: true)
        guard let history = open(diagnostics: diagnostics) else { return .usage }
        let found: [FlakyTest]
        do {
            found = FlakyAnalysis.flaky(try history.recentResults(runs: runs))
        } catch {
            diagnostics.error("the run history cannot be read: \(error)")
            return .failure
        }
        guard !found.isEmpty else {
            console.line("prepush: no flaky test in the last \(TextFormatting.count(runs, "run"))")
            return .success
        }
        if suggest {
            console.line("quarantine:")
            for test in found {
                console.line("  - test: \(YAMLText.doubleQuoted(test.identifier))")
                console.line("    reason: \(YAMLText.doubleQuoted("flaky: \(percent(test.rate)) of \(test.runs) runs; \(test.reasons.joined(separator: "; "))"))")
            }
            return .success
        }
        console.line("prepush: \(TextFormatting.count(found.count, "flaky test")) in the last \(TextFormatting.count(runs, "run")):")
        for test in found {
            console.line("  \(test.identifier): \(percent(test.rate)) of \(test.runs) runs on \(TextFormatting.count(test.trees, "tree")) did not pass at once (\(test.sameTreeFailures) failed on a tree it also passed on, \(test.passedOnRetry) passed on a retry); \(test.reasons.joined(separator: "; "))")
        }
        return .success
    }

    static func percent(_ rate: Double) -> String { "\(Int((rate * 100).rounded()))%" }

    static func short(_ commit: String?) -> String { commit.map { String($0.prefix(7)) } ?? "-------" }

    static func time(_ seconds: Double) -> String {
        let date = Date(timeIntervalSince1970: seconds)
        return date.ISO8601Format(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon))
    }
}
