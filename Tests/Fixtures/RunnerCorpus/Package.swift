// swift-tools-version:6.0
// Tests that end in every way a runner can end them: warnings, cancellations, an issue recorded after
// its test ended, known issues, parameterized cases, repetitions, multi-line messages. Each suite is run
// alone by scripts/capture-runner-corpus.sh, and what `swift test` printed and how it exited is kept
// in Tests/Fixtures/runner-corpus/ as the truth prepush's readers must agree with.
import PackageDescription

let package = Package(
    name: "RunnerCorpus",
    targets: [
        .testTarget(name: "VerdictSwiftTests"),
        .testTarget(name: "VerdictXCTests"),
    ]
)
