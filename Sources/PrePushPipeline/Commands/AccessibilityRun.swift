#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushAccessibility
import PrePushConfig
import PrePushCore
import PrePushGit
import PrePushXcodeProject
import PrePushResults

/// What `prepush a11y` checks.
package enum AccessibilityTarget: Sendable {
    /// These files, whole, as they are in the working tree (an editor hook's case).
    case files([String])
    /// The changed lines of a range (CI's case); whole changed files with `allLines`.
    case range(base: String, head: String, allLines: Bool)
    /// Every selected view file of the working tree, whole.
    case all
    /// Text from standard input, named `path` (an editor's unsaved buffer, an agent's draft).
    case standardInput(path: String, bytes: [UInt8])
    /// The range the CI job checks (`CIRange`: a pull request's base and head).
    case ciRange(allLines: Bool)
}

/// How `prepush a11y` prints its findings.
package enum AccessibilityOutput: String, Sendable, CaseIterable {
    /// `path:line:col: error: message [rule]`, like a compiler.
    case text
    /// prepush's JSON (`{"version": 1, "findings": [...]}`).
    case json
    /// SARIF 2.1.0, for code scanning.
    case sarif
}

/// `prepush a11y`: the accessibility check outside a push.
package enum AccessibilityRun {
    /// Runs the check and prints findings as text, JSON or SARIF; returns 1 when a finding is an error.
    package static func run(_ target: AccessibilityTarget, output: AccessibilityOutput, flags: ConfigurationFlags,
                           environment: [String: String], explainSelection: Bool = false, writeBaseline: String? = nil,
                           currentDirectory: String? = nil, console: Console) -> ExitStatus {
        // Where named files and the baseline are found: the process's folder, unless the run is inside another program.
        let here = currentDirectory ?? CommandContext.now.here
        // JSON and SARIF own standard output: notes go to standard error (and into the document).
        let diagnostics = Diagnostics(console: console, standardOutputIsReport: output != .text)
        GitLibrary.initialize()
        var target = target
        if case .ciRange(let allLines) = target {
            guard let range = CIRange.detect(environment: environment) else {
                diagnostics.error("no range to check: name files, or --base REF, or --all (this is not a CI job prepush knows)")
                return .usage
            }
            diagnostics.aside("prepush: checking \(range.base)...\(range.head) (\(range.origin))")
            target = .range(base: range.base, head: range.head, allLines: allLines)
        }
        do throws(PipelineError) {
            let (step, repository) = try open(target, flags: flags, environment: environment, here: currentDirectory)
            let root = repository?.workingDirectory ?? here
            let result = try check(target, step: step, repository: repository, root: root, here: here, explainSelection: explainSelection,
                                   applyBaseline: writeBaseline == nil)
            // Why each file was or was not checked is for the person asking, never part of the output.
            for line in result.explanations { diagnostics.aside("prepush: \(line)") }
            var findings = result.findings
            let notes = result.notes + step.identifiers.notes
            if let writeBaseline {
                // Every finding of this run, before the old baseline is applied: the new baseline replaces it.
                do {
                    try Checkout.write(AccessibilityBaseline(findings).rendered(), to: FilePath.absolute(writeBaseline, base: here),
                                       in: repository.flatMap(ReportFiles.checkout(of:)), replacingTracked: true)
                } catch {
                    throw .input("cannot write \(writeBaseline): \(error)")
                }
                diagnostics.say("wrote \(TextFormatting.count(findings.count, "finding")) to \(writeBaseline); set accessibility.baseline: \(writeBaseline) so that only new ones are reported")
                return .success
            }
            // The range check filters itself (the hook does the same); files, --all and stdin here.
            if case .range = target {} else { findings = step.baseline.newFindings(findings) }
            let base: String
            if case .files = target { base = here } else { base = root }
            write(findings, notes: notes, as: output, base: base, environment: environment, diagnostics: diagnostics)
            return findings.contains { $0.severity == .error } ? .failure : .success
        } catch {
            diagnostics.error(error)
            return error.exitStatus
        }
    }

    /// Every finding of the whole working tree under the repository's configuration, with no
    /// baseline applied: what a baseline written now records (`prepush init`).
    static func findingsOfToday(root: String) throws(PipelineError) -> [AccessibilityFinding] {
        let repository: Repository
        do {
            repository = try Repository.discover(from: root)
        } catch {
            throw .repository(ErrorText.describe(error))
        }
        let step: AccessibilityStep
        do {
            let configuration = try Pipeline.resolveConfiguration(flags: ConfigurationFlags(), environment: [:], repository: repository)
            step = try AccessibilityStep(configuration, root: root)
        } catch let error as ConfigurationError {
            throw .configuration(error)
        } catch {
            throw .repository(ErrorText.describe(error))
        }
        return try check(.all, step: step, repository: repository, root: root, here: root, explainSelection: false, applyBaseline: false).findings
    }

    /// The configuration's check, and the repository (named files and standard input need none:
    /// outside one, the configuration comes from the current folder).
    static func open(_ target: AccessibilityTarget, flags: ConfigurationFlags, environment: [String: String],
                     here given: String? = nil) throws(PipelineError) -> (AccessibilityStep, Repository?) {
        let repository: Repository?
        let here = given ?? CommandContext.now.here
        // The repository git finds from here (`GIT_DIR` honoured), or the one that holds the given folder.
        func find() throws(GitError) -> Repository {
            if let given { return try Repository.discover(from: given) }
            return try CommandContext.now.openRepository()
        }
        switch target {
        case .files, .standardInput:
            repository = try? find()
        case .range, .all, .ciRange:
            do {
                repository = try find()
            } catch {
                throw .repository(ErrorText.describe(error))
            }
        }
        do {
            let configuration: ResolvedConfiguration
            if let repository {
                configuration = try Pipeline.resolveConfiguration(flags: flags, environment: environment, repository: repository, currentDirectory: here)
            } else {
                var request = ConfigurationRequest(flags: flags, environment: environment, repositoryRoot: here, currentDirectory: here)
                request.knownAccessibilityRules = AccessibilityStep.ruleIDs
                configuration = try ConfigurationResolver.resolve(request)
            }
            let step = try AccessibilityStep(configuration, root: repository?.workingDirectory ?? here)
            return (step, repository)
        } catch let error as ConfigurationError {
            throw .configuration(error)
        } catch {
            throw .repository(ErrorText.describe(error))
        }
    }

    /// The findings of the target, and the notes on what was not checked and why.
    static func check(_ target: AccessibilityTarget, step: AccessibilityStep, repository: Repository?, root: String, here: String,
                      explainSelection: Bool, applyBaseline: Bool) throws(PipelineError) -> AccessibilityStep.CheckResult {
        var result = AccessibilityStep.CheckResult()
        switch target {
        case .ciRange:
            // `run` reads the CI's range into `.range` before it checks.
            throw .input("no CI range was read")
        case .standardInput(let path, let bytes):
            guard bytes.count <= step.maxFileSize else { return .init(notes: [step.oversizeNote(path, bytes: bytes.count)]) }
            guard let text = String(validating: bytes, as: UTF8.self) else { throw .input("standard input is not UTF-8 text") }
            result.findings = step.checkFile(path: path, text: text)
        case .files(let paths):
            for path in paths {
                // A list of changed files (`git diff --name-only`) names deleted and non-Swift files:
                // only a Swift file that is named and missing is a mistake.
                guard path.hasSuffix(".swift") else {
                    if explainSelection { result.explanations.append("\(path): not checked: not a Swift file") }
                    continue
                }
                let absolute = FilePath.absolute(path, base: here)
                if case .failure(.missing) = FileReading.read(absolute, limit: 0) { throw .input("\(path): no such file") }
                switch step.text(ofFile: path, at: absolute) {
                case .success(let text): result.findings += step.checkFile(path: path, text: text)
                case .failure(let note): result.notes.append(note.text)
                }
            }
        case .range(let base, let head, let allLines):
            guard let repository else { throw .repository("not in a git repository") }
            do {
                let range = try repository.range(base: base, head: head,
                                                 selecting: { explainSelection ? $0.hasSuffix(".swift") : step.selects($0) })
                return step.check(range, in: repository, allLines: allLines, explain: explainSelection, applyBaseline: applyBaseline)
            } catch {
                throw .range(base: base, head: head, reason: ErrorText.describe(error))
            }
        case .all:
            var files: [TreeFile] = []
            // Code no shipped target compiles (test helpers, tools), by the projects' own structure;
            // with `include` configured, the team has chosen the files itself.
            let shipped = step.excludesDefaults ? ShippedSources(root: root) : ShippedSources()
            var unshipped: [String: Int] = [:]
            for path in SourceTree.files(under: root, where: { explainSelection ? $0.hasSuffix(".swift") : step.selects($0) }) {
                if !step.selects(path) {
                    files.append(.known(Outcome(explanation: "\(path): not checked: \(step.selection(of: path, text: "").reason)")))
                } else if let targets = shipped.unshippedTargets(of: path) {
                    for target in targets { unshipped[target, default: 0] += 1 }
                    let why = "compiled only into targets that do not ship (\(targets.joined(separator: ", ")))"
                    files.append(.known(Outcome(explanation: explainSelection ? "\(path): not checked: \(why)" : nil)))
                } else if case .success(let absolute) = RepositoryPath.fileInside(path, root: root) {
                    files.append(.check(path: path, absolute: absolute))
                } else {
                    // A view file that is a symlink out of the repository is not the repository's to show.
                    files.append(.known(Outcome(note: "\(path): a symbolic link that leads out of the repository; not checked")))
                }
            }
            checkAll(files, step: step, explainSelection: explainSelection, into: &result)
            if let note = unshippedNote(unshipped) { result.notes.append(note) }
            // macOS and tvOS have no Dynamic Type and no touch: those two rules do not apply to files
            // only macOS or tvOS targets compile (CodeEdit: 56 findings, all false).
            let before = result.findings.count
            result.findings.removeAll { AccessibilityChecker.touchAndTypeRules.contains($0.ruleID) && shipped.isWithoutTouch($0.location.file) }
            if result.findings.count < before {
                result.notes.append("accessibility: \(before - result.findings.count) fixed-font-size and small-touch-target findings not reported: "
                    + "their files are compiled only for macOS or tvOS, which have no Dynamic Type and no touch")
            }
            // UI tests are not view files: their queries are checked against every view's identifiers.
            result.findings += UITestIdentifierCheck(step: step).unset()
        }
        return result
    }


    /// The note for the files left out because no shipped target compiles them, or nil for none.
    static func unshippedNote(_ byTarget: [String: Int]) -> String? {
        guard !byTarget.isEmpty else { return nil }
        let total = byTarget.values.reduce(0, +)
        let targets = byTarget.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) (\($0.value))" }
        return "accessibility: \(total) Swift file\(total == 1 ? "" : "s") not checked: compiled only into targets that do not ship "
            + "(test bundles, tools, plugins): \(targets.joined(separator: ", ")); name a file to check it (prepush a11y PATH)"
    }

    /// A file of the whole-tree walk: one to check, or one whose outcome the walk knows.
    private enum TreeFile: Sendable {
        case check(path: String, absolute: String)
        case known(Outcome)
    }

    /// What a file of the whole-tree check came to.
    private struct Outcome: Sendable {
        var findings: [AccessibilityFinding] = []
        var note: String?
        var explanation: String?
    }

    /// The whole-tree check of `files`: parsing and the rules on every core (they were 3.8 s on one
    /// for a 3,000-file app), then the identifier practice applied in the files' order on this
    /// thread (it counts what it leaves out for its notes).
    private static func checkAll(_ files: [TreeFile], step: AccessibilityStep, explainSelection: Bool,
                                 into result: inout AccessibilityStep.CheckResult) {
        // What the rules share is gathered before they run side by side, never while they do.
        if files.count(where: { if case .check = $0 { true } else { false } }) > 1 { step.prepareSharedState() }
        let outcomes = Concurrently.map(files) { file -> Outcome in
            guard case .check(let path, let absolute) = file else {
                if case .known(let outcome) = file { return outcome }
                return Outcome()
            }
            switch step.text(ofFile: path, at: absolute) {
            case .success(let text):
                let chosen = step.selection(of: path, text: text)
                return Outcome(findings: chosen.checked ? step.rawFindings(path: path, text: text) : [],
                               explanation: explainSelection ? "\(path): \(chosen.checked ? "checked" : "not checked"): \(chosen.reason)" : nil)
            case .failure(let note):
                return Outcome(note: note.text)
            }
        }
        for outcome in outcomes {
            if let explanation = outcome.explanation { result.explanations.append(explanation) }
            if let note = outcome.note { result.notes.append(note) }
            result.findings += step.identifiers.apply(outcome.findings, step: step)
        }
    }

    /// Prints the findings as asked: JSON and SARIF alone on standard output; text with the notes
    /// and, in GitHub Actions, annotations.
    /// `base` is where the findings' paths start (SARIF needs whole paths): where prepush runs for
    /// named files, else the repository.
    static func write(_ findings: [AccessibilityFinding], notes: [String], as output: AccessibilityOutput,
                      base: String, environment: [String: String], diagnostics: Diagnostics) {
        let console = diagnostics.console
        switch output {
        case .json:
            console.payload(render(findings, notes: notes))
            // The document carries the notes; standard error tells the person running it too.
            for note in notes { diagnostics.note(note) }
        case .sarif:
            console.payload(SARIFWriter.render(findings, root: base, notes: notes))
            for note in notes { diagnostics.note(note) }
        case .text:
            for finding in findings { console.line(AccessibilityStep.line(finding), tone: finding.severity == .error ? .bad : .warning) }
            for note in notes { diagnostics.note(note) }
            if environment["GITHUB_ACTIONS"] == "true" {
                for finding in findings { console.command(AccessibilityStep.annotation(finding)) }
            }
        }
    }

    /// `{"version": 1, "findings": [...], "notes": [...]}`, keys sorted.
    static func render(_ findings: [AccessibilityFinding], notes: [String] = []) -> String {
        struct Output: Encodable {
            let version: Int
            let findings: [Entry]
            let notes: [String]
        }
        struct Entry: Encodable {
            let column: Int, file: String, issueType: String, line: Int, message: String, rule: String, severity: String
        }
        let output = Output(version: 1, findings: findings.map {
            Entry(column: $0.location.column, file: $0.location.file, issueType: $0.issueType.rawValue, line: $0.location.line,
                  message: $0.message, rule: $0.ruleID, severity: $0.severity.rawValue)
        }, notes: notes)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(output)).map { String(decoding: $0, as: UTF8.self) } ?? "{}") + "\n"
    }
}
