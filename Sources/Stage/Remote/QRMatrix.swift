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
}
