import Foundation
import PrePushConfig
import PrePushCore
import PrePushPipeline
import PrePushRunner
import PrePushTestSupport

/// A push's steps run inside the test process, the way the CLI tests run the binary but without
/// starting it: the repository found from `folder` (a real one, in a temporary folder), the
/// output written to files and read back (never the test process's own streams), and stages
/// started by `launcher` (real processes unless a test plays a stage back).
enum InProcess {
    /// A command line read word by word: the next word, and the value after an option.
    struct Words {
        var rest: ArraySlice<String>
        init(_ arguments: [String]) { rest = arguments.dropFirst()[...] }
        mutating func next() -> String? { rest.isEmpty ? nil : rest.removeFirst() }
        mutating func value() -> String { next() ?? "" }
    }

    /// `prepush run` (with `--base` when given) in `folder`; `configure` sets anything else.
    static func run(in folder: String, environment: [String: String], base: String? = nil, flags: ConfigurationFlags = ConfigurationFlags(),
                    launcher: (any StageLauncher)? = nil, configure: (inout PipelineRequest) -> Void = { _ in }) throws -> CommandResult {
        var request = PipelineRequest(flags: flags, environment: environment, hook: nil)
        request.currentDirectory = folder
        request.checkRange = base.map { (base: $0, head: "HEAD") }
        if let launcher { request.launcher = launcher }
        configure(&request)
        return try captured { console in Pipeline.run(request, console: console, signals: nil) }
    }

    /// `prepush run ARGUMENTS` in `folder`, the arguments read as the command line reads them
    /// (the flags tests use; an argument this does not know is a test's mistake and fails it).
    static func run(_ arguments: [String], in folder: String, environment: [String: String]) throws -> CommandResult {
        precondition(arguments.first == "run", "InProcess.run plays `prepush run` only")
        var flags = ConfigurationFlags()
        var request = PipelineRequest(flags: flags, environment: environment, hook: nil)
        var words = Words(arguments)
        var base: String?, head: String?
        func value() -> String { words.value() }
        while let argument = words.next() {
            switch argument {
            case "--base": base = value()
            case "--head": head = value()
            case "--no-cache": flags.noCache = true
            case "--no-selective": flags.noSelective = true
            case "--quiet": request.quiet = true
            case "--verbose": flags.verbose = true
            case "--isolated": flags.isolated = true
            case "--ui-tests-only": flags.uiTestsOnly = true
            case "--skip-ui-tests": flags.skipUITests = true
            case "--all-lines": flags.allLines = true
            case "--config": flags.configPath = value()
            case "--reports-dir": flags.reportsDirectory = value()
            case "--timeout": flags.uiTestTimeout = Int(value())
            case "--stage": request.onlyStages.append(value())
            case "--shard": request.shardArgument = value()
            case "--timings": request.timingsFile = value()
            default: throw InProcessError(description: "InProcess.run does not know \(argument)")
            }
        }
        request.flags = flags
        request.checkRange = base.map { (base: $0, head: head ?? "HEAD") }
        request.currentDirectory = folder
        return try captured { console in Pipeline.run(request, console: console, signals: nil) }
    }

    /// `prepush results ARGUMENTS` in `folder`, `standardInput` what `-` reads.
    static func results(_ arguments: [String], in folder: String, environment: [String: String], standardInput: String? = nil) throws -> CommandResult {
        precondition(arguments.first == "results", "InProcess.results plays `prepush results` only")
        var files: [String] = []
        var formats = "junit"
        var output: String?, outputDirectory: String?, annotations: Int?, quiet = false, allowIncomplete = false
        var words = Words(arguments)
        func value() -> String { words.value() }
        while let argument = words.next() {
            switch argument {
            case "--format": formats = value()
            case "--output": output = value()
            case "--output-dir": outputDirectory = value()
            case "--annotations": annotations = Int(value())
            case "--quiet": quiet = true
            case "--allow-incomplete": allowIncomplete = true
            case _ where argument.hasPrefix("--"): throw InProcessError(description: "InProcess.results does not know \(argument)")
            default: files.append(argument)
            }
        }
        var request = ResultsRun.Request(files: files, formats: formats, environment: environment)
        request.output = output
        request.outputDirectory = outputDirectory
        request.annotations = annotations
        request.quiet = quiet
        request.allowIncomplete = allowIncomplete
        request.currentDirectory = folder
        if let problem = ResultsRun.usageProblem(request) { throw InProcessError(description: "a usage error is the command line's to test: \(problem)") }
        let scratch = try TemporaryDirectory(prefix: "prepush-stdin")
        try scratch.write(standardInput ?? "", to: "stdin")
        let input = open(scratch.url("stdin"), O_RDONLY | O_CLOEXEC)
        defer { close(input) }
        request.standardInput = input
        return try captured { console in ResultsRun.run(request, console: console) }
    }

    /// `prepush a11y ARGUMENTS` in `folder`, `standardInput` the text `--stdin-path` reads.
    static func a11y(_ arguments: [String], in folder: String, environment: [String: String], standardInput: String? = nil) throws -> CommandResult {
        precondition(arguments.first == "a11y", "InProcess.a11y plays `prepush a11y` only")
        var files: [String] = []
        var base: String?, head = "HEAD", all = false, allLines = false, explain = false
        var stdinPath: String?, baseline: String?, format = AccessibilityOutput.text
        var flags = ConfigurationFlags()
        var words = Words(arguments)
        func value() -> String { words.value() }
        while let argument = words.next() {
            switch argument {
            case "--base": base = value()
            case "--head": head = value()
            case "--all": all = true
            case "--all-lines": allLines = true
            case "--explain-selection": explain = true
            case "--stdin-path": stdinPath = value()
            case "--write-baseline": baseline = value()
            case "--config": flags.configPath = value()
            case "--format":
                guard let known = AccessibilityOutput(rawValue: value()) else { throw InProcessError(description: "a usage error is the command line's to test") }
                format = known
            case _ where argument.hasPrefix("--"): throw InProcessError(description: "InProcess.a11y does not know \(argument)")
            default: files.append(argument)
            }
        }
        var target: AccessibilityTarget = all ? .all : base.map { .range(base: $0, head: head, allLines: allLines) } ?? .files(files)
        if let stdinPath { target = .standardInput(path: stdinPath, bytes: Array((standardInput ?? "").utf8)) }
        if files.isEmpty, base == nil, !all, stdinPath == nil { target = .ciRange(allLines: allLines) }
        return try captured { console in
            AccessibilityRun.run(target, output: format, flags: flags, environment: environment, explainSelection: explain,
                                 writeBaseline: baseline, currentDirectory: folder, console: console)
        }
    }

    struct InProcessError: Error, CustomStringConvertible {
        let description: String
    }

    /// What `body` wrote to a console on two files, and the status it returned.
    static func captured(_ body: (Console) -> ExitStatus) throws -> CommandResult {
        let scratch = try TemporaryDirectory(prefix: "prepush-inprocess")
        let output = open(scratch.url("stdout"), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errors = open(scratch.url("stderr"), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(output); close(errors) }
        let console = Console(output: output, errors: errors, isTerminal: false, usesColour: false)
        let status = body(console)
        return CommandResult(status: status.rawValue, standardOutput: (try? String(contentsOfFile: scratch.url("stdout"), encoding: .utf8)) ?? "",
                             standardError: (try? String(contentsOfFile: scratch.url("stderr"), encoding: .utf8)) ?? "")
    }
}

/// A stage played back: the output it prints and how it ends, with no process started. For
/// what a push makes of an ending (a timeout, a signal, a command that cannot start) without
/// waiting for one; the real ones are tested with real processes in PrePushRunnerTests and the CLI tests.
struct PlayedStage: StageLauncher {
    enum Ending: Sendable {
        case exited(Int32)
        case signalled(Int32)
        case timedOut
        case cannotStart
    }

    let output: String
    let ending: Ending

    func run(_ spec: ProcessSpec, options: RunOptions) throws(RunnerError) -> RunOutcome {
        let outcome: RunOutcome
        switch ending {
        case .cannotStart: throw RunnerError.spawnFailed(executable: "/bin/sh", errno: ENOENT)
        case .exited(let code): outcome = RunOutcome(termination: .exited(code), stopReason: nil, duration: 0.1)
        case .signalled(let signal): outcome = RunOutcome(termination: .signaled(signal), stopReason: nil, duration: 0.1)
        case .timedOut: outcome = RunOutcome(termination: .signaled(SIGINT), stopReason: .timedOut, duration: options.timeout ?? 0)
        }
        var text = output
        text.withUTF8 { options.onOutput(.standardOutput, UnsafeRawBufferPointer($0)) }
        return outcome
    }
}
