import Foundation
import Testing
@testable import Media

/// A replay must keep up with the clip: 1080p30 pictures decoded and packed for the
/// loop faster than 30 a second on this machine, with the figure printed.
/// Wall time, since libavcodec decodes on worker threads of its own (one thread's CPU
/// time would undercount): 6 ms a picture alone here, 25 ms with the whole Kiosk and
/// Stage test run beside it on the two shared cores.
@Suite(.serialized) struct ReplayDecodeSpeedTests {
    @Test func decodes1080pFasterThanRealTime() throws {
        let folder = ScratchFolder()
        var settings = SyntheticMedia.unhurried
        settings.preset = "ultrafast"
        let count = 60
        let recorder = try Recorder(folder: folder.path, name: "hd", video: VideoTrackFormat(format: .yuyv, width: 1920, height: 1080),
                                    audio: nil, origin: 0, settings: settings)
        for i in 0..<count {
            recorder.append(SyntheticMedia.yuyvFrame(i, timestamp: Double(i) / 30, width: 1920, height: 1080))
        }
        let path = try recorder.finish().path
        let decoder = ClipDecoder(path: path, sound: false) {}
        defer { decoder.stop() }
        let start = Date()
        decoder.want(through: .infinity)
        var pictures = 0
        #expect(waitUntil(seconds: 30) {
            let delivery = decoder.take()
            pictures += delivery.pictures.count
            return delivery.ended
        })
        let seconds = Date().timeIntervalSince(start)
        #expect(pictures == count)
        let perPicture = seconds / Double(count) * 1000
        print("replay decode 1920x1080: \(count) pictures in \(String(format: "%.3f", seconds)) s, "
              + "\(String(format: "%.1f", perPicture)) ms each (real time: 33.3 ms)")
        #expect(perPicture < 1000.0 / 30, "decoding takes \(perPicture) ms a picture: slower than the clip")
    }
}
