import Foundation
import Glibc
import Stage

/// Debian's Chromium, headless, driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: it reads commands on fd 3 and writes on fd 4, each
/// message JSON ended by a NUL), so no WebSocket client is needed.
final class HeadlessChromium {
    enum Failure: Error, CustomStringConvertible {
        case spawn(Int32), timeout(String), protocolError(String)
        var description: String {
            switch self {
            case let .spawn(code): "chromium did not start (\(code))"
            case let .timeout(what): "chromium: no answer to \(what)"
            case let .protocolError(text): "chromium: \(text)"
            }
        }
    }

    static let path = "/usr/bin/chromium"
    static var installed: Bool { FileManager.default.isExecutableFile(atPath: path) }

    private let pid: pid_t
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private let profile: URL
    private var nextID = 0
    private var buffered = Data()
    private var session: String?

    init(width: Int, height: Int) throws {
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("rig-chromium-\(UUID().uuidString.prefix(8))")
        var commands: [Int32] = [0, 0], events: [Int32] = [0, 0]
        pipe(&commands)
        pipe(&events)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, commands[0], 3)
        posix_spawn_file_actions_adddup2(&actions, events[1], 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let words = [Self.path, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                     "--no-default-browser-check", "--disable-extensions", "--remote-debugging-pipe",
                     "--user-data-dir=\(profile.path)", "--window-size=\(width),\(height)", "about:blank"]
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, Self.path, &actions, nil, &argv, environ)
        close(commands[0])
        close(events[1])
        guard status == 0 else { throw Failure.spawn(status) }
        pid = child
        toBrowser = commands[1]
        fromBrowser = events[0]
    }

    deinit {
        close(toBrowser)
        close(fromBrowser)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(at: profile)
    }

    /// Attaches to the first page and sets a phone's screen.
    func openPage(width: Int, height: Int) throws {
        let targets = try call("Target.getTargets", [:], inSession: false)
        guard case let .array(infos)? = targets["targetInfos"],
              let page = infos.first(where: { $0["type"]?.stringValue == "page" })?["targetId"] else {
            throw Failure.protocolError("no page target")
        }
        let attached = try call("Target.attachToTarget", ["targetId": page, "flatten": true], inSession: false)
        session = attached["sessionId"]?.stringValue
        _ = try call("Page.enable", [:])
        _ = try call("Emulation.setDeviceMetricsOverride",
                     ["width": .int(width), "height": .int(height), "deviceScaleFactor": 2, "mobile": true])
    }

    func navigate(_ url: String) throws { _ = try call("Page.navigate", ["url": .string(url)]) }

    /// The value of a JavaScript expression.
    func evaluate(_ expression: String) throws -> JSONValue {
        let result = try call("Runtime.evaluate", ["expression": .string(expression), "returnByValue": true])
        return result["result"]?["value"] ?? .null
    }

    /// Polls an expression until it is true, or fails after `seconds`.
    func wait(until expression: String, seconds: Double = 10) throws {
        let deadline = Date() + seconds
        while Date() < deadline {
            if try evaluate(expression) == .bool(true) { return }
            usleep(50_000)
        }
        throw Failure.timeout(expression)
    }

    /// A press with the pointer in the middle of the element, as a thumb would.
    func press(_ selector: String) throws {
        let box = try evaluate("(() => { const r = document.querySelector('\(selector)').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        guard case let .array(point) = box, point.count == 2 else { throw Failure.protocolError("no \(selector)") }
        for type in ["mousePressed", "mouseReleased"] {
            _ = try call("Input.dispatchMouseEvent", ["type": .string(type), "x": point[0], "y": point[1],
                                                      "button": "left", "clickCount": 1])
        }
    }

    func screenshot() throws -> Data {
        let shot = try call("Page.captureScreenshot", ["format": "png"])
        guard let text = shot["data"]?.stringValue, let data = Data(base64Encoded: text) else {
            throw Failure.protocolError("no screenshot")
        }
        return data
    }

    // MARK: the protocol

    private func call(_ method: String, _ params: [String: JSONValue], inSession: Bool = true,
                      timeout: Double = 20) throws -> JSONValue {
        nextID += 1
        var message: [String: JSONValue] = ["id": .int(nextID), "method": .string(method), "params": .object(params)]
        if inSession, let session { message["sessionId"] = .string(session) }
        var bytes = Data(JSONValue.object(message).serialized.utf8)
        bytes.append(0)
        _ = bytes.withUnsafeBytes { write(toBrowser, $0.baseAddress, $0.count) }
        let deadline = Date() + timeout
        while Date() < deadline {
            while let end = buffered.firstIndex(of: 0) {
                let reply = JSONValue.parse(buffered[buffered.startIndex..<end])
                buffered.removeSubrange(buffered.startIndex...end)
                guard let reply, reply["id"]?.numberValue == Double(nextID) else { continue }
                if let error = reply["error"] { throw Failure.protocolError("\(method): \(error.serialized)") }
                return reply["result"] ?? .null
            }
            var ready = pollfd(fd: fromBrowser, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            let count = read(fromBrowser, &chunk, chunk.count)
            if count <= 0 { throw Failure.protocolError("the browser closed its pipe") }
            buffered.append(contentsOf: chunk[0..<count])
        }
        throw Failure.timeout(method)
    }
}
