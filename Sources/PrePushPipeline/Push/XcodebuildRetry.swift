#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// An `xcodebuild test` stage run again: for its failed tests only (`test-without-building` with
/// `-only-testing:` of each, the build the first attempt made reused) or whole (`retryOn:
/// infrastructure`), each attempt writing its own result bundle, since xcodebuild refuses to write
/// over one and the first attempt's stays for whoever opens it in Xcode.
enum XcodebuildRetry {
    /// xcodebuild's actions; the ones a retry drops are those that build or clean.
    static let actions: Set<String> = ["build", "build-for-testing", "analyze", "archive", "test", "test-without-building", "clean", "installsrc", "install", "docbuild"]
    /// Options that take no value: the word after one can be an action.
    static let flags: Set<String> = [
        "-quiet", "-verbose", "-json", "-list", "-showsdks", "-showBuildSettings", "-showTestPlans", "-usage", "-help", "-version",
        "-allowProvisioningUpdates", "-allowProvisioningDeviceRegistration", "-skipUnavailableActions", "-skipMacroValidation",
        "-skipPackagePluginValidation", "-parallelizeTargets", "-hideShellScriptEnvironment", "-disableAutomaticPackageResolution",
        "-onlyUsePackageVersionsFromResolvedFile", "-skipPackageUpdates", "-disablePackageRepositoryCache", "-enumerate-tests",
        "-retry-tests-on-failure", "-run-tests-until-failure",
    ]

    /// The words of the command's `xcodebuild` invocation (from `xcodebuild` to the next operator)
    /// when it tests (`test` or `test-without-building`); nil otherwise.
    static func invocation(in command: String) -> (tokens: [ShellWords.Token], xcodebuild: Int, end: Int)? {
        let tokens = ShellWords.tokens(command)
        guard let xcodebuild = tokens.firstIndex(where: { !$0.isOperator && ($0.value == "xcodebuild" || $0.value.hasSuffix("/xcodebuild")) }) else { return nil }
        let end = tokens[(xcodebuild + 1)...].firstIndex(where: \.isOperator) ?? tokens.count
        let tests = actionIndices(tokens, from: xcodebuild + 1, to: end).contains { ["test", "test-without-building"].contains(tokens[$0].value) }
        return tests ? (tokens, xcodebuild, end) : nil
    }

    /// Where the actions are among `tokens[from..<to]`: action words not taken as an option's value
    /// (`-scheme test` names a scheme).
    static func actionIndices(_ tokens: [ShellWords.Token], from: Int, to: Int) -> [Int] {
        (from..<to).filter { index in
            guard actions.contains(tokens[index].value) else { return false }
            let previous = tokens[index - 1].value
            let previousTakesValue = index - 1 >= from && previous.hasPrefix("-") && !flags.contains(previous)
                && !previous.contains(":") && !previous.contains("=")
            return !previousTakesValue
        }
    }

    /// `-only-testing:` arguments naming `tests`, nil when one has no selector (its results came
    /// from a console that does not name its test bundle). A test is named in each form xcodebuild
    /// has taken, since the result bundle's identifier does not tell XCTest from Swift Testing:
    /// `Bundle/Class/testLogin` (XCTest), `Bundle/Suite/signIn()` (Swift Testing), and
    /// `Bundle/Suite/signIn()()` (Swift Testing in Xcode 16.0–16.4, which drops one `()`). A form
    /// that names no test selects nothing: the selection is their union.
    static func onlyTesting(_ tests: [UITestResult]) -> [String]? {
        var arguments: [String] = []
        var seen: Set<String> = []
        for test in tests {
            guard let selector = test.selector ?? consoleSelector(test) else { return nil }
            for form in forms(of: selector) where seen.insert(form).inserted { arguments.append("-only-testing:" + form) }
        }
        return arguments
    }

    /// The forms one selector takes for `-only-testing:`: itself, and for a name ending in `()` also
    /// without it (XCTest) and with `()()` (Swift Testing in Xcode 16.0–16.4).
    static func forms(of selector: String) -> [String] {
        selector.hasSuffix("()") ? [String(selector.dropLast(2)), selector, selector + "()"] : [selector]
    }

    /// Whether `argument` would not reach xcodebuild as itself through an unquoted variable: the
    /// shell splits it at blanks and expands `*`, `?` and `[` against the folder (a test name is
    /// the pull request's). Control characters are refused as well.
    static func breaksUnquoted(_ argument: String) -> Bool {
        argument.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == " " || $0 == "*" || $0 == "?" || $0 == "[" || $0.properties.isWhitespace }
    }

    /// The selector of a test read from xcodebuild's console, which names XCTest tests
    /// `-[Module.Class test]` (suite `Module.Class`): `Module/Class/test`. Nil for other suites.
    static func consoleSelector(_ test: UITestResult) -> String? {
        let parts = test.suite.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts.contains(where: \.isEmpty), !test.name.contains("("), !test.name.contains(" ") else { return nil }
        return "\(parts[0])/\(parts[1])/\(test.name)"
    }

    /// The command run again as attempt `attempt` (`retry-1`, `attempt-2`): with `narrowing`, the
    /// tests `onlyTesting` names, each a shell-quoted word after `xcodebuild` (or through
    /// `$PREPUSH_ONLY_TESTING` where the command already reads it), and nothing built (`test`
    /// becomes `test-without-building`; `clean`, `build` and the command's own `-only-testing:` go);
    /// in every case the result bundle's path, wherever the command names it (an `rm -rf` before
    /// xcodebuild too), gets `.attempt` before `.xcresult`. Nil when the command does not run
    /// `xcodebuild test`.
    static func command(_ command: String, attempt: String, narrowing: Bool, onlyTesting: [String] = []) -> String? {
        guard let (tokens, xcodebuild, end) = invocation(in: command) else { return nil }
        var replacements: [(Range<String.Index>, String)] = []
        if narrowing {
            for index in actionIndices(tokens, from: xcodebuild + 1, to: end) {
                switch tokens[index].value {
                case "test": replacements.append((tokens[index].range, "test-without-building"))
                case "test-without-building": break
                default: replacements.append((removal(tokens, index), ""))
                }
            }
            var index = xcodebuild + 1
            while index < end {
                let value = tokens[index].value
                if value.hasPrefix("-only-testing:") { replacements.append((removal(tokens, index), "")) }
                if value == "-only-testing" {
                    replacements.append((removal(tokens, index), ""))
                    if index + 1 < end { replacements.append((removal(tokens, index + 1), "")); index += 1 }
                }
                index += 1
            }
            if !command.contains("PREPUSH_ONLY_TESTING"), !onlyTesting.isEmpty {
                // Quoted words, never a variable the shell would split and glob.
                let words = onlyTesting.map(ShellQuoting.word).joined(separator: " ")
                replacements.append((tokens[xcodebuild].range.upperBound..<tokens[xcodebuild].range.upperBound, " " + words))
            }
        }
        if let flag = (xcodebuild + 1..<end).first(where: { ["-resultBundlePath", "--resultBundlePath"].contains(tokens[$0].value) }), flag + 1 < end {
            let path = tokens[flag + 1].value
            let renamed = ShellQuoting.word(bundlePath(path, attempt: attempt))
            for token in tokens where !token.isOperator && token.value == path { replacements.append((token.range, renamed)) }
        }
        // Pieces of the original between the replaced ranges, in order: an insertion where a removal
        // starts comes first.
        var rewritten = ""
        var cursor = command.startIndex
        for (range, text) in replacements.sorted(by: { $0.0.lowerBound != $1.0.lowerBound ? $0.0.lowerBound < $1.0.lowerBound : $0.0.isEmpty && !$1.0.isEmpty }) {
            if range.lowerBound > cursor { rewritten += command[cursor..<range.lowerBound] }
            rewritten += text
            cursor = max(cursor, range.upperBound)
        }
        return rewritten + command[cursor...]
    }

    /// `Build/UI.xcresult` as attempt `retry-1` writes it: `Build/UI.retry-1.xcresult`.
    static func bundlePath(_ path: String, attempt: String) -> String {
        path.hasSuffix(".xcresult") ? "\(path.dropLast(9)).\(attempt).xcresult" : "\(path).\(attempt)"
    }

    /// A token's range with the blank before it, so that removing it leaves one space.
    private static func removal(_ tokens: [ShellWords.Token], _ index: Int) -> Range<String.Index> {
        let start = index > 0 ? tokens[index - 1].range.upperBound : tokens[index].range.lowerBound
        return start..<tokens[index].range.upperBound
    }
}
