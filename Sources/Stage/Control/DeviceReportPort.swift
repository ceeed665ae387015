/// What the rig's devices say of themselves in `rig ctl status`, and the one request the
/// event loop answers itself (`hang`, a test aid). The kiosk's port reads its displays,
/// camera, input devices, sound and remote; a stage on a manual clock has none.
package protocol DeviceReportPort: AnyObject {
    /// Each display as the display side reports it now (flips, missed vblanks).
    var displays: [DisplayRole: DisplayStatus] { get }
    /// The camera's fields; nil with no camera open (then `cameraDevice` says which).
    var camera: [String: JSONValue]? { get }
    var cameraDevice: String { get }
    /// The input devices and their counters.
    var input: [String: JSONValue] { get }
    /// The rest of the report the devices answer (`audio`, `remote`), by key.
    var sections: [String: JSONValue] { get }
    /// `rig ctl hang`: stops the loop dead when allowed; the reply says why not.
    func hang() -> ControlReply
}

package final class NoDeviceReport: DeviceReportPort {
    package init() {}
    package var displays: [DisplayRole: DisplayStatus] { [:] }
    package var camera: [String: JSONValue]? { nil }
    package var cameraDevice: String { "" }
    package var input: [String: JSONValue] { [:] }
    package var sections: [String: JSONValue] { [:] }
    package func hang() -> ControlReply { .failure("hang is a test aid of the kiosk's event loop") }
}
