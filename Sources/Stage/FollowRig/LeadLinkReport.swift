import Markup
import Prompter

/// What a follower rig's link to its lead hands the stage (the kiosk's `LeadLink`
/// thread reads the lead's remote; the stage owns what it means).
package enum LeadLinkReport: Sendable, Equatable {
    /// The lead's live state (`/api/events`): the anchor, its transport and blank.
    case state(LeadState)
    /// The lead's script, read as the lead read it and checked against its hash.
    case script(LeadScript)
    /// The script could not be had (refused, unreadable, or it reads differently here).
    case scriptProblem(String)
    /// One clock check: the lead's wall clock minus this rig's, and the request's round trip.
    case clock(offset: Double, roundTrip: Double)
    /// The lead cannot be reached, or refused the key: why, in words.
    case lost(String)
}

/// The part of the lead's live state a follower acts on.
package struct LeadState: Sendable, Equatable {
    package var anchor: LeadAnchor?
    /// `playing`, `paused` or `stopped`.
    package var transport: String
    package var blanked: Bool
    package var scriptID: String?

    package init(anchor: LeadAnchor?, transport: String, blanked: Bool, scriptID: String?) {
        self.anchor = anchor
        self.transport = transport
        self.blanked = blanked
        self.scriptID = scriptID
    }

    /// From the live state's JSON.
    package init(json: JSONValue) {
        self.init(anchor: LeadAnchor(json: json["anchor"]), transport: json["state"]?.stringValue ?? "stopped",
                  blanked: json["blanked"]?.boolValue ?? false, scriptID: json["script"]?.stringValue)
    }
}

/// The lead's script as this rig shows it: its reading text made here from the lead's
/// source with the lead's reading options, so words are numbered as the lead numbers them.
package struct LeadScript: Sendable, Equatable {
    package var id: String
    package var title: String
    package var readingText: String
    package var wordCount: Int
    package var markers: [ScriptMarker]
    package var markup: ReadingMarkup
    package var hash: String

    /// The `script_text` reply, parsed here and checked: nil and the reason when it is
    /// not the text whose hash the lead publishes.
    package static func parse(_ reply: JSONValue) -> Result<LeadScript, LeadScriptRefusal> {
        guard reply["ok"]?.boolValue == true else {
            return .failure(LeadScriptRefusal(reply["error"]?.stringValue ?? "the lead refused its script"))
        }
        guard let id = reply["id"]?.stringValue, let source = reply["source"]?.stringValue,
              let hash = reply["script_hash"]?.stringValue,
              let format = reply["format"]?.stringValue.flatMap(ScriptFormat.init(rawValue:)) else {
            return .failure(LeadScriptRefusal("the lead's script reply is incomplete"))
        }
        let lineBreaks = reply["line_breaks"]?.stringValue.flatMap(LineBreaks.init(rawValue:)) ?? .auto
        let directions = reply["directions"]?.stringValue.flatMap(DirectionMarks.init(rawValue:)) ?? .brackets
        let read = ScriptLibrary.readingTextAndMarkers(source, format: format, lineBreaks: lineBreaks, directions: directions)
        let made = SHA256.hex(read.text)
        guard made == hash else {
            return .failure(LeadScriptRefusal("\(id) reads differently here than on the lead (another rig version?): not shown"))
        }
        return .success(LeadScript(id: id, title: reply["title"]?.stringValue ?? id, readingText: read.text,
                                   wordCount: ReadingTime.wordCount(read.text, markup: read.markup),
                                   markers: read.markers, markup: read.markup, hash: hash))
    }
}

package struct LeadScriptRefusal: Error, Equatable, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
