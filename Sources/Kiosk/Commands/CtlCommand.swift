import Foundation
import Stage

/// `rig ctl`: the control socket's client. Prints the kiosk's JSON reply; exits 0 when
/// the kiosk accepted the request and 2 otherwise.
enum CtlCommand: Command {
    static let name = "ctl"
    static let summary = "Control a running kiosk through its socket"
    static let help = """
        Usage: rig ctl [--config PATH | --socket PATH] <request>

        Requests:
          status                  the kiosk's state as JSON (schema in the README)
          console                 the console's screen and where each control is (read-only, for tests)
          play | pause | toggle | stop | faster | slower
          speed N                 scroll speed in px/s (10-300)
          wpm N                   speed in words per minute, from the current layout
          finish M:SS|off         fit the speed so the rest of the script ends in M:SS
          open PATH               a script, relative to the scripts folder
          outer on|off            show or hide content on the outer display
          blank on|off            blank the outer display
          set KEY=VALUE           a reading setting, with rig.toml's keys (prompter.mirror=true)
          scripts [--search Q]    the script library as JSON
          folders                 the library's folders and how many scripts each holds
          folder rename OLD NEW   rename a folder (its scripts go with it)
          folder delete NAME      delete a folder; its scripts move to the top level
          mode prompter|framing|library   what the outer display shows
          cue LETTER|off          a cue letter over the camera preview
          speak TEXT              say TEXT on the kiosk's sound output ([audio] in rig.toml)
          game ACTION [KEY=VALUE...]  the Simon Says game (README, "Control socket"):
                                  open | leave | status | setup players=Ann,Bo mode=visual ... |
                                  consent player=Ann [agreed=no] | select card=ID [fingers=N]
                                  [hand=left] [rule=simon|not|draw] | send | stop | retry |
                                  verdict verdict=pass|fail|void [attempt=N] | next |
                                  end [--delete-media] | delete-media (this game's clips and
                                  derived exports; results stay; a clip replaying or
                                  exporting goes when that ends)
          record start|stop       a prompter take: countdown, then recording; stop keeps the file
          selftest [start|report] start the self-test on the kiosk's displays, or its report
          follow-rig local|lead   a follower rig: take over here, or follow the lead again
          clock                   this rig's wall clock (a follower checks its offset with it)
          script-text             the open script's source as a follower rig reads it
          clips list              the recordings, newest first, as JSON
          clips export ID [--to FOLDER]   copy a clip (default: [recording] export_folder)
          clips delete ID         remove a clip's media and metadata (asks nothing)
          clips retry ID          make a game clip's failed derived export again
          media list              the USB sticks (and export folder) the share sheet offers, as JSON
          media eject NAME        sync and unmount a USB stick; returns when it is safe to pull out
          marker next|prev|start|N|NAME   glide to a marker (0.3 s), playing or paused as it was
          marker set | clear | list       set one at the reading line, forget the set ones, list all
          marker jump NAME        a marker whose name is set, clear or list
          clips replay ID | stop  replay a clip on the console's Clips screen, or close it
          follow on|off           voice follow: the reading line tracks the talent's voice (English)
          listen FILE.wav         the microphone from a WAV file, in real time (follow must be on)
          key ACTION              what the operator's key bound to ACTION does (rig.toml [keys]:
                                  play_pause, faster, mirror, next_marker, record, …)
          remote devices          the network remote's paired phones and API keys (fingerprints)
          remote pair             a new one-time pairing address, good for five minutes
          remote revoke ID        unpair a phone (its ID from remote devices)

        Options:
          --socket PATH      the control socket (default: [control] socket in rig.toml; for a
                             person, their own kiosk's, else the rig service's)
        \(ConfigOptions.help)
        """

    static func run(_ arguments: inout Arguments) throws(CLIError) -> Int32 {
        let socketOption = try arguments.option("--socket")
        let search = try arguments.option("--search")
        let destination = try arguments.option("--to")
        let options = try ConfigOptions(&arguments)
        let request = try parseRequest(&arguments, search: search, to: destination)
        try arguments.finish()
        let socket: String
        if let socketOption { socket = socketOption } else { socket = try socketFromConfig(options) }
        do throws(ControlConnection.Failure) {
            let connection = try ControlConnection(path: socket)
            let reply = try connection.request(request)
            Log.stdout(reply.serialized)
            guard reply["ok"]?.boolValue == true else { return 2 }
            if case let .media("eject", name?) = request { return try ejected(name, socket: socket) }
            return 0
        } catch {
            throw .failed(error.description)
        }
    }

    /// `media eject NAME` returns once the kiosk says the stick is safe to pull (or why
    /// not): it prints the kiosk's line and exits 0 only when it is safe.
    private static func ejected(_ name: String, socket: String) throws(ControlConnection.Failure) -> Int32 {
        let deadline = MonotonicTime.now() + 30
        while MonotonicTime.now() < deadline {
            let status = try ControlConnection(path: socket).request(.status)
            let eject = status["clips"]?["eject"]
            if let state = eject?["state"]?.stringValue, state != "ejecting", eject?["name"]?.stringValue == name {
                Log.stdout(eject?["line"]?.stringValue ?? state)
                return state == "safe" ? 0 : 2
            }
            usleep(100_000)  // the kiosk's unmount is not an event this client can wait on
        }
        Log.stdout("\(name): the kiosk did not finish ejecting within 30 s; do not pull it out yet")
        return 2
    }

    private static func socketFromConfig(_ options: ConfigOptions) throws(CLIError) -> String {
        let loaded = options.load()
        // A kiosk whose rig.toml has errors runs with the defaults (RunCommand), so its
        // socket is the default one: the operator must still reach it to see why.
        let socket = loaded.errors.isEmpty ? loaded.config.control.socket
            : ConfigLoader.load(text: "", name: options.path, overrides: options.overrides).config.control.socket
        return reachable(socket)
    }

    /// A person's default socket when their own kiosk runs; else, on an installed rig,
    /// the service's (an operator in group rig, logged in over ssh).
    static func reachable(_ socket: String, defaults: RigPaths.Defaults = RigPaths.defaults(),
                          appliance: String = RigPaths.applianceSocket) -> String {
        guard defaults.personal, socket == defaults.socket, !FileManager.default.fileExists(atPath: socket),
              FileManager.default.fileExists(atPath: appliance) else { return socket }
        return appliance
    }

    static func parseRequest(_ arguments: inout Arguments, search: String?, to destination: String? = nil)
        throws(CLIError) -> ControlRequest {
        guard let verb = arguments.positional() else { throw .usage("which request? see rig ctl --help") }
        func onOff() throws(CLIError) -> Bool {
            switch arguments.positional() {
            case "on": return true
            case "off": return false
            default: throw .usage("\(verb) takes on or off")
            }
        }
        switch verb {
        case "status": return .status
        case "clock": return .clock
        case "script-text": return .scriptText
        case "follow-rig":
            switch arguments.positional() {
            case "local": return .followRig(local: true)
            case "lead": return .followRig(local: false)
            default: throw .usage("follow-rig takes local (take over here) or lead (follow the lead again)")
            }
        case "console": return .console
        case "play": return .play
        case "pause": return .pause
        case "toggle": return .toggle
        case "stop": return .stop
        case "faster": return .faster
        case "slower": return .slower
        case "speed":
            guard let word = arguments.positional(), let value = Int(word) else { throw .usage("speed takes an integer, such as speed 90") }
            return .speed(value)
        case "wpm":
            guard let word = arguments.positional(), let value = Int(word) else { throw .usage("wpm takes an integer, such as wpm 150") }
            return .wordsPerMinute(value)
        case "finish":
            guard let text = arguments.positional() else { throw .usage("finish takes a duration such as 4:30, or off") }
            return .finish(text == "off" ? nil : text)
        case "open":
            guard let path = arguments.positional() else { throw .usage("open takes a script path") }
            return .open(path)
        case "outer": return .outer(try onOff())
        case "blank": return .blank(try onOff())
        case "set":
            guard let pair = arguments.positional(), let equals = pair.firstIndex(of: "=") else {
                throw .usage("set takes KEY=VALUE, such as set prompter.mirror=true")
            }
            return .set(key: String(pair[..<equals]), value: String(pair[pair.index(after: equals)...]))
        case "scripts": return .scripts(search: search)
        case "folders": return .folders
        case "folder":
            switch arguments.positional() {
            case "rename":
                guard let name = arguments.positional(), let to = arguments.positional() else {
                    throw .usage("folder rename takes the folder's name and the new name")
                }
                return .renameFolder(name: name, to: to)
            case "delete":
                guard let name = arguments.positional() else { throw .usage("folder delete takes the folder's name") }
                return .deleteFolder(name)
            default:
                throw .usage("folder takes rename OLD NEW or delete NAME")
            }
        case "cue":
            guard let letter = arguments.positional(), letter == "off" || letter.count == 1 else {
                throw .usage("cue takes one letter, or off")
            }
            return .cue(letter == "off" ? nil : letter)
        case "hang": return .hang
        case "key":
            guard let name = arguments.positional(), let action = KeyAction(rawValue: name) else {
                throw .usage("key takes an action: " + KeyAction.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return .key(action)
        case "follow": return .follow(try onOff())
        case "listen":
            guard let path = arguments.positional() else { throw .usage("listen takes a WAV file's path") }
            // The kiosk may run in another folder: the path goes absolute.
            return .listen(path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
        case "speak":
            guard let text = arguments.positional() else { throw .usage("speak takes the text, in quotes") }
            return .speak(text)
        case "game":
            guard let action = arguments.positional() else {
                throw .usage("game takes an action: " + GameControlRequest.actions.joined(separator: ", "))
            }
            var fields: [String: JSONValue] = ["cmd": "game", "action": .string(action)]
            // `game end --delete-media`: the same as delete_media=yes.
            if arguments.flag("--delete-media") {
                guard action == "end" else { throw .usage("--delete-media goes with game end (or use game delete-media)") }
                fields["delete_media"] = "yes"
            }
            while let pair = arguments.positional() {
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    throw .usage("game \(action) takes KEY=VALUE, found '\(pair)'")
                }
                fields[String(pair[..<equals])] = .string(String(pair[pair.index(after: equals)...]))
            }
            return .game(.object(fields))
        case "selftest":
            switch arguments.positional() {
            case "report", nil: return .selfTest(start: false, touchSeconds: nil)
            case "start": return .selfTest(start: true, touchSeconds: nil)
            default: throw .usage("selftest takes start or report (rig selftest prints it as it goes)")
            }
        case "record":
            switch arguments.positional() {
            case "start": return .record(start: true)
            case "stop": return .record(start: false)
            default: throw .usage("record takes start or stop")
            }
        case "clips":
            switch arguments.positional() {
            case "list", nil: return .clips(action: "list", id: nil, to: nil)
            case "stop": return .clips(action: "stop", id: nil, to: nil)
            case let action? where ["export", "delete", "replay", "retry"].contains(action):
                guard let id = arguments.positional() else { throw .usage("clips \(action) takes a clip id (rig ctl clips list)") }
                return .clips(action: action, id: id, to: action == "export" ? destination : nil)
            default: throw .usage("clips takes list, export ID, delete ID, replay ID, retry ID or stop")
            }
        case "media":
            switch arguments.positional() {
            case "list", nil: return .media(action: "list", name: nil)
            case "eject":
                guard let name = arguments.positional() else { throw .usage("media eject takes a stick's name (rig ctl media list)") }
                return .media(action: "eject", name: name)
            default: throw .usage("media takes list or eject NAME")
            }
        case "marker":
            switch arguments.positional() {
            case let action? where ["set", "clear", "list"].contains(action): return .marker(action: action, to: nil)
            case "jump":
                guard let to = arguments.positional() else { throw .usage("marker jump takes a marker's name or number") }
                return .marker(action: "jump", to: to)
            case let to?: return .marker(action: "jump", to: to)
            case nil: return .marker(action: "list", to: nil)
            }
        case "mode":
            guard let mode = arguments.positional() else { throw .usage("mode takes prompter or framing") }
            return .mode(mode)
        case "remote":
            switch arguments.positional() {
            case "devices", nil: return .remote(action: "devices", id: nil)
            case "pair": return .remote(action: "pair", id: nil)
            case "revoke":
                guard let id = arguments.positional() else { throw .usage("remote revoke takes a device's id (rig ctl remote devices)") }
                return .remote(action: "revoke", id: id)
            default: throw .usage("remote takes devices, pair or revoke ID")
            }
        default:
            let hint = Suggestion.closest(to: verb, in: ControlRequest.commands).map { " (did you mean '\($0)'?)" } ?? ""
            throw .usage("unknown request '\(verb)'\(hint)")
        }
    }
}
