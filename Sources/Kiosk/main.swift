import Foundation

#if RIG_FUZZ
if let status = FuzzDriver.runIfAsked() { exit(status) }
#endif
exit(CLI.main(CommandLine.arguments))
