import Prompter

/// Library folders renamed or deleted, from the console or the control socket. The
/// open script may live in the folder: it keeps playing where it is and follows its
/// file to the new id, as it does when the script itself is renamed or moved.
extension PrompterController {
    /// Renames `folder` to `name`; returns the name it now has.
    package func renameFolder(_ folder: String, to name: String) throws(ScriptLibraryError) -> String {
        guard let library else { throw .folderNotFound(folder) }
        let inFolder = library.scripts(in: .folder(folder)).map(\.id)
        let newName = try library.renameFolder(folder, to: name)
        for oldID in inFolder {
            let fileName = String(oldID.dropFirst(folder.count + 1))
            if let entry = library.entry(id: newName + "/" + fileName) { scriptMoved(from: oldID, to: entry) }
        }
        return newName
    }

    /// Deletes `folder`, keeping its scripts at the top level; returns them.
    package func deleteFolder(_ folder: String) throws(ScriptLibraryError) -> [ScriptLibrary.MovedScript] {
        guard let library else { throw .folderNotFound(folder) }
        let moved = try library.deleteFolder(folder)
        for script in moved { scriptMoved(from: script.oldID, to: script.entry) }
        return moved
    }

    /// How many scripts `folder` holds now (what deleting it would move).
    package func scriptCount(inFolder folder: String) -> Int {
        library?.scripts(in: .folder(folder)).count ?? 0
    }
}
