#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// What `tuist graph --format json` writes (the `ProjectAutomation` schema: `Graph` → `projects`
/// by path → `targets` with their `product`, `schemes` with their `testActionTargets`): Tuist's
/// own reading of the manifests, helpers and plugins included, so better than the static one
/// where `tuist` is installed. Untested against a graph written by a real `tuist` (none was at
/// hand): the tests feed one written to that schema.
package struct TuistGraph: Sendable, Equatable {
    /// One project of the graph.
    package struct Project: Sendable, Equatable {
        /// The project's name.
        package let name: String
        /// Its folder, relative to the graph's root.
        package let folder: String
        /// Test targets by name, with their kind.
        package let testTargets: [String: TestBundleKind]
        /// Its schemes and the targets their test action runs.
        package let schemes: [Scheme]
    }

    /// A scheme and the targets its test action runs.
    package struct Scheme: Sendable, Equatable {
        /// The scheme's name.
        package let name: String
        /// The targets its test action runs, by name.
        package let targets: [String]

        /// Creates one.
        package init(name: String, targets: [String]) {
            self.name = name
            self.targets = targets
        }
    }

    /// The graph's name: the workspace Tuist writes is `<name>.xcworkspace` at its root.
    package let name: String
    /// Its projects, external ones (packages Tuist turns into projects) left out.
    package let projects: [Project]

    private struct Wire: Decodable {
        struct WireProject: Decodable {
            struct WireTarget: Decodable { let name: String; let product: String }
            struct WireScheme: Decodable { let name: String; let testActionTargets: [String]? }
            let name: String
            let path: String
            let isExternal: Bool?
            let targets: [WireTarget]?
            let schemes: [WireScheme]?
        }
        let name: String
        let path: String
        let projects: [String: WireProject]
    }

    /// Reads the JSON; nil when it is not a Tuist graph.
    package init?(json: [UInt8]) {
        guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(json)) else { return nil }
        name = wire.name
        let root = wire.path.hasSuffix("/") ? wire.path : wire.path + "/"
        projects = wire.projects.values.filter { $0.isExternal != true }.sorted { $0.path < $1.path }.map { project in
            var kinds: [String: TestBundleKind] = [:]
            for target in project.targets ?? [] {
                // `ProjectAutomation.Target.product` is the product's raw value.
                if target.product == "unit_tests" { kinds[target.name] = .unit }
                if target.product == "ui_tests" { kinds[target.name] = .ui }
            }
            let folder = project.path == wire.path ? "" : (project.path.hasPrefix(root) ? String(project.path.dropFirst(root.count)) : project.path)
            return Project(name: project.name, folder: folder, testTargets: kinds,
                           schemes: (project.schemes ?? []).map { Scheme(name: $0.name, targets: $0.testActionTargets ?? []) })
        }
    }
}

extension XcodeProjectSurvey {
    /// The survey with Tuist's own graph in place of what the manifests were read to say: the
    /// generated schemes of `spec` (the `Workspace.swift` or `Project.swift` generation starts from)
    /// are the graph's, built through `<graph name>.xcworkspace` beside `spec`, plus the
    /// `<name>-Workspace` scheme Tuist adds that tests every test target.
    package func adopting(_ graph: TuistGraph, spec: String) -> XcodeProjectSurvey {
        var survey = self
        survey.replaceGeneratedSchemes(from: graph, spec: spec)
        return survey
    }
}
