/// Why the preview server could not start, in words the CLI prints as they are.
public enum ServeError: Error, CustomStringConvertible, Equatable {
    case portInUse(port: Int)
    case cannotBind(host: String, port: Int, reason: String)
    case notASite(path: String)
    case serverFailed(reason: String)

    public var description: String {
        switch self {
        case .portInUse(let port):
            return "port \(port) is already in use — pass --port \(port < 65535 ? port + 1 : 8001)"
        case .cannotBind(let host, let port, let reason):
            return "cannot listen on \(host):\(port): \(reason) — check --host (e.g. 127.0.0.1)"
        case .serverFailed(let reason):
            return "the preview server stopped: \(reason)"
        case .notASite(let path):
            return "\(path) has no content/ folder — pass --site with your site's folder, or create one with `gramgen init`"
        }
    }
}
