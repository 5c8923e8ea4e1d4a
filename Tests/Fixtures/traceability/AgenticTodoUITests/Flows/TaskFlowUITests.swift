import XCTest

enum Flows {
    final class TaskFlowUITests: BaseUITestCase {
        override func setUp() {
            super.setUp()
            app.launchArguments.append("\(LaunchArguments.initialLanguage)=en-US")
        }

        func test_tasks_addTask() {
            app.launchArguments.append(LaunchArguments.mockPermissions + "=granted")
            app.launchArguments.append(LaunchArguments.seedTasks)
            app.launch()
        }

        func test_tasks_swipeToDelete() throws {
            app.launch()
        }
    }
}

/// Not a test case: a helper that happens to have a test-shaped method.
final class ScreenshotHelper: NSObject {
    func test_helper_notATest() { XCTFail("never run: an NSObject subclass is not a test case") }
}
