/// Small text helpers that keep `String(format:)` and Foundation's padding off the hot path.
public enum TextFormatting {
    /// `a`, `a and b`, `a, b and c`.
    public static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    /// `12.345`: seconds as JUnit's `time` attribute holds them (an absurd duration made sane).
    public static func threeDecimals(_ seconds: Double) -> String {
        let milliseconds = Int((UITestResult.saneDuration(seconds) * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// `1 test`, `3 tests`: a count with its noun, plural unless it is one (`plural` for nouns that
    /// do not take an `s`).
    public static func count(_ number: Int, _ noun: String, plural: String? = nil) -> String {
        "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
    }

    /// Seconds with one decimal below a minute ("2.5 s"), then minutes and seconds ("3 min 5 s").
    /// The rule every shown time follows: a time above zero that would round to zero is shown as
    /// under the smallest step shown (`<0.1 s`), never as a zero that reads as "did not run".
    public static func duration(_ seconds: Double) -> String {
        // Int(_:) traps on values it cannot hold: a duration from damaged input must print, not crash.
        let seconds = seconds.isFinite ? min(max(0, seconds), 1e12) : 0
        guard seconds < 60 else { return "\(Int(seconds) / 60) min \(Int(seconds) % 60) s" }
        let tenths = Int((max(0, seconds) * 10).rounded())
        if tenths == 0, seconds > 0 { return "<0.1 s" }
        return "\(tenths / 10).\(tenths % 10) s"
    }

    /// A test's time with hundredths below ten seconds (`0.05 s`, `1.23 s`), whole seconds above
    /// (`42 s`); under 5 ms, `<0.01 s` (the rule of `duration(_:)`), and `0.00 s` only for no time at all.
    public static func testDuration(_ seconds: Double) -> String {
        let seconds = seconds.isFinite ? min(max(0, seconds), 1e12) : 0
        let hundredths = Int((seconds * 100).rounded())
        if hundredths == 0, seconds > 0 { return "<0.01 s" }
        guard hundredths < 1000 else { return "\(Int(seconds.rounded())) s" }
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }

    /// `text` padded with spaces on the right to `width` characters (never cut).
    public static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// `text` cut to at most `limit` characters, with `…` where it was cut.
    public static func shortened(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(max(0, limit - 1))) + "…"
    }

    /// `text` without leading and trailing spaces, tabs, carriage returns and line feeds.
    public static func trimmed(_ text: String) -> String {
        let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        var scalars = Substring(text).unicodeScalars
        while let first = scalars.first, blank(first) { scalars.removeFirst() }
        while let last = scalars.last, blank(last) { scalars.removeLast() }
        return String(scalars)
    }
}
