import CDRM
import Glibc
import Stage

/// The frame side of the DRM backend: when a head composes (paced on its vblank grid,
/// at once for a cue, ahead for a prepared frame), the flip and what happens when the
/// kernel refuses it or never reports it, and the completion events that drive the
/// next frame. The device, connector and hotplug side is in DRMBackend.swift.
extension DRMBackend {
    func schedule(_ head: DRMHead) {
        guard active, head.status.available, head.frameRequested || head.mustDraw || head.prepareFor != nil,
              !head.flipPending, !head.composing, head.composeTimer == nil, head.flipRetryTimer == nil else { return }
        let now = loop.clock()
        let (pacedAt, target) = head.pacer.schedule(now: now)
        let preparing = !head.frameRequested && !head.mustDraw
        let composeAt = head.frameRequestedNow || preparing ? now : pacedAt
        head.composeTimer = loop.addTimer(at: composeAt) { [weak self, weak head] in
            guard let self, let head else { return }
            head.composeTimer = nil
            if !head.frameRequested && !head.mustDraw, let time = head.prepareFor {
                self.prepare(head, for: time)
            } else {
                self.compose(head, target: target)
            }
        }
    }

    func prepareFrame(_ role: DisplayRole, for time: Double) {
        guard let head = heads[role] else { return }
        head.prepareFor = time
        schedule(head)
    }

    /// Draws the frame for `time` into the back buffer and holds it there unflipped.
    private func prepare(_ head: DRMHead, for time: Double) {
        head.prepareFor = nil
        guard active, head.status.available, head.status.enabled, !head.flipPending, head.flipRetryTimer == nil,
              let back = head.backBuffer else { return }
        head.composing = true
        let frame = FrameTarget(width: back.width, height: back.height, stride: back.stride, pixels: back.pixels,
                                presentationTime: time, mustDraw: false, preparing: true)
        if delegate?.drawFrame(for: head.role, into: frame) == true { head.backHoldsPrepared = true }
        head.composing = false
        schedule(head)
    }

    private func compose(_ head: DRMHead, target: Double) {
        guard active, head.status.available, !head.flipPending, let back = head.backBuffer, let kms else { return }
        head.frameRequested = false
        head.frameRequestedNow = false
        let wasShowing = head.showingContent
        head.composing = true
        let changed = draw(head, into: back, target: target)
        head.composing = false
        // Nothing new and nothing to blank: no flip, no CPU.
        if !changed && !(wasShowing && !head.status.showsContent) {
            schedule(head)
            return
        }
        head.showingContent = head.status.showsContent
        submit(head, buffer: back, target: target, attempt: 0)
    }

    /// Queues the flip of the frame just drawn. EBUSY means the kernel still holds a
    /// flip of this CRTC (one queued before a replug's modeset completes late): the
    /// frame is already drawn and the stage counts it as on its way, so it is the one
    /// flipped a moment later. Dropping it instead froze a display that had stopped
    /// moving on the frame before, since nothing would ask for another.
    private func submit(_ head: DRMHead, buffer: DumbFramebuffer, target: Double, attempt: Int) {
        guard let kms else { return }
        let rc = kms.flip(head, framebuffer: buffer.framebufferID,
                          userData: Unmanaged.passUnretained(self).toOpaque())
        if rc == EBUSY, attempt < Self.busyRetries {
            if attempt == 0 { log("displays: \(head.role) flip busy; retrying the drawn frame") }
            head.flipRetryTimer = loop.addTimer(at: loop.clock() + Self.busyRetryDelay) { [weak self, weak head] in
                guard let self, let head else { return }
                head.flipRetryTimer = nil
                guard self.active, head.status.available, !head.flipPending, head.backBuffer === buffer else {
                    // Taken down or replugged meanwhile: whatever comes next is drawn afresh.
                    head.mustDraw = true
                    self.schedule(head)
                    return
                }
                self.submit(head, buffer: buffer, target: target, attempt: attempt + 1)
            }
            return
        }
        if rc != 0 {
            log("displays: \(head.role) flip failed: \(String(cString: strerror(rc)))")
            // Drawn but never shown: the next frame is drawn whatever the stage says, a
            // refresh period on, or a display that stopped moving would keep the frame
            // before for as long as nothing else asks for one.
            head.mustDraw = true
            head.flipRetryTimer = loop.addTimer(at: loop.clock() + head.pacer.period) { [weak self, weak head] in
                guard let self, let head else { return }
                head.flipRetryTimer = nil
                self.schedule(head)
            }
            return
        }
        head.flipPending = true
        head.front = 1 - head.front
        head.pacer.submitted(target: target)
        watchFlip(head)
    }

    /// A flip whose completion event never comes would hold the display on its last
    /// frame for good (nothing composes while a flip is pending). After a second, far
    /// beyond any refresh, the flip counts as done, says so in the journal, and the
    /// next frame is drawn whatever the stage says.
    private func watchFlip(_ head: DRMHead) {
        if let timer = head.flipWatchdog { loop.cancel(timer) }
        head.flipWatchdog = loop.addTimer(at: loop.clock() + Self.flipEventLimit) { [weak self, weak head] in
            guard let self, let head else { return }
            head.flipWatchdog = nil
            guard head.flipPending, self.active, head.status.available else { return }
            self.log("displays: \(head.role) flip event did not come within \(Self.flipEventLimit) s; drawing on")
            head.flipPending = false
            head.mustDraw = true
            self.schedule(head)
        }
    }

    private static let flipEventLimit = 1.0

    /// A busy CRTC is retried every 2 ms for up to 0.25 s (a modeset's last flip).
    private static let busyRetries = 125
    private static let busyRetryDelay = 0.002

    /// Asks the delegate for a frame, or blanks the buffer while the operator has the
    /// display turned off. Returns whether the buffer now differs from the screen.
    func draw(_ head: DRMHead, into buffer: DumbFramebuffer, target: Double) -> Bool {
        let mustDraw = head.mustDraw
        head.mustDraw = false
        guard head.status.enabled else {
            buffer.clear()
            head.backHoldsPrepared = false
            return mustDraw || head.showingContent
        }
        let frame = FrameTarget(width: buffer.width, height: buffer.height, stride: buffer.stride,
                                pixels: buffer.pixels, presentationTime: target, mustDraw: mustDraw,
                                holdsPrepared: head.backHoldsPrepared && buffer === head.backBuffer)
        let changed = delegate?.drawFrame(for: head.role, into: frame) ?? false
        // Drawn over, or about to be flipped: either way no longer a frame held ahead.
        if changed || mustDraw { head.backHoldsPrepared = false }
        return changed || mustDraw
    }

    func handleDRMEvents() {
        guard let card else { return }
        var context = drmEventContext()
        context.version = 3
        context.page_flip_handler2 = { _, sequence, seconds, microseconds, crtcID, userData in
            guard let userData else { return }
            let backend = Unmanaged<DRMBackend>.fromOpaque(userData).takeUnretainedValue()
            backend.flipCompleted(crtcID: crtcID, sequence: sequence,
                                  time: Double(seconds) + Double(microseconds) / 1e6)
        }
        drmHandleEvent(card.fd, &context)
    }

    private func flipCompleted(crtcID: UInt32, sequence: UInt32, time: Double) {
        guard let head = heads.values.first(where: { $0.crtcID == crtcID }) else { return }
        head.flipPending = false
        if let timer = head.flipWatchdog { loop.cancel(timer) }
        head.flipWatchdog = nil
        let stamp = head.pacer.flipCompleted(
            time: card?.monotonicTimestamps == true ? time : loop.clock(), sequence: sequence)
        head.status.flips = head.pacer.flips
        head.status.missedVblanks = head.pacer.missedVblanks
        head.status.lastFlip = stamp
        if head.disableWhenFlipped {
            head.disableWhenFlipped = false
            kms?.disable(head)
            head.crtcID = nil
            return
        }
        delegate?.framePresented(head.role, stamp)
        schedule(head)
    }

    func waitForPendingFlips(card: DRMCard, timeout: Double) {
        let deadline = loop.clock() + timeout
        while heads.values.contains(where: \.flipPending), loop.clock() < deadline {
            var pfd = pollfd(fd: card.fd, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 20) > 0 { handleDRMEvents() }
        }
    }
}
