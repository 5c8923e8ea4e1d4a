import Foundation
import Testing
@testable import Trust

// Six suites, one test name: the console names only the function, so a reader that keys tests
// by name sees one test run six times.
private let failing = ProcessInfo.processInfo.environment["TRUST_FAIL"] == "1"

@Suite struct Module1Tests {
    @Test func emitModule() { #expect(doubled(1) == 2) }
}

@Suite struct Module2Tests {
    @Test func emitModule() { #expect(doubled(2) == 4) }
}

@Suite struct Module3Tests {
    @Test func emitModule() { #expect(doubled(3) == 6) }
}

@Suite struct Module4Tests {
    @Test func emitModule() { #expect(doubled(4) == (failing ? 4 : 8), "module 4 emits") }
}

@Suite struct Module5Tests {
    @Test func emitModule() { #expect(doubled(5) == 10) }
}

@Suite struct Module6Tests {
    @Test func emitModule() { #expect(doubled(6) == 12) }
}
