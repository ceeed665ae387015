import Foundation
import Prompter
import Render

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
                                    lineBreaks: LineBreaks(rawValue: config.prompter.lineBreaks) ?? .auto)
        do {
            try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
        } catch {
            throw .failed("cannot create \(outDir): \(error.localizedDescription)")
        }
        do {
            let fonts = try FontLibrary()
            let composer = try PrompterFrameComposer(
                scriptTitle: script.title, text: script.text, settings: ReadingSettings(config: config.prompter),
                markerPosition: config.prompter.markerPosition,
                outerSize: config.displays.outer.drawingSize(headless: config.displays),
                innerSize: config.displays.inner.drawingSize(headless: config.displays),
                fonts: fonts, cacheBudgetBytes: config.prompter.cacheMB << 20)
            if let warning = composer.fontWarning { Log.stderr("rig snapshot: \(warning)") }
            composer.finishLayout()
            composer.state.engine.play(at: 0)
            // One display at a time, so only one full-size canvas is alive.
            try writeFrame(composer.outerSize, to: outDir + "/outer.png") {
                composer.composeOuterFrame(at: time, into: $0)
                // Cached text pieces are not needed again: free them before the PNG.
                composer.readingText.block?.releaseCache()
            }
            try writeFrame(composer.innerSize, to: outDir + "/inner.png") { composer.composeInnerFrame(at: time, into: $0) }
        } catch let error as TextError {
            throw .failed(error.description)
        } catch let error as ImageError {
            throw .failed(error.description)
        } catch {
            throw .failed("\(error)")
        }
        return 0
    }

    private static func writeFrame(_ size: PixelSize, to path: String,
                                   compose: (Canvas) -> Void) throws(ImageError) {
        let canvas = try Canvas(size: size)
        compose(canvas)
        try canvas.writePNG(path: path)
    }

    struct Script {
        var title: String
        var text: String
    }

    /// The reading text of a script file: Markdown reduced to what is read aloud,
    /// invalid UTF-8 repaired; binary or oversized files are refused with a reason.
    static func readScript(_ path: String, maxBytes: Int, lineBreaks: LineBreaks) throws(CLIError) -> Script {
        let url = URL(fileURLWithPath: path)
        let data: Data
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= maxBytes else {
                throw CLIError.failed("\(path): \(size) bytes is more than prompter.max_script_mb allows")
            }
            data = try Data(contentsOf: url)
        } catch let error as CLIError {
            throw error
        } catch {
            throw .failed("cannot read script \(path): \((error as NSError).localizedDescription)")
        }
        let source: String
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            source = String(data: data, encoding: .utf16) ?? ""
        } else if data.contains(0) {
            throw .failed("\(path) is a binary file, not a script")
        } else {
            source = String(decoding: data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data,
                            as: UTF8.self)
        }
        let format = ScriptFormat(fileExtension: url.pathExtension) ?? .plainText
        return Script(title: url.deletingPathExtension().lastPathComponent,
                      text: ScriptLibrary.readingText(source, format: format, lineBreaks: lineBreaks))
    }
}
