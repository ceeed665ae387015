/// Where one cue's time went, request to acknowledged flip, for the journal: one line
/// per cue (`cue N timing: ...`, read by vrig/cue-latency). All times CLOCK_MONOTONIC
/// seconds on the loop's clock, except `flip`, the kernel's flip time.
struct CueTrace {
    let cue: UInt64
    /// When the cue's frame began to be drawn (or was found already drawn, prepared ahead).
    var composeStarted: Double
    /// When it was handed to the display (the backend submits the flip right after).
    var submitted: Double
    /// The frame was drawn ahead, at the speech's end report, and only flipped at the request.
    var prepared: Bool

    /// The line, given the request time, the flip's time and when the loop handled it.
    func line(requested: Double, flip: Double, handled: Double) -> String {
        func ms(_ seconds: Double) -> String { String(format: "%.1f", seconds * 1000) }
        return "cue \(cue) timing: requested=\(String(format: "%.4f", requested)) wait_ms=\(ms(composeStarted - requested)) compose_ms=\(ms(submitted - composeStarted))"
            + " flip_ms=\(ms(flip - submitted)) loop_ms=\(ms(handled - flip)) total_ms=\(ms(flip - requested))"
            + " prepared=\(prepared ? 1 : 0)"
    }
}
