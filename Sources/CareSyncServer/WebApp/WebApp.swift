import CareSyncHTTP
import HTTPTypes

/// The therapist web app (issue 15): static files embedded at build time, served at `/` with validators,
/// `Cache-Control: no-cache` and a strict Content-Security-Policy. It talks to the API from the same origin.
public enum WebApp {
    /// No inline script or style, nothing from another origin, no framing.
    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

    /// Every file of the app.
    static let assets: [WebAppAsset] = [
        WebAppAsset(path: "/", contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html),
        WebAppAsset(path: "/app.css", contentType: "text/css; charset=utf-8", bytes: PackageResources.app_css),
        WebAppAsset(path: "/favicon.svg", contentType: "image/svg+xml", bytes: PackageResources.favicon_svg),
        script("/app.js", PackageResources.app_js),
        script("/api.js", PackageResources.api_js),
        script("/chart.js", PackageResources.chart_js),
        script("/dom.js", PackageResources.dom_js),
        script("/patient.js", PackageResources.patient_js),
        script("/problems.js", PackageResources.problems_js),
        script("/report-editor.js", PackageResources.report_editor_js),
        script("/time.js", PackageResources.time_js),
    ]

    private static func script(_ path: String, _ bytes: [UInt8]) -> WebAppAsset {
        WebAppAsset(path: path, contentType: "text/javascript; charset=utf-8", bytes: bytes)
    }

    /// Adds a GET (and so HEAD) route for every file of the app.
    public static func register(on router: inout Router) {
        for asset in assets {
            router.get(asset.path) { request, _ in
                response(for: asset, ifNoneMatch: request.head.headers[.ifNoneMatch])
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
