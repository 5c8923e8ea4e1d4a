import PrePushConfig
import PrePushCore

/// Which stages run, in order, and why the others do not.
struct StagePlan {
    var stages: [StageSettings] = []
    var notRunning: [(StageKind, String)] = []

    /// Moves every stage's working directory from the working tree into an export of the commit.
    mutating func rebase(onto tree: String, root: String) {
        stages = stages.map { stage in
            stage.moved(to: FilePath.absolute(FilePath.relative(stage.workingDirectory, to: root), base: tree))
        }
    }

    /// Leaves out the stages named in `names`, saying why.
    mutating func skip(_ names: Set<String>, because reason: String) {
        for stage in stages where names.contains(stage.kind.rawValue) { notRunning.append((stage.kind, reason)) }
        stages.removeAll { names.contains($0.kind.rawValue) }
    }

    /// Every stage name the configuration knows, configured or not: what `SKIP=` and `--stage` may name.
    var names: [String] = []

    /// The stages that do not run, in the stages' order.
    var notRunningInOrder: [(StageKind, String)] {
        notRunning.enumerated().sorted { lhs, rhs in
            let left = names.firstIndex(of: lhs.element.0.rawValue) ?? 0, right = names.firstIndex(of: rhs.element.0.rawValue) ?? 0
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    init(_ configuration: ResolvedConfiguration) {
        // File order; `unit` first and `ui` after it where the file does not place them.
        var order = configuration.stageOrder
        if !order.contains(.unit) { order.insert(.unit, at: 0) }
        if !order.contains(.ui) { order.insert(.ui, at: (order.firstIndex(of: .unit) ?? -1) + 1) }
        names = order.map(\.rawValue)
        for kind in order {
            switch kind {
            case .unit: addUnit(configuration)
            case .ui: addUI(configuration)
            default:
                if configuration.hook.uiTestsOnly {
                    notRunning.append((kind, "skipped (--ui-tests-only)"))
                } else if configuration.customStagesSkippedByFile.contains(kind) {
                    notRunning.append((kind, "skipped (skip: true in the configuration)"))
                } else if let stage = configuration.customStages.first(where: { $0.kind == kind }) {
                    stages.append(stage)
                }
            }
        }
    }

    /// The stages in runs: consecutive stages with `parallel: true` run together, every other stage alone.
    var groups: [[StageSettings]] {
        var groups: [[StageSettings]] = []
        for stage in stages {
            if stage.parallel, let last = groups.last, last.allSatisfy(\.parallel) {
                groups[groups.count - 1].append(stage)
            } else {
                groups.append([stage])
            }
        }
        return groups
    }

    /// Puts `stage` in the place of the stage of the same name.
    mutating func replace(_ kind: StageKind, with stage: StageSettings) {
        if let index = stages.firstIndex(where: { $0.kind == kind }) { stages[index] = stage }
    }

    /// Leaves out the stages with `paths:` that match no file the push changes, saying so.
    mutating func keepOnlyStagesMatching(changedFiles: [String]) {
        let idle = stages.filter { stage in
            guard !stage.paths.isEmpty else { return false }
            let globs = stage.paths.map(Glob.init)
            return !changedFiles.contains { file in globs.contains { $0.matches(file) } }
        }
        for stage in idle { notRunning.append((stage.kind, "skipped (no changed file matches paths: \(stage.paths.joined(separator: ", ")))")) }
        stages.removeAll { stage in idle.contains { $0.kind == stage.kind } }
    }

    private mutating func addUnit(_ configuration: ResolvedConfiguration) {
        if configuration.hook.uiTestsOnly {
            notRunning.append((.unit, "skipped (--ui-tests-only)"))
        } else if configuration.unitStageSkippedByFile {
            notRunning.append((.unit, "skipped (skip: true in the configuration)"))
        } else if let unit = configuration.unitStage {
            stages.append(unit)
        } else {
            notRunning.append((.unit, "not configured (set stages.unit.run in \(ConfigurationResolver.defaultFileName))"))
        }
    }

    private mutating func addUI(_ configuration: ResolvedConfiguration) {
        if configuration.hook.skipUITests {
            let origin = configuration.settings.first { $0.name == "skipUITests" }?.origin
            notRunning.append((.ui, "skipped (\(origin.map(\.description) ?? "skipUITests"))"))
        } else if let ui = configuration.uiStage {
            stages.append(ui)
        } else {
            notRunning.append((.ui, "not configured (set stages.ui.run in \(ConfigurationResolver.defaultFileName))"))
        }
    }
}
