import CareSyncTestSupport
import Foundation
import HTTPTypes
import Testing
@testable import CareSyncHTTP

/// Every test that goes over a real socket, one at a time (the nested suites are serialized too).
@Suite(.serialized) struct LiveTests {}

extension LiveTests {
    @Suite struct Connections {
        @Test func keepAliveReusesTheConnection() async throws {
            let (server, port) = try TestServer.start()
            let client = try TestHTTPClient(port: port)
            for _ in 0..<3 {
                client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                let reply = try await client.response()
                #expect(reply.status == 200)
                #expect(reply.text == "hello")
                #expect(reply.header("Connection") == nil)
                #expect(reply.header("Date")?.hasSuffix(" GMT") == true)
            }
            #expect(await !client.closed(within: 0.1))
            #expect(server.connectionCount == 1)
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test func threePipelinedRequestsAnswerInOrder() async throws {
            let (server, port) = try TestServer.start()
            let client = try TestHTTPClient(port: port)
            client.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\nPOST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcGET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try await client.response().text == "slow")
            #expect(try await client.response().text == "abc")
            #expect(try await client.response().text == "hello")
            #expect(await !client.closed(within: 0.1))
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test func chunkedUploadAndChunkedResponse() async throws {
            let (server, port) = try TestServer.start()
            let client = try TestHTTPClient(port: port)
            client.send("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5;x=y\r\npedia\r\n0\r\nT: 1\r\n\r\n")
            #expect(try await client.response().text == "Wikipedia")
            client.send("GET /stream HTTP/1.1\r\nHost: a\r\n\r\n")
            let streamed = try await client.response()
            #expect(streamed.header("Transfer-Encoding") == "chunked")
            #expect(streamed.text == "part0;part1;part2;")
            #expect(await !client.closed(within: 0.1))
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test func gzipBothWays() async throws {
            let (server, port) = try TestServer.start()
            let client = try TestHTTPClient(port: port)
            client.send("GET /big HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip, br\r\n\r\n")
            let packed = try await client.response()
            #expect(packed.header("Content-Encoding") == "gzip")
            #expect(packed.header("Vary") == "Accept-Encoding")
            let text = String(decoding: try Gzip.decompress(packed.body, limit: 1 << 20), as: UTF8.self)
            #expect(text == String(repeating: "caresync ", count: 1000))
            client.send("GET /hello HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip\r\n\r\n")
            #expect(try await client.response().header("Content-Encoding") == nil)  // under the 1 KiB threshold
            let body = try #require(Gzip.compress(Array("inflate me".utf8)))
            client.send(Array("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Encoding: gzip\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
            #expect(try await client.response().text == "inflate me")
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test func gzipBombIs413() async throws {
            var configuration = TestServer.configuration()
            configuration.maxBodySize = 64 * 1024
            let (server, port) = try TestServer.start(configuration)
            let bomb = try #require(Gzip.compress([UInt8](repeating: 0, count: 10_000_000)))
            #expect(bomb.count < configuration.maxBodySize)
            let client = try TestHTTPClient(port: port)
            client.send(Array("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Encoding: gzip\r\nContent-Length: \(bomb.count)\r\n\r\n".utf8) + bomb)
            let reply = try await client.response()
            #expect(reply.status == 413)
            #expect(reply.text.contains("\"code\":\"payloadTooLarge\""))
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test func headSendsNoBody() async throws {
            let (server, port) = try TestServer.start()
            let client = try TestHTTPClient(port: port)
            client.send("HEAD /big HTTP/1.1\r\nHost: a\r\n\r\n")
            let reply = try await client.response(head: true)
            #expect(reply.status == 200)
            #expect(reply.header("Content-Length") == "9000")
            client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try await client.response().text == "hello")  // would be garbage had HEAD sent a body
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test func http10ClosesUnlessKeepAlive() async throws {
            let (server, port) = try TestServer.start()
            let plain = try TestHTTPClient(port: port)
            plain.send("GET /hello HTTP/1.0\r\n\r\n")
            let reply = try await plain.response()
            #expect(reply.status == 200)
            #expect(reply.header("Connection") == "close")
            #expect(await plain.closed())
            let kept = try TestHTTPClient(port: port)
            kept.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try await kept.response().header("Connection") == "keep-alive")
            #expect(await !kept.closed(within: 0.1))
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test func dualStackServesIPv4AndIPv6() async throws {
            let (server, port) = try TestServer.start(TestServer.configuration(host: "::"))
            for ipv6 in [false, true] {
                let client = try TestHTTPClient(port: port, ipv6: ipv6)
                client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(try await client.response().status == 200)
            }
            await server.shutdown(gracePeriod: .seconds(1))
        }
    }
}
