import CDRM
import Glibc
import Stage

/// The frame side of the DRM backend: its heads' schedulers draw into the back buffer
/// and flip it, and the kernel's completion events say when each frame reached the
/// glass. The device, connector and hotplug side is in DRMBackend.swift.
extension DRMBackend: FrameSchedulerOwner {
    func drawBuffer(for role: DisplayRole) -> (any FrameBuffer)? {
        guard active, kms != nil else { return nil }
        return heads[role]?.backBuffer
    }

    func drawFrame(for role: DisplayRole, into target: FrameTarget) -> Bool {
        delegate?.drawFrame(for: role, into: target) ?? false
    }

    /// Queues the flip of the back buffer; the kernel's event completes it.
    func show(_ role: DisplayRole, target: Double) -> FrameScheduler.Showing {
        guard let head = heads[role], let kms, let back = head.backBuffer else { return .nowhere }
        let rc = kms.flip(head, framebuffer: back.framebufferID, userData: Unmanaged.passUnretained(self).toOpaque())
        if rc == EBUSY { return .busy }
        if rc != 0 {
            log("displays: \(head.role) flip failed: \(String(cString: strerror(rc)))")
            return .failed
        }
        head.front = 1 - head.front
        return .queued
    }

    func presented(_ role: DisplayRole, _ stamp: FlipStamp) {
        guard let head = heads[role] else { return }
        head.status.recordFlip(stamp, head.frames.pacer)
        if head.disableWhenFlipped {
            head.disableWhenFlipped = false
            kms?.disable(head)
            head.crtcID = nil
            return
        }
        delegate?.framePresented(head.role, stamp)
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
        head.frames.flipCompleted(time: card?.monotonicTimestamps == true ? time : loop.clock(), sequence: sequence)
    }

    func waitForPendingFlips(card: DRMCard, timeout: Double) {
        let deadline = loop.clock() + timeout
        while heads.values.contains(where: \.frames.inFlight), loop.clock() < deadline {
            var pfd = pollfd(fd: card.fd, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 20) > 0 { handleDRMEvents() }
        }
    }
}
