import Testing
@testable import Kiosk
@testable import Stage

/// The headless backend under a manual clock: the real event loop, no sleeps.
@Suite struct HeadlessBackendTests {
    final class ManualClock { var now = 100.0 }

    final class RecordingScene: DisplayBackendDelegate {
        var frames: [DisplayRole: [Double]] = [:]
        var changing = false
        var statuses: [(DisplayRole, DisplayStatus)] = []
        weak var backend: (any DisplayBackend)?

        func drawFrame(for role: DisplayRole, into target: FrameTarget) -> Bool {
            frames[role, default: []].append(target.presentationTime)
            guard changing || target.mustDraw else { return false }
            TestPatternScene.draw(role: role, barPosition: 0.5, into: target)
            if changing { backend?.requestFrame(role) }
            return true
        }

        func displayStatusChanged(_ role: DisplayRole, _ status: DisplayStatus) {
            statuses.append((role, status))
        }
    }

    struct Rig {
        let clock = ManualClock()
        let loop: EventLoop
        let backend: HeadlessBackend
        let scene = RecordingScene()

        init() throws {
            let clock = self.clock
            loop = try EventLoop(clock: { clock.now })
            backend = HeadlessBackend(sizes: [.inner: (64, 40), .outer: (48, 32)], loop: loop)
            backend.delegate = scene
            scene.backend = backend
        }

        /// Advances the manual clock in 1 ms steps, running whatever falls due.
        func advance(_ seconds: Double) {
            let end = clock.now + seconds
            while clock.now < end {
                clock.now = min(end, clock.now + 0.001)
                loop.runOnce(timeout: 0)
            }
        }
    }

    @Test func bothHeadsShowAFirstFrameAtStart() throws {
        let rig = try Rig()
        try rig.backend.start()
        rig.advance(0.1)
        for role in DisplayRole.allCases {
            #expect(rig.backend.status(of: role).flips == 1)
            #expect(rig.backend.status(of: role).available)
            #expect(rig.backend.screen(role)?.pixel(x: 0, y: 0) == 0xFFFFFF)
        }
    }

    @Test func nothingChangedMeansNothingFlipped() throws {
        let rig = try Rig()
        try rig.backend.start()
        rig.advance(0.1)
        rig.backend.requestFrame(.inner)
        rig.advance(1)
        #expect(rig.backend.status(of: .inner).flips == 1)
        #expect(rig.scene.frames[.inner]?.count == 2)
    }

    @Test func animationFlipsAtTheRefreshOnTheVblankGrid() throws {
        let rig = try Rig()
        try rig.backend.start()
        rig.advance(0.1)
        rig.scene.changing = true
        rig.backend.requestFrame(.inner)
        rig.advance(1)
        let flips = rig.backend.status(of: .inner).flips
        #expect(flips >= 58 && flips <= 62, "flips \(flips)")
        let times = rig.scene.frames[.inner] ?? []
        let steps = zip(times.dropFirst(2), times.dropFirst(3)).map { $1 - $0 }
        #expect(steps.allSatisfy { abs($0 - 1.0 / 60) < 1e-6 })
        #expect(rig.backend.status(of: .outer).flips == 1)
    }

    @Test func unpluggingOuterLeavesInnerRunningAndReplugRedraws() throws {
        let rig = try Rig()
        try rig.backend.start()
        rig.advance(0.1)
        rig.scene.changing = true
        rig.backend.requestFrame(.inner)
        rig.backend.disconnect(.outer)
        let innerBefore = rig.backend.status(of: .inner).flips
        rig.advance(0.5)
        #expect(!rig.backend.status(of: .outer).available)
        #expect(rig.backend.status(of: .inner).flips > innerBefore + 20)
        rig.backend.connect(.outer)
        rig.advance(0.1)
        #expect(rig.backend.status(of: .outer).available)
        #expect(rig.backend.screen(.outer)?.pixel(x: 0, y: 0) == 0xFFFFFF)
    }

    @Test func outerShowsContentOnlyWhenAvailableAndEnabled() throws {
        let rig = try Rig()
        try rig.backend.start()
        rig.advance(0.1)
        rig.backend.setEnabled(false, for: .outer)
        rig.advance(0.1)
        #expect(rig.backend.status(of: .outer).available)
        #expect(!rig.backend.status(of: .outer).showsContent)
        #expect(rig.backend.screen(.outer)?.pixel(x: 0, y: 0) == 0)
        rig.backend.setEnabled(true, for: .outer)
        rig.advance(0.1)
        #expect(rig.backend.screen(.outer)?.pixel(x: 0, y: 0) == 0xFFFFFF)
        #expect(rig.scene.statuses.contains { $0.0 == .outer && !$0.1.enabled })
    }
}
