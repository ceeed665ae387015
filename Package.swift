// swift-tools-version:6.0
// rig: a two-display teleprompter and party-game appliance on DRM/KMS.
// No Swift package dependencies: only the toolchain and Debian's C libraries.
import PackageDescription

func shim(_ name: String, _ pkgConfig: String? = nil) -> Target {
    .systemLibrary(name: name, path: "Sources/\(name)", pkgConfig: pkgConfig)
}

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

// The fuzz build (scripts/fuzz, fuzz/README.md): `rig fuzz TARGET` exists, and toml++ is
// compiled into the shim from its headers so libFuzzer sees inside the TOML parser.
let fuzzing = Context.environment["RIG_FUZZ"] == "1"

let package = Package(
    name: "rig",
    products: [
        .executable(name: "rig", targets: ["rig"]),
    ],
    targets: [
        // Thin shims over Debian's C libraries: headers and link lines, no logic.
        shim("CFontconfig", "fontconfig"),
        shim("CFreeType", "freetype2"),
        shim("CHarfBuzz", "harfbuzz"),
        shim("CUnibreak", "libunibreak"),
        shim("CFribidi", "fribidi"),
        shim("CPixman", "pixman-1"),
        shim("CPNG", "libpng"),
        shim("CYUV"),
        shim("CDRM", "libdrm"),
        shim("CUdev", "libudev"),
        shim("CInput", "libinput"),
        // libevdev: hand controllers (shuttles, gamepads) that libinput leaves alone.
        shim("CEvdev", "libevdev"),
        shim("CXKB", "xkbcommon"),
        shim("CV4L2", "libv4l2"),
        shim("CSeat", "libseat"),
        shim("CSystemd", "libsystemd"),
        shim("CLinux"),
        // libavformat, libavcodec, libavutil, libswscale, libswresample (Debian's FFmpeg 5.1).
        shim("CFFmpeg"),
        shim("CEspeak", "espeak-ng"),
        shim("CALSA", "alsa"),
        // libFuzzer's LLVMFuzzerRunDriver; linked only by -sanitize=fuzzer.
        shim("CFuzz"),
        // SDL2: the window backend (both displays as windows on a desktop).
        shim("CSDL", "sdl2"),
        // pocketsphinx: voice follow's recogniser (Media/Listening).
        // Declared in its shim, not through pkg-config (see shim.h for why).
        shim("CPocketSphinx"),
        // The network remote: HTTP (libmicrohttpd) and the OSC wire format (liblo).
        shim("CMicroHTTPD", "libmicrohttpd"),
        shim("CLO", "liblo"),
        // The pairing address as a QR code on the console (libqrencode).
        shim("CQREncode", "libqrencode"),
        .target(
            name: "CTOML",
            path: "Sources/CTOML",
            // NDEBUG as in Debian's build: toml++ 3.3's debug assertion in parse_key fires on
            // `[*x]`, which the release parser reports as an error (fuzz/README.md).
            cxxSettings: fuzzing ? [.define("TOML_HEADER_ONLY", to: "1"), .define("NDEBUG")] : [
                .define("TOML_HEADER_ONLY", to: "0"),
                .define("TOML_SHARED_LIB", to: "1"),
            ],
            linkerSettings: [.linkedLibrary("tomlplusplus")]
        ),

        // Crash-safe writes (temp, fsync, rename, fsync the folder) for every module with state.
        .target(name: "Durable", swiftSettings: strict),
        // The one JSON value: requests, replies, status, and files read as written.
        .target(name: "JSON", swiftSettings: strict),
        // What a presenter marks in a script (emphasis, directions, highlight) as spans
        // of the reading text: made by Prompter's parsers, drawn by Render.
        .target(name: "Markup", swiftSettings: strict),
        .target(name: "Prompter", dependencies: ["Durable", "CLinux", "Markup"], swiftSettings: strict),
        .target(name: "Game", dependencies: ["Durable", "JSON"], swiftSettings: strict),
        .target(name: "Media", dependencies: ["Durable", "CFFmpeg", "CEspeak", "CPocketSphinx"], path: "Sources/Media", swiftSettings: strict),
        .target(
            name: "Render",
            dependencies: ["Markup", "CFontconfig", "CFreeType", "CHarfBuzz", "CUnibreak", "CFribidi",
                           "CPixman", "CPNG", "CYUV"],
            swiftSettings: strict
        ),
        // The app core: what the two displays show and how timed events change it.
        // No devices and no C module of its own.
        .target(name: "Stage", dependencies: ["Durable", "JSON", "Markup", "Prompter", "Game", "Render", "Media"], swiftSettings: strict),
        // The appliance: devices, rig.toml, the event loop, the control socket and the
        // network remote, wired to the stage; its subcommands (run, check, snapshot, …).
        .target(
            name: "Kiosk",
            dependencies: ["Stage", "Durable", "Markup", "Prompter", "Game", "Render", "Media", "CTOML", "CDRM", "CUdev", "CInput", "CEvdev",
                           "CV4L2", "CSeat", "CSystemd", "CLinux", "CXKB", "CALSA", "CSDL", "CMicroHTTPD", "CLO",
                           "CQREncode"],
            swiftSettings: strict
        ),
        // `rig bench`: the kiosk's frame path, devices' converters, speech, voice follow
        // and the recording load timed against floors and peers.
        .target(name: "Bench", dependencies: ["Kiosk", "Markup", "Stage", "Prompter", "Render", "Media", "CLinux"],
                swiftSettings: strict),
        // The fuzz targets (one per parser; the normal suite runs their seeds) and, in
        // the RIG_FUZZ=1 build only, libFuzzer's driver behind `rig fuzz TARGET`.
        .target(name: "Fuzz", dependencies: ["Kiosk", "Markup", "Stage", "Prompter", "Render", "CFuzz"],
                swiftSettings: strict + (fuzzing ? [.define("RIG_FUZZ")] : [])),
        // The `rig` command: the appliance's subcommands and the tools' in one table.
        .executableTarget(name: "rig", dependencies: ["Kiosk", "Bench", "Fuzz"],
                          swiftSettings: strict + (fuzzing ? [.define("RIG_FUZZ")] : [])),

        // The recorder's side of bench/recorder.sh (against the ffmpeg command line).
        .executableTarget(name: "RecorderBench", dependencies: ["Media"], swiftSettings: strict),

        .testTarget(name: "PrompterTests", dependencies: ["Prompter", "Durable", "Markup"], swiftSettings: strict),
        .testTarget(name: "GameTests", dependencies: ["Game", "Durable", "JSON"], swiftSettings: strict),
        .testTarget(name: "MediaTests", dependencies: ["Media"], swiftSettings: strict),
        // Voice follow end to end without devices: espeak-ng speech through the recogniser,
        // the aligner and the follow driver.
        // The passage and its truth are the stage's (`FollowPassage`, shared with `rig bench`).
        .testTarget(name: "ListeningTests", dependencies: ["Stage", "Media", "Prompter"], swiftSettings: strict),
        .testTarget(name: "RenderTests", dependencies: ["Render", "Markup"], swiftSettings: strict),
        .testTarget(name: "StageTests", dependencies: ["Stage", "JSON", "Markup", "Prompter", "Render"], swiftSettings: strict),
        .testTarget(name: "KioskTests", dependencies: ["Kiosk", "Stage", "Markup", "Prompter", "Render", "Media", "CLinux"],
                    exclude: ["Scenes/References"], swiftSettings: strict),
        .testTarget(name: "BenchTests", dependencies: ["Bench", "Kiosk", "Stage"], swiftSettings: strict),
        .testTarget(name: "FuzzTests", dependencies: ["Fuzz", "Kiosk"], swiftSettings: strict),
    ],
    cxxLanguageStandard: .cxx17
)
