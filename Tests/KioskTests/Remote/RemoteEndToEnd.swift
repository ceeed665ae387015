import Testing

/// The remote's end-to-end suites, one after another: each starts a real kiosk (and
/// one a browser), and run side by side on two cores they would time each other.
@Suite(.serialized) enum RemoteEndToEnd {}
