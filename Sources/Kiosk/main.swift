import CTOML
import CDRM
import CUdev
import CInput
import CV4L2
import CSeat
import CSystemd
import Prompter
import Render
import Foundation

// Hidden diagnostic subcommand of the camera (issue 8); the CLI proper is the lead's.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "camera-probe" {
    exit(CameraProbeCommand.run(Array(CommandLine.arguments.dropFirst(2))))
}
print("rig")
