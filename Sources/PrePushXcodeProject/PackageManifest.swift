import PrePushCore
internal import SwiftParser
internal import SwiftSyntax

/// A `Package.swift` read as Swift (never run): its name, products, platforms and test targets,
/// enough to tell whether `swift test` can build it on the Mac, and which scheme Xcode makes for
/// it when it cannot.
package struct PackageManifest: Sendable, Equatable {
    /// `Package(name:)`.
    package let name: String?
    /// The products' names, in order.
    package let products: [String]
    /// The platforms `platforms:` names (`iOS`, `macOS`), lowercased; empty when it names none.
    package let platforms: [String]
    /// The `.testTarget(name:)`s.
    package let testTargets: [String]
    /// The folders of its executables (relative to the manifest), by the names `swift run` takes:
    /// each `.executableTarget`'s name and each `.executable` product's name (its first executable
    /// target's folder): `path:`, else `Sources/<name>`.
    package let executableFolders: [String: String]

    /// Reads a manifest's text.
    package init(text: String) {
        final class Finder: SyntaxVisitor {
            var name: String?
            var products: [String] = []
            var platforms: [String] = []
            var testTargets: [String] = []
            var executableTargets: [String: String] = [:]
            var executableProducts: [(name: String, targets: [String])] = []
            override func visit(_ call: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                let callee = ManifestVisitor.calleeName(call.calledExpression)
                let name = ManifestVisitor.argument(call, "name").flatMap(ManifestVisitor.string)
                switch callee {
                case "Package":
                    if self.name == nil { self.name = name }
                    if let list = ManifestVisitor.argument(call, "platforms") {
                        // `.iOS(.v16)`, `.macOS("13.0")`: the calls' names, not their versions.
                        platforms = Self.calls(in: Syntax(list)).map { $0.lowercased() }
                    }
                case "library", "executable", "plugin":
                    if let name, call.parent?.parent?.parent?.parent?.as(LabeledExprSyntax.self)?.label?.text == "products" {
                        products.append(name)
                        if callee == "executable", let list = ManifestVisitor.argument(call, "targets")?.as(ArrayExprSyntax.self) {
                            executableProducts.append((name, list.elements.compactMap { ManifestVisitor.string($0.expression) }))
                        }
                    }
                case "executableTarget":
                    if let name { executableTargets[name] = ManifestVisitor.argument(call, "path").flatMap(ManifestVisitor.string) ?? "Sources/\(name)" }
                case "testTarget":
                    if let name { testTargets.append(name) }
                default:
                    break
                }
                return .visitChildren
            }
            /// The names of the calls directly in a list (`[.iOS(.v16), .macOS(.v13)]`).
            static func calls(in node: Syntax) -> [String] {
                guard let array = node.as(ArrayExprSyntax.self) else { return [] }
                return array.elements.compactMap { element in
                    element.expression.as(FunctionCallExprSyntax.self).flatMap { ManifestVisitor.calleeName($0.calledExpression) }
                }
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(Parser.parse(source: text))
        name = finder.name
        products = finder.products
        platforms = finder.platforms
        testTargets = finder.testTargets
        var executables = finder.executableTargets
        for product in finder.executableProducts where executables[product.name] == nil {
            if let folder = product.targets.lazy.compactMap({ finder.executableTargets[$0] }).first { executables[product.name] = folder }
        }
        executableFolders = executables
    }

    /// The scheme Xcode makes for the package: `<name>-Package` when it has more than one product
    /// (that scheme tests every test target), else its one product's (or the package's) name.
    package var scheme: String? {
        products.count > 1 ? name.map { $0 + "-Package" } : (products.first ?? name)
    }

    /// Whether its `platforms:` name iOS alone.
    package var iOSOnlyByPlatforms: Bool { !platforms.isEmpty && platforms.allSatisfy { $0 == "ios" } }

    /// Whether its `platforms:` name platforms but not macOS (`[.iOS(.v18), .visionOS(.v1)]`): on the
    /// Mac it would build for SwiftPM's oldest macOS, where the iOS 18 APIs its code uses are not.
    package var leavesOutTheMac: Bool { !platforms.isEmpty && !platforms.contains("macos") }

    /// The first line of `text` that imports UIKit outside an `#if canImport(UIKit)` or `#if os(iOS)`
    /// (1-based), or nil: such a file cannot build for macOS, where `swift test` runs.
    package static func unguardedUIKitImport(in text: String) -> Int? {
        // Each open `#if`: whether its branch being read is guarded (UIKit or iOS in its condition).
        var guards: [Bool] = []
        var conditions: [Substring] = []
        // `\r\n` is one Character in Swift: split on every line end, so a CRLF file has its lines.
        for (number, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("#if") {
                guards.append(Self.guardsUIKit(line))
                conditions.append(line)
            } else if line.hasPrefix("#elseif") {
                if !guards.isEmpty { guards[guards.count - 1] = Self.guardsUIKit(line); conditions[conditions.count - 1] = line }
            } else if line.hasPrefix("#else") {
                // The other branch of `#if canImport(UIKit)` is where UIKit is not; the other
                // branch of `#if os(macOS)` is where the Mac is not.
                if !guards.isEmpty { guards[guards.count - 1] = conditions.last.map(Self.namesTheMac) ?? false }
            } else if line.hasPrefix("#endif") {
                _ = guards.popLast()
                _ = conditions.popLast()
            } else if line.hasPrefix("import UIKit") || line.hasPrefix("@_exported import UIKit") || line.hasPrefix("@testable import UIKit"),
                      !guards.contains(true) {
                return number + 1
            }
        }
        return nil
    }

    /// Whether an `#if` condition is the Mac's alone (`os(macOS)`, `canImport(AppKit)`), so its `#else` is not.
    static func namesTheMac(_ line: Substring) -> Bool {
        (line.contains("os(macOS)") && !line.contains("!os(macOS)")) || line.contains("canImport(AppKit)")
    }

    /// Whether an `#if` condition holds only where UIKit is (`canImport(UIKit)`, `os(iOS)`, `os(tvOS)`, `!os(macOS)`).
    static func guardsUIKit(_ line: Substring) -> Bool {
        ["canImport(UIKit)", "os(iOS)", "os(tvOS)", "os(visionOS)", "os(watchOS)", "!os(macOS)", "targetEnvironment(macCatalyst)"].contains { line.contains($0) }
    }
}
