/// The name systemd gives the mount unit of a mount point, as `systemd-escape --path
/// --suffix=mount` writes it: /run/media/rig/My-Stick is run-media-rig-My\x2dStick.mount.
/// The kiosk's Eject stops that unit, and polkit's rule matches the same name.
enum MountUnitName {
    static func of(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !parts.isEmpty else { return "-.mount" }
        var name = ""
        for (index, part) in parts.enumerated() {
            if index > 0 { name += "-" }
            for (offset, byte) in part.utf8.enumerated() {
                let keep = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "_")
                    || (byte == UInt8(ascii: ".") && !(index == 0 && offset == 0))
                name += keep ? String(UnicodeScalar(byte)) : "\\x" + hex(byte)
            }
        }
        return name + ".mount"
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
