import Kiosk
import Stage

/// The `--json` form of a report. Key names and order are the schema documented in
/// bench/README.md; change them only together with the schema version.
extension BenchReport {
    /// The top-level keys, in order; the tests hold the JSON to this list.
    static let topLevelKeys = [
        "schema", "command", "build", "quick", "machine", "text", "floor", "composition",
        "layout", "layout_samples", "first_frame", "pango", "pango_comparison", "camera", "memory",
        "console_frame", "speech", "follow", "recording_load", "markup", "smoothness",
        "kiosk_smoothness", "composition_at_phase_speeds",
    ]

    func json() -> BenchJSON {
        .object([
            ("schema", .string(Self.schema)),
            ("command", .string(command)),
            ("build", .string(isReleaseBuild ? "release" : "debug")),
            ("quick", .bool(quick)),
            ("machine", .object([
                ("cpu_model", .string(machine.cpuModel)),
                ("nproc", .int(machine.processors)),
                ("kernel", .string(machine.kernel)),
            ])),
            ("text", .object([("file", .string(textFile)), ("words", .int(textWords))])),
            ("floor", .array(floor.map { f in
                .object([("display", .string(f.display.description)),
                         ("bytes", .int(f.display.frameBytes))] + f.result.json)
            })),
            ("composition", .array(composition.map { c in
                .object([
                    ("display", .string(c.display.description)),
                    ("size_px", .int(c.sizePx)),
                    ("mirror", .bool(c.transform.mirror)),
                    ("flip", .bool(c.transform.flip)),
                    ("rotation", .int(c.transform.rotation)),
                ] + c.result.json + [
                    ("ratio_to_floor", .number(BenchStatistics.ratio(c.result.medianMs,
                                                                     to: floorMedian(c.display)))),
                    ("pieces_rasterized", c.piecesRasterized.map { .int($0) } ?? .null),
                ])
            })),
            ("layout", .array(layout.map { l in
                .object([("display", .string(l.display.description)), ("size_px", .int(l.sizePx)),
                         ("lines", l.lines.map { .int($0) } ?? .null)] + l.result.json + [
                    ("ratio_to_pango", .number(BenchStatistics.ratio(l.result.medianMs,
                                                                     to: pangoLayoutMedian(sizePx: l.sizePx)))),
                ])
            })),
            ("layout_samples", .array(sampleLayout.map { l in
                .object([("file", .string(l.file)), ("script", .string(l.script)), ("size_px", .int(l.sizePx)),
                         ("lines", l.lines.map { .int($0) } ?? .null)] + l.result.json + [
                    ("pango_median_ms", .number(pangoSampleMedian(file: l.file))),
                    ("ratio_to_pango", .number(BenchStatistics.ratio(l.result.medianMs,
                                                                     to: pangoSampleMedian(file: l.file)))),
                ])
            })),
            ("first_frame", .array(firstFrame.map { f in
                .object([("display", .string(f.display.description)), ("size_px", .int(f.sizePx))]
                        + f.result.json)
            })),
            ("pango", pangoJSON),
            ("pango_comparison", .array(pangoComparisons(sizes: sizes).map { row in
                .object([
                    ("display", .string(row.display.description)),
                    ("size_px", .int(row.sizePx)),
                    ("ours_median_ms", .number(row.ours)),
                    ("naive_median_ms", .number(row.naive)),
                    ("good_median_ms", .number(row.good)),
                    ("ratio_to_naive", .number(row.ratioToNaive)),
                    ("ratio_to_good", .number(row.ratioToGood)),
                ])
            })),
            ("camera", cameraJSON),
            ("memory", memory.map { m in
                .object([("rig_peak_kib", m.rigKiB.map { .int($0) } ?? .null),
                         ("pango_peak_kib", m.pangoKiB.map { .int($0) } ?? .null),
                         ("gstreamer_peak_kib", m.gstreamerKiB.map { .int($0) } ?? .null)])
            } ?? .null),
            ("console_frame", .array(console.map { c in
                .object([("display", .string(c.display.description))] + c.result.json
                        + [("ratio_to_floor", .number(BenchStatistics.ratio(c.result.medianMs, to: floorMedian(c.display)))),
                           ("pixels_drawn_share", c.drawnShare.map { .number($0) } ?? .null)])
            })),
            ("speech", speechJSON),
            ("follow", FollowBench.json(follow)),
            ("recording_load", RecordingLoadBench.json(recordingLoad)),
            ("markup", MarkupBench.json(markup)),
            ("smoothness", ScrollSmoothnessTable.json(smoothness)),
            ("kiosk_smoothness", KioskSmoothnessBench.json(kioskSmoothness)),
            ("composition_at_phase_speeds", .array(compositionAtPhaseSpeeds.map { c in
                .object([
                    ("display", .string(c.display.description)),
                    ("size_px", .int(c.sizePx)),
                    ("rotation", .int(c.transform.rotation)),
                    ("speed_px_s", .int(c.speed)),
                ] + c.result.json + [
                    ("ratio_to_floor", .number(BenchStatistics.ratio(c.result.medianMs,
                                                                     to: floorMedian(c.display)))),
                    ("pieces_rasterized", c.piecesRasterized.map { .int($0) } ?? .null),
                ])
            })),
        ])
    }

    private var pangoJSON: BenchJSON {
        switch pango {
        case let .unavailable(reason):
            return .object([("status", .string("unavailable")), ("reason", .string(reason))])
        case let .ran(version, layouts, cases, samples):
            return .object([
                ("status", .string("ok")),
                ("version", .string(version)),
                ("layout", .array(layouts.map { l in
                    .object([("display", .string(l.display)), ("size_px", .int(l.sizePx)),
                             ("lines", l.lines.map { .int($0) } ?? .null)] + l.result.json)
                })),
                ("cases", .array(cases.map { c in
                    .object([("mode", .string(c.mode)), ("display", .string(c.display)),
                             ("size_px", .int(c.sizePx)),
                             ("lines", c.lines.map { .int($0) } ?? .null)] + c.result.json)
                })),
                ("samples", .array(samples.map { s in
                    .object([("file", .string(s.file)), ("lines", s.lines.map { .int($0) } ?? .null)]
                            + s.result.json)
                })),
            ])
        }
    }

    private var speechJSON: BenchJSON {
        guard let sp = speech else { return .null }
        let fields: [(String, BenchJSON)] = [
            ("instruction", .string(sp.instruction)), ("words", .int(sp.words)),
            ("duration_s", sp.duration.map { .number($0) } ?? .null),
            ("synthesis", .object(sp.synthesis.json)),
            ("cpu_per_speech_second", sp.cpuPerSpeechSecond.map { .number($0) } ?? .null),
            ("times_real_time", sp.cpuPerSpeechSecond.map { .number(1 / $0) } ?? .null),
            ("speak_to_first_sample", .object(sp.speakToFirstSample.json)),
            ("device", .string(sp.device)),
        ]
        return .object(fields)
    }

    private var cameraJSON: BenchJSON {
        guard let camera else { return .null }
        return .object([
            ("frame", .string(camera.frame)),
            ("ours", .object(camera.ours.json)),
            ("gstreamer", .object(camera.gstreamer.json
                                  + [("version", camera.gstreamerVersion.map { .string($0) } ?? .null)])),
            ("ratio_to_gstreamer", .number(BenchStatistics.ratio(camera.ours.medianMs,
                                                                 to: camera.gstreamer.medianMs))),
        ])
    }
}
