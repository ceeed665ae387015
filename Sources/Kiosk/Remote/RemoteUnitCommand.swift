import Foundation
import Stage

/// `rig remote-unit`: the systemd drop-in that opens rig.service's network confinement
/// just as far as `[remote]` needs: AF_INET/AF_INET6 sockets, and IPAddressAllow= for
/// the peers the kiosk accepts (the same allow list it enforces itself at accept).
/// With the remote off it opens nothing. systemd/rig-remote-generator writes it at
/// boot and at every `systemctl daemon-reload`.
enum RemoteUnitCommand: Command {
    static let name = "remote-unit"
    static let summary = "Print the systemd drop-in that [remote] needs (used by the generator)"
    static let help = """
        Usage: rig remote-unit [--config PATH] [--set KEY=VALUE ...]

          Prints a drop-in for rig.service on stdout: with [remote] enabled, the
          address families and IPAddressAllow= for the peers [remote] allow admits
          (IPAddressDeny=any stays); with it off, only a comment. Exit 2 when rig.toml
          has errors (the drop-in then opens nothing).

        Options:
        \(ConfigOptions.help)
        """

    static func run(_ arguments: inout Arguments) throws(CLIError) -> Int32 {
        let options = try ConfigOptions(&arguments)
        try arguments.finish()
        let result = ConfigLoader.load(path: options.path, overrides: options.overrides)
        for problem in result.problems { Log.stderr(problem.description) }
        guard result.errors.isEmpty else {
            print("# rig remote-unit: \(options.path) has errors; the network stays closed")
            return 2
        }
        print(dropIn(result.config.remote, source: options.path))
        return 0
    }

    static func dropIn(_ remote: RigConfig.Remote, source: String) -> String {
        var lines = ["# Written by `rig remote-unit` from \(source); do not edit: change [remote] there."]
        guard remote.enabled else {
            lines.append("# [remote] is off: rig.service stays off the network.")
            return lines.joined(separator: "\n")
        }
        lines += [
            "[Service]",
            "# The remote's listening sockets (HTTP, OSC) on \(remote.bind).",
            "RestrictAddressFamilies=AF_INET AF_INET6",
            "# Packets to and from these peers only; IPAddressDeny=any of the unit stays.",
        ]
        lines += remote.allowList.map { "IPAddressAllow=\($0)" }
        return lines.joined(separator: "\n")
    }
}
