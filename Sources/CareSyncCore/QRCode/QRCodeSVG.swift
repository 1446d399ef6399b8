/// A QR code as an SVG document: a white square and one black `<path>` of the dark modules, in module units
/// with a quiet zone around the symbol (4 modules, as ISO/IEC 18004 asks).
public enum QRCodeSVG {
    /// The SVG text of `code`, `pixelsPerModule` pixels per module when shown at its natural size.
    public static func render(_ code: QRCode, quietZone: Int = 4, pixelsPerModule: Int = 8) -> String {
        let side = code.size + 2 * quietZone
        var path = ""
        for row in 0..<code.size {
            var column = 0
            while column < code.size {
                guard code.isDark(row: row, column: column) else { column += 1; continue }
                var run = 1
                while column + run < code.size && code.isDark(row: row, column: column + run) { run += 1 }
                path += "M\(column + quietZone) \(row + quietZone)h\(run)v1h-\(run)z"
                column += run
            }
        }
        let pixels = side * pixelsPerModule
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(pixels)\" height=\"\(pixels)\" "
            + "viewBox=\"0 0 \(side) \(side)\" shape-rendering=\"crispEdges\">"
            + "<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/><path fill=\"#000\" d=\"\(path)\"/></svg>\n"
    }
}
