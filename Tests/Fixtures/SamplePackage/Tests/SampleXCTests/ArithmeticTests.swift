import XCTest
import Sample

final class ArithmeticTests: XCTestCase {
    func test_add_passes() {
        XCTAssertEqual(add(2, 2), 4)
    }

    func test_add_fails() {
        XCTAssertEqual(add(2, 2), 5, "two and two")
    }

    func test_add_isSkipped() throws {
        throw XCTSkip("not on this platform")
    }
}
