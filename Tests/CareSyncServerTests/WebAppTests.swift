import Foundation
import Testing
@testable import CareSyncServer
@testable import CareSyncWebApp

/// The therapist web app's files: served at their paths with validators, `no-cache` and the security headers;
/// the page has no inline script or style and loads nothing from another origin.
@Suite struct WebAppTests {
    static let csp = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

    @Test func everyFileIsServedWithItsTypeValidatorAndSecurityHeaders() async throws {
        try await TestServer.with { server in
            #expect(WebApp.assets.count >= 10)
            for asset in WebApp.assets {
                let reply = try await server.send("GET", asset.path)
                #expect(reply.status == 200, "\(asset.path)")
                #expect(reply.body == asset.bytes, "\(asset.path)")
                #expect(reply.header("Content-Type") == asset.contentType)
                #expect(reply.header("ETag") == asset.etag)
                #expect(reply.header("Cache-Control") == "no-cache")
                #expect(reply.header("Content-Security-Policy") == Self.csp)
                #expect(reply.header("X-Content-Type-Options") == "nosniff")
                #expect(reply.header("Referrer-Policy") == "no-referrer")
            }
            #expect(try await server.send("GET", "/").text.contains("<script type=\"module\" src=\"/app.js\"></script>"))
        }
    }

    /// The links people open land on the app's page: invitations at `/invite`, enrolment QR codes at `/enrol` (their
    /// secrets in the fragment, which never reaches the server).
    @Test(arguments: ["/invite", "/enrol"]) func linkPathsServeTheAppPage(path: String) async throws {
        try await TestServer.with { server in
            let page = try await server.send("GET", path)
            #expect(page.status == 200 && page.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(page.text == (try await server.send("GET", "/").text))
        }
    }

    @Test func aMatchingIfNoneMatchIsAnsweredNotModified() async throws {
        try await TestServer.with { server in
            let page = try #require(WebApp.assets.first { $0.path == "/app.js" })
            let strong = String(page.etag.dropFirst(2))
            for validator in [page.etag, strong, "W/\"0000\", \(page.etag)", "*"] {
                let reply = try await server.send("GET", "/app.js", headers: [("If-None-Match", validator)])
                #expect(reply.status == 304, "\(validator)")
                #expect(reply.body.isEmpty)
                #expect(reply.header("ETag") == page.etag)
                #expect(reply.header("Cache-Control") == "no-cache")
                #expect(reply.header("Content-Security-Policy") == Self.csp)
                #expect(reply.header("X-Content-Type-Options") == "nosniff")
            }
            let other = try await server.send("GET", "/app.js", headers: [("If-None-Match", "W/\"0000\"")])
            #expect(other.status == 200)
            #expect(other.body == page.bytes)
        }
    }

    @Test func theTagFollowsTheBytes() {
        let a = WebAppAsset(path: "/a", contentType: "text/plain", bytes: Array("one".utf8))
        #expect(a.etag == WebAppAsset(path: "/b", contentType: "text/css", bytes: Array("one".utf8)).etag)
        #expect(a.etag != WebAppAsset(path: "/a", contentType: "text/plain", bytes: Array("two".utf8)).etag)
        #expect(a.etag.hasPrefix("W/\"") && a.etag.count == 36)
        #expect(Set(WebApp.assets.map(\.etag)).count == WebApp.assets.count)
    }

    @Test func headAndOtherMethods() async throws {
        try await TestServer.with { server in
            let index = try #require(WebApp.assets.first { $0.path == "/" })
            let head = try await server.send("HEAD", "/")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(index.bytes.count))
            #expect(head.header("Content-Security-Policy") == Self.csp)
            let post = try await server.send("POST", "/", body: Array("x".utf8))
            #expect(post.status == 405)
            #expect(post.header("Allow")?.contains("GET") == true)
        }
    }

    @Test func theAppHasNoInlineCodeAndNoOtherOrigin() throws {
        let text = { (path: String) in String(decoding: try #require(WebApp.assets.first { $0.path == path }).bytes, as: UTF8.self) }
        let html = try text("/")
        let scripts = html.ranges(of: "<script").count
        #expect(scripts == html.ranges(of: "<script type=\"module\" src=\"/").count)
        #expect(!html.contains("<style"))
        #expect(html.firstRange(of: #/\sstyle\s*=/#) == nil)
        #expect(html.firstRange(of: #/\son[a-z]+\s*=/#) == nil)
        for asset in WebApp.assets {
            let body = String(decoding: asset.bytes, as: UTF8.self)
            for forbidden in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
                              "setAttribute('style'", "console.log"] {
                #expect(!body.contains(forbidden), "\(asset.path) uses \(forbidden)")
            }
            // The only absolute URL allowed is the SVG namespace, which is a name, not something loaded.
            let urls = body.matches(of: #/https?://[^\s"'`)]+/#).map { String($0.output) }
            #expect(urls.allSatisfy { $0 == "http://www.w3.org/2000/svg" }, "\(asset.path): \(urls)")
        }
        // Every module the page imports is served.
        let served = Set(WebApp.assets.map(\.path))
        for asset in WebApp.assets where asset.path.hasSuffix(".js") {
            let body = String(decoding: asset.bytes, as: UTF8.self)
            for match in body.matches(of: #/from '\./([a-z-]+\.js)'/#) {
                #expect(served.contains("/" + match.output.1), "\(asset.path) imports \(match.output.1)")
            }
        }
    }

    @Test func apiAnswersAreNotStored() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let answers = [
                try await server.send("GET", "/v1/patients", token: t.admin),
                try await server.send("GET", "/v1/patients/alice/changes", token: t.therapist),
                try await server.send("GET", "/v1/patients/bob/changes", token: t.therapist),
                try await server.send("GET", "/v1/patients", token: "cs_0000000000000000_nope"),
                try await server.send("GET", "/openapi.json"),
            ]
            #expect(answers.map(\.status) == [200, 200, 404, 401, 200])
            for answer in answers { #expect(answer.header("Cache-Control") == "no-store") }
        }
    }
}
