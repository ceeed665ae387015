import Foundation
import Testing
@testable import Game

@Suite struct CatalogTests {
    @Test func theShippedCatalogHasFiftyCardsTenPerGroup() throws {
        let catalog = try GameFixture.catalog()
        #expect(catalog.cards.count == 50)
        for group in ActionGroup.allCases {
            #expect(catalog.cards.filter { $0.group == group }.count == 10, "\(group)")
        }
        #expect(Set(catalog.cards.map(\.id)).count == 50)
        #expect(catalog.cards.allSatisfy { $0.id.hasPrefix($0.group.rawValue + ".") })
    }

    @Test func everyShippedCardResolvesToPlainWords() throws {
        for card in try GameFixture.catalog().cards {
            let text = card.instruction(card.parameters)
            #expect(!text.contains("{") && !text.contains("}"), "\(card.id)")
            #expect(!card.framing.isEmpty)
            #expect(text.first?.isLowercase == true, "\(card.id) should read after \"Simon says, \"")
        }
    }

    @Test func handsCardsCarryFingerAndHandParameters() throws {
        let catalog = try GameFixture.catalog()
        let fingers = try #require(catalog.card(id: "hands.fingers-up"))
        #expect(fingers.parameters == ActionParameters(fingers: 3, hand: .right))
        #expect(fingers.frame == .hands)
        #expect(catalog.cards.contains { $0.parameters.hand == .either })
        #expect(catalog.cards.contains { $0.parameters.hand == .left })
    }

    @Test func theSeatedFilterDropsStandingCards() throws {
        let catalog = try GameFixture.catalog()
        let seated = catalog.available(groups: [.balances], seatedOnly: true)
        #expect(!seated.isEmpty)
        #expect(seated.allSatisfy { $0.seated && $0.group == .balances })
        #expect(catalog.available(groups: [.balances], seatedOnly: false).count == 10)
        #expect(catalog.available(groups: [], seatedOnly: false).isEmpty)
    }

    /// A one-card-per-group catalog as JSON text with `replace` applied to the first card.
    func catalogJSON(first: String) -> Data {
        let rest = ActionGroup.allCases.dropFirst().map {
            #"{"id": "\#($0.rawValue).a", "version": 1, "group": "\#($0.rawValue)", "text": "smile", "frame": "face", "framing": "the face", "seated": true}"#
        }
        return Data(#"{"version": 1, "cards": [\#(([first] + rest).joined(separator: ","))]}"#.utf8)
    }

    func loadError(_ first: String) -> CatalogError? {
        do {
            _ = try ActionCatalog.load(catalogJSON(first: first))
            return nil
        } catch {
            return error
        }
    }

    let good = #"{"id": "poses.a", "version": 1, "group": "poses", "text": "wave {hand}", "frame": "hands", "framing": "the hand", "seated": true, "parameters": {"hand": "left"}}"#

    @Test func aGoodSmallCatalogLoads() throws {
        let catalog = try ActionCatalog.load(catalogJSON(first: good))
        #expect(catalog.cards.count == 5)
        #expect(catalog.card(id: "poses.a")?.parameters.hand == .left)
    }

    @Test(arguments: [
        ("\"version\": 1", "\"version\": 0", "version"),
        ("\"group\": \"poses\"", "\"group\": \"dances\"", "group"),
        ("\"seated\": true", "\"seated\": \"yes\"", "seated"),
        ("\"seated\": true", "\"seated\": 1", "seated"),
        ("\"frame\": \"hands\"", "\"frame\": \"feet\"", "frame"),
        ("\"framing\": \"the hand\"", "\"framing\": \"  \"", "framing"),
        ("\"text\": \"wave {hand}\"", "\"text\": \"wave {foot}\"", "text"),
        ("\"text\": \"wave {hand}\"", "\"text\": \"hold up {fingers} on {hand}\"", "text"),
        ("\"text\": \"wave {hand}\"", "\"text\": \"wave\"", "parameters"),
        ("{\"hand\": \"left\"}", "{\"hand\": \"middle\"}", "parameters.hand"),
        ("{\"hand\": \"left\"}", "{\"hand\": \"left\", \"fingers\": 6}", "parameters.fingers"),
        ("{\"hand\": \"left\"}", "{\"hand\": \"left\", \"toes\": 2}", "parameters.toes"),
        ("\"seated\": true", "\"seated\": true, \"colour\": \"red\"", "colour"),
    ])
    func aBrokenCardNamesTheCardAndTheField(original: String, broken: String, field: String) {
        let error = loadError(good.replacingOccurrences(of: original, with: broken))
        guard case .badCard(let card, let named, _)? = error else {
            Issue.record("expected a bad card, got \(String(describing: error))")
            return
        }
        #expect(card == "poses.a")
        #expect(named == field)
        #expect(error?.description.contains("poses.a") == true)
    }

    @Test func aMissingFieldIsNamed() {
        let error = loadError(good.replacingOccurrences(of: "\"framing\": \"the hand\", ", with: ""))
        #expect(error == .badCard(card: "poses.a", field: "framing", reason: "missing or not a string"))
    }

    @Test func aCardWithoutUsableIDIsNamedByPosition() {
        #expect(loadError(good.replacingOccurrences(of: "\"id\": \"poses.a\", ", with: ""))
            == .badCard(card: "card 1", field: "id", reason: "missing or not a string"))
        guard case .badCard("card 1", "id", _)? = loadError(good.replacingOccurrences(of: "poses.a", with: "Poses A")) else {
            Issue.record("an id with capitals and a space should be refused")
            return
        }
    }

    @Test func duplicateIDsEmptyGroupsAndBadFilesAreRefused() {
        #expect(loadError(good.replacingOccurrences(of: "poses.a", with: "hands.a")) == .duplicateID("hands.a"))
        #expect(loadError(good.replacingOccurrences(of: "\"group\": \"poses\"", with: "\"group\": \"hands\""))
            == .emptyGroup(.poses))
        #expect(throws: CatalogError.self) { try ActionCatalog.load(Data("{\"cards\": [".utf8)) }
        #expect(throws: CatalogError.badTopLevel(reason: "\"version\" must be 1")) {
            try ActionCatalog.load(Data("{\"version\": 2, \"cards\": []}".utf8))
        }
        let missing = URL(fileURLWithPath: "/nonexistent/actions.json")
        #expect(throws: CatalogError.self) { try ActionCatalog.load(from: missing) }
    }
}
