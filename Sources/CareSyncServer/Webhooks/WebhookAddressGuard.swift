import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The SSRF guard of webhook URLs: only `http`/`https` URLs with a host and no credentials, and (unless the operator
/// sets `webhooks.allowPrivateAddresses`) a host whose every address, IPv4 and IPv6, is public. Checked when a
/// subscription is created and again before every delivery attempt, whose connection is then pinned to the addresses
/// this check answered (`Target`): the name is not looked up a second time, so DNS rebinding cannot move it inside.
enum WebhookAddressGuard {
    /// The longest URL accepted.
    static let maxURLLength = 2048

    /// Looks a host name up: its addresses (4 bytes for IPv4, 16 for IPv6), or why not. `system` in service; tests
    /// inject their own.
    typealias Resolver = @Sendable (String) -> Result<[[UInt8]], Refusal>

    /// Where one attempt goes: the URL, its host and port, and the checked addresses its connection is pinned to.
    struct Target: Hashable, Sendable {
        let url: String
        let host: String
        let port: Int
        let addresses: [[UInt8]]
    }

    /// The URL's host and port (the scheme's default when it names none) when it is an `http`/`https` URL fit to
    /// POST to, else why not (for a 422 naming `url`).
    static func endpoint(of text: String) -> Result<(host: String, port: Int), Refusal> {
        guard text.utf8.count <= maxURLLength, !text.contains(where: { $0.isWhitespace }),
              let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            return .failure(Refusal("must be an absolute http or https URL of at most \(maxURLLength) characters"))
        }
        guard scheme == "http" || scheme == "https" else { return .failure(Refusal("must be an http or https URL")) }
        guard components.user == nil && components.password == nil else {
            return .failure(Refusal("must not carry credentials (the deliveries are signed instead)"))
        }
        var host = components.host ?? ""
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { return .failure(Refusal("must name a host")) }
        return .success((host, components.port ?? (scheme == "https" ? 443 : 80)))
    }

    /// Why `text` may not be subscribed, or nil: its form, then (unless `allowPrivate`) every address its host
    /// resolves to. Blocks while the name resolves.
    static func refusal(of text: String, allowPrivate: Bool, resolve: Resolver = system) -> Refusal? {
        if case .failure(let refusal) = endpoint(of: text) { return refusal }
        guard !allowPrivate else { return nil }
        if case .failure(let refusal) = target(of: text, allowPrivate: false, resolve: resolve) { return refusal }
        return nil
    }

    /// Where an attempt to `text` may connect, from one lookup of its host: every address it resolves to, each
    /// public unless `allowPrivate`; else why not. Blocks while the name resolves.
    static func target(of text: String, allowPrivate: Bool, resolve: Resolver = system) -> Result<Target, Refusal> {
        let endpoint: (host: String, port: Int)
        switch self.endpoint(of: text) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let found): endpoint = found
        }
        let addresses: [[UInt8]]
        if let literal = literal(endpoint.host) {
            addresses = [literal]
        } else {
            switch resolve(endpoint.host) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let list) where list.isEmpty: return .failure(Refusal("names a host with no IPv4 or IPv6 address"))
            case .success(let list): addresses = list
            }
        }
        for address in addresses where !allowPrivate {
            if let kind = classify(address) {
                return .failure(Refusal("resolves to \(format(address)), a \(kind) address; only public addresses are allowed "
                                        + "unless the operator sets webhooks.allowPrivateAddresses"))
            }
        }
        return .success(Target(url: text, host: endpoint.host, port: endpoint.port, addresses: addresses))
    }

    /// Why an address is not public (`loopback`, `private`, `link-local`, `unspecified`, `multicast`, `reserved`), or
    /// nil. 4 bytes for IPv4, 16 for IPv6; IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4)
    /// are judged by it.
    static func classify(_ a: [UInt8]) -> String? {
        if a.count == 4 {
            switch (a[0], a[1]) {
            case (0, _): return "unspecified"
            case (127, _): return "loopback"
            case (10, _), (172, 16...31), (192, 168), (100, 64...127): return "private"
            case (169, 254): return "link-local"
            case (224...239, _): return "multicast"
            case (240...255, _): return "reserved"
            default: return nil
            }
        }
        guard a.count == 16 else { return "unspecified" }
        let firstTen = a[0..<10].allSatisfy { $0 == 0 }
        if firstTen && a[10] == 0 && a[11] == 0 {
            if a[12..<15].allSatisfy({ $0 == 0 }) && a[15] <= 1 { return a[15] == 0 ? "unspecified" : "loopback" }
            return classify(Array(a[12...]))                                  // ::a.b.c.d (IPv4-compatible)
        }
        if firstTen && a[10] == 0xff && a[11] == 0xff { return classify(Array(a[12...])) }       // ::ffff:a.b.c.d
        if a[0..<12] == [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] { return classify(Array(a[12...])) }  // 64:ff9b::/96
        if a[0] == 0x20 && a[1] == 0x02 { return classify(Array(a[2..<6])) }  // 2002::/16 (6to4)
        if a[0] & 0xfe == 0xfc { return "private" }                           // fc00::/7 unique local
        if a[0] == 0xfe && a[1] & 0xc0 == 0x80 { return "link-local" }        // fe80::/10
        if a[0] == 0xfe && a[1] & 0xc0 == 0xc0 { return "private" }           // fec0::/10 site-local (deprecated)
        if a[0] == 0xff { return "multicast" }
        return nil
    }

    /// Every address `host` resolves to through the system's resolver (`getaddrinfo`), or why it does not.
    @Sendable static func system(_ host: String) -> Result<[[UInt8]], Refusal> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, list != nil else {
            return .failure(Refusal("names a host that does not resolve (\(String(cString: gai_strerror(status))))"))
        }
        defer { freeaddrinfo(list) }
        var addresses: [[UInt8]] = []
        var entry = list
        while let info = entry?.pointee {
            entry = info.ai_next
            guard let raw = info.ai_addr else { continue }
            if info.ai_family == AF_INET {
                var v4 = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                addresses.append(withUnsafeBytes(of: &v4) { Array($0) })
            } else if info.ai_family == AF_INET6 {
                var v6 = raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                addresses.append(withUnsafeBytes(of: &v6) { Array($0) })
            }
        }
        var seen = Set<[UInt8]>()
        return .success(addresses.filter { seen.insert($0).inserted })
    }

    /// The bytes of an IPv4 or IPv6 literal, or nil.
    static func literal(_ host: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// An address as text.
    static func format(_ address: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = address.count == 4 ? AF_INET : AF_INET6
        _ = address.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Why a URL was refused, fit for a problem's field error.
    struct Refusal: Error, Hashable, Sendable {
        let message: String
        init(_ message: String) { self.message = message }
    }
}
