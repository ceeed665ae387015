import Media

/// The Clips screen's data for one inner frame: the list, the replay (its position
/// to the whole second, as shown), its picture due now (compared by its place in
/// the clip).
package struct InnerClips: Equatable {
    package var input: ClipsInput
    package var replay: ClipReplay.Shown?
    package var picture: ReplayPicture?

    package init(input: ClipsInput, replay: ClipReplay.Shown?, picture: ReplayPicture?) {
        self.input = input
        self.replay = replay.map { shown in
            var whole = shown
            whole.position = shown.position.rounded(.down)
            return whole
        }
        self.picture = picture
    }

    package static func == (a: InnerClips, b: InnerClips) -> Bool {
        a.input == b.input && a.replay == b.replay && a.picture?.index == b.picture?.index
    }
}
