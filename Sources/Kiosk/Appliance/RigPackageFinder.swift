import Foundation
import Stage

/// Finds a rig package newer than the running one at the top of a USB stick, by the
/// name Debian gives a package file (`rig_VERSION_ARCH.deb`, as `scripts/package` and
/// `dpkg-name` write it). The kiosk reads no package itself (it runs as `rig`, and a
/// stick's file is anyone's): rig-update, as root, checks that the file holds the
/// package and version its name says before it installs anything.
struct RigPackageFinder: Sendable {
    /// Says whether version `a` is newer than `b` by Debian's rules.
    var isNewer: @Sendable (_ a: String, _ b: String) -> Bool = { DebianVersion.isNewer($0, than: $1) }
    /// The architectures this rig installs: its own, and `all`.
    var architectures = [Self.machineArchitecture, "all"]

    /// The newest package newer than `installed` at the top of `stick`, if any.
    func newest(on stick: ExportDestination, installed: String) -> RigUpdateOffer? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: stick.path)) ?? []
        var best: (version: String, path: String)?
        for name in names.sorted() {
            guard let (version, architecture) = Self.parse(name), architectures.contains(architecture),
                  isNewer(version, installed), best.map({ isNewer(version, $0.version) }) ?? true
            else { continue }
            let path = stick.path + "/" + name
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            best = (version, path)
        }
        return best.map { RigUpdateOffer(stick: stick.label, path: $0.path, version: $0.version, installed: installed) }
    }

    /// The version and architecture in a rig package's file name; nil for any other file.
    /// dpkg-name writes an epoch's colon as %3a.
    static func parse(_ name: String) -> (version: String, architecture: String)? {
        guard name.hasPrefix("rig_"), name.lowercased().hasSuffix(".deb"), !name.hasPrefix(".") else { return nil }
        let fields = name.dropFirst(4).dropLast(4).split(separator: "_", omittingEmptySubsequences: false)
        guard fields.count == 2, !fields[0].isEmpty, !fields[1].isEmpty else { return nil }
        let version = fields[0].replacingOccurrences(of: "%3a", with: ":", options: .caseInsensitive)
        // Debian's version characters only: nothing else reaches the dialog or systemd.
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.+-~:")
        guard version.first?.isNumber == true, version.allSatisfy(allowed.contains) else { return nil }
        return (version, String(fields[1]))
    }

    /// Debian's name for the architecture this rig was built for.
    static var machineArchitecture: String {
        #if arch(x86_64)
            "amd64"
        #elseif arch(arm64)
            "arm64"
        #else
            "unknown"
        #endif
    }

    /// dpkg's database of installed packages.
    static let dpkgStatus = "/var/lib/dpkg/status"

    /// The version of the installed package `rig`, read from dpkg's database; nil when
    /// rig was not installed from its package (a build run from its folder, a test):
    /// then nothing is offered.
    static func installedVersion(statusFile: String = dpkgStatus) -> String? {
        guard let text = try? String(contentsOfFile: statusFile, encoding: .utf8) else { return nil }
        return installedVersion(inStatus: text)
    }

    static func installedVersion(inStatus text: String) -> String? {
        for stanza in text.components(separatedBy: "\n\n") {
            var fields: [Substring: Substring] = [:]
            for line in stanza.split(separator: "\n") where !line.hasPrefix(" ") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[line[..<colon]] = line[line.index(after: colon)...].drop(while: { $0 == " " })
            }
            if fields["Package"] == "rig", fields["Status"] == "install ok installed", let version = fields["Version"] {
                return String(version)
            }
        }
        return nil
    }
}
