import PrePushCore
import PrePushYAML

/// The values a GitHub workflow's `${{ matrix.… }}` and `${{ env.… }}` expressions take at a line
/// of it, read from the workflow (libyaml): the workflow's `env`, the job's `env` and
/// `strategy.matrix`, the step's `env`. A command offered from a workflow has its expressions
/// expanded where these are literal; bash rejects a `${{ … }}` pasted into a stage.
struct WorkflowExpressions {
    /// A job: where it starts (1-based line), its matrix and environment, and its steps' environments.
    struct Job {
        let line: Int
        var matrix: [String: [String]] = [:]
        var env: [String: String] = [:]
        var steps: [(line: Int, env: [String: String])] = []
    }

    /// The workflow's own `env`.
    private(set) var env: [String: String] = [:]
    /// Its jobs in file order.
    private(set) var jobs: [Job] = []

    /// Most commands one matrix line is offered as (one per combination of the values it names).
    static let combinationLimit = 6

    /// Reads a workflow; one that is not YAML knows no value (every expression then needs one).
    init(text: String, file: String) {
        guard let root = try? YAMLLoader.load(text, file: file), case .mapping(let top) = root.content else { return }
        env = Self.strings(XcodeGenSpec.value(top, "env"))
        guard let all = XcodeGenSpec.value(top, "jobs"), case .mapping(let pairs) = all.content else { return }
        for (key, value) in pairs {
            guard case .mapping(let fields) = value.content else { continue }
            var job = Job(line: key.location.line, env: Self.strings(XcodeGenSpec.value(fields, "env")))
            if let strategy = XcodeGenSpec.value(fields, "strategy"), case .mapping(let options) = strategy.content,
               let matrix = XcodeGenSpec.value(options, "matrix"), case .mapping(let axes) = matrix.content {
                for (axis, values) in axes {
                    // `include:` adds combinations, each a mapping of literal values (bitchat's
                    // `- name: BitLogger` / `path: localPackages/BitLogger`): each is a value of its axis.
                    if axis.scalar == "include", case .sequence(let entries) = values.content {
                        for entry in entries {
                            for (key, value) in Self.strings(entry) where !(job.matrix[key]?.contains(value) ?? false) { job.matrix[key, default: []].append(value) }
                        }
                        continue
                    }
                    guard let name = axis.scalar, name != "include", name != "exclude" else { continue }
                    switch values.content {
                    case .sequence(let items): job.matrix[name] = items.compactMap(\.scalar)
                    case .scalar(let text, _): job.matrix[name] = text.contains("${{") ? [] : [text]
                    case .mapping: continue
                    }
                }
            }
            if let steps = XcodeGenSpec.value(fields, "steps"), case .sequence(let items) = steps.content {
                for item in items {
                    guard case .mapping(let stepFields) = item.content else { continue }
                    job.steps.append((item.location.line, Self.strings(XcodeGenSpec.value(stepFields, "env"))))
                }
            }
            jobs.append(job)
        }
    }

    /// A mapping's literal string values (a value that is itself an expression is not one).
    private static func strings(_ node: YAMLNode?) -> [String: String] {
        guard let node, case .mapping(let pairs) = node.content else { return [:] }
        var values: [String: String] = [:]
        for (key, value) in pairs {
            if let name = key.scalar, let text = value.scalar, !text.contains("${{") { values[name] = text }
        }
        return values
    }

    /// `command` (found at 1-based `line`) with its expressions replaced by the values the workflow
    /// gives them there: one text per combination of matrix values (at most `combinationLimit`),
    /// and the expressions left that have no literal value (`secrets.TOKEN`, `github.sha`).
    func expand(_ command: String, line: Int) -> (texts: [String], needs: [String]) {
        let job = jobs.last { $0.line <= line }
        let step = job?.steps.last { $0.line <= line }
        var texts = [""]
        var needs: [String] = []
        var rest = Substring(command)
        while let open = rest.firstRange(of: "${{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            let literal = rest[..<open.lowerBound]
            texts = texts.map { $0 + literal }
            let expression = String(rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: " "))
            let values = self.values(of: expression, job: job, stepEnv: step?.env ?? [:])
            if values.isEmpty {
                // Kept as written, and said: the command is not runnable until it has a value.
                if !needs.contains(expression) { needs.append(expression) }
                let written = rest[open.lowerBound..<close.upperBound]
                texts = texts.map { $0 + written }
            } else {
                texts = Array(texts.flatMap { text in values.map { text + $0 } }.prefix(Self.combinationLimit))
            }
            rest = rest[close.upperBound...]
        }
        return (texts.map { $0 + rest }, needs)
    }

    /// The literal values an expression takes in a job and step; none when it is not a literal there.
    private func values(of expression: String, job: Job?, stepEnv: [String: String]) -> [String] {
        if expression.hasPrefix("matrix.") {
            return job?.matrix[String(expression.dropFirst("matrix.".count))] ?? []
        }
        if expression.hasPrefix("env.") {
            let name = String(expression.dropFirst("env.".count))
            return (stepEnv[name] ?? job?.env[name] ?? env[name]).map { [$0] } ?? []
        }
        return []
    }
}
