import Foundation
import Testing
@testable import CareSyncServer

/// The SSRF guard: which addresses a webhook may not reach, and which URLs are refused before any address is looked at.
@Suite struct WebhookAddressGuardTests {
    /// An IP literal and what the guard calls it (nil: public).
    @Test(arguments: [
        ("0.0.0.0", "unspecified"), ("0.1.2.3", "unspecified"), ("127.0.0.1", "loopback"), ("127.255.0.9", "loopback"),
        ("10.0.0.1", "private"), ("172.16.0.1", "private"), ("172.31.255.255", "private"), ("192.168.1.20", "private"),
        ("100.64.0.1", "private"), ("169.254.169.254", "link-local"), ("224.0.0.1", "multicast"),
        ("240.0.0.1", "reserved"), ("255.255.255.255", "reserved"),
        ("172.15.255.255", nil), ("172.32.0.1", nil), ("100.63.255.255", nil), ("100.128.0.1", nil), ("8.8.8.8", nil),
        ("93.184.216.34", nil), ("169.253.0.1", nil),
        ("::", "unspecified"), ("::1", "loopback"), ("::ffff:127.0.0.1", "loopback"), ("::ffff:10.1.2.3", "private"),
        ("::ffff:169.254.1.1", "link-local"), ("::127.0.0.1", "loopback"), ("64:ff9b::a00:1", "private"),
        ("2002:c0a8:0101::1", "private"), ("2002:7f00:1::1", "loopback"), ("fc00::1", "private"), ("fd12:3456::1", "private"),
        ("fe80::1", "link-local"), ("febf::1", "link-local"), ("fec0::1", "private"), ("ff02::1", "multicast"),
        ("::ffff:8.8.8.8", nil), ("2606:4700:4700::1111", nil), ("2001:db8::1", nil), ("2002:0808:0808::1", nil), ("fbff::1", nil),
    ] as [(String, String?)])
    func anAddressIsClassified(address: String, kind: String?) throws {
        let bytes = try #require(WebhookAddressGuard.literal(address), "\(address) is a literal")
        #expect(WebhookAddressGuard.classify(bytes) == kind, "\(address)")
    }

    /// URLs refused for their form, whatever the operator allows.
    @Test(arguments: [
        "ftp://clinic.example/hook", "file:///etc/passwd", "gopher://127.0.0.1:70/", "clinic.example/hook", "/hook",
        "https://", "https://user:pass@clinic.example/hook", "https://user@clinic.example/hook", "http://clinic example/",
        "https://clinic.example/" + String(repeating: "a", count: 2048),
    ])
    func aURLOfTheWrongFormIsRefused(url: String) {
        #expect(WebhookAddressGuard.refusal(of: url, allowPrivate: true) != nil, "\(url)")
    }

    /// URLs whose host is (or resolves to) an address that is not public.
    @Test(arguments: [
        "http://127.0.0.1:8080/hook", "http://[::1]/hook", "http://localhost/hook", "https://10.0.0.7/hook", "http://0.0.0.0/",
        "http://[::ffff:127.0.0.1]/", "http://169.254.169.254/latest/meta-data/", "https://[fe80::1]/", "HTTP://192.168.0.1/",
    ])
    func aPrivateHostIsRefusedUnlessAllowed(url: String) throws {
        let refusal = try #require(WebhookAddressGuard.refusal(of: url, allowPrivate: false), "\(url)")
        #expect(refusal.message.contains("address"), "\(refusal.message)")
        #expect(WebhookAddressGuard.refusal(of: url, allowPrivate: true) == nil, "\(url)")
    }

    @Test func aPublicAddressPassesAndAnUnresolvableNameDoesNot() throws {
        #expect(WebhookAddressGuard.refusal(of: "https://93.184.216.34/hook", allowPrivate: false) == nil)
        #expect(WebhookAddressGuard.refusal(of: "https://[2606:4700:4700::1111]:8443/hook", allowPrivate: false) == nil)
        let unresolvable = try #require(WebhookAddressGuard.refusal(of: "https://no-such-host.invalid/hook", allowPrivate: false))
        #expect(unresolvable.message.contains("does not resolve"))
    }
}
