/// Where reading stopped, so a restart opens the same script at the same place.
/// `wordIndex` survives a change of font or column (the caller maps it back to an
/// offset in the new layout); `offset` is the pixel fallback.
public struct ResumeState: Codable, Sendable, Equatable {
    /// `ScriptEntry.id`: the path relative to the library root.
    public var scriptID: String
    public var offset: Double
    public var wordIndex: Int?

    public init(scriptID: String, offset: Double, wordIndex: Int? = nil) {
        self.scriptID = scriptID
        self.offset = offset.isFinite ? max(0, offset) : 0
        self.wordIndex = wordIndex.map { max(0, $0) }
    }

    enum CodingKeys: String, CodingKey { case scriptID, offset, wordIndex }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let offset = (try? c.decodeIfPresent(Double.self, forKey: .offset)) ?? nil
        let word = (try? c.decodeIfPresent(Int.self, forKey: .wordIndex)) ?? nil
        self.init(scriptID: try c.decode(String.self, forKey: .scriptID), offset: offset ?? 0, wordIndex: word)
    }
}
