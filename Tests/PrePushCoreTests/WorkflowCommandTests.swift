import PrePushCore
import Testing

@Suite struct WorkflowCommandTests {
    @Test func nothingFromARepositoryCanStartACommandOfItsOwn() {
        let line = WorkflowCommand.line("error", properties: [("file", "Views/Evil\n::error file=INJECTED.swift,line=1::INJECTED\nView.swift"),
                                                              ("line", "3")],
                                        message: "bad\r\n::add-mask::secret 100%")
        #expect(line == "::error file=Views/Evil%0A%3A%3Aerror file=INJECTED.swift%2Cline=1%3A%3AINJECTED%0AView.swift,line=3::bad%0D%0A::add-mask::secret 100%25")
        #expect(!line.contains("\n") && !line.contains("\r"), "one line, whatever the values hold")
    }
}

@Suite struct DurationTests {
    // One test over the values, not a parameterized one: NaN and a second infinity as test arguments
    // crash Swift Testing 6.3's runner (signal 11) — the arguments' identities collide.
    @Test func everyDurationAReaderCanMeetIsSafeForEveryWriter() {
        for seconds in [Double.infinity, -Double.infinity, Double.nan, -5, Double("1e309")!, 9_999_999_999_999_999] {
            let result = UITestResult(suite: "C", name: "t", status: .passed, duration: seconds)
            #expect(result.duration.isFinite, "\(seconds)")
            #expect(result.duration >= 0 && result.duration <= UITestResult.longestDuration, "\(seconds)")
            #expect(!TextFormatting.duration(seconds).isEmpty, "formats without trapping")
        }
    }

    /// A test of 1 ms did run: no time shown reads as zero unless it was zero.
    @Test func aTimeTooShortToShowIsShownAsUnderTheSmallestStep() {
        #expect(TextFormatting.testDuration(0.001) == "<0.01 s")
        #expect(TextFormatting.testDuration(0.004) == "<0.01 s")
        #expect(TextFormatting.testDuration(0.005) == "0.01 s")
        #expect(TextFormatting.testDuration(1.234) == "1.23 s")
        #expect(TextFormatting.testDuration(0) == "0.00 s")
        #expect(TextFormatting.duration(0.01) == "<0.1 s")
        #expect(TextFormatting.duration(0.05) == "0.1 s")
        #expect(TextFormatting.duration(0) == "0.0 s")
    }

    /// GitHub's runner trims any Unicode white space before `::` and reads `##[` anywhere in a line.
    @Test func aNeutralisedLineIsNeverACommand() {
        let attacks = ["::add-mask::x", "   ::error::forged", "\u{00A0}::stop-commands::t", "\t::warning::w", "text ##[error]forged",
                       "ok\n  ::error::second line", "##[group]g", "esc \u{1B}[31mred"]
        for attack in attacks {
            let safe = WorkflowCommand.neutralised(attack)
            for line in safe.split(separator: "\n") {
                let trimmed = line.drop(while: { $0.isWhitespace })
                #expect(!trimmed.hasPrefix("::"), "\(attack.debugDescription) → \(safe.debugDescription)")
                #expect(!line.contains("##["), "\(attack.debugDescription) → \(safe.debugDescription)")
                #expect(!line.unicodeScalars.contains("\u{1B}"))
            }
        }
        // What has nothing to neutralise is left as it is, and what it changes still reads the same.
        #expect(WorkflowCommand.neutralised("prepush: tests: 3 passed, 0 failed") == "prepush: tests: 3 passed, 0 failed")
        #expect(WorkflowCommand.neutralised("a::b") == "a::b")
        #expect(WorkflowCommand.neutralised("  ::x").unicodeScalars.filter { $0 != "\u{200B}" }.map(String.init).joined() == "  ::x")
    }
}
