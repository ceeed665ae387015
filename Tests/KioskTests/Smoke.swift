import Testing
@testable import Kiosk

@Test func builds() {}
