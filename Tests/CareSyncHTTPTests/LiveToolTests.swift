import Foundation
import CareSyncTestSupport
import Testing
@testable import CareSyncHTTP

extension LiveTests {
    /// Real clients: curl and Python's http.client, spawned with `ChildProcess`.
    @Suite struct Tools {
        /// Runs a program on a thread of its own (the server under test needs the cooperative threads a blocked wait
        /// would hold); returns its exit status and standard output.
        static func run(_ executable: String, _ arguments: [String], input: Data? = nil) async throws -> (Int32, String) {
            try await onDedicatedThread { try runBlocking(executable, arguments, input: input) }
        }

        /// `run` on the calling thread.
        static func runBlocking(_ executable: String, _ arguments: [String], input: Data? = nil) throws -> (Int32, String) {
            let (ended, output) = try ChildProcess.run(executable, arguments, input: input)
            return (ended.status, String(decoding: output, as: UTF8.self))
        }

        static func available(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

        @Test(.enabled(if: available("/usr/bin/curl")))
        func curlKeepAliveGzipChunkedAndHead() async throws {
            let (server, port) = try TestServer.start()
            let base = "http://127.0.0.1:\(port)"
            // Two URLs in one curl run reuse one connection.
            let (status, out) = try await Self.run("/usr/bin/curl", ["-sS", "-v", "--compressed", "\(base)/big", "\(base)/hello", "-o", "/dev/null", "-o", "/dev/null", "-w", "%{http_code} %{num_connects} %{size_download}\\n"])
            #expect(status == 0)
            // The gzipped body travels as fewer bytes than its 9,000 plain ones; the second URL reuses the connection.
            let lines = out.split(separator: "\n").map { $0.split(separator: " ") }
            #expect(lines.count == 2)
            #expect(lines.first?.prefix(2) == ["200", "1"])
            #expect((Int(lines.first?.last ?? "") ?? 9000) < 1000)
            #expect(lines.last == ["200", "0", "5"])
            let (_, inflated) = try await Self.run("/usr/bin/curl", ["-sS", "--compressed", "\(base)/big"])
            #expect(inflated == String(repeating: "caresync ", count: 1000))
            let (_, upload) = try await Self.run("/usr/bin/curl", ["-sS", "-H", "Transfer-Encoding: chunked", "--data-binary", "@-", "\(base)/echo"], input: Data("streamed upload".utf8))
            #expect(upload == "streamed upload")
            let (_, head) = try await Self.run("/usr/bin/curl", ["-sS", "-I", "\(base)/hello"])
            #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(head.contains("Content-Length: 5\r\n"))
            let (_, missing) = try await Self.run("/usr/bin/curl", ["-sS", "-w", "|%{http_code}|%{content_type}", "\(base)/missing"])
            #expect(missing.hasSuffix("|404|application/problem+json"))
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test(.enabled(if: available("/usr/bin/python3")))
        func pythonHTTPClientKeepAliveAndContinue() async throws {
            let (server, port) = try TestServer.start()
            let script = """
            import http.client, gzip
            c = http.client.HTTPConnection("127.0.0.1", \(port), timeout=5)
            out = []
            for i in range(3):
                c.request("GET", "/hello")
                r = c.getresponse()
                out.append("%d:%s" % (r.status, r.read().decode()))
            c.request("POST", "/echo", body=b"abc", headers={"Expect": "100-continue"})
            r = c.getresponse()
            out.append("%d:%s" % (r.status, r.read().decode()))
            c.request("POST", "/echo", body=gzip.compress(b"zipped"), headers={"Content-Encoding": "gzip"})
            r = c.getresponse()
            out.append("%d:%s" % (r.status, r.read().decode()))
            c.request("GET", "/big", headers={"Accept-Encoding": "gzip"})
            r = c.getresponse()
            out.append("%d:%s:%d" % (r.status, r.getheader("Content-Encoding"), len(gzip.decompress(r.read()))))
            out.append("same-socket" if c.sock is not None else "reconnected")
            print("|".join(out))
            """
            let (status, out) = try await Self.run("/usr/bin/python3", ["-c", script])
            #expect(status == 0)
            #expect(out == "200:hello|200:hello|200:hello|200:abc|200:zipped|200:gzip:9000|same-socket\n")
            #expect(server.connectionCount == 0 || server.connectionCount == 1)
            await server.shutdown(gracePeriod: .seconds(1))
        }
    }
}
