import Foundation
import Prompter

/// The script library's control requests (`scripts`, `folder`, `script_text`).
/// Folder requests hand the scripts they moved to the controller, as the console's
/// dialogs do, so the open script follows its file.
struct LibraryRequests {
    let controller: PrompterController
    let console: ConsoleController

    /// `folder list|rename|delete`.
    func folders(_ request: ControlRequest) -> ControlReply {
        guard let library = controller.library else { return .failure("the scripts folder is unavailable") }
        do {
            switch request {
            case let .renameFolder(name, to):
                let renamed = try library.renameFolder(name, to: to)
                controller.scriptsMoved(renamed.moved)
                console.libraryChanged()
                return .success(["folder": .string(renamed.name)])
            case let .deleteFolder(name):
                let moved = try library.deleteFolder(name)
                controller.scriptsMoved(moved)
                console.libraryChanged()
                return .success(["moved": .array(moved.map { ["from": .string($0.oldID), "to": .string($0.entry.id)] })])
            default:
                let folders: [JSONValue] = library.folders().map { name in
                    ["name": .string(name), "scripts": .int(library.scripts(in: .folder(name)).count)]
                }
                return .success(["folders": .array(folders)])
            }
        } catch {
            return .failure(error.description)
        }
    }

    /// `scripts`, with what was found and not listed.
    func scripts(search: String?) -> ControlReply {
        guard let library = controller.library else { return .failure("the scripts folder is unavailable") }
        let entries = search.map { library.search($0) } ?? library.scripts()
        let items: [JSONValue] = entries.map { entry in
            [
                "id": .string(entry.id),
                "title": .string(entry.title),
                "folder": .optional(entry.folder),
                "modified": .string(TimeText.iso8601(entry.modified)),
                "words": .int(entry.wordCount),
                "reading_time": .string(ReadingTime.label(words: entry.wordCount, wordsPerMinute: controller.wordsPerMinute)),
                "problem": .optional(entry.condition.message),
                "imported_from": .optional(entry.importedFrom?.rawValue),
            ]
        }
        // Files found but not readable (binary, too large, an import converting or
        // without its converter), so a script that does not show says why.
        let skipped: [JSONValue] = library.skipped.map { entry in
            ["id": .string(entry.id), "problem": .optional(entry.condition.message)]
        }
        return .success(["scripts": .array(items), "folders": .array(library.folders().map { .string($0) }),
                         "not_listed": .array(skipped)])
    }

    /// `script_text`: the open script's source as read here, with the reading options,
    /// so a follower rig makes the same reading text (checked by the hash). Read again
    /// from the library; a file changed since it was shown is "ask again".
    func scriptText() -> ControlReply {
        guard let open = controller.script, let hash = controller.scriptHash else { return .failure("no script is open") }
        guard let library = controller.library else { return .failure("\(open.id) is not in a scripts folder") }
        do {
            let text = try library.readScript(id: open.id)
            guard SHA256.hex(text.readingText) == hash else {
                return .failure("\(open.id) changed since it was shown: ask again")
            }
            return .success(["id": .string(open.id), "title": .string(open.title), "format": .string(text.format.rawValue),
                             "line_breaks": .string(library.lineBreaks.rawValue),
                             "directions": .string(library.directions.rawValue), "source": .string(text.source),
                             "script_hash": .string(hash)])
        } catch {
            return .failure("\(open.id): \(error)")
        }
    }
}
