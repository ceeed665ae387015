import Foundation

/// 16-bit PCM WAV, the plain RIFF layout every player and tool reads.
public enum WAVFile {
    public static func data(samples: [Int16], sampleRate: Int, channels: Int = 1) -> Data {
        var out = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        let byteCount = UInt32(samples.count * 2)
        out.append(contentsOf: Array("RIFF".utf8)); u32(36 + byteCount)
        out.append(contentsOf: Array("WAVE".utf8))
        out.append(contentsOf: Array("fmt ".utf8)); u32(16); u16(1); u16(UInt16(channels))
        u32(UInt32(sampleRate)); u32(UInt32(sampleRate * channels * 2)); u16(UInt16(channels * 2)); u16(16)
        out.append(contentsOf: Array("data".utf8)); u32(byteCount)
        samples.withUnsafeBufferPointer { buffer in
            for sample in buffer { u16(UInt16(bitPattern: sample)) }
        }
        return out
    }

    /// Reads what `data` writes (and other 16-bit PCM WAVs): samples, rate, channels.
    public static func read(_ data: Data) -> (samples: [Int16], sampleRate: Int, channels: Int)? {
        let bytes = [UInt8](data)
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else { return nil }
        var at = 12
        var rate = 0, channels = 0, bits = 0
        while at + 8 <= bytes.count {
            let size = u32(at + 4)
            let body = at + 8
            if bytes[at..<at + 4].elementsEqual("fmt ".utf8), body + 16 <= bytes.count {
                channels = u16(body + 2); rate = u32(body + 4); bits = u16(body + 14)
            } else if bytes[at..<at + 4].elementsEqual("data".utf8) {
                guard bits == 16, rate > 0 else { return nil }
                let end = min(bytes.count, body + size)
                var samples: [Int16] = []
                samples.reserveCapacity((end - body) / 2)
                var i = body
                while i + 1 < end { samples.append(Int16(bitPattern: UInt16(u16(i)))); i += 2 }
                return (samples, rate, channels)
            }
            at = body + size + (size & 1)
        }
        return nil
    }
}
