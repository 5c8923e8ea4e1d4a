import XCTest

final class RoomUITests: XCTestCase {
    func testSendingAMessage() {
        let app = XCUIApplication()
        app.launchArguments = ["-uitesting"]
        app.launch()
        app.textFields["room-composer_field"].tap()
        app.textFields["room-composer_field"].typeText("Hello")
        app.buttons["room-send"].tap()
        XCTAssert(app.staticTexts["Hello"].waitForExistence(timeout: 2))
    }

    func testStartingACall() {
        let app = XCUIApplication()
        app.launch()
        app.buttons["room-join_call"].tap()
        XCTAssert(app.otherElements["call-screen"].waitForExistence(timeout: 5))
    }
}
