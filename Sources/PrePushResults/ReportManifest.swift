#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// `provenance.json`: the files of one reports folder that a run of prepush wrote, each with its
/// SHA-256, and the run that wrote them. Written last, after every report of the run; read by the
/// commands that take reports back (`prepush comment`): a file it does not list, or whose bytes
/// changed since, is not a report of that run.
public struct ReportManifest: Sendable, Equatable {
    /// The file's name in the reports folder.
    public static let fileName = "provenance.json"
    /// The run that wrote the files.
    public var provenance: RunProvenance
    /// The shard of a split suite the run was, if any (`2/4`).
    public var shard: String?
    /// Each file's name (relative to the folder) and the SHA-256 of its bytes.
    public var files: [String: String]

    /// Creates a manifest.
    public init(provenance: RunProvenance, shard: String? = nil, files: [String: String] = [:]) {
        self.provenance = provenance
        self.shard = shard
        self.files = files
    }

    /// The manifest as JSON, keys sorted.
    public func render() -> String {
        var out = JSONTextWriter()
        out.open("{")
        out.key("files"); out.open("{")
        for (name, digest) in files.sorted(by: { $0.key < $1.key }) { out.dynamicField(name, digest) }
        out.close("}")
        out.key("provenance"); out.open("{")
        if let attempt = provenance.attempt { out.field("attempt", attempt) }
        if let commit = provenance.commit { out.field("commit", commit) }
        if let job = provenance.job { out.field("job", job) }
        if let run = provenance.run { out.field("run", run) }
        out.close("}")
        if let shard { out.field("shard", shard) }
        out.field("version", 1)
        out.close("}")
        out.endLine()
        return String(decoding: out.takeBytes(), as: UTF8.self)
    }

    /// The manifest in `bytes`, or nil when they are not one.
    public static func parse(_ bytes: [UInt8]) -> ReportManifest? {
        guard let root = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)), case .object(let files)? = root["files"],
              let stamp = root["provenance"], root["version"]?.integer == 1 else { return nil }
        var digests: [String: String] = [:]
        for (name, value) in files {
            guard let digest = value.string else { return nil }
            digests[name] = digest
        }
        return ReportManifest(provenance: RunProvenance(commit: stamp["commit"]?.string, run: stamp["run"]?.string,
                                                        attempt: stamp["attempt"]?.string, job: stamp["job"]?.string),
                              shard: root["shard"]?.string, files: digests)
    }
}
