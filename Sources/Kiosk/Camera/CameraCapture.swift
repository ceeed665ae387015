import CLinux
import Foundation
import Render
import Synchronization
import Stage

/// Captures from the configured V4L2 camera on its own thread, so the event loop never
/// waits on the device: not on open (a USB camera can take a second), not on a frame.
/// Frames and state changes go to `events`, which wakes the loop through its mailbox.
///
/// When the camera fails or is unplugged, the thread reports `.unavailable(reason)`,
/// closes the device and waits for udev to announce a video4linux device (then
/// reopens at once), retrying every `settings.retryInterval` as well for systems where udev
/// events do not arrive. Both waits happen here, off the loop, because reopening
/// blocks.
final class CameraCapture: Sendable {
    let settings: CameraSettings
    let events: CameraCaptureEvents
    let pool = CameraFramePool()
    /// Without a frame for this long, the camera is treated as failed and reopened.
    static let stallTimeout = 5.0
    static let bufferCount = 4

    private let thread: DeviceThread
    private let log: @Sendable (String) -> Void

    init(settings: CameraSettings, events: CameraCaptureEvents,
         log: @escaping @Sendable (String) -> Void = { KioskLog.info($0) }) throws {
        self.settings = settings
        self.events = events
        self.log = log
        thread = try DeviceThread(name: "rig-camera")
    }


    /// Starts the capture thread (once).
    func start() { thread.start { [self] in run() } }

    /// Asks the thread to stop and waits (up to `timeout`) for it to close the device.
    @discardableResult
    func stop(timeout: Double = 3) -> Bool { thread.stop(timeout: timeout) }

    private var stopping: Bool { thread.stopping }

    private func run() {
        events.report(.starting)
        // udevd's processed events, not the kernel's: by then the /dev/v4l/by-id link
        // exists and permissions are set, so the reopen succeeds. Without udev (no
        // netlink socket, e.g. in a container) the thread retries on a timer only.
        let monitor = try? UdevMonitor(subsystem: "video4linux", source: .udev)
        if monitor == nil { log("camera: udev monitor unavailable; retrying every \(settings.retryInterval) s") }
        let converter = CameraFrameConverter()
        let reopen = DeviceReopenLoop<CameraError>(thread: thread, monitor: monitor, retryInterval: settings.retryInterval,
                                                   announces: { ["add", "change"].contains($0.action) })
        reopen.run(device: { () throws(CameraError) in try captureUntilFailure(converter: converter) },
                   failed: { error in
                       log("camera: \(settings.devicePath): \(error)")
                       events.report(.unavailable(error.description))
                   },
                   reopening: { log("camera: udev announced a video4linux device; reopening \(settings.devicePath)") })
        events.report(.stopped)
    }

    /// Opens, negotiates and streams until stopped (returns) or the device fails (throws).
    private func captureUntilFailure(converter: CameraFrameConverter) throws(CameraError) {
        let device = try CameraDevice(path: settings.devicePath)
        let (usable, offered) = device.modes()
        guard let wanted = CameraModeChooser.choose(from: usable, width: settings.preferredWidth,
                                                    height: settings.preferredHeight,
                                                    framesPerSecond: settings.preferredFramesPerSecond) else {
            throw .noUsableFormat(path: settings.devicePath, offered: offered)
        }
        let applied = try device.apply(wanted)
        log("camera: \(settings.devicePath): chose \(applied.mode) (wanted \(settings.preferredWidth)x"
            + "\(settings.preferredHeight)@\(Int(settings.preferredFramesPerSecond)); closest offered \(wanted))")
        try device.startStreaming(bufferCount: Self.bufferCount)
        events.report(.streaming(applied.mode, identity: device.identity))
        var lastFrame = MonotonicTime.now()
        while !stopping {
            var fds = [pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: thread.wakeFD, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, 500)
            if ready < 0 && errno != EINTR { throw .ioctlFailed(request: "poll", errno: errno) }
            if fds[0].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 && fds[0].revents & Int16(POLLIN) == 0 {
                // An unregistered device polls as an error; DQBUF then says why.
                _ = try device.dequeue()
                throw .disconnected(errno: ENODEV)
            }
            if fds[0].revents & Int16(POLLIN) != 0, let filled = try device.dequeue() {
                lastFrame = MonotonicTime.now()
                let frame = copy(filled, mode: applied.mode, bytesPerLine: applied.bytesPerLine, converter: converter)
                try device.requeue(filled)
                if let frame { events.publish(frame) }
            } else if MonotonicTime.now() - lastFrame > Self.stallTimeout {
                throw .stalled(seconds: Self.stallTimeout)
            }
        }
    }

    /// Copies (or converts) the mapped buffer into pooled memory so the buffer can go
    /// straight back to the driver. A malformed frame is skipped, not fatal.
    private func copy(_ filled: CameraDevice.Filled, mode: CameraMode, bytesPerLine: Int,
                      converter: CameraFrameConverter) -> CameraFrame? {
        let timestamp = filled.timestamp > 0 ? filled.timestamp : MonotonicTime.now()
        do {
            let image = try CameraImage(format: mode.format, width: mode.width, height: mode.height,
                                        bytesPerLine: bytesPerLine, base: filled.bytes, byteCount: filled.byteCount)
            if settings.delivery.published(mode.format) != mode.format {
                let rowBytes = mode.width * 4
                let memory = pool.take(bytes: rowBytes * mode.height)
                let region = try XRGBRegion(base: memory.start, bytesPerRow: rowBytes, width: mode.width, height: mode.height)
                let frame = CameraFrame(format: .xrgb, width: mode.width, height: mode.height, bytesPerLine: rowBytes,
                                        sequence: filled.sequence, timestamp: timestamp, memory: memory, pool: pool)
                try converter.draw(image, into: region, mirrored: false)
                return frame
            }
            let byteCount = mode.format.frameByteCount(bytesPerLine: bytesPerLine, height: mode.height)
            let memory = pool.take(bytes: byteCount)
            memory.start.copyMemory(from: filled.bytes, byteCount: byteCount)
            return CameraFrame(format: mode.format, width: mode.width, height: mode.height, bytesPerLine: bytesPerLine,
                               sequence: filled.sequence, timestamp: timestamp, memory: memory, pool: pool)
        } catch {
            log("camera: skipped frame \(filled.sequence): \(error)")
            return nil
        }
    }
}
