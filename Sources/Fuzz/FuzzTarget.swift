import Foundation
import Game
import Kiosk
import Markup
import Prompter
import Render
import Stage
import Synchronization

/// One input the rig parses, as a function from arbitrary bytes to nothing: it must
/// neither crash nor hang, whatever the bytes. The fuzz build (`scripts/fuzz`, see
/// fuzz/README.md) hands these to libFuzzer; the normal suite (FuzzRegressionTests)
/// runs every seed and every past crash through the same functions, so the targets
/// compile and stay alive in every build.
///
/// The network remote's two (`http`, `osc`) are in FuzzTarget+Remote.swift.
enum FuzzTarget: String, CaseIterable, Sendable {
    /// rig.toml: the toml++ shim and every schema check, and the first line as `--set`.
    case config
    /// A script file's bytes: decoding (BOMs, UTF-16, NULs, invalid UTF-8), then both
    /// readers, with each line-break setting.
    case script
    /// The Markdown reader on its own, on valid text.
    case markdown
    /// Shaping, bidi and line breaking of arbitrary Unicode; the first two bytes pick
    /// the column width and the font size.
    case layout
    /// Control-socket request lines (and `rig ctl`'s reading of replies).
    case control
    /// The game's action catalog (actions.json).
    case catalog
    /// A saved game session, loaded as after a restart; what loads must save and
    /// load back the same.
    case session
    /// A recording's JSON metadata, read as the clips list reads it.
    case clip
    /// An HTTP request to the remote, after libmicrohttpd's split (FuzzHTTPRequest):
    /// routing, the credential and site checks, query and body JSON to a control request, page paths.
    case http
    /// An OSC datagram to the remote: liblo's decoder, the address and typed arguments
    /// to a control request, and the reply's encoding.
    case osc

    func run(_ data: Data) {
        switch self {
        case .config: Self.config(data)
        case .script: Self.script(data)
        case .markdown: Self.markdown(data)
        case .layout: Self.layout(data)
        case .control: Self.control(data)
        case .catalog: Self.keep(try? ActionCatalog.load(data))
        case .session: Self.session(data)
        case .clip: Self.clip(data)
        case .http: Self.http(data)
        case .osc: Self.osc(data)
        }
    }

    private static func config(_ data: Data) {
        // The loader refuses a file that is not UTF-8 before parsing (ConfigLoader.readText).
        guard ConfigLoader.firstInvalidUTF8(in: data) == nil else { return }
        let text = String(decoding: data, as: UTF8.self)
        let firstLine = String(text.prefix { $0 != "\n" })
        keep(ConfigLoader.load(text: text, name: "fuzz.toml", overrides: [firstLine]))
    }

    /// Markdown with each directions setting: every mark lies inside the reading text
    /// (a mark past its end would trap in the layout), and the editor's marks over the
    /// source inside the source.
    private static func markdown(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        for directions in DirectionMarks.allCases {
            let read = ScriptLibrary.readingTextAndMarkers(text, format: .markdown, lineBreaks: .keep,
                                                           directions: directions)
            let count = read.text.unicodeScalars.count
            precondition(read.markup.spans.allSatisfy { $0.range.upperBound <= count }, "a mark past the text's end")
            keep(ReadingTime.wordCount(read.text, markup: read.markup))
            let line = String(text.prefix { $0 != "\n" })
            let source = SourceMarks.line(line, format: .markdown, directions: directions)
            precondition(source.spans.allSatisfy { $0.range.upperBound <= line.unicodeScalars.count },
                         "an editor mark past the line's end")
        }
    }

    private static func script(_ data: Data) {
        let decoded = ScriptDecoder.decode(data)
        guard decoded.condition != .binary else { return }
        let markdown = ScriptLibrary.readingText(decoded.text, format: .markdown, lineBreaks: .keep)
        keep(ReadingTime.wordCount(markdown))
        for lineBreaks in LineBreaks.allCases {
            let plain = ScriptLibrary.readingText(decoded.text, format: .plainText, lineBreaks: lineBreaks)
            keep(ReadingTime.wordCount(plain))
        }
        keep(PlainTextReadingText.hardWrapWidth(of: decoded.text))
    }

    /// One font library for the process: opening fontconfig per input would measure
    /// fontconfig, not the layout. A font library belongs to one thread at a time, and
    /// the normal suite runs the layout seeds on several at once (ThreadSanitizer
    /// reported the race on its cache): each input holds it for its whole layout.
    private static let fonts = Mutex<FontLibrary?>(try? FontLibrary())

    private static func layout(_ data: Data) {
        fonts.withLock { fonts in
            guard let fonts else { return }
            layout(data, fonts: fonts)
        }
    }

    private static func layout(_ data: Data, fonts: FontLibrary) {
        var bytes = data[...]
        let width = Double(bytes.popFirst() ?? 100) * 8 + 1
        let sizeByte = bytes.popFirst() ?? 40
        let families = TextStyle.readingFamilies
        let style = TextStyle(fontFamily: families[Int(sizeByte) % families.count],
                              fontSize: Double(sizeByte % 96) + 4, lineSpacing: 1 + Double(sizeByte % 3) / 2,
                              alignment: TextAlignment.allCases[Int(sizeByte / 3) % TextAlignment.allCases.count])
        let source = String(decoding: bytes, as: UTF8.self)
        // An odd width byte reads the input as Markdown: its marks (bold, italic,
        // highlight, directions) go into the layout.
        let (text, markup) = Int(width) % 16 == 9
            ? { let read = ScriptLibrary.readingTextAndMarkers(source, format: .markdown, lineBreaks: .keep)
                return (read.text, read.markup) }()
            : (source, ReadingMarkup.none)
        guard let layout = try? TextLayout(text: text, markup: markup, style: style, columnWidth: width,
                                           fonts: fonts) else { return }
        layout.layoutAll()
        for line in layout.lines(fromY: 0, toY: layout.laidOutHeight) { keep(line) }
        if let words = layout.wordCount, words > 0 {
            keep(layout.y(ofWord: words - 1))
            keep(layout.wordIndex(atY: layout.laidOutHeight / 2))
        }
        keep(layout.withColumnWidth(width / 2 + 1).withLineSpacing(2).totalHeight)
    }

    private static func control(_ data: Data) {
        // The server reads one request per line.
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard case let .success(request) = ControlRequest.parse(Data(line)) else { continue }
            keep(request.json.serialized)
            if case let .game(body) = request { keep(GameControlRequest.parse(body)) }
        }
        keep(JSONValue.parse(data))
    }

    /// What a target computes and drops: kept from the optimiser, so the fuzz build's
    /// `-c release` runs every step the debug build does.
    @inline(never) @_optimize(none)
    static func keep<T>(_ value: T) {}

    /// A folder of this process's own for the file-based readers: in /dev/shm when there
    /// is one, because Data.write fsyncs and on a disk that flush was most of an input's time.
    /// Removed when the process exits (libFuzzer and the test runner both end with
    /// exit); scripts/fuzz sweeps what a crashed run left.
    static let scratch: URL = {
        let shm = URL(fileURLWithPath: "/dev/shm")
        let base = FileManager.default.isWritableFile(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
        let url = base.appendingPathComponent("rig-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: FuzzTarget.scratch) }
        return url
    }()

    private static func session(_ data: Data) {
        let url = scratch.appendingPathComponent("session.json")
        guard (try? data.write(to: url)) != nil else { return }
        let file = GameSessionFile(url: url)
        guard let saved = try? file.load() else { return }
        // What the rig loaded it must be able to save, and read back unchanged.
        guard let encoded = try? GameSessionFile.encode(saved) else { return }
        guard (try? encoded.write(to: url)) != nil else { return }
        let reloaded = try? file.load()
        precondition(reloaded == saved, "a loaded game session did not survive a save and load")
    }

    private static func clip(_ data: Data) {
        let url = scratch.appendingPathComponent("fuzz.json")
        guard (try? data.write(to: url)) != nil else { return }
        keep(ClipFolder.clip(folder: scratch.path, id: "fuzz"))
    }
}
