import CareSyncHTTP
import Foundation
import HTTPTypes

/// The therapist web app (issue 15): the static files of `Files/`, read from the resource bundle at start, served at `/` with validators,
/// `Cache-Control: no-cache` and a strict Content-Security-Policy. It talks to the API from the same origin.
public enum WebApp {
    /// No inline script or style, nothing from another origin, no framing.
    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

    /// Every file of the app: each file of `Files/` (copied into the resource bundle), read once, served at `/` plus its
    /// name (`index.html` at `/`). The folder is the one list: a file added there is served.
    static let assets: [WebAppAsset] = {
        guard let folder = Bundle.module.url(forResource: "Files", withExtension: nil),
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            preconditionFailure("the web app's files are not in the resource bundle")
        }
        return names.filter { !$0.hasPrefix(".") }.sorted().map { name in
            guard let bytes = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path),
                  let type = contentTypes[(name as NSString).pathExtension] else {
                preconditionFailure("the web app's file \(name) cannot be served")
            }
            return WebAppAsset(path: name == "index.html" ? "/" : "/" + name, contentType: type, bytes: [UInt8](bytes))
        }
    }()

    /// The `Content-Type` of each kind of file the app has, by extension.
    static let contentTypes = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "svg": "image/svg+xml",
        "js": "text/javascript; charset=utf-8",
    ]

    /// Paths that open the app's page too: `/invite` is where invitation links land (their secret is in the fragment,
    /// which the browser keeps to itself); `/enrol` is where enrolment QR codes land, the code in the fragment too.
    static let pageAliases = ["/invite", "/enrol"]

    /// Adds a GET (and so HEAD) route for every file of the app, and for the page's aliases.
    public static func register(on router: inout Router) {
        for asset in assets {
            for path in asset.path == "/" ? ["/"] + pageAliases : [asset.path] {
                router.get(path) { request, _ in
                    response(for: asset, ifNoneMatch: request.head.headers[.ifNoneMatch])
                }
            }
        }
    }

    /// The file, or 304 when the client's `If-None-Match` names its tag; both carry the security headers.
    static func response(for asset: WebAppAsset, ifNoneMatch: String?) -> Response {
        var headers = HTTPFields()
        headers[.eTag] = asset.etag
        headers[.cacheControl] = "no-cache"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        if let ifNoneMatch, asset.isMatched(by: ifNoneMatch) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        return Response(status: .ok, headers: headers, body: .bytes(asset.bytes))
    }
}
