import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Tries the address before the first build, so a taken port is reported at once in one line
/// instead of after a long build (or as a stack of networking errors).
enum PortProbe {
    enum Result: Equatable {
        case free
        case inUse
        /// The host cannot be bound at all (not an address of this machine, or not resolvable).
        case unavailable(String)
    }

    static func check(host: String, port: Int) -> Result {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .unavailable(String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        let socketFD = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard socketFD >= 0 else { return .unavailable(String(cString: strerror(errno))) }
        defer { close(socketFD) }
        // The server sets SO_REUSEADDR too, so a port held only by closing connections counts as free.
        var on: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if bind(socketFD, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 { return .free }
        let code = errno
        return code == EADDRINUSE ? .inUse : .unavailable(String(cString: strerror(code)))
    }

    /// True for addresses only this machine can reach.
    static func isLoopback(_ host: String) -> Bool {
        let lower = host.lowercased()
        return lower == "localhost" || lower == "::1" || lower == "[::1]" || lower.hasPrefix("127.")
    }
}
