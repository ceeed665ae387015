/// The cases whose code lives in other parts of rig (text layout, composition, camera
/// conversion). Until that code is in this build they are reported as unavailable
/// with the reason, never with a made-up number.
enum ProducerBenches {
    static let layoutMissing = "the text layout (TextLayout) is not in this build yet"
    static let composeMissing = "the outer-frame compositor is not in this build yet"
    static let cameraMissing = "the camera frame conversion is not in this build yet"

    static func layout(text: String, plan: BenchPlan) -> [BenchReport.LayoutFigure] {
        BenchPlan.sizes.map { .init(display: .fullHD, sizePx: $0, lines: nil, result: .unavailable(layoutMissing)) }
    }

    static func firstFrame(text: String, plan: BenchPlan) -> [BenchReport.FirstFrameFigure] {
        BenchReport.Display.all.flatMap { display in
            BenchPlan.sizes.map { .init(display: display, sizePx: $0, result: .unavailable(composeMissing)) }
        }
    }

    static func composition(text: String, plan: BenchPlan) -> [BenchReport.CompositionFigure] {
        BenchReport.Display.all.flatMap { display in
            BenchPlan.sizes.flatMap { size in
                plan.transforms.map {
                    .init(display: display, sizePx: size, transform: $0, result: .unavailable(composeMissing))
                }
            }
        }
    }

    static func camera(frames: Int) -> BenchMeasurement { .unavailable(cameraMissing) }
}

extension ProducerBenches {
    static func reason(for benchCase: BenchCase) -> String {
        switch benchCase {
        case .floor: "available"
        case .compose: composeMissing
        case .layout: layoutMissing
        case .camera: cameraMissing
        }
    }
}
