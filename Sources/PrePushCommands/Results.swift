import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushPipeline

extension Prepush {
    struct Results: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "results",
            abstract: "Turn saved test output into reports: console logs, JUnit XML or xcresulttool JSON.",
            discussion: """
            Each input's kind is read from its content. Exit status: 0 no test failed, 1 a test failed \
            or did not finish, the run itself failed, or the output ends before the run does (unless \
            --allow-incomplete), 2 unreadable input or no test results in it.

            Examples:
              prepush results build/test.log --format junit --output build/junit.xml
              xcrun xcresulttool get test-results tests --path T.xcresult | prepush results - --format markdown
              set -o pipefail; xcodebuild test -scheme App | prepush results - --format junit --output junit.xml
            """
        )

        @Argument(help: "Files to read; - reads standard input as it arrives.")
        var files: [String]

        @Option(help: ArgumentHelp("\(ResultsRun.formatHelp); several, comma-separated, with --output-dir.", valueName: "formats"))
        var format: String = "junit"

        @Option(help: ArgumentHelp("Write the report here instead of standard output.", valueName: "path"))
        var output: String?

        @Option(name: .customLong("output-dir"), help: ArgumentHelp("Write each format's report into this folder (\(ResultsRun.folderFiles)).", valueName: "folder"))
        var outputDirectory: String?

        @Option(help: ArgumentHelp("GitHub annotations of each kind, 1 to 50 (environment: PREPUSH_ANNOTATIONS; default 10).", valueName: "count"))
        var annotations: Int?

        @Flag(help: "No live lines on standard error while standard input streams in.")
        var quiet = false

        @Flag(name: .customLong("allow-incomplete"), help: "Accept output that shows its run start and not its end (a cut log): said in every report, not a failure.")
        var allowIncomplete = false

        var request: ResultsRun.Request {
            let context = CommandContext.now
            var request = ResultsRun.Request(files: files, formats: format, environment: context.environment)
            request.standardInput = context.standardInput
            request.currentDirectory = context.currentDirectory
            request.output = output
            request.outputDirectory = outputDirectory
            request.annotations = annotations
            request.quiet = quiet
            request.allowIncomplete = allowIncomplete
            return request
        }

        func validate() throws {
            if let problem = ResultsRun.usageProblem(request) { throw ValidationError(problem) }
        }

        func run() throws {
            throw ExitCode(ResultsRun.run(request, console: CommandContext.now.console).rawValue)
        }
    }
}
