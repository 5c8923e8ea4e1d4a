// XCUITest sources for the iOS UI-test target (see LoginUITests.swift). Each test is named after its
// scenario in .prepush/scenarios.yml, as the flow tests that stand in for them under `swift test` are.
#if os(iOS) && canImport(XCTest)
import XCTest

final class TaskUITests: XCTestCase {
    private func launchedApp() -> XCUIApplication {
        continueAfterFailure = false
        let app = XCUIApplication()
        app.launchArguments += ["--uitesting", "--skip-onboarding"]
        app.launch()
        return app
    }

    func test_tasks_addTask() {
        let app = launchedApp()
        let before = app.collectionViews["home_list_tasks"].cells.count
        app.buttons["home_button_add"].tap()
        app.textFields["modal_field_title"].tap()
        app.textFields["modal_field_title"].typeText("Water the plants")
        app.buttons["modal_button_save"].tap()
        XCTAssertEqual(app.collectionViews["home_list_tasks"].cells.count, before + 1)
    }

    func test_tasks_swipeToDelete() {
        let app = launchedApp()
        let list = app.collectionViews["home_list_tasks"]
        let before = list.cells.count
        list.cells.element(boundBy: 0).swipeLeft()
        list.buttons["Delete"].tap()
        XCTAssertEqual(list.cells.count, before - 1)
    }

    func test_settings_clearData() {
        let app = launchedApp()
        app.tabBars.buttons["Settings"].tap()
        app.buttons["settings_button_clear"].tap()
        app.tabBars.buttons["Home"].tap()
        XCTAssertEqual(app.collectionViews["home_list_tasks"].cells.count, 0)
        XCTAssertTrue(app.performAccessibilityAuditIfAvailable())
    }
}

private extension XCUIApplication {
    /// Runs Xcode 15's accessibility audit where it exists (iOS 17); prepush maps its findings
    /// to the data model's AccessibilityAuditResult (docs/accessibility.md).
    func performAccessibilityAuditIfAvailable() -> Bool {
        if #available(iOS 17.0, *) {
            do { try performAccessibilityAudit() } catch { return false }
        }
        return true
    }
}
#endif
