import Testing
@Test func builds() {}
