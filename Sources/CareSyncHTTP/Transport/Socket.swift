#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
import Darwin
#endif

/// Thin wrappers over the BSD socket calls the server needs.
enum Socket {
    /// Creates a non-blocking listening socket bound to `host:port`; "::" is dual stack (IPv4 too).
    static func listen(host: String, port: Int, backlog: Int32) throws -> Int32 {
        let isV6 = host.contains(":")
        let numericHost = host == "localhost" ? "127.0.0.1" : host
        let fd = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HTTPServerError.system(call: "socket", errno: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var status: Int32
        if isV6 {
            var zero: Int32 = 0
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &zero, socklen_t(MemoryLayout<Int32>.size))
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET6, numericHost, &addr.sin6_addr) == 1 else {
                close(fd)
                throw HTTPServerError.invalidHost(host)
            }
            status = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET, numericHost, &addr.sin_addr) == 1 else {
                close(fd)
                throw HTTPServerError.invalidHost(host)
            }
            status = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard status == 0 else {
            let code = errno
            close(fd)
            throw HTTPServerError.system(call: "bind", errno: code)
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw HTTPServerError.system(call: "listen", errno: code)
        }
        return fd
    }

    /// The local port a socket is bound to.
    static func boundPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return port(of: storage)
    }

    /// Accepts one connection (non-blocking, close-on-exec); nil when none is pending.
    static func accept(_ listener: Int32) -> (fd: Int32, peer: String)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.accept(listener, $0, &length)
            }
        }
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return (fd, describe(storage))
    }

    /// "1.2.3.4:5678" or "[::1]:5678".
    static func describe(_ storage: sockaddr_storage) -> String {
        var copy = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        if Int32(storage.ss_family) == AF_INET6 {
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { addr in
                    var a = addr.pointee.sin6_addr
                    inet_ntop(AF_INET6, &a, &text, socklen_t(text.count))
                    return "[" + String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "]:\(port(of: storage))"
                }
            }
        }
        return withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { addr in
                var a = addr.pointee.sin_addr
                inet_ntop(AF_INET, &a, &text, socklen_t(text.count))
                return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + ":\(port(of: storage))"
            }
        }
    }

    /// The port of an IPv4 or IPv6 socket address.
    static func port(of storage: sockaddr_storage) -> Int {
        var copy = storage
        if Int32(storage.ss_family) == AF_INET6 {
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
        }
        return withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }
}
