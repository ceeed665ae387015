import CV4L2
import Foundation
import Render
import Stage

/// One open V4L2 capture device, through libv4l2 so MJPEG and odd formats arrive
/// converted. Owns the descriptor and the mmap'ed buffers; used by one thread only
/// (the capture thread), and closing it (deinit) stops streaming and unmaps.
final class CameraDevice {
    struct Buffer { let start: UnsafeMutableRawPointer; let length: Int }

    /// A dequeued buffer: the bytes stay valid until `requeue` is called.
    struct Filled {
        let index: UInt32
        let bytes: UnsafeRawPointer
        let byteCount: Int
        let sequence: UInt32
        /// Seconds on CLOCK_MONOTONIC (V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC), when the
        /// driver captured the frame.
        let timestamp: Double
    }

    let path: String
    let fd: Int32
    private(set) var buffers: [Buffer] = []
    private var streaming = false

    init(path: String) throws(CameraError) {
        self.path = path
        guard access(path, F_OK) == 0 else { throw .missing(path: path) }
        // Non-blocking: the capture thread waits in poll(), where a stop request can reach it.
        let fd = rig_v4l2_open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .openFailed(path: path, errno: errno) }
        self.fd = fd
        var caps = v4l2_capability()
        try ioctl(rig_vidioc_querycap(), &caps, "VIDIOC_QUERYCAP")
        let deviceCaps = caps.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? caps.device_caps : caps.capabilities
        guard deviceCaps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0, deviceCaps & UInt32(V4L2_CAP_STREAMING) != 0 else {
            throw .notACaptureDevice(path: path)
        }
        identity = Self.identity(card: CameraList.text(caps.card), bus: CameraList.text(caps.bus_info), path: path)
    }

    /// Which camera this is, not where: the driver's card name, the bus it is on and
    /// udev's serial-based name (/dev/v4l/by-id), so two cameras of one model on one
    /// port still differ by serial, and one camera keeps its identity when reopened.
    private(set) var identity = ""

    static func identity(card: String, bus: String, path: String, byID: String = "/dev/v4l/by-id") -> String {
        let device = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let serial = ((try? FileManager.default.contentsOfDirectory(atPath: byID)) ?? []).sorted().first {
            URL(fileURLWithPath: byID + "/" + $0).resolvingSymlinksInPath().path == device
        }
        return [card, bus, serial].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " | ")
    }

    deinit {
        if streaming { stopStreaming() }
        for buffer in buffers { v4l2_munmap(buffer.start, buffer.length) }
        v4l2_close(fd)
    }

    /// ioctl through libv4l2, retried on EINTR.
    func ioctl<T>(_ request: UInt, _ argument: inout T, _ name: String) throws(CameraError) {
        var result: Int32
        repeat {
            result = withUnsafeMutableBytes(of: &argument) { rig_v4l2_ioctl(fd, request, $0.baseAddress) }
        } while result < 0 && errno == EINTR
        if result < 0 { throw errno == ENODEV ? .disconnected(errno: ENODEV) : .ioctlFailed(request: name, errno: errno) }
    }

    /// Every mode the device offers in a format the converter reads.
    func modes() -> (usable: [CameraMode], offered: [String]) {
        var usable: [CameraMode] = []
        var offered: [String] = []
        for description in formatDescriptions() {
            offered.append(fourccText(description.pixelformat))
            guard let format = CameraPixelFormat(fourcc: description.pixelformat) else { continue }
            let emulated = description.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0
            for (width, height) in frameSizes(description.pixelformat) {
                for fps in frameRates(description.pixelformat, width, height) {
                    usable.append(CameraMode(format: format, width: width, height: height, framesPerSecond: fps, emulated: emulated))
                }
            }
        }
        return (usable, offered)
    }

    func formatDescriptions() -> [v4l2_fmtdesc] {
        var list: [v4l2_fmtdesc] = []
        for index in 0..<64 {
            var description = v4l2_fmtdesc()
            description.index = UInt32(index)
            description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            guard (try? ioctl(rig_vidioc_enum_fmt(), &description, "VIDIOC_ENUM_FMT")) != nil else { break }
            list.append(description)
        }
        return list
    }

    /// Discrete sizes as listed; a stepwise range contributes its largest size and
    /// the common 16:9 sizes inside it.
    func frameSizes(_ pixelformat: UInt32) -> [(Int, Int)] {
        var sizes: [(Int, Int)] = []
        for index in 0..<128 {
            var size = v4l2_frmsizeenum()
            size.index = UInt32(index)
            size.pixel_format = pixelformat
            guard (try? ioctl(rig_vidioc_enum_framesizes(), &size, "VIDIOC_ENUM_FRAMESIZES")) != nil else { break }
            if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                sizes.append((Int(size.discrete.width), Int(size.discrete.height)))
                continue
            }
            let range = size.stepwise
            let step = (w: max(1, Int(range.step_width)), h: max(1, Int(range.step_height)))
            for (w, h) in [(1920, 1080), (1280, 720), (640, 360), (Int(range.max_width), Int(range.max_height))] {
                let width = min(Int(range.max_width), max(Int(range.min_width), w / step.w * step.w))
                let height = min(Int(range.max_height), max(Int(range.min_height), h / step.h * step.h))
                sizes.append((width, height))
            }
            break
        }
        return sizes
    }

    /// Frame rates for a size; a device that lists none is taken as 30 fps.
    func frameRates(_ pixelformat: UInt32, _ width: Int, _ height: Int) -> [Double] {
        var rates: [Double] = []
        for index in 0..<64 {
            var interval = v4l2_frmivalenum()
            interval.index = UInt32(index)
            interval.pixel_format = pixelformat
            interval.width = UInt32(width)
            interval.height = UInt32(height)
            guard (try? ioctl(rig_vidioc_enum_frameintervals(), &interval, "VIDIOC_ENUM_FRAMEINTERVALS")) != nil else { break }
            if interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
                let fraction = interval.discrete
                if fraction.numerator > 0 { rates.append(Double(fraction.denominator) / Double(fraction.numerator)) }
                continue
            }
            let fastest = interval.stepwise.min
            let slowest = interval.stepwise.max
            if fastest.numerator > 0 { rates.append(Double(fastest.denominator) / Double(fastest.numerator)) }
            if slowest.numerator > 0 { rates.append(Double(slowest.denominator) / Double(slowest.numerator)) }
            if let high = rates.max(), let low = rates.min(), high >= 30, low <= 30 { rates.append(30) }
            break
        }
        return rates.isEmpty ? [30] : rates
    }

    /// Sets format and rate; returns what the driver actually took, and the row stride.
    func apply(_ mode: CameraMode) throws(CameraError) -> (mode: CameraMode, bytesPerLine: Int, imageSize: Int) {
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        format.fmt.pix.width = UInt32(mode.width)
        format.fmt.pix.height = UInt32(mode.height)
        format.fmt.pix.pixelformat = mode.format.fourcc
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try ioctl(rig_vidioc_s_fmt(), &format, "VIDIOC_S_FMT")
        let pix = format.fmt.pix
        guard let taken = CameraPixelFormat(fourcc: pix.pixelformat) else {
            throw .noUsableFormat(path: path, offered: [fourccText(pix.pixelformat)])
        }
        var parm = v4l2_streamparm()
        parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        var fps = mode.framesPerSecond
        if (try? ioctl(rig_vidioc_g_parm(), &parm, "VIDIOC_G_PARM")) != nil,
           parm.parm.capture.capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0 {
            // Whole frame rates as 1/fps; 29.97-style rates as 1001/30000.
            let exact = fps.rounded() == fps
            parm.parm.capture.timeperframe = v4l2_fract(numerator: exact ? 1 : 1001,
                                                         denominator: UInt32(exact ? fps : (fps * 1001).rounded()))
            try? ioctl(rig_vidioc_s_parm(), &parm, "VIDIOC_S_PARM")
            let frame = parm.parm.capture.timeperframe
            if frame.numerator > 0 { fps = Double(frame.denominator) / Double(frame.numerator) }
        }
        let actual = CameraMode(format: taken, width: Int(pix.width), height: Int(pix.height),
                                framesPerSecond: fps, emulated: mode.emulated)
        let bytesPerLine = max(Int(pix.bytesperline), taken.minimumBytesPerLine(width: actual.width))
        return (actual, bytesPerLine, Int(pix.sizeimage))
    }

    /// Requests, maps and queues `count` buffers, then starts streaming.
    func startStreaming(bufferCount count: Int) throws(CameraError) {
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try ioctl(rig_vidioc_reqbufs(), &request, "VIDIOC_REQBUFS")
        for index in 0..<request.count {
            var buffer = captureBuffer(index: index)
            try ioctl(rig_vidioc_querybuf(), &buffer, "VIDIOC_QUERYBUF")
            let start = v4l2_mmap(nil, Int(buffer.length), PROT_READ | PROT_WRITE, MAP_SHARED, fd, Int64(buffer.m.offset))
            guard let start, start != MAP_FAILED else { throw .mapFailed(errno: errno) }
            buffers.append(Buffer(start: start, length: Int(buffer.length)))
            try ioctl(rig_vidioc_qbuf(), &buffer, "VIDIOC_QBUF")
        }
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try ioctl(rig_vidioc_streamon(), &type, "VIDIOC_STREAMON")
        streaming = true
    }

    private func stopStreaming() {
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        _ = rig_v4l2_ioctl(fd, rig_vidioc_streamoff(), &type)
        streaming = false
    }

    /// The next filled buffer, or nil when none is ready yet (EAGAIN).
    func dequeue() throws(CameraError) -> Filled? {
        var buffer = captureBuffer(index: 0)
        var result: Int32
        repeat { result = rig_v4l2_ioctl(fd, rig_vidioc_dqbuf(), &buffer) } while result < 0 && errno == EINTR
        if result < 0 {
            if errno == EAGAIN { return nil }
            throw (errno == ENODEV || errno == EIO || errno == EPIPE) ? .disconnected(errno: errno)
                : .ioctlFailed(request: "VIDIOC_DQBUF", errno: errno)
        }
        let index = Int(buffer.index)
        guard index < buffers.count else { throw .ioctlFailed(request: "VIDIOC_DQBUF", errno: EINVAL) }
        let time = buffer.timestamp
        return Filled(index: buffer.index, bytes: UnsafeRawPointer(buffers[index].start),
                      byteCount: min(Int(buffer.bytesused), buffers[index].length),
                      sequence: buffer.sequence, timestamp: Double(time.tv_sec) + Double(time.tv_usec) / 1e6)
    }

    func requeue(_ filled: Filled) throws(CameraError) {
        var buffer = captureBuffer(index: filled.index)
        try ioctl(rig_vidioc_qbuf(), &buffer, "VIDIOC_QBUF")
    }

    private func captureBuffer(index: UInt32) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        return buffer
    }
}
