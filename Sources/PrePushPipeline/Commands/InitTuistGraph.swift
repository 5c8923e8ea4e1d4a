#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushRunner
import PrePushXcodeProject

/// Where `tuist` is installed, `init` asks it for the graph (`tuist graph --format json`) rather
/// than trusting its own static reading of the manifests: Tuist runs the helpers and plugins the
/// reading only follows so far.
extension InitRun {
    /// How long `tuist graph` may take (it compiles the manifests), seconds.
    static let tuistGraphTimeout = 180.0

    /// The survey with Tuist's graph in place of the manifests' reading, when `tuist` is on `PATH`
    /// and a Tuist spec is here; else the survey as it is, with why in `note`.
    static func withTuistGraph(_ survey: XcodeProjectSurvey, root: String, environment: [String: String]) -> (survey: XcodeProjectSurvey, note: String?) {
        // Generation starts from the workspace manifest when there is one, else the first project's.
        let specs = survey.generatorSpecs.filter { $0.hasSuffix(".swift") }
        guard let spec = specs.first(where: { $0.hasSuffix("Workspace.swift") }) ?? specs.first,
              let tuist = executable("tuist", environment: environment) else { return (survey, nil) }
        let folder = spec.lastIndex(of: "/").map { String(spec[..<$0]) } ?? ""
        let output = FilePath.join(environment["TMPDIR"] ?? "/tmp", "prepush-tuist-graph-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let graphCommand = ProcessSpec(executable: tuist, arguments: ["graph", "--format", "json", "--no-open", "--output-path", output],
                                environment: environment, workingDirectory: FilePath.join(root, folder))
        guard let run = try? CommandOutput.run(graphCommand, timeout: tuistGraphTimeout), run.succeeded else {
            return (survey, "tuist graph failed in \(folder.isEmpty ? "the root" : folder); the manifests were read as Swift instead")
        }
        guard case .success(let bytes) = FileReading.read(FilePath.join(output, "graph.json"), limit: 64_000_000),
              let graph = TuistGraph(json: bytes) else {
            return (survey, "tuist graph wrote no graph prepush can read; the manifests were read as Swift instead")
        }
        return (survey.adopting(graph, spec: spec), nil)
    }

    /// The first executable file called `name` in `PATH`.
    static func executable(_ name: String, environment: [String: String]) -> String? {
        for folder in (environment["PATH"] ?? "").split(separator: ":") {
            let path = FilePath.join(String(folder), name)
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
