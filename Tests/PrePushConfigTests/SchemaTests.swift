import Foundation
@testable import PrePushConfig
import PrePushYAML
import PrePushTestSupport
import Testing

/// docs/prepush.schema.json (for editors' completion and checks) agrees with what prepush reads:
/// the same keys, and every YAML example in the docs validates against it.
@Suite struct SchemaTests {
    static let root = Fixtures.repositoryRoot.path
    static let schemaPath = root + "/docs/prepush.schema.json"

    static func schema() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: schemaPath))) as? [String: Any])
    }

    /// The object schema at a key path, following `anyOf` to its object branch and `$ref`s.
    static func objectSchema(_ schema: [String: Any], root: [String: Any]) -> [String: Any]? {
        if let ref = schema["$ref"] as? String, ref.hasPrefix("#/$defs/"),
           let definition = (root["$defs"] as? [String: Any])?[String(ref.dropFirst(8))] as? [String: Any] {
            return objectSchema(definition, root: root)
        }
        if schema["properties"] != nil { return schema }
        // A list of mappings (`quarantine:`): the keys of its items.
        if let items = schema["items"] as? [String: Any], let found = objectSchema(items, root: root) { return found }
        for branch in schema["anyOf"] as? [[String: Any]] ?? [] {
            if let found = objectSchema(branch, root: root) { return found }
        }
        return nil
    }

    @Test func theSchemaHasExactlyTheKeysPrepushReads() throws {
        let root = try Self.schema()
        for (parent, keys) in ConfigurationFile.knownKeys {
            var node: [String: Any]? = root
            for component in parent.split(separator: ".") {
                node = ((node?["properties"] as? [String: Any])?[String(component)] as? [String: Any]).flatMap { Self.objectSchema($0, root: root) }
            }
            let properties = try #require(node?["properties"] as? [String: Any], "no object schema at \(parent.isEmpty ? "the top" : parent)")
            #expect(Set(properties.keys) == Set(keys), "schema keys at \(parent.isEmpty ? "the top" : parent)")
        }
    }

    /// YAML as an editor's YAML 1.2 reader types it, as JSON: integers and true/false plain scalars
    /// are numbers and booleans, `~`/`null`/empty are null, the rest strings.
    static func json(_ node: YAMLNode?) -> Any {
        guard let node else { return NSNull() }
        switch node.content {
        case .scalar(let text, let isPlain):
            guard isPlain else { return text }
            if node.isNull { return NSNull() }
            if text == "true" { return true }
            if text == "false" { return false }
            if let number = Int(text) { return number }
            return text
        case .sequence(let items): return items.map { json($0) }
        case .mapping(let pairs):
            var object: [String: Any] = [:]
            for (key, value) in pairs { object[key.scalar ?? ""] = json(value) }
            return object
        }
    }

    /// The ```yaml blocks of a page that are configuration files (they have a top-level key prepush reads).
    static func examples(in page: String) -> [String] {
        var blocks: [String] = []
        var rest = page[...]
        while let start = rest.range(of: "```yaml\n"), let end = rest.range(of: "```", range: start.upperBound..<rest.endIndex) {
            let block = String(rest[start.upperBound..<end.lowerBound])
            let topKeys = block.split(separator: "\n").filter { !$0.hasPrefix(" ") && !$0.hasPrefix("#") && $0.contains(":") }
                .map { String($0.split(separator: ":")[0]) }
            if !topKeys.isEmpty, topKeys.allSatisfy({ ConfigurationFile.knownKeys[""]!.contains($0) }) { blocks.append(block) }
            rest = rest[end.upperBound...]
        }
        return blocks
    }

    static var hasValidator: Bool {
        (try? Command.run("python3", ["-c", "import jsonschema"], environment: ProcessInfo.processInfo.environment).status) == 0
    }

    @Test(.enabled(if: SchemaTests.hasValidator, "Python's jsonschema is not installed (scripts/bootstrap.sh --tests installs it)"))
    func everyConfigurationExampleInTheDocsValidates() throws {
        var checked = 0
        let folder = try TemporaryDirectory()
        var sources: [(page: String, examples: [String])] = []
        for page in ["README.md", "docs/configuration.md", "docs/getting-started.md", "docs/accessibility.md", "docs/traceability.md", "docs/ci.md", "docs/remote-testing.md"] {
            sources.append((page, Self.examples(in: try String(contentsOfFile: Self.root + "/" + page, encoding: .utf8))))
        }
        // The demo's own file, whole.
        sources.append(("Examples/AgenticTodo/.prepush.yml", [try String(contentsOfFile: Self.root + "/Examples/AgenticTodo/.prepush.yml", encoding: .utf8)]))
        for (page, examples) in sources {
            for (index, example) in examples.enumerated() {
                // Each example is also a file prepush reads without an error of form (paths may not exist here).
                let node = try YAMLLoader.load(example, file: page)
                let data = try JSONSerialization.data(withJSONObject: Self.json(node))
                let instance = folder.url("\(checked).json")
                try data.write(to: URL(fileURLWithPath: instance))
                let result = try Command.run("python3", ["-c", """
                    import json, sys, jsonschema
                    schema = json.load(open(sys.argv[1]))
                    jsonschema.Draft202012Validator.check_schema(schema)
                    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2]))), key=str)
                    for e in errors: print(list(e.absolute_path), e.message)
                    sys.exit(1 if errors else 0)
                    """, Self.schemaPath, instance], environment: ProcessInfo.processInfo.environment)
                #expect(result.status == 0, "\(page) example \(index + 1): \(result.combined)")
                checked += 1
            }
        }
        #expect(checked >= 6, "only \(checked) examples found")
    }

    @Test(.enabled(if: SchemaTests.hasValidator, "Python's jsonschema is not installed"))
    func theSchemaRefusesWhatPrepushRefuses() throws {
        let folder = try TemporaryDirectory()
        // The failing key's top-level section is in the error's path (anyOf reports at the branch it tried).
        for (yaml, path) in [("stages:\n  \"a b\":\n    run: x\n", "['stages'"), ("stages:\n  lint:\n    runn: x\n", "['stages'"), ("accessibility:\n  rules:\n    no-such-rule: off\n", "['accessibility'"),
                             ("remote:\n  host: -oProxyCommand=x\n  path: /x\n", "['remote', 'host']"), ("verbose: maybe\n", "['verbose']")] {
            let data = try JSONSerialization.data(withJSONObject: Self.json(try YAMLLoader.load(yaml, file: "t.yml")))
            let instance = folder.url("bad.json")
            try data.write(to: URL(fileURLWithPath: instance))
            let result = try Command.run("python3", ["-c", """
                import json, sys, jsonschema
                errors = list(jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).iter_errors(json.load(open(sys.argv[2]))))
                print([str(list(e.absolute_path)) for e in errors])
                sys.exit(1 if errors else 0)
                """, Self.schemaPath, instance], environment: ProcessInfo.processInfo.environment)
            #expect(result.status == 1 && result.standardOutput.contains(path), "\(yaml): \(result.combined)")
        }
    }
}
