import Prompter
import Stage

/// rig.toml as one typed, validated value. Every default here is also written,
/// with its range and meaning, in the example rig.toml at the repository root;
/// a test keeps the two in step.
struct RigConfig: Equatable, Sendable {
    struct Display: Equatable, Sendable {
        /// Connector name as the kernel builds it (`HDMI-A-1`, `DP-2`, `Virtual-1`).
        var connector: String
        var mode: DisplayMode = .preferred
        /// Panel rotation for a monitor mounted sideways, in degrees.
        var rotation: Int = 0
        var enabled: Bool = true
    }

    struct Displays: Equatable, Sendable {
        var inner = Display(connector: "auto")
        var outer = Display(connector: "auto")
        /// Forces legacy (non-atomic) modesetting.
        var legacy = false
        /// Size used when there is no real display (headless, `rig snapshot`).
        var headlessWidth = 1920
        var headlessHeight = 1080
    }

    struct Camera: Equatable, Sendable {
        var enabled = true
        var device = "/dev/video0"
        var width = 1920
        var height = 1080
        var fps = 30
        var mirror = true
    }

    /// Sound out (spoken instructions) and in (the room microphone), as ALSA names them.
    struct Audio: Equatable, Sendable {
        /// An ALSA PCM name ("default", "hw:CARD=Device,DEV=0", "plughw:1,0"); "" = no sound.
        var output = "default"
        /// The room microphone; "auto" (the default) picks one (`AutoMicrophone`), "" = none.
        var input = AutoMicrophone.keyword
        /// Master volume of what the rig plays, percent of full scale.
        var volume = 80
        /// An espeak-ng voice (`rig speak --voices`).
        var voice = "en-us"
        /// Default speech rate, words per minute.
        var rate = 175
    }

    struct Touch: Equatable, Sendable {
        /// A device name, a udev property match such as `ID_PATH=pci-0000:00:14.0-usb-0:2:1.0`,
        /// a node, or "auto" (the default: the only touchscreen present); "" = none.
        var device = "auto"
        /// libinput calibration matrix (a b c d e f), identity by default.
        var calibration: [Double] = [1, 0, 0, 0, 1, 0]
    }

    struct Prompter: Equatable, Sendable {
        var fontFamily = "Noto Sans"
        var fontSize = 64
        var lineSpacing = 1.3
        var margin = 10
        var textColor = "white"
        var backgroundColor = "black"
        var mirror = false
        var flip = false
        var rotation = 0
        var speed = 60
        /// Seconds of 3-2-1 before a run from a stop; 0 is off.
        var countdown = 0
        /// `EndBehavior`: stop, loop or blank.
        var endOfScript = EndBehavior.stop.rawValue
        var outerTimer = false
        /// `ReadingLine`: marker (marker_position), top, middle or bottom.
        var readingLine = ReadingLine.marker.rawValue
        /// `PointerStyle`: both, band, arrows or none.
        var pointer = PointerStyle.both.rawValue
        /// `ReadingAlignment`: left, centre or right (mirrored for right-to-left text).
        var align = ReadingAlignment.left.rawValue
        /// `ReadingWeight`: regular, medium, semibold or bold.
        var weight = ReadingWeight.regular.rawValue
        var directionColor = ReadingSettings.defaultDirectionColor.rawValue
        var highlightColor = ReadingSettings.defaultHighlightColor.rawValue
        /// `DirectionMarks`: which brackets make a direction the talent does not say.
        var directions = DirectionMarks.brackets.rawValue
        var scriptsDir = ""
        var wordsPerMinute = 150
        /// `LineBreaks`: what a plain-text script's single newlines mean.
        var lineBreaks = LineBreaks.auto.rawValue
        var markerPosition = 1.0 / 3.0
        var maxScriptMB = 16
        /// 0: as the outer display's size asks (128 MiB up to about 2048x1536).
        var cacheMB = 0
    }

    /// The operator keyboards' layout, as XKB names it (see `KeyboardLayoutNames`).
    struct Keyboard: Equatable, Sendable {
        var layout = "us"
        var variant = ""
        /// Where `keyboard.layout` and `keyboard.variant` were written, by full key path:
        /// whether XKB can build the layout is only known when the kiosk starts, and its
        /// message names the line. Not part of the value.
        var places: [String: ConfigPlace] = [:]

        var names: KeyboardLayoutNames { KeyboardLayoutNames(layout: layout, variant: variant) }

        static func == (lhs: Keyboard, rhs: Keyboard) -> Bool { lhs.names == rhs.names }
    }

    struct Control: Equatable, Sendable {
        /// RigPaths' default for how rig runs ("" in rig.toml means it too).
        var socket = RigPaths.defaults().socket
    }

    struct State: Equatable, Sendable {
        /// RigPaths' default for how rig runs ("" in rig.toml means it too).
        var dir = RigPaths.defaults().state
    }

    var displays = Displays()
    var camera = Camera()
    var audio = Audio()
    var touch = Touch()
    var prompter = Prompter()
    /// Action name -> key names, only for actions the file rebinds.
    var keys: [String: [String]] = [:]
    var keyboard = Keyboard()
    var control = Control()
    var state = State()
    var recording = Recording()
    var remote = Remote()
    var follow = Follow()
    var followRig = FollowRigConfig()
    var controllers = Controllers()

    /// The scripts library: `prompter.scripts_dir`, or `scripts` under the state directory.
    var scriptsDirectory: String {
        prompter.scriptsDir.isEmpty ? state.dir + "/scripts" : prompter.scriptsDir
    }
}

/// `preferred`, or `WIDTHxHEIGHT` with an optional `@REFRESH`.
enum DisplayMode: Equatable, Sendable, CustomStringConvertible {
    case preferred
    case size(width: Int, height: Int, refresh: Int?)

    init?(parsing text: String) {
        if text == "preferred" { self = .preferred; return }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]),
              (1...16384).contains(width), (1...16384).contains(height) else { return nil }
        var refresh: Int?
        if parts.count == 2 {
            guard let hz = Int(parts[1]), (1...1000).contains(hz) else { return nil }
            refresh = hz
        }
        self = .size(width: width, height: height, refresh: refresh)
    }

    var description: String {
        switch self {
        case .preferred: "preferred"
        case let .size(width, height, refresh?): "\(width)x\(height)@\(refresh)"
        case let .size(width, height, nil): "\(width)x\(height)"
        }
    }
}
