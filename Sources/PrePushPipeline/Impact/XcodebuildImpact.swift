import PrePushCore

/// The `xcodebuild` invocations of `selective: tests` on an `xcodebuild test` stage, as argument
/// lists built from the stage's own command: the recording's build, its run of every test, its run
/// of each test alone, the coverage read, and the push's `-only-testing:` selection. Pure functions,
/// tested on Linux; what runs them (`XcodebuildImpactRecorder`) needs a Mac.
struct XcodebuildImpact: Equatable {
    /// The stage's words after `xcodebuild` that say what is built and where it runs (the project or
    /// workspace, scheme, destination, test plan, configuration, build settings), without its actions
    /// and without the options recording sets itself.
    let options: [String]

    /// Options recording sets itself, each with its value: its own derived data and result bundles,
    /// coverage on, one test at a time, nothing repeated.
    static let replaced: Set<String> = [
        "-resultBundlePath", "--resultBundlePath", "-derivedDataPath", "-enableCodeCoverage", "-only-testing",
        "-parallel-testing-enabled", "-parallel-testing-worker-count", "-maximum-parallel-testing-workers",
        "-test-iterations", "-test-repetition-relaunch-enabled", "-resultStreamPath", "-testProductsPath",
    ]

    /// Options without a value recording drops: a test run once, not until it fails or again after.
    static let droppedFlags: Set<String> = ["-retry-tests-on-failure", "-run-tests-until-failure"]

    /// The stage command's `xcodebuild` options, or why recording cannot run it without a shell: its
    /// words are passed as an argument list, so a `$VARIABLE` or a backquote would reach xcodebuild
    /// as text, and a `cd` before it would be lost (the stage's `workingDirectory:` says where).
    static func parse(_ command: String) -> Result<XcodebuildImpact, ImpactError> {
        guard let (tokens, xcodebuild, end) = XcodebuildRetry.invocation(in: command) else {
            return .failure(.xcodebuild("the command does not run xcodebuild test or test-without-building"))
        }
        if tokens[..<xcodebuild].contains(where: { !$0.isOperator && $0.value == "cd" }) {
            return .failure(.xcodebuild("a cd before xcodebuild is not followed (recording runs xcodebuild in the stage's folder): set the stage's workingDirectory instead"))
        }
        let actions = Set(XcodebuildRetry.actionIndices(tokens, from: xcodebuild + 1, to: end))
        var options: [String] = []
        var index = xcodebuild + 1
        while index < end {
            let token = tokens[index]
            if replaced.contains(token.value) {
                index += 2
                continue
            }
            if actions.contains(index) || token.value.hasPrefix("-only-testing:") || droppedFlags.contains(token.value) {
                index += 1
                continue
            }
            let raw = command[token.range]
            if (raw.contains("$") || raw.contains("`")) && !(raw.hasPrefix("'") && raw.hasSuffix("'")) {
                return .failure(.xcodebuild("\(raw) needs a shell to expand; recording passes xcodebuild's words as they are: write the value out"))
            }
            options.append(token.value)
            index += 1
        }
        guard options.contains("-scheme") else {
            return .failure(.xcodebuild("it names no -scheme (recording builds the scheme's tests itself; a stage that runs an -xctestrun file cannot be recorded)"))
        }
        return .success(XcodebuildImpact(options: options))
    }

    /// `xcodebuild build-for-testing` with coverage, into recording's own derived data.
    func buildForTesting(derivedData: String) -> [String] {
        ["build-for-testing"] + options + ["-derivedDataPath", derivedData, "-enableCodeCoverage", "YES"]
    }

    /// `xcodebuild test-without-building` of what was built: every test (`onlyTesting` empty) or the
    /// ones named, one at a time, with coverage, into `resultBundle` (which must not exist yet).
    func testWithoutBuilding(onlyTesting: [String], derivedData: String, resultBundle: String) -> [String] {
        ["test-without-building"] + options
            + ["-derivedDataPath", derivedData, "-enableCodeCoverage", "YES", "-parallel-testing-enabled", "NO"]
            + onlyTesting.map { "-only-testing:" + $0 } + ["-resultBundlePath", resultBundle]
    }

    /// `xcrun`'s arguments for the coverage of a result bundle, as JSON.
    static func coverageReport(bundle: String) -> [String] {
        ["xccov", "view", "--report", "--json", bundle]
    }

    /// xcodebuild's selector of a test named as `swift test list` names it (the map's `listed`):
    /// `Target.Class/test` → `Target/Class/test`, `Target.Suite/Inner/run(x:)` →
    /// `Target/Suite/Inner/run(x:)`, `Target.free()` → `Target/free()`. A module name has no dot, so
    /// the first dot ends it.
    static func selector(listed: String) -> String {
        guard let dot = listed.firstIndex(of: ".") else { return listed }
        return "\(listed[..<dot])/\(listed[listed.index(after: dot)...])"
    }

    /// `swift test list`'s name of a test from its xcodebuild selector (the reverse of `selector`);
    /// an XCTest method's `()`, which the result bundle adds, is dropped when `xctest`.
    static func listed(selector: String, xctest: Bool) -> String {
        guard let slash = selector.firstIndex(of: "/") else { return selector }
        let name = "\(selector[..<slash]).\(selector[selector.index(after: slash)...])"
        return xctest && name.hasSuffix("()") ? String(name.dropLast(2)) : name
    }

    /// Whether `command` runs `xcodebuild test` (or `test-without-building`) and does not end in the
    /// `swift test` that `selective:` adds `--filter` to (that one is a SwiftPM stage).
    static func isXcodebuildTestStage(_ command: String) -> Bool {
        SelectiveTests.command(command, filterArgument: "''") == nil && XcodebuildRetry.invocation(in: command) != nil
    }

    /// The stage's command building its tests without running one (`test` becomes
    /// `build-for-testing`, everything else as written), for a push that chose no test; nil when it
    /// only runs tests built elsewhere (`test-without-building`).
    static func buildForTestingCommand(_ command: String) -> String? {
        guard let (tokens, xcodebuild, end) = XcodebuildRetry.invocation(in: command) else { return nil }
        let actions = XcodebuildRetry.actionIndices(tokens, from: xcodebuild + 1, to: end)
        guard let test = actions.first(where: { tokens[$0].value == "test" }),
              !actions.contains(where: { tokens[$0].value == "test-without-building" }) else { return nil }
        return String(command[..<tokens[test].range.lowerBound]) + "build-for-testing" + command[tokens[test].range.upperBound...]
    }

    /// Which tests the stage's command itself runs, by its own `-only-testing` and `-skip-testing`
    /// values (`Target`, `Target/Class`, `Target/Class/test`); nil when it runs no `xcodebuild test`.
    static func scope(of command: String) -> Scope? {
        guard let (tokens, xcodebuild, end) = XcodebuildRetry.invocation(in: command) else { return nil }
        var scope = Scope(only: [], skip: [])
        var index = xcodebuild + 1
        while index < end {
            let value = tokens[index].value
            for (flag, isOnly) in [("-only-testing", true), ("-skip-testing", false)] {
                var named: String?
                if value.hasPrefix(flag + ":") { named = String(value.dropFirst(flag.count + 1)) }
                if value == flag, index + 1 < end { named = tokens[index + 1].value }
                guard let named else { continue }
                if isOnly { scope.only.append(named) } else { scope.skip.append(named) }
            }
            index += 1
        }
        return scope
    }

    /// The tests an `xcodebuild` command selects with its own `-only-testing` and `-skip-testing`.
    struct Scope: Equatable {
        var only: [String]
        var skip: [String]

        /// Whether the command runs the test `listed` (a `swift test list` name): named or inside a
        /// named target or class by `-only-testing` (or there is none), and by no `-skip-testing`.
        /// A test it does not run cannot be chosen for it: `-only-testing` would run nothing, and a
        /// push that runs fewer tests than it chose is refused.
        func runs(_ listed: String) -> Bool {
            let forms = XcodebuildRetry.forms(of: XcodebuildImpact.selector(listed: listed))
            let names: (String) -> Bool = { value in forms.contains { $0 == value || $0.hasPrefix(value + "/") } }
            return (only.isEmpty || only.contains(where: names)) && !skip.contains(where: names)
        }
    }

    /// The `-only-testing:` arguments that run exactly `listed` (each a `swift test list` name), in
    /// every form xcodebuild has taken for a Swift Testing test (`XcodebuildRetry.forms`).
    static func onlyTesting(_ listed: [String]) -> [String] {
        var seen: Set<String> = []
        var arguments: [String] = []
        for name in listed {
            for form in XcodebuildRetry.forms(of: selector(listed: name)) where seen.insert(form).inserted {
                arguments.append("-only-testing:" + form)
            }
        }
        return arguments
    }

    /// How much of the scheme an xcodebuild stage runs for a choice: the chosen tests, their suites,
    /// or their test targets (each holds the ones before it).
    enum Breadth: Sendable, Equatable {
        case tests, suites, targets
    }

    /// The `-only-testing:` arguments naming the suites (`Target/Class` for `Target.Class/test`,
    /// `Target` for a free function) or the test targets that hold `listed`: every test of those
    /// runs, the chosen ones among them, for a choice too long to name test by test.
    static func onlyTesting(_ listed: [String], breadth: Breadth) -> [String] {
        guard breadth != .tests else { return onlyTesting(listed) }
        var seen: Set<String> = []
        var arguments: [String] = []
        for name in listed {
            let selector = selector(listed: name)
            let cut = breadth == .suites ? selector.lastIndex(of: "/") : selector.firstIndex(of: "/")
            let scope = cut.map { String(selector[..<$0]) } ?? selector
            if seen.insert(scope).inserted { arguments.append("-only-testing:" + scope) }
        }
        return arguments
    }

    /// How an xcodebuild stage runs `listed`: each test by its own `-only-testing:`, or, when that
    /// is more than one command may name (`ImpactStep.maximumFilters`, `maximumCommandBytes`), each
    /// chosen test's suite, or else its test target; nil when even those do not fit.
    /// A wider scope never reaches past the command's own `-only-testing` (its `-skip-testing` stays
    /// in the command): a suite or target it names only in part is not widened to.
    static func narrowing(_ command: String, chosen listed: [String]) -> (command: String?, onlyTesting: [String], breadth: Breadth)? {
        let own = scope(of: command)?.only ?? []
        for breadth in [Breadth.tests, .suites, .targets] {
            let onlyTesting = onlyTesting(listed, breadth: breadth)
            let inside = own.isEmpty || onlyTesting.allSatisfy { argument in
                let named = argument.dropFirst("-only-testing:".count)
                return own.contains { named == $0 || named.hasPrefix($0 + "/") }
            }
            guard breadth == .tests || inside else { continue }
            let narrowed = selectiveCommand(command, onlyTesting: onlyTesting)
            let names = breadth == .tests ? listed.count : onlyTesting.count
            if names <= ImpactStep.maximumFilters && (narrowed ?? onlyTesting.joined(separator: " ")).utf8.count <= ImpactStep.maximumCommandBytes {
                return (narrowed, onlyTesting, breadth)
            }
        }
        return nil
    }

    /// The stage's command running exactly `onlyTesting` (the arguments `onlyTesting(_:)` made): each
    /// a shell-quoted word after `xcodebuild`, the command's own `-only-testing` removed (the chosen
    /// tests are among the ones it ran, since the map was recorded from it), everything else as
    /// written: the stage still builds, so a type error anywhere still refuses. A command that reads
    /// `$PREPUSH_ONLY_TESTING` gets them there instead, unchanged. Nil when it runs no `xcodebuild test`.
    static func selectiveCommand(_ command: String, onlyTesting: [String]) -> String? {
        guard let (tokens, xcodebuild, end) = XcodebuildRetry.invocation(in: command) else { return nil }
        if command.contains("PREPUSH_ONLY_TESTING") { return command }
        var removed: [Range<String.Index>] = []
        var index = xcodebuild + 1
        while index < end {
            let value = tokens[index].value
            if value.hasPrefix("-only-testing:") { removed.append(removal(tokens, index)) }
            if value == "-only-testing" {
                removed.append(removal(tokens, index))
                if index + 1 < end { removed.append(removal(tokens, index + 1)); index += 1 }
            }
            index += 1
        }
        let insertion = tokens[xcodebuild].range.upperBound
        var rewritten = String(command[..<insertion]) + onlyTesting.map { " " + ShellQuoting.word($0) }.joined()
        var cursor = insertion
        for range in removed {
            rewritten += command[cursor..<range.lowerBound]
            cursor = range.upperBound
        }
        return rewritten + command[cursor...]
    }

    /// A token's range with the blank before it, so that removing it leaves one space.
    private static func removal(_ tokens: [ShellWords.Token], _ index: Int) -> Range<String.Index> {
        (index > 0 ? tokens[index - 1].range.upperBound : tokens[index].range.lowerBound)..<tokens[index].range.upperBound
    }
}
