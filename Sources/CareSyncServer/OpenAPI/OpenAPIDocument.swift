/// The OpenAPI 3.1 document of the API, kept in `OpenAPI/openapi.json` and embedded at build time.
public enum OpenAPIDocument {
    /// The document's bytes, served at `/openapi.json`.
    public static var bytes: [UInt8] { PackageResources.openapi_json }
}
