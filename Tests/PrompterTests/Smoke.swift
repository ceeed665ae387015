import Testing
@testable import Prompter

@Test func builds() {}
