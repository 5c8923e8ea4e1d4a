import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// `prepush destination`: the simulator `xcrun simctl` lists, found when a stage runs. Here an
/// `xcrun` that only lists simulators (in the shape of `simctl list devices available --json`, as the
/// demo's test gives it) stands in for Xcode's.
/// Own process: `PREPUSH_BIN` is the running binary's path as it finds it for itself, which a stage
/// then calls.
@Suite struct DestinationTests {
    @Test func theNewestAvailableIPhoneIsTheDestination() throws {
        let folder = try TemporaryDirectory(prefix: "prepush-destination")
        try folder.write("""
        { "devices" : {
            "com.apple.CoreSimulator.SimRuntime.iOS-17-5" : [ { "udid" : "1111", "isAvailable" : true, "state" : "Shutdown", "name" : "iPhone 15" } ],
            "com.apple.CoreSimulator.SimRuntime.iOS-18-2" : [ { "udid" : "3333", "isAvailable" : true, "state" : "Shutdown", "name" : "iPhone 16" },
                                                              { "udid" : "4444", "isAvailable" : true, "state" : "Shutdown", "name" : "iPad mini" } ] } }
        """, to: "simctl.json")
        let xcrun = try folder.write("#!/bin/sh\n[ \"$1 $2 $3\" = \"simctl list devices\" ] || exit 1\ncat \(folder.url("simctl.json"))\n", to: "xcrun", executable: true)
        var environment = ProcessInfo.processInfo.environment
        environment["PREPUSH_XCRUN"] = xcrun
        let found = try InProcessCLI.run(["destination"], in: folder.path, environment: environment)
        #expect(found.status == 0 && found.standardOutput == "platform=iOS Simulator,id=3333\n", "\(found)")
        #expect(found.standardError == "prepush: destination: iPhone 16 (iOS-18-2, 3333)\n", "\(found)")
        environment["PREPUSH_XCRUN"] = folder.url("no-xcrun-here")
        let none = try InProcessCLI.run(["destination"], in: folder.path, environment: environment)
        #expect(none.status == 2 && none.standardOutput.isEmpty && none.standardError.hasPrefix("error: no available iPhone simulator"), "\(none)")
    }

    /// A stage knows the prepush that runs it (`PREPUSH_BIN`), so `prepush destination` works in a
    /// stage when prepush is not on PATH.
    @Test func aStageIsToldWhichPrepushRunsIt() throws {
        let repo = try GitRepository()
        try repo.write("stages:\n  unit:\n    run: printf '%s' \"$PREPUSH_BIN\" > '\(repo.root.url("bin"))'\n", to: ".prepush.yml")
        try repo.commitAll("stage")
        let run = try PrepushBinary.run(["run"], in: repo.path, environment: repo.environment)
        #expect(run.status == 0, "\(run)")
        let bin = try #require(repo.root.read("bin"))
        #expect(FileManager.default.isExecutableFile(atPath: bin) && bin.hasSuffix("/prepush"), "\(bin)")
    }
}
