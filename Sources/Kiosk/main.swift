import Foundation

exit(CLI.main(CommandLine.arguments))
