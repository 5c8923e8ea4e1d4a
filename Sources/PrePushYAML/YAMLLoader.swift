internal import CYAML
import PrePushCore

/// Reads YAML text into `YAMLNode`s from libyaml's event stream. Built from events rather than
/// libyaml's document loader so that nesting is refused as soon as it gets too deep (libyaml's
/// scanner is quadratic in flow depth: 200 KB of `[[[…` took 27 s to load whole) and so that aliases
/// are counted as they expand (a few hundred bytes of nested aliases would otherwise expand into
/// gigabytes). Each call owns its parser, so loads on different threads are safe.
package enum YAMLLoader {
    /// Deepest nesting accepted.
    package static let maximumDepth = 64
    /// Most nodes that aliases may add to a document by repeating what their anchors hold. A real
    /// configuration or catalog repeats a few blocks; an alias bomb repeats millions.
    static let maximumAliasExpansion = 10_000
    /// Most bytes aliases may repeat, as a multiple of the text's size (at least 64 KB's worth)...
    static let maximumAliasBytesFactor = 10
    /// ...and at most this: a 261 KB file that aliased a 100 KB scalar 9,000 times printed 900 MB.
    static let maximumAliasBytes = 64 * 1024 * 1024

    /// Loads the single document of `text`. Returns nil for an empty document (a file with only
    /// comments, say). `file` names the text in errors.
    package static func load(_ text: String, file: String, lines: LineTable? = nil) throws(YAMLError) -> YAMLNode? {
        let lines = lines ?? LineTable(text)
        var bytes = Array(text.utf8)
        bytes.append(0)
        let result: Result<YAMLNode?, YAMLError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else {
                return .failure(YAMLError(.syntax("libyaml could not allocate a parser"), at: SourceLocation(file: file, line: 1, column: 1), sourceLine: nil))
            }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count - 1)
            var builder = Builder(file: file, lines: lines, textBytes: bytes.count - 1)
            do throws(YAMLError) {
                return .success(try builder.run(&parser))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Folds events into nodes with an explicit stack, so depth costs no native stack.
    private struct Builder {
        let file: String
        let lines: LineTable
        /// The text's size: aliases may repeat `maximumAliasBytesFactor` times as much, at most `maximumAliasBytes`.
        let aliasByteBudget: Int

        /// A collection being filled; changed in place through `stack`'s last element so that
        /// appending never copies the items gathered so far.
        struct Frame {
            let isMapping: Bool
            let start: SourceLocation
            let anchor: String?
            var items: [YAMLNode] = []
            var pairs: [(key: YAMLNode, value: YAMLNode)] = []
            var pendingKey: YAMLNode?
            var keys: [String: SourceLocation] = [:]
            var nodes = 1
            var bytes = 0
        }

        var stack: [Frame] = []
        /// Anchored nodes with the number of nodes each holds, for counting what an alias repeats.
        var anchors: [String: (node: YAMLNode, nodes: Int, bytes: Int)] = [:]
        var expanded = 0
        var expandedBytes = 0
        var root: YAMLNode?
        var documents = 0

        init(file: String, lines: LineTable, textBytes: Int) {
            self.file = file
            self.lines = lines
            aliasByteBudget = min(YAMLLoader.maximumAliasBytes, max(textBytes, 64 * 1024) * YAMLLoader.maximumAliasBytesFactor)
        }

        func location(of mark: yaml_mark_t) -> SourceLocation {
            SourceLocation(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
        }

        func line(_ location: SourceLocation) -> String? { lines.line(location.line) }

        func syntaxError(_ parser: yaml_parser_t) -> YAMLError {
            let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
            var message = problem
            if let context = parser.context.map({ String(cString: $0) }) {
                let contextLocation = location(of: parser.context_mark)
                message += " (\(context) at line \(contextLocation.line), column \(contextLocation.column))"
            }
            let place = location(of: parser.problem_mark)
            return YAMLError(.syntax(message), at: place, sourceLine: line(place))
        }

        static func anchorName(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
        }

        mutating func run(_ parser: inout yaml_parser_t) throws(YAMLError) -> YAMLNode? {
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else { throw syntaxError(parser) }
                defer { yaml_event_delete(&event) }
                let start = location(of: event.start_mark)
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return root
                case YAML_DOCUMENT_START_EVENT:
                    documents += 1
                case YAML_SCALAR_EVENT:
                    let scalar = event.data.scalar
                    let value = String(decoding: UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length)),
                                       as: UTF8.self)
                    let node = YAMLNode(content: .scalar(value, isPlain: scalar.style == YAML_PLAIN_SCALAR_STYLE),
                                        location: start)
                    if let anchor = Self.anchorName(scalar.anchor) { anchors[anchor] = (node, 1, Int(scalar.length)) }
                    try add(node, nodes: 1, bytes: Int(scalar.length))
                case YAML_ALIAS_EVENT:
                    let name = Self.anchorName(event.data.alias.anchor) ?? ""
                    guard let anchored = anchors[name] else {
                        throw YAMLError(.syntax("found undefined alias '\(Self.shortened(name))'"), at: start, sourceLine: line(start))
                    }
                    expanded += anchored.nodes
                    expandedBytes += anchored.bytes
                    guard expanded <= YAMLLoader.maximumAliasExpansion else {
                        throw YAMLError(.aliasExpansion(limit: YAMLLoader.maximumAliasExpansion), at: start, sourceLine: line(start))
                    }
                    // Few nodes can still be many bytes: a 100 KB scalar aliased 9,000 times.
                    guard expandedBytes <= aliasByteBudget else {
                        throw YAMLError(.aliasBytes(limit: aliasByteBudget), at: start, sourceLine: line(start))
                    }
                    try add(YAMLNode(content: anchored.node.content, location: start), nodes: anchored.nodes, bytes: anchored.bytes)
                case YAML_SEQUENCE_START_EVENT:
                    try open(start)
                    stack.append(Frame(isMapping: false, start: start,
                                       anchor: Self.anchorName(event.data.sequence_start.anchor)))
                case YAML_MAPPING_START_EVENT:
                    try open(start)
                    stack.append(Frame(isMapping: true, start: start,
                                       anchor: Self.anchorName(event.data.mapping_start.anchor)))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard let closed = stack.popLast() else { break }
                    let node = YAMLNode(content: closed.isMapping ? .mapping(closed.pairs) : .sequence(closed.items),
                                        location: closed.start)
                    if let anchor = closed.anchor { anchors[anchor] = (node, closed.nodes, closed.bytes) }
                    try add(node, nodes: closed.nodes, bytes: closed.bytes)
                default:
                    break
                }
            }
        }

        static func shortened(_ text: String) -> String {
            text.unicodeScalars.count > 80 ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(80))) + "…" : text
        }

        /// Refuses a collection that would nest deeper than `maximumDepth`, before libyaml reads on.
        func open(_ start: SourceLocation) throws(YAMLError) {
            if documents > 1 && stack.isEmpty {
                throw YAMLError(.extraDocument, at: start, sourceLine: line(start))
            }
            guard stack.count < YAMLLoader.maximumDepth else {
                throw YAMLError(.tooDeep, at: start, sourceLine: line(start))
            }
        }

        /// Puts a finished node into the collection being filled, or makes it the document's root.
        mutating func add(_ node: YAMLNode, nodes: Int, bytes: Int) throws(YAMLError) {
            guard !stack.isEmpty else {
                // A second document is almost always a mistake (a stray `---`); say so instead of ignoring it.
                if documents > 1 || root != nil {
                    throw YAMLError(.extraDocument, at: node.location, sourceLine: line(node.location))
                }
                root = node
                return
            }
            let top = stack.count - 1
            stack[top].nodes += nodes
            stack[top].bytes += bytes
            guard stack[top].isMapping else {
                stack[top].items.append(node)
                return
            }
            guard let key = stack[top].pendingKey else {
                stack[top].pendingKey = node
                return
            }
            stack[top].pendingKey = nil
            if let keyText = key.scalar {
                if let first = stack[top].keys[keyText] {
                    throw YAMLError(.duplicateKey(keyText, firstAt: first), at: key.location, sourceLine: line(key.location))
                }
                stack[top].keys[keyText] = key.location
            }
            stack[top].pairs.append((key, node))
        }
    }
}
