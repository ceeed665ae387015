import Testing
@testable import Kiosk
@testable import Stage

@Suite struct CameraModeChooserTests {
    private func choose(_ modes: [CameraMode]) -> CameraMode? {
        CameraModeChooser.choose(from: modes, width: 1920, height: 1080, framesPerSecond: 30)
    }

    @Test func takesExactly1080p30WhenOffered() {
        let modes = [CameraMode(format: .yuyv, width: 1280, height: 720, framesPerSecond: 30),
                     CameraMode(format: .yuyv, width: 1920, height: 1080, framesPerSecond: 30),
                     CameraMode(format: .yuyv, width: 1920, height: 1080, framesPerSecond: 60),
                     CameraMode(format: .yuyv, width: 3840, height: 2160, framesPerSecond: 30)]
        #expect(choose(modes) == modes[1])
    }

    @Test func prefersDecodedMJPEG1080p30OverSlowYUYV() {
        // A typical UVC webcam: raw YUYV 1080p only at 5 fps, MJPEG (I420 via libv4l2) at 30.
        let modes = [CameraMode(format: .yuyv, width: 1920, height: 1080, framesPerSecond: 5),
                     CameraMode(format: .yuyv, width: 1280, height: 720, framesPerSecond: 10),
                     CameraMode(format: .i420, width: 1920, height: 1080, framesPerSecond: 30, emulated: true)]
        #expect(choose(modes) == modes[2])
    }

    @Test func prefersNativeOverEmulatedAtTheSameMode() {
        let modes = [CameraMode(format: .i420, width: 1920, height: 1080, framesPerSecond: 30, emulated: true),
                     CameraMode(format: .nv12, width: 1920, height: 1080, framesPerSecond: 30)]
        #expect(choose(modes) == modes[1])
    }

    @Test func fallsBackToTheClosestSizeAtFullRate() {
        // vivid's small sizes: 640x360 at 30 is nearer in spirit than 1280x720 at 5.
        let modes = [CameraMode(format: .yuyv, width: 640, height: 360, framesPerSecond: 30),
                     CameraMode(format: .yuyv, width: 1280, height: 720, framesPerSecond: 5),
                     CameraMode(format: .yuyv, width: 320, height: 180, framesPerSecond: 30)]
        #expect(choose(modes) == modes[0])
    }

    @Test func noModesGivesNothing() {
        #expect(choose([]) == nil)
    }

    @Test func deviceSettingNamesAPathOrAByIDLink() {
        #expect(CameraSettings(device: "/dev/video2").devicePath == "/dev/video2")
        #expect(CameraSettings(device: "usb-Logitech_C920-video-index0").devicePath
            == "/dev/v4l/by-id/usb-Logitech_C920-video-index0")
    }
}
