import Foundation
import Prompter
import Render
import Stage

/// `rig snapshot`: both displays for a script at a moment, as PNG files. The
/// state is the script opened, play pressed at t = 0 and the frame presented at
/// t = SECONDS. Script writers use it to check a layout without the rig; the
/// reference-image tests are built on it.
enum SnapshotCommand: Command {
    static let name = "snapshot"
    static let summary = "Render both displays for a script at a time, to PNG"
    static let help = """
        Usage: rig snapshot [--config PATH] [--set KEY=VALUE ...] --script FILE --at SECONDS --out DIR

          Opens FILE (.txt or .md), presses play at t=0 and writes DIR/inner.png and
          DIR/outer.png as the displays show them at t=SECONDS, at the displays'
          configured sizes (displays.*.mode, else displays.headless_width/height).

        Options:
          --script FILE      the script to show
          --at SECONDS       the presentation time, 0 or more (default 0)
          --out DIR          where to write the PNG files (created if missing)
        \(ConfigOptions.help)
        """

    static func run(_ arguments: inout Arguments) throws(CLIError) -> Int32 {
        let options = try ConfigOptions(&arguments)
        guard let scriptPath = try arguments.option("--script") else { throw .usage("--script FILE is required") }
        guard let outDir = try arguments.option("--out") else { throw .usage("--out DIR is required") }
        let atText = try arguments.option("--at") ?? "0"
        guard let time = Double(atText), time.isFinite, time >= 0 else {
            throw .usage("--at \(atText): expected seconds, a number 0 or more")
        }
        try arguments.finish()

        let loaded = options.load()
        for problem in loaded.problems { Log.stderr(problem.description) }
        guard loaded.errors.isEmpty else { return 2 }
        let config = loaded.config

        let script = try readScript(scriptPath, maxBytes: config.prompter.maxScriptMB << 20,
                                    lineBreaks: LineBreaks(rawValue: config.prompter.lineBreaks) ?? .auto,
                                    directions: DirectionMarks(rawValue: config.prompter.directions) ?? .brackets)
        do {
            try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
        } catch {
            throw .failed("cannot create \(outDir): \(error.localizedDescription)")
        }
        let fonts = RigStage.loadFonts()
        guard let library = fonts.fonts else { throw .failed(fonts.problem ?? "fonts: none") }
        let rig = ManualClockStage(config: config, fonts: library)
        rig.open(id: script.id, title: URL(fileURLWithPath: scriptPath).deletingPathExtension().lastPathComponent,
                    text: script.readingText,
                    repaired: script.repaired, markers: script.markers, markup: script.markup)
        if let warning = rig.stage.renderer.readingText?.layout?.fontWarning {
            Log.stderr("rig snapshot: \(warning)")
        }
        rig.controller.play(at: 0)
        rig.advance(to: time)
        do {
            // One display at a time, so only one full-size canvas is alive.
            try rig.canvas(.outer, at: time).writePNG(path: outDir + "/outer.png")
            // Cached text pieces are not needed again: free them before the next canvas.
            rig.stage.renderer.readingText?.block?.releaseCache()
            try rig.canvas(.inner, at: time).writePNG(path: outDir + "/inner.png")
        } catch {
            throw .failed(error.description)
        }
        return 0
    }

    /// A script file read as the library reads its scripts: the same decoder (invalid
    /// UTF-8 repaired, UTF-16 by its byte-order mark, binary refused) and Markdown
    /// reduced to what is read aloud.
    static func readScript(_ path: String, maxBytes: Int, lineBreaks: LineBreaks,
                           directions: DirectionMarks = .brackets) throws(CLIError) -> ScriptText {
        do {
            return try ScriptLibrary.readScriptFile(URL(fileURLWithPath: path), maxBytes: maxBytes,
                                                    lineBreaks: lineBreaks, directions: directions)
        } catch {
            throw .failed(error.description)
        }
    }
}

extension ManualClockStage {
    /// The displays at rig.toml's sizes, the reading settings from `[prompter]`, and
    /// no camera (a snapshot has none) and no state kept.
    convenience init(config: RigConfig, fonts: FontLibrary) {
        var settings = RigStage.Settings(config: config)
        settings.cameraEnabled = false
        self.init(settings: settings, innerSize: config.displays.inner.drawingSize(headless: config.displays),
                  fonts: fonts)
    }
}
