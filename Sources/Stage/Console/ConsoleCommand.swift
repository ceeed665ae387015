import Render

/// What a key or a click asks of the console. A screen's key map (or `ConsolePress`)
/// decides it from values (the press, the console's state, the targets last shown), and
/// the Clips and Game screens' controls return one (`ClipsController`, `GameDesk`);
/// `ConsoleController` carries it out, so the deciders never reach back into it.
enum ConsoleCommand {
    case none
    case focus(WidgetID?)
    /// As if the control were clicked.
    case activate(WidgetID)
    case show(ConsoleScreen)
    /// Back to the prompter, or to the library while no script is open.
    case leave
    /// Open a script on the prompter.
    case open(String)
    /// The library's search changed: the selection follows what is listed.
    case search(String)
    /// Open a script in the editor.
    case edit(String)
    /// Show a library edit's outcome (nil: there is no library).
    case libraryEdit(LibraryEdit.Outcome?)
    /// A setting stepped by a delta.
    case stepSetting(SettingsScreen.Item, Int)
    /// A Game screen control stepped by a delta.
    case gameStep(WidgetID, Int)
    /// The editor's text or caret moved: autosave follows a change of the text.
    case edited(ScriptEditor)
    /// A request the stage answers, in the rig's one vocabulary.
    case request(ControlRequest)
    /// A change to the console's own state, applied in one step.
    case change((inout ConsoleState) -> Void)
}
