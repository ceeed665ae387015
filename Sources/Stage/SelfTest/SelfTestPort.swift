/// What the devices say of themselves for a self-test: the kiosk's own device code
/// answers (its DRM connectors, its camera, its sound threads, its disk). The stage
/// measures what happens on the loop (flips, taps, camera frames) itself.
package protocol SelfTestPort: AnyObject {
    func display(_ role: DisplayRole) -> DisplayFacts
    /// nil: no camera in rig.toml.
    var camera: CameraFacts? { get }
    /// CPU seconds the camera's capture thread has used so far (nil: none runs).
    var cameraCaptureCPU: Double? { get }
    var sound: SoundFacts { get }
    /// The touchscreen the kiosk gives the outer display (its name), nil when none.
    var outerTouchscreenName: String? { get }
    /// What the microphone captured from `time` on (nil: no microphone).
    func heard(since time: Double) -> HeardSound?
    /// Writes and syncs in the recordings' folder on a thread of its own (an fsync on a
    /// slow stick can take a second); `done` runs on the loop.
    func storage(done: @escaping (StorageFacts) -> Void)
    var clock: ClockFacts { get }
    /// A real-time trial encode of `seconds` at [recording]'s preset with the camera's
    /// format, size and rate, then at faster presets until one keeps up; `done` runs on
    /// the loop. Runs on threads of its own.
    func recorderTrial(seconds: Double, done: @escaping (RecorderCheck) -> Void)
    var network: NetworkFacts { get }
}
