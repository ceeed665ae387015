import Foundation

/// The pages a phone sees before it is paired. Opening the pairing address (a GET, from
/// the QR code or typed) only shows a form; the phone is paired when the person presses
/// its button (a POST from the rig's own page), so a link elsewhere pairs nothing.
enum PairingPage {
    static func form(code: String, suggestedName: String) -> HTTPResponse {
        page(200, """
            <h1>Pair with the rig</h1>
            <form method="post" action="/pair">
            <input type="hidden" name="code" value="\(escaped(code))">
            <p><label>This phone's name, as the rig will list it<br>
            <input name="name" maxlength="40" value="\(escaped(suggestedName))"></label></p>
            <p><button type="submit" id="pair">Pair this phone</button></p>
            </form>
            <p>The rig's operator can revoke it any time (Settings on the rig).</p>
            """)
    }

    static var expired: HTTPResponse { page(401, """
        <h1>This pairing code has ended</h1>
        <p>A pairing code works once and for five minutes. On the rig, open Settings and
        press <b>Pair a phone</b> for a new one.</p>
        """) }

    static var notPaired: HTTPResponse { page(401, """
        <h1>Not paired</h1>
        <p>On the rig, open Settings and press <b>Pair a phone</b>, then open the address it shows.</p>
        """) }

    /// A first name for the phone from its browser's User-Agent; the person can change it.
    static func deviceGuess(_ userAgent: String?) -> String {
        let agent = userAgent ?? ""
        for (needle, name) in [("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android phone"),
                               ("Macintosh", "Mac"), ("Windows", "Windows PC"), ("Linux", "Linux computer")]
        where agent.contains(needle) { return name }
        return "Phone"
    }

    private static func page(_ status: Int, _ body: String) -> HTTPResponse {
        let html = """
            <!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width">
            <title>rig: pairing</title><body style="font-family:sans-serif;max-width:30em;margin:1em auto;padding:0 1em">
            \(body)

            """
        return .body(status: status, contentType: "text/html; charset=utf-8", data: Data(html.utf8),
                     headers: [("Referrer-Policy", "same-origin")])
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
