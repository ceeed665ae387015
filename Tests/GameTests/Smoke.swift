import Testing
@testable import Game

@Test func builds() {}
