import CQREncode
import Stage

/// The pairing address as a QR code, so a phone's camera pairs it: libqrencode at
/// error correction M (a code on a monitor, seen at an angle, loses some modules).
enum PairingQRCode {
    static func matrix(_ text: String) -> QRMatrix? {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        guard size > 0, let data = code.pointee.data else { return nil }
        // Bit 0 of each byte is the module's colour; the rest is how it was placed.
        let dark = (0..<(size * size)).map { data[$0] & 1 == 1 }
        return QRMatrix(size: size, dark: dark)
    }
}
