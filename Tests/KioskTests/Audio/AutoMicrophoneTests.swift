import Testing
@testable import Kiosk

/// `[audio] input = "auto"`: the first capture PCM of the card that plays, else of the
/// first card that has one; nothing without a capture device.
@Suite struct AutoMicrophoneTests {
    typealias Card = SoundCardList.Card
    typealias PCM = SoundCardList.PCM

    /// A mini-PC: the Intel HDA card (speakers and the headset jack's microphone), an
    /// HDMI card that only plays, and a USB microphone.
    static let hda = Card(index: 0, id: "PCH", name: "HDA Intel PCH",
                          pcms: [PCM(device: 0, name: "ALC269VC Analog", playback: true, capture: true),
                                 PCM(device: 3, name: "HDMI 0", playback: true, capture: false)])
    static let hdmi = Card(index: 1, id: "HDMI", name: "HDA ATI HDMI",
                           pcms: [PCM(device: 3, name: "HDMI 0", playback: true, capture: false)])
    static let usb = Card(index: 2, id: "Mic", name: "USB Microphone",
                          pcms: [PCM(device: 0, name: "USB Audio", playback: false, capture: true)])

    @Test func theCardThatPlaysGivesItsMicrophone() {
        let cards = [Self.hdmi, Self.usb, Self.hda]
        #expect(AutoMicrophone.choose(output: "hw:CARD=PCH,DEV=0", defaultCard: 1, cards: cards) == "plughw:CARD=PCH,DEV=0")
        #expect(AutoMicrophone.choose(output: "plughw:0,0", defaultCard: 1, cards: cards) == "plughw:CARD=PCH,DEV=0")
        #expect(AutoMicrophone.choose(output: "default", defaultCard: 0, cards: cards) == "plughw:CARD=PCH,DEV=0")
    }

    @Test func aCardThatOnlyPlaysFallsBackToTheFirstCaptureCard() {
        let cards = [Self.hdmi, Self.usb]
        #expect(AutoMicrophone.choose(output: "hw:CARD=HDMI,DEV=3", defaultCard: 1, cards: cards) == "plughw:CARD=Mic,DEV=0")
        #expect(AutoMicrophone.choose(output: "", defaultCard: nil, cards: cards) == "plughw:CARD=Mic,DEV=0")
        #expect(AutoMicrophone.choose(output: "rig_speakers", defaultCard: 1, cards: cards) == "plughw:CARD=Mic,DEV=0",
                "an asound.conf name says no card: the first capture card")
    }

    @Test func noCaptureDeviceIsNoMicrophone() {
        #expect(AutoMicrophone.choose(output: "default", defaultCard: 1, cards: [Self.hdmi]) == nil)
        #expect(AutoMicrophone.choose(output: "default", defaultCard: nil, cards: []) == nil)
    }

    @Test func anInputNamedInRigTomlIsKeptAsWritten() {
        #expect(AutoMicrophone.resolve(input: "hw:CARD=Mic,DEV=0", output: "default") == "hw:CARD=Mic,DEV=0")
        #expect(AutoMicrophone.resolve(input: "", output: "default") == "")
    }
}
