import Foundation

// Hidden diagnostic subcommand of the camera (issue 8), until the CLI table has it.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "camera-probe" {
    exit(CameraProbeCommand.run(Array(CommandLine.arguments.dropFirst(2))))
}
exit(CLI.main(CommandLine.arguments))
