import Foundation
import Glibc
import Stage
@testable import Kiosk

/// A real headless kiosk (`rig run --backend headless`) with `[remote]` on loopback,
/// free ports, a named API key and a page folder of the checkout's phone page. Its HTTP
/// and OSC ports are read from `rig ctl status` over its control socket.
final class RemoteKiosk {
    /// The `[remote.api_keys] tests` key every request carries unless a test says otherwise.
    static let token = "test-key-0123456789abcdef0123456789"

    let folder: URL
    let process: RigProcess
    private(set) var httpPort: UInt16 = 0
    private(set) var oscPort: UInt16 = 0
    var socket: String { folder.appendingPathComponent("control.sock").path }
    var log: URL { folder.appendingPathComponent("kiosk.log") }

    init(extra: String = "", oscFeedback: UInt16? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-remote-\(UUID().uuidString.prefix(8))")
        let scripts = folder.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        let words = (0..<3000).map { "word\($0 % 97)" }.joined(separator: " ")
        try Data("# Long\n\n\(words)\n".utf8).write(to: scripts.appendingPathComponent("long.md"))
        try Data("# Short\n\nA short text.\n".utf8).write(to: scripts.appendingPathComponent("short.md"))
        try Data("outside the page folder\n".utf8).write(to: folder.appendingPathComponent("secret.html"))
        let page = folder.appendingPathComponent("page")
        try FileManager.default.copyItem(at: Self.checkoutPage, to: page)
        let socket = folder.appendingPathComponent("control.sock").path
        let feedback = oscFeedback.map { "osc_feedback = \"127.0.0.1:\($0)\"" } ?? ""
        let text = """
            [displays]
            headless_width = 640
            headless_height = 360
            [camera]
            enabled = false
            [prompter]
            scripts_dir = "\(scripts.path)"
            speed = 100
            [control]
            socket = "\(socket)"
            [state]
            dir = "\(folder.appendingPathComponent("state").path)"
            [remote]
            enabled = true
            bind = "127.0.0.1"
            port = 0
            osc = true
            osc_port = 0
            page_dir = "\(page.path)"
            \(feedback)
            \(extra)
            [remote.api_keys]
            tests = "\(Self.token)"
            """
        try Data(text.utf8).write(to: folder.appendingPathComponent("rig.toml"))
        process = try RigProcess(["run", "--backend", "headless", "--config", folder.appendingPathComponent("rig.toml").path],
                                 standardError: folder.appendingPathComponent("kiosk.log"))
        let deadline = Date() + 30
        while Date() < deadline {
            if let remote = status()?["remote"], let http = remote["http"]?.stringValue,
               let port = http.split(separator: ":").last.flatMap({ UInt16($0) }) {
                httpPort = port
                oscPort = remote["osc"]?.stringValue?.split(separator: ":").last.flatMap { UInt16($0) } ?? 0
                return
            }
            usleep(20_000)
        }
        throw POSIXError(.ETIMEDOUT)
    }

    deinit {
        kill(process.pid, SIGTERM)
        if !process.wait(seconds: 5) {
            // Seen once: "rig stopped" logged, the process still there. Said, and ended,
            // so no kiosk outlives the test run and loads the ones after it.
            FileHandle.standardError.write(Data("RemoteKiosk: rig \(process.pid) did not exit within 5 s of SIGTERM; killed\n".utf8))
            kill(process.pid, SIGKILL)
            _ = process.wait(seconds: 5)
        }
        try? FileManager.default.removeItem(at: folder)
    }

    static var checkoutPage: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../share/remote")
            .standardizedFileURL
    }

    /// The status over the Unix socket: the other door into the same handler.
    func status() -> JSONValue? {
        guard let connection = try? ControlConnection(path: socket) else { return nil }
        return try? connection.request(.status, timeout: 5)
    }

    func control(_ request: ControlRequest) -> JSONValue? {
        guard let connection = try? ControlConnection(path: socket) else { return nil }
        return try? connection.request(request, timeout: 5)
    }

    func http(_ method: String, _ path: String, token: String? = RemoteKiosk.token, body: Data = Data(),
              headers: [String] = []) -> RawHTTP.Reply? {
        RawHTTP.request(port: httpPort, method, path, token: token, body: body, extraHeaders: headers)
    }

    func json(_ method: String, _ path: String) -> JSONValue? {
        http(method, path).flatMap { JSONValue.parse(Data($0.body.utf8)) }
    }

    var prompter: JSONValue? { status()?["prompter"] }
    var stillServing: Bool { http("GET", "/api/status")?.status == 200 }
}
