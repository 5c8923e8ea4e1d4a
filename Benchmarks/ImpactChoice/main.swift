// The hook's added time to choose tests with `selective: tests` (issue 54's goal: ≤ 50 ms), on a
// generated package of 400 functions in 40 source files and 700 tests in 35 test files, with an
// impact map where each test executed 20–120 functions (a core file's functions executed by most
// tests, as on swift-argument-parser). One function body is changed and committed; each run then
// does what a push does: read the newest map from the store, diff the map's tree with the pushed
// tree, find the tests in the sources, choose, and write the filters.
//
//   swift build -c release --product impact-choice && .build/release/impact-choice [runs]
//
// `impact-choice RUNS CLONE` measures the same on a real package instead: CLONE's newest stored map
// (`prepush impact record` or `import`), its graph from `swift package describe`, and its HEAD as
// the pushed commit (docs/benchmarks.md, OpenAPIKit's map of 2,147 tests).
import Foundation
import PrePushConfig
import PrePushCore
import PrePushGit
import PrePushHistory
import PrePushPipeline

func shell(_ arguments: [String], in folder: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    try! process.run()
    process.waitUntilExit()
    precondition(process.terminationStatus == 0, "\(arguments) failed")
}

/// A deterministic generator, so every run measures the same map.
struct Seeded {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}

let runs = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 20 : 20
let clone = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : nil
let root = clone ?? NSTemporaryDirectory() + "impact-choice-\(getpid())"
GitLibrary.initialize()

/// The generated package: its sources, a commit, a map of that commit in the store, and one leaf
/// function's body changed in a second commit.
func generatePackage() -> PackageGraph {
    try! FileManager.default.createDirectory(atPath: root + "/Sources/Lib", withIntermediateDirectories: true)
    try! FileManager.default.createDirectory(atPath: root + "/Tests/LibTests", withIntermediateDirectories: true)
    // 40 files × 10 functions of 5 lines, after a 2-line header: function k of a file is on lines 3+6k … 7+6k.
    var functions: [ImpactMap.Function] = []
    for file in 0..<40 {
        var text = "import Foundation\n\n"
        for k in 0..<10 {
            text += "public func f\(file)_\(k)(_ x: Int) -> Int {\n    var y = x\n    y += \(k)\n    return y\n}\n\n"
            functions.append(.init(file: "Sources/Lib/File\(file).swift", name: "f\(file)_\(k)(_:)", startLine: 3 + 6 * k, endLine: 7 + 6 * k))
        }
        try! text.write(toFile: root + "/Sources/Lib/File\(file).swift", atomically: true, encoding: .utf8)
    }
    var random = Seeded(state: 54)
    var tests: [ImpactMap.Test] = []
    for file in 0..<35 {
        var text = "import XCTest\nimport Lib\n\nfinal class Suite\(file)Tests: XCTestCase {\n"
        for k in 0..<20 {
            text += "    func test\(k)() { XCTAssertEqual(f0_0(1), 1) }\n"
            // Files 0–3 are the core most tests run; the rest are leaves.
            var executed = Set((0..<40).map { $0 })
            for _ in 0..<(20 + random.next(100)) { executed.insert(40 + random.next(360)) }
            tests.append(.init(identifier: "LibTests.Suite\(file)Tests.test\(k)", listed: "LibTests.Suite\(file)Tests/test\(k)",
                               file: "Tests/LibTests/Suite\(file)Tests.swift", functions: executed.sorted()))
        }
        text += "}\n"
        try! text.write(toFile: root + "/Tests/LibTests/Suite\(file)Tests.swift", atomically: true, encoding: .utf8)
    }
    try! "// swift-tools-version:6.0\n".write(toFile: root + "/Package.swift", atomically: true, encoding: .utf8)
    shell(["git", "init", "-q", "-b", "main"], in: root)
    shell(["git", "-c", "user.name=b", "-c", "user.email=b@x.invalid", "add", "-A"], in: root)
    shell(["git", "-c", "user.name=b", "-c", "user.email=b@x.invalid", "commit", "-qm", "package"], in: root)
    let repository = try! Repository.discover(from: root)
    let mapCommit = try! repository.commitID("HEAD")
    let map = ImpactMap(stage: "unit", packageFolder: "", commit: mapCommit, toolchain: "bench", recorded: 0, seconds: 0,
                        functions: functions, tests: tests)
    try! ImpactStore(path: ImpactStore.path(commonDirectory: repository.commonDirectory)).save(map)
    // One leaf function's body changed.
    let leaf = root + "/Sources/Lib/File20.swift"
    try! (try! String(contentsOfFile: leaf, encoding: .utf8)).replacingOccurrences(of: "    y += 4\n", with: "    y += 44\n")
        .write(toFile: leaf, atomically: true, encoding: .utf8)
    shell(["git", "-c", "user.name=b", "-c", "user.email=b@x.invalid", "commit", "-qam", "change"], in: root)

    return PackageGraph(targets: [.init(name: "Lib", path: "Sources/Lib", isTest: false, dependencies: []),
                                       .init(name: "LibTests", path: "Tests/LibTests", isTest: true, dependencies: ["Lib"])])
}

let graph: PackageGraph
if let clone {
    graph = try! PackageGraph.load(packageRoot: clone, cacheFolder: NSTemporaryDirectory(), environment: ProcessInfo.processInfo.environment).get()
} else {
    graph = generatePackage()
}
defer { if clone == nil { try? FileManager.default.removeItem(atPath: root) } }
let repository = try! Repository.discover(from: root)
let stage = StageSettings(kind: .unit, command: "swift test", timeout: 600, environment: [], workingDirectory: root, selectivity: .tests)
var times: [[Double]] = [[], [], [], []]
var chosenCount = 0, total = 0
// CPU time of this process, milliseconds: on a machine shared with other builds the wall time says
// more about the neighbours than about prepush (both are printed).
func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
}
func wall() -> Double { Date().timeIntervalSince1970 * 1000 }
var walls: [Double] = []
for _ in 0..<runs {
    let start = now()
    let wallStart = wall()
    let store = try! ImpactStore(path: ImpactStore.path(commonDirectory: repository.commonDirectory))
    let read = try! store.latest(stage: "unit", packageFolder: "")!
    let loaded = now()
    let wallLoaded = wall()
    let reading = try! ImpactStep.read(stage: stage, packageFolder: "", graph: graph, repository: repository, pushedCommit: "HEAD",
                                       root: root, toolchain: { "bench" }).get()
    let gathered = now()
    let decision = TestImpact.decide(.init(map: read, changes: reading.changes, packageFolder: "", graph: graph, current: reading.readCurrent(),
                                           configurationFile: nil))
    guard case .tests(let chosen) = decision else { fatalError("\(decision)") }
    _ = ImpactStep.command("swift test", running: chosen.listed)
    let decided = now()
    walls.append(wall() - wallLoaded)
    _ = wallStart
    chosenCount = chosen.listed.count
    total = chosen.total
    times[0].append(loaded - start)
    times[1].append(gathered - loaded)
    times[2].append(decided - gathered)
    times[3].append(decided - loaded)
}
func median(_ values: [Double]) -> String { String(format: "%.1f ms", values.sorted()[values.count / 2]) }
let stored = try! ImpactStore(path: ImpactStore.path(commonDirectory: repository.commonDirectory)).latest(stage: "unit", packageFolder: "")!
print("map: \(stored.functions.count) functions, \(stored.tests.count) tests, \(stored.tests.map(\.functions.count).reduce(0, +)) test–function pairs; chose \(chosenCount) of \(total)")
print("| step | CPU time, median of \(runs) |")
print("| --- | ---: |")
print("| of which: read the newest map from the store (SQLite + JSON) | \(median(times[0])) |")
print("| read the map, diff its tree with the pushed tree, find the tests in the sources (ImpactStep.read) | \(median(times[1])) |")
print("| choose and write the filters (TestImpact.decide, ImpactStep.command) | \(median(times[2])) |")
print("| what a push adds (the two rows above) | \(median(times[3])) |")
let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init) ?? "?"
print("wall time of what a push adds, median: \(median(walls)) (load average \(load))")
