import Foundation

/// Texts from outside the tests: licences every Debian system has (base-files), the
/// example script, and fixtures written for the line-break rule.
enum RealTexts {
    static let gpl3 = "/usr/share/common-licenses/GPL-3"
    static let apache = "/usr/share/common-licenses/Apache-2.0"
    static let mpl = "/usr/share/common-licenses/MPL-2.0"

    static var welcome: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/scripts/Welcome.md").path
    }

    /// A short-line poem: lines of similar length, most ending in a comma or full stop.
    static let poem = """
        The Lighthouse Keeper

        Every evening at the harbour wall
        the keeper climbs the winding stair,
        counts the steps, a hundred and three,
        and lights the lamp for ships at sea.

        The gulls go quiet, the tide turns slow,
        the town below puts out its lights,
        and far beyond the breaking foam
        a fishing boat is coming home.

        He never sees the sailors' faces
        or hears the stories that they bring
        but every night the beam goes round
        and every night the boats are found.
        """

    /// A lyric sheet: short lines, no punctuation at all.
    static let lyrics = """
        Verse 1
        Morning comes in over the rooftops
        Coffee on the stove and the radio on
        We were singing every word we knew
        Singing till the night was gone

        Chorus
        Hold on, hold on
        Hold on to the light
        Hold on, hold on
        We'll be fine tonight

        Verse 2
        Streetlights flicker down on Elm Street
        Somebody's calling out your name
        We were dancing in the pouring rain
        Dancing like we'd never feel the same
        """

    /// A news script written one sentence per line, some of them long.
    static let sentencePerLine = """
        Good evening, and welcome to the programme.
        Tonight we are talking about the city's new tram line, which opens next spring.
        The council says the first trams will run every six minutes at peak times.
        Shop owners on the route are worried about the months of building work ahead.
        We spoke to three of them this afternoon.
        First, though, the weather.
        It has been the wettest November since records began in this region.
        Our reporter is standing by the river, which burst its banks this morning.
        Over to you.
        """

    /// A running order: a list under a heading line.
    static let runningOrder = """
        Running order for Thursday's show, with the timings agreed at the planning meeting
        - Opening titles and the presenter's welcome to the studio audience tonight
        - First interview with the minister about the new tram line and its costs
        - Weather, then the sports round-up with results from the weekend's matches
        1. Closing headlines
        """

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }
}
