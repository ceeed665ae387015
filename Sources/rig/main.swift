import Bench
import Foundation
import Kiosk
#if RIG_FUZZ
import Fuzz
#endif

#if RIG_FUZZ
if let status = FuzzDriver.runIfAsked() { exit(status) }
#endif
let cli = CLI(commands: CLI.applianceCommands(tools: [CommandEntry(BenchCommand.self)]),
              hidden: CLI.hiddenApplianceCommands)
exit(cli.main(CommandLine.arguments))
