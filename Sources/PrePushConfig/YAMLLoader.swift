internal import CYAML
import PrePushCore

/// Reads YAML text into `YAMLNode`s with libyaml's document loader. libyaml is not re-entrant per
/// parser, but each call here owns its parser, so loads on different threads are safe.
package enum YAMLLoader {
    /// Deepest nesting accepted; also stops aliases that point at their own ancestors.
    static let maximumDepth = 64

    /// Loads the single document of `text`. Returns nil for an empty document (a file with only
    /// comments, say). `file` names the text in errors.
    package static func load(_ text: String, file: String) throws(ConfigurationError) -> YAMLNode? {
        var bytes = Array(text.utf8)
        bytes.append(0)
        let result: Result<YAMLNode?, ConfigurationError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else {
                return .failure(.yamlSyntax(SourceLocation(file: file, line: 1, column: 1),
                                            problem: "libyaml could not allocate a parser", sourceLine: nil))
            }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count - 1)

            var document = yaml_document_t()
            guard yaml_parser_load(&parser, &document) == 1 else {
                return .failure(syntaxError(parser, file: file, text: text))
            }
            defer { yaml_document_delete(&document) }
            guard let root = yaml_document_get_root_node(&document) else { return .success(nil) }
            let converted: Result<YAMLNode, ConfigurationError>
            do throws(ConfigurationError) {
                converted = .success(try convert(root, in: &document, file: file, text: text, depth: 0))
            } catch {
                converted = .failure(error)
            }
            guard case .success(let node) = converted else { return converted.map { Optional($0) } }

            // A second document is almost always a mistake (a stray `---`); say so instead of ignoring it.
            var next = yaml_document_t()
            guard yaml_parser_load(&parser, &next) == 1 else {
                return .failure(syntaxError(parser, file: file, text: text))
            }
            defer { yaml_document_delete(&next) }
            if let extra = yaml_document_get_root_node(&next) {
                let location = location(of: extra.pointee.start_mark, file: file)
                return .failure(.extraDocument(location, sourceLine: Diagnostic.line(location.line, of: text)))
            }
            return .success(node)
        }
        return try result.get()
    }

    private static func location(of mark: yaml_mark_t, file: String) -> SourceLocation {
        SourceLocation(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    private static func syntaxError(_ parser: yaml_parser_t, file: String, text: String) -> ConfigurationError {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
        var message = problem
        if let context = parser.context.map({ String(cString: $0) }) {
            let contextLocation = location(of: parser.context_mark, file: file)
            message += " (\(context) at line \(contextLocation.line), column \(contextLocation.column))"
        }
        let where_ = location(of: parser.problem_mark, file: file)
        return .yamlSyntax(where_, problem: message, sourceLine: Diagnostic.line(where_.line, of: text))
    }

    private static func convert(
        _ node: UnsafeMutablePointer<yaml_node_t>, in document: inout yaml_document_t,
        file: String, text: String, depth: Int
    ) throws(ConfigurationError) -> YAMLNode {
        let start = location(of: node.pointee.start_mark, file: file)
        guard depth < maximumDepth else {
            throw .tooDeep(start, sourceLine: Diagnostic.line(start.line, of: text))
        }
        switch node.pointee.type {
        case YAML_SCALAR_NODE:
            let scalar = node.pointee.data.scalar
            let buffer = UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length))
            let value = String(decoding: buffer, as: UTF8.self)
            return YAMLNode(content: .scalar(value, isPlain: scalar.style == YAML_PLAIN_SCALAR_STYLE), location: start)
        case YAML_SEQUENCE_NODE:
            var items: [YAMLNode] = []
            var item = node.pointee.data.sequence.items.start
            while let current = item, current != node.pointee.data.sequence.items.top {
                guard let child = yaml_document_get_node(&document, current.pointee) else { break }
                items.append(try convert(child, in: &document, file: file, text: text, depth: depth + 1))
                item = current + 1
            }
            return YAMLNode(content: .sequence(items), location: start)
        case YAML_MAPPING_NODE:
            var pairs: [(key: YAMLNode, value: YAMLNode)] = []
            var pair = node.pointee.data.mapping.pairs.start
            while let current = pair, current != node.pointee.data.mapping.pairs.top {
                guard let keyNode = yaml_document_get_node(&document, current.pointee.key),
                      let valueNode = yaml_document_get_node(&document, current.pointee.value) else { break }
                let key = try convert(keyNode, in: &document, file: file, text: text, depth: depth + 1)
                let value = try convert(valueNode, in: &document, file: file, text: text, depth: depth + 1)
                if let keyText = key.scalar, let first = pairs.first(where: { $0.key.scalar == keyText }) {
                    throw .duplicateKey(key.location, key: keyText, firstAt: first.key.location,
                                        sourceLine: Diagnostic.line(key.location.line, of: text))
                }
                pairs.append((key, value))
                pair = current + 1
            }
            return YAMLNode(content: .mapping(pairs), location: start)
        default:
            return YAMLNode(content: .scalar("", isPlain: true), location: start)
        }
    }
}
