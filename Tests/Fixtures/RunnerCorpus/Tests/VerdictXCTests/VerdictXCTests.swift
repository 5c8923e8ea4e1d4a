import XCTest

/// A failure message with line breaks, a blank line among them.
final class MultiLineFailures: XCTestCase {
    func testMessageOverLines() {
        XCTFail("one\ntwo\n\nfour")
    }

    func testEqualStrings() {
        XCTAssertEqual("alpha\nbeta", "alpha\ngamma")
    }

    func testPasses() {
        XCTAssertEqual("ab".count, 2)
    }
}

/// A skip whose reason spans lines; the run passes.
final class MultiLineSkips: XCTestCase {
    func testSkippedOverLines() throws {
        throw XCTSkip("needs a device\nwith a camera")
    }

    func testPasses() {
        XCTAssertEqual("ab".count, 2)
    }
}

/// Every test passes.
final class XCTAllPass: XCTestCase {
    func testOne() { XCTAssertEqual(1, 1) }
    func testTwo() { XCTAssertEqual(2, 2) }
}
