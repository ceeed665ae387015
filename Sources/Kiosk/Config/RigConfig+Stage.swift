import Foundation
import Game
import Prompter
import Render
import Stage

/// How rig.toml's values become what Stage draws with.
extension ReadingSettings {
    /// Reading settings as rig.toml sets them for this rig; unknown names fall back
    /// to the defaults (the config loader has already reported them).
    init(config prompter: RigConfig.Prompter) {
        self.init(fontFamily: FontFamily(rawValue: prompter.fontFamily) ?? .defaultFamily,
                  fontSize: prompter.fontSize, lineSpacing: prompter.lineSpacing,
                  margin: Double(prompter.margin),
                  textColor: PresetColor(rawValue: prompter.textColor) ?? .defaultText,
                  backgroundColor: PresetColor(rawValue: prompter.backgroundColor) ?? .defaultBackground,
                  mirror: prompter.mirror, flip: prompter.flip,
                  rotation: TextRotation(snapping: prompter.rotation), speed: prompter.speed,
                  countdown: prompter.countdown, endOfScript: EndBehavior(rawValue: prompter.endOfScript) ?? .stop,
                  outerTimer: prompter.outerTimer,
                  readingLine: ReadingLine(rawValue: prompter.readingLine) ?? .marker,
                  pointer: PointerStyle(rawValue: prompter.pointer) ?? .both,
                  alignment: ReadingAlignment(rawValue: prompter.align) ?? .left,
                  weight: ReadingWeight(rawValue: prompter.weight) ?? .regular,
                  directionColor: PresetColor(rawValue: prompter.directionColor) ?? ReadingSettings.defaultDirectionColor,
                  highlightColor: PresetColor(rawValue: prompter.highlightColor) ?? ReadingSettings.defaultHighlightColor)
    }
}

extension RigConfig.Display {
    /// The size to draw for: the configured mode, or the headless size when the
    /// mode is "preferred" (only a connected monitor knows its preferred mode).
    func drawingSize(headless: RigConfig.Displays) -> PixelSize {
        if case let .size(width, height, _) = mode { return PixelSize(width: width, height: height) }
        return PixelSize(width: headless.headlessWidth, height: headless.headlessHeight)
    }
}

extension RigStage.Settings {
    /// The stage's settings from rig.toml (without a state directory: the kiosk sets it).
    init(config: RigConfig) {
        self.init(outerSize: config.displays.outer.drawingSize(headless: config.displays))
        markerPosition = config.prompter.markerPosition
        cacheBudgetBytes = config.prompter.cacheMB == 0 ? nil : config.prompter.cacheMB << 20
        readingDefaults = ReadingSettings(config: config.prompter)
        wordsPerMinute = config.prompter.wordsPerMinute
        cameraEnabled = config.camera.enabled
        cameraMirror = config.camera.mirror
        gameCatalog = Self.gameCatalog()
        takeCountdown = config.recording.countdown
        followAtStart = config.follow.enabled
        followLanguage = config.follow.language
        followLead = config.follow.lead
        followRig = config.followRig.stageSettings
    }

    /// The action cards shipped beside the binary (SharedData).
    static func gameCatalog() -> URL { SharedData.here.gameCatalog }
}
