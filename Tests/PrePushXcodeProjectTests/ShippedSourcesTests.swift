import Foundation
import PrePushCore
import PrePushTestSupport
import PrePushXcodeProject
import Testing

/// Which files ship, from the projects' structure (not folder names): modelled on Home Assistant's
/// `HomeAssistant.xcodeproj` (groups with paths, test bundles, Xcode 16 synchronized folders with
/// membership exceptions) and on isowords' `Package.swift` (library targets beside executables).
@Suite struct ShippedSourcesTests {
    static let project = """
    // !$*UTF8*$!
    {
        archiveVersion = 1;
        objects = {
            MAIN = {isa = PBXGroup; children = (SOURCES, TOOLS, TESTS); sourceTree = "<group>"; };
            SOURCES = {isa = PBXGroup; children = (SETTINGS); path = Sources; sourceTree = "<group>"; };
            SETTINGS = {isa = PBXGroup; children = (DEBUGVIEW, ROWVIEW); path = Settings; sourceTree = "<group>"; };
            DEBUGVIEW = {isa = PBXFileReference; path = DebugView.swift; sourceTree = "<group>"; };
            ROWVIEW = {isa = PBXFileReference; path = Row.swift; sourceTree = "<group>"; };
            TOOLS = {isa = PBXGroup; children = (GENERATOR); path = Tools; sourceTree = "<group>"; };
            GENERATOR = {isa = PBXFileReference; path = Generator.swift; sourceTree = "<group>"; };
            TESTS = {isa = PBXFileReference; path = ../Tests/Helpers.swift; sourceTree = "<group>"; };
            BF1 = {isa = PBXBuildFile; fileRef = DEBUGVIEW; };
            BF2 = {isa = PBXBuildFile; fileRef = ROWVIEW; };
            BF3 = {isa = PBXBuildFile; fileRef = GENERATOR; };
            BF4 = {isa = PBXBuildFile; fileRef = TESTS; };
            APPSOURCES = {isa = PBXSourcesBuildPhase; files = (BF1, BF2); };
            TOOLSOURCES = {isa = PBXSourcesBuildPhase; files = (BF3); };
            TESTSOURCES = {isa = PBXSourcesBuildPhase; files = (BF4, BF2); };
            SYNCED = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (EXCEPTION); path = Widgets; sourceTree = "<group>"; };
            EXCEPTION = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Previews/Sample.swift); target = WIDGET; };
            SYNCEDTESTS = {isa = PBXFileSystemSynchronizedRootGroup; path = WidgetTests; sourceTree = "<group>"; };
            APP = {isa = PBXNativeTarget; buildPhases = (APPSOURCES); name = App; productType = "com.apple.product-type.application"; };
            TOOL = {isa = PBXNativeTarget; buildPhases = (TOOLSOURCES); name = Generator; productType = "com.apple.product-type.tool"; };
            UNIT = {isa = PBXNativeTarget; buildPhases = (TESTSOURCES); name = AppTests; productType = "com.apple.product-type.bundle.unit-test"; };
            WIDGET = {isa = PBXNativeTarget; buildPhases = (); fileSystemSynchronizedGroups = (SYNCED); name = Widgets; productType = "com.apple.product-type.app-extension"; };
            WIDGETTESTS = {isa = PBXNativeTarget; buildPhases = (); fileSystemSynchronizedGroups = (SYNCEDTESTS); name = WidgetTests; productType = "com.apple.product-type.bundle.unit-test"; };
        };
        rootObject = MAIN;
    }
    """

    @Test func filesOfNoShippedTargetAreKnownByTheProject() throws {
        let root = try TemporaryDirectory(prefix: "prepush-shipped")
        try root.write(Self.project, to: "App/App.xcodeproj/project.pbxproj")
        let shipped = ShippedSources(root: root.path)
        // A debug screen compiled into the app ships, whatever its name.
        #expect(shipped.unshippedTargets(of: "App/Sources/Settings/DebugView.swift") == nil)
        // A file both the app and its tests compile ships.
        #expect(shipped.unshippedTargets(of: "App/Sources/Settings/Row.swift") == nil)
        #expect(shipped.unshippedTargets(of: "App/Tools/Generator.swift") == ["Generator"])
        // `../Tests/Helpers.swift` from the project's folder: outside `App/`.
        #expect(shipped.unshippedTargets(of: "Tests/Helpers.swift") == ["AppTests"])
        // A synchronized folder: its files ship with the widget, less its exceptions.
        #expect(shipped.unshippedTargets(of: "App/Widgets/Gauge.swift") == nil)
        #expect(shipped.unshippedTargets(of: "App/WidgetTests/GaugeTests.swift") == ["WidgetTests"])
        // A file no target claims (here an excepted one) is unknown, so it is checked.
        #expect(shipped.unshippedTargets(of: "App/Widgets/Previews/Sample.swift") == nil)
        #expect(shipped.unshippedTargets(of: "Elsewhere/Screen.swift") == nil)
    }

    /// CodeEdit's project: one macOS app target (`SDKROOT = macosx`), its files in a synchronized folder.
    @Test func filesOnlyMacTargetsCompileAreKnown() throws {
        let root = try TemporaryDirectory(prefix: "prepush-shipped")
        try root.write("""
        {
            objects = {
                MAIN = {isa = PBXGroup; children = (MACFOLDER, PHONEFOLDER); sourceTree = "<group>"; };
                MACFOLDER = {isa = PBXFileSystemSynchronizedRootGroup; path = CodeEdit; sourceTree = "<group>"; };
                PHONEFOLDER = {isa = PBXFileSystemSynchronizedRootGroup; path = Shared; sourceTree = "<group>"; };
                MACLIST = {isa = XCConfigurationList; buildConfigurations = (MACDEBUG); };
                MACDEBUG = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = macosx; }; name = Debug; };
                BOTHLIST = {isa = XCConfigurationList; buildConfigurations = (BOTHDEBUG); };
                BOTHDEBUG = {isa = XCBuildConfiguration; buildSettings = {SUPPORTED_PLATFORMS = "macosx iphoneos iphonesimulator"; }; name = Debug; };
                MAC = {isa = PBXNativeTarget; buildConfigurationList = MACLIST; buildPhases = (); fileSystemSynchronizedGroups = (MACFOLDER, PHONEFOLDER); name = CodeEdit; productType = "com.apple.product-type.application"; };
                PHONE = {isa = PBXNativeTarget; buildConfigurationList = BOTHLIST; buildPhases = (); fileSystemSynchronizedGroups = (PHONEFOLDER); name = Companion; productType = "com.apple.product-type.application"; };
            };
            rootObject = MAIN;
        }
        """, to: "CodeEdit.xcodeproj/project.pbxproj")
        let shipped = ShippedSources(root: root.path)
        #expect(shipped.isWithoutTouch("CodeEdit/Features/StatusBar/StatusBarView.swift"))
        // Also compiled for iOS: Dynamic Type and fingers apply.
        #expect(!shipped.isWithoutTouch("Shared/Row.swift"))
        #expect(!shipped.isWithoutTouch("Elsewhere/View.swift"))
    }

    @Test func packageTargetsAreReadFromTheManifest() throws {
        let root = try TemporaryDirectory(prefix: "prepush-shipped")
        try root.write("""
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(
            name: "isowords",
            targets: [
                .target(name: "Styleguide", dependencies: [.target(name: "Tooling")]),
                .executableTarget(name: "Tooling", path: "Sources/tools"),
                .testTarget(name: "StyleguideTests", dependencies: ["Styleguide"]),
                .plugin(name: "Lint", capability: .buildTool()),
            ]
        )
        """, to: "Packages/Core/Package.swift")
        let shipped = ShippedSources(root: root.path)
        #expect(shipped.unshippedTargets(of: "Packages/Core/Sources/Styleguide/Button.swift") == nil)
        // `.target(name: "Tooling")` among dependencies is a reference, not a shipped declaration.
        #expect(shipped.unshippedTargets(of: "Packages/Core/Sources/tools/main.swift") == ["Tooling"])
        #expect(shipped.unshippedTargets(of: "Packages/Core/Tests/StyleguideTests/ButtonTests.swift") == ["StyleguideTests"])
        #expect(shipped.unshippedTargets(of: "Packages/Core/Plugins/Lint/Plugin.swift") == nil)
    }

    @Test func unreadableProjectsClaimNothing() throws {
        let root = try TemporaryDirectory(prefix: "prepush-shipped")
        try root.write("{ objects = { ", to: "App.xcodeproj/project.pbxproj")
        try root.write("let package = Package(targets: [.executableTarget(name: ", to: "Package.swift")
        #expect(ShippedSources(root: root.path).unshippedTargets(of: "App/View.swift") == nil)
    }
}
