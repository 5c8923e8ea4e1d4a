import Foundation
import PrePushTestSupport
import PrePushXcodeProject
import Testing

/// A scheme the team's CI names only as an argument of its own script (Simplenote's Buildkite step
/// `build-and-ui-test.sh SimplenoteUITests …`, whose script passes `scheme:"$1"` to fastlane): the
/// team runs that scheme, though no `xcodebuild` or `scan` line names it.
@Suite struct TeamScriptsTests {
    static let simplenote = Fixtures.own + "/ci-scripts/simplenote"

    @Test func aSchemeHandedToTheTeamsScriptIsOneItsCIRuns() {
        let found = TeamCommands.schemesPassedToScripts(root: Self.simplenote)
        #expect(found.map(\.scheme) == ["SimplenoteUITests"], "\(found)")
        #expect(found.first?.place == ".buildkite/pipeline.yml:56")
        #expect(found.first?.command == ".buildkite/commands/build-and-ui-test.sh SimplenoteUITests 'iPhone SE (3rd generation)'")
    }

    @Test func anArgumentTheScriptUsesOtherwiseOrAScriptOutsideTheRepositoryNamesNoScheme() throws {
        let root = try TemporaryDirectory(prefix: "prepush-team-scripts")
        // The repository is `repo/`; `outside.sh` sits beside it.
        try root.write("#!/bin/sh\nxcodebuild test -scheme \"$1\"\n", to: "outside.sh")
        try root.write("#!/bin/sh\nfastlane ui device:\"$1\" scheme:\"$10\"\n# scheme: \"$2\"\necho \"$2\"\n", to: "repo/scripts/ui.sh")
        try root.write("#!/bin/sh\nxcodebuild test -scheme \"${1}\" -destination \"$2\"\n", to: "repo/scripts/test.sh")
        try root.write("""
        steps:
          - command: "./scripts/ui.sh AppUITests Other"
          - command: ./scripts/test.sh AppTests 'platform=iOS Simulator,name=iPhone 16'
          - command: ../outside.sh AppOutside
          - command: scripts/test.sh $SCHEME
          # - command: scripts/test.sh Commented
        """, to: "repo/.buildkite/pipeline.yml")
        #expect(TeamCommands.schemesPassedToScripts(root: root.path + "/repo").map(\.scheme) == ["AppTests"])
    }
}
