import PrePushCore
import Testing

/// `LinearRegex` against Swift's own `Regex` on the patterns teams write, and on the ones that make
/// a backtracking engine run for minutes.
@Suite struct LinearRegexTests {
    static let patterns = [
        "[a-z]+(_[a-z0-9]+)*", "^[a-z][a-zA-Z0-9]*$", "[A-Z][A-Za-z]+\\.[A-Za-z]+", "test_[a-z]+_[a-zA-Z]+", "(login|signup)-[a-z]+",
        "[^_]+_[^_]+", "\\w+\\d{2,3}", "a{3}", "a{2,}b?", "x(?:ab|cd)*y", "(?<screen>[a-z]+)-(?<element>[a-z]+)", "[-a-z]+", "[a\\-z]+",
        "\\.\\*", "a.c", "(a|ab)(c|bcd)(d*)", "[[:alpha:]]", "{", "a{,2}", "(a*)*", "(|a)+b", "\\s*\\S+", "[\\d_]+", "[^\\n]*",
    ]
    static let texts = ["", "a", "ab", "abc", "aaa", "aaab", "home_button_add", "Home_Button", "login-field", "signup-x", "Login-Field",
                        "App.Test", "abc12", "abc1234", "xababcdy", "xaby", "abcd", "a.c", "a-c", ".*", "screen-element", "a_b", "a_b_c",
                        "12_3", " x", "{", "a{,2}", "b", "aab", "test_login_validCredentials", "-", "a\nb"]

    @Test func matchesWhatSwiftsRegexMatches() throws {
        var disagreements: [String] = []
        for pattern in Self.patterns {
            guard let swift = try? Regex(pattern) else { continue }
            let linear: LinearRegex
            do {
                linear = try LinearRegex(pattern)
            } catch {
                disagreements.append("\(pattern): refused: \(error)")
                continue
            }
            for text in Self.texts where ((try? swift.wholeMatch(in: text)) != nil) != linear.wholeMatch(text) {
                disagreements.append("\(pattern) on \(text.debugDescription)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    /// Backtracking takes hours on these (the time limit catches a return to it). The limit is wall
    /// time, generous on purpose: on a loaded 2-core CI, where other tests wait on child processes
    /// and package builds, this test of a few milliseconds once exceeded a one-minute limit.
    @Test(.timeLimit(.minutes(10))) func catastrophicPatternsAreLinear() throws {
        let text = String(repeating: "a", count: 32)
        #expect(try !LinearRegex("(a|a)*b").wholeMatch(text))
        #expect(try !LinearRegex("(a*)*b").wholeMatch(String(repeating: "a", count: 5_000)))
        #expect(try LinearRegex("(a|a)*").wholeMatch(text))
        #expect(try !LinearRegex("(x+x+)+y").wholeMatch(String(repeating: "x", count: 10_000)))
    }

    @Test func whatNeedsBacktrackingIsRefusedWithAReason() {
        for (pattern, reason) in [("(a)\\1", "back-references are not supported at character 4"),
                                  ("(?=a)a", "look-around, atomic groups and inline options are not supported at character 2"),
                                  ("a++", "possessive quantifiers are not supported at character 3"), ("([", "missing ']' at character 3"),
                                  ("(a", "missing ')' at character 3"), ("a)", "unbalanced ')' at character 2"), ("*a", "'*' has nothing to repeat at character 1"),
                                  ("(a{1000}){1000}", "the pattern's repetitions make more than 20000 states")] {
            #expect(throws: LinearRegex.SyntaxError.self, "\(pattern)") { try LinearRegex(pattern) }
            do { _ = try LinearRegex(pattern) } catch { #expect(error.description == reason, "\(pattern)") }
        }
    }
}
