// The floor for the accessibility check benchmark: read every `.swift` file under a folder and parse
// it with swift-syntax, nothing else. `prepush a11y --all` on the same folder does this plus the
// configuration, the rules and the output; the ratio of the two is the check's own cost.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SwiftParser
import SwiftSyntax

let root = CommandLine.arguments.dropFirst().first ?? "."
var folders = [root]
var statements = 0
var files = 0
while let folder = folders.popLast() {
    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !name.hasPrefix(".") {
        let path = folder + "/" + name
        if (try? FileManager.default.contentsOfDirectory(atPath: path)) != nil {
            folders.append(path)
        } else if name.hasSuffix(".swift"), let data = FileManager.default.contents(atPath: path) {
            let tree = Parser.parse(source: String(decoding: data, as: UTF8.self))
            statements += tree.statements.count
            files += 1
        }
    }
}
// Printed so the parse cannot be optimised away.
print("\(files) files, \(statements) top-level statements")
