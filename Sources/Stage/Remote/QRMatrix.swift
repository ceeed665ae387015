import Render

/// A QR code's modules, row by row (true: dark), without its quiet zone. The kiosk
/// encodes the pairing address (libqrencode); the console draws it.
package struct QRMatrix: Equatable, Sendable {
    package let size: Int
    package let dark: [Bool]

    package init(size: Int, dark: [Bool]) {
        self.size = size
        self.dark = dark
    }

    package func isDark(x: Int, y: Int) -> Bool { dark[y * size + x] }

    /// Each row's dark runs as (x, length): a few rectangles instead of one per module.
    package func runs(row y: Int) -> [(x: Int, length: Int)] {
        var runs: [(x: Int, length: Int)] = []
        var x = 0
        while x < size {
            guard isDark(x: x, y: y) else { x += 1; continue }
            let start = x
            while x < size && isDark(x: x, y: y) { x += 1 }
            runs.append((start, x - start))
        }
        return runs
    }

    /// The code black on white with its quiet zone of four modules, whole pixels per
    /// module (a blurred edge is what a phone's camera fails on), in a square of at most
    /// `side` at (x, y): the white square and the dark runs, and the square's side.
    package func rects(x: Int, y: Int, side: Int) -> (white: PixelRect, dark: [PixelRect]) {
        let module = max(1, side / (size + 8))
        let total = module * (size + 8)
        let origin = (x: x + 4 * module, y: y + 4 * module)
        let dark = (0..<size).flatMap { row in
            runs(row: row).map { run in
                PixelRect(x: origin.x + run.x * module, y: origin.y + row * module, width: run.length * module, height: module)
            }
        }
        return (PixelRect(x: x, y: y, width: total, height: total), dark)
    }
}
