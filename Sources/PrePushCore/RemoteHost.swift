/// A Mac the UI stage runs on, and how to reach it over ssh. Host and user are validated by the
/// configuration (never starting with `-`, no spaces or shell characters).
public struct RemoteHost: Sendable, Equatable {
    public let host: String
    public let user: String?
    public let port: Int
    /// The folder on the Mac the tree is synced into.
    public let path: String
    /// The private key, absolute, if one is named.
    public let identityFile: String?
    /// Extra `Key=Value` options, passed as `-o Key=Value`.
    public let sshOptions: [String]
    /// Whether a host key seen for the first time is trusted (`StrictHostKeyChecking=accept-new`).
    public let acceptNewHostKeys: Bool

    /// Creates a host.
    public init(host: String, user: String?, port: Int = 22, path: String, identityFile: String? = nil,
                sshOptions: [String] = [], acceptNewHostKeys: Bool = false) {
        self.host = host
        self.user = user
        self.port = port
        self.path = path
        self.identityFile = identityFile
        self.sshOptions = sshOptions
        self.acceptNewHostKeys = acceptNewHostKeys
    }

    /// `user@host` or `host`.
    public var destination: String { user.map { "\($0)@\(host)" } ?? host }
}
