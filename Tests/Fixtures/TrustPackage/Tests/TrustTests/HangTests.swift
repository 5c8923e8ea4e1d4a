import Foundation
import Testing
import XCTest

/// Hangs when TRUST_HANG names its framework: a test that never ends, as a deadlock or a UI wait does.
private func hangIfAsked(_ framework: String) {
    guard ProcessInfo.processInfo.environment["TRUST_HANG"] == framework else { return }
    if let file = ProcessInfo.processInfo.environment["TRUST_PID_FILE"] {
        try? "\(getpid())\n".write(toFile: file, atomically: true, encoding: .utf8)
    }
    sleep(200)
}

final class HangTests: XCTestCase {
    func testHang() {
        hangIfAsked("xctest")
        XCTAssertEqual(1 + 1, 2)
    }
}

@Suite struct HangingSuite {
    @Test func hangs() {
        hangIfAsked("swift-testing")
        #expect(1 + 1 == 2)
    }
}
