import Foundation
import Media
import Stage

/// The stage's prompter takes recorded by the kiosk's recording service: the camera's
/// frames as its capture hands them over, and the microphone's.
final class KioskTakeRecorder: TakeRecorderPort {
    private let service: RecordingService
    /// The camera's frame layout now, as the recorder takes it (nil: no picture).
    private let videoFormat: () -> VideoTrackFormat?
    /// The camera's state in a few words, for "no camera picture (camera: …)".
    private let cameraState: () -> String

    init(service: RecordingService, videoFormat: @escaping () -> VideoTrackFormat?,
         cameraState: @escaping () -> String) {
        self.service = service
        self.videoFormat = videoFormat
        self.cameraState = cameraState
    }

    var refusal: String? {
        guard service.settings.enabled else { return RecordingError.disabled.description }
        if let generation = service.currentGeneration { return RecordingError.busy(generation: generation).description }
        guard videoFormat() != nil else { return RecordingError.noCamera(cameraState()).description }
        return nil
    }

    var soundProblem: String? { service.soundProblem }

    func start(annotations: [String: String]) -> Result<Int, TakeRefusal> {
        do {
            return .success(try service.start(RecordingTake(kind: .prompter, annotations: annotations),
                                              video: videoFormat(), cameraState: cameraState()))
        } catch {
            return .failure(TakeRefusal(error.description))
        }
    }

    func finish(annotations: [String: String]) -> Result<Int, TakeRefusal> {
        guard let generation = service.currentGeneration, service.phase == .recording else {
            return .failure(TakeRefusal("no take is running"))
        }
        do {
            try service.finish(generation: generation, annotations: annotations)
            return .success(generation)
        } catch {
            return .failure(TakeRefusal(error.description))
        }
    }

    var status: [String: JSONValue] {
        guard case let .object(fields) = service.statusJSON else { return ["state": "off"] }
        return fields
    }
}
