import Foundation
import Prompter
import Stage

/// A running kiosk's outer frames as they are shown, for `rig bench --case
/// kiosk-smoothness`: the headless kiosk (`rig run --backend headless`: its event loop,
/// frame pacing and flips on the vblank grid) opens a script, stands idle for
/// `pauseBeforePlay` as an operator would before pressing play (its warm-up runs then),
/// and plays it; each completed outer flip after the ramp hands its front buffer to
/// `frame` on the loop. What the bench
/// measures from these pixels is what the app shows, not what a test harness composes.
package enum KioskScrollProbe {
    package struct Shown {
        package let pixels: UnsafeRawPointer
        package let width: Int
        package let height: Int
        package let stride: Int
        /// The vblank the frame was shown at, on the kiosk's clock.
        package let time: Double
    }

    package struct Outcome {
        /// Outer flips the kiosk missed a vblank for while playing (`missed_vblanks`).
        package var missedVblanks: Int
        /// Outer frames shown over one and a half refresh periods after the one before,
        /// from the first after play (the ramp included), from the flip times: this also
        /// counts a frame the loop asked for late, which is not a missed vblank to the
        /// backend.
        package var lateFrames: Int
        package var flips: Int
    }

    /// The script stands open this long before play.
    package static let pauseBeforePlay = 3.0

    /// Runs a headless kiosk with `text` as its only script at `speed` px/s and
    /// `fontSize` px on an outer display of `width`×`height`, the text mirrored,
    /// flipped and rotated as `transform` says, until `frames` outer flips after the
    /// ramp (the first second) have been handed to `frame`.
    package static func run(text: String, width: Int, height: Int, fontSize: Int, speed: Int,
                            transform: (mirror: Bool, flip: Bool, rotation: Int) = (false, false, 0), frames: Int,
                            frame: (Shown) -> Void) throws -> Outcome {
        let kiosk = try ProbeKiosk(name: "probe", text: text, settings: [
            "prompter.font_size=\(fontSize)", "prompter.speed=\(speed)",
            "prompter.mirror=\(transform.mirror)", "prompter.flip=\(transform.flip)",
            "prompter.rotation=\(transform.rotation)",
            // The reading band tints the text it crosses: the pixel meter wants only ink.
            "prompter.pointer=\"none\"",
        ], inner: PixelSizeArgument(width: 640, height: 360), outer: PixelSizeArgument(width: width, height: height))
        kiosk.run(for: pauseBeforePlay) { false }
        let start = kiosk.play()
        var handed = 0, late = 0
        var lastFlip: Double?
        let missedBefore = kiosk.missedVblanks
        withoutActuallyEscaping(frame) { frame in
            // Only while this loop runs: the hook is cleared before `frame` goes.
            kiosk.headless.onPresented = { role, stamp, buffer in
                guard role == .outer, stamp.time > start, handed < frames else { return }
                if let lastFlip, stamp.time - lastFlip > 1.5 / 60 { late += 1 }
                lastFlip = stamp.time
                guard stamp.time > start + 1 else { return }
                handed += 1
                frame(Shown(pixels: UnsafeRawPointer(buffer.pixels), width: buffer.width, height: buffer.height,
                            stride: buffer.stride, time: stamp.time))
            }
            kiosk.run(for: 1 + Double(frames) / 20 + 10) { handed >= frames }
            kiosk.headless.onPresented = nil
        }
        guard handed == frames else { throw ProbeKiosk.ProbeError.tooFewFrames(handed) }
        return Outcome(missedVblanks: kiosk.missedVblanks - missedBefore, lateFrames: late, flips: handed)
    }
}
