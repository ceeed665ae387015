/// The version `rig --version` prints. A build from a checkout says `+dev`;
/// `scripts/package` rewrites this file in its own copy of the sources with the version
/// it reads from git (a tag, or 0.x.y+gitN.HASH) before the release build, so the
/// binary and its Debian package carry the same version.
package enum BuildVersion {
    package static let string = "0.1.0+dev"
}
