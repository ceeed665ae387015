/// The speed scale the whole rig shares, in pixels a second on the outer display: the
/// range every entry point clamps to (keys, console, remote, hand controllers, config),
/// the speed a new rig starts at, and the step of the speed keys. The engine keeps the
/// speed; this says what a speed may be.
public enum ScrollSpeed {
    public static let range = 10...300
    public static let defaultValue = 60
    public static let step = 10

    /// The one clamp every speed entry point goes through.
    public static func clamped(_ value: Int) -> Int {
        min(max(value, range.lowerBound), range.upperBound)
    }
}
