/// Which `Host` headers the preview answers. A web page the reader visits could point a name of
/// its own at 127.0.0.1 (DNS rebinding) and then read the preview, drafts included, as same-origin;
/// the browser still sends that name as `Host`, so only the address the server listens on and the
/// loopback names are answered. Listening on every address (`--host 0.0.0.0`, already warned
/// about) answers every name, since the machine's own names cannot be known.
public struct HostCheck: Sendable {
    let listenHost: String

    public init(listenHost: String) {
        self.listenHost = Self.name(listenHost)
    }

    public func allows(_ authority: String?) -> Bool {
        guard let authority, !authority.isEmpty else { return true } // HTTP/1.0: no Host at all
        if listenHost == "0.0.0.0" || listenHost == "::" { return true }
        let host = Self.name(authority)
        return host == listenHost || host == "localhost" || host.hasSuffix(".localhost")
            || host == "127.0.0.1" || host == "::1"
    }

    /// The host name of `name[:port]` or `[v6]:port`, lower-cased, without a trailing dot.
    static func name(_ authority: String) -> String {
        var host = Substring(authority.lowercased())
        if host.hasPrefix("[") {
            host = host.dropFirst().prefix { $0 != "]" }
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            host = host[..<colon]
        }
        while host.hasSuffix(".") { host = host.dropLast() }
        return String(host)
    }
}
