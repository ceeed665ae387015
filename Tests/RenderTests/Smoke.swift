import Testing
@testable import Render

@Test func builds() {}
