import Foundation

/// The OpenAPI 3.1 document of the API, kept in `OpenAPI/openapi.json` and copied into the resource bundle (as the
/// web app's files are: a byte-array literal of it took half a minute to compile in every build).
public enum OpenAPIDocument {
    /// The document's bytes, served at `/openapi.json`, read from the bundle once.
    public static let bytes: [UInt8] = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
              let data = FileManager.default.contents(atPath: url.path) else {
            preconditionFailure("the OpenAPI document is not in the resource bundle")
        }
        return [UInt8](data)
    }()
}
