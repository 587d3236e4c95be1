import RelaunchBus
package import RelaunchContract
import Systemd

/// The scene methods of org.relaunch.App1 (CONTRACT.md, Scenes), with failures as the contract's exit
/// codes: an unknown session is InvalidArgs (2, the message lists the open ones), an app that is not
/// scene-based NotSupported (1).
extension AppCLIClient {
    /// The open windows, in the order they were opened.
    package func scenes() throws(CLIError) -> [AppScene] { try run { () throws(BusError) in try client.scenes() } }

    /// Opens a window; returns its session identifier.
    package func openScene() throws(CLIError) -> String { try run { () throws(BusError) in try client.openScene() } }

    /// Closes the window of `session`.
    package func closeScene(_ session: String) throws(CLIError) {
        try run { () throws(BusError) in try client.closeScene(session) }
    }

    /// `tap` aimed at the window of `session`.
    package func tap(_ element: String, inScene session: String) throws(CLIError) {
        try run { () throws(BusError) in try client.tap(element, inScene: session) }
    }

    /// `type` aimed at the window of `session`.
    package func type(field: String, text: String, inScene session: String) throws(CLIError) {
        try run { () throws(BusError) in try client.type(field: field, text: text, inScene: session) }
    }

    /// The window of `session` drawn as text.
    package func screen(ofScene session: String) throws(CLIError) -> String {
        try run { () throws(BusError) in try client.screen(ofScene: session) }
    }

    /// What the window of `session` accepts.
    package func elements(ofScene session: String) throws(CLIError) -> [AppElement] {
        try run { () throws(BusError) in try client.elements(ofScene: session) }
    }

    /// The session of the `number`th open window (from 1), for scenario steps that name windows by
    /// their place (session identifiers are random).
    package func session(ofWindow number: Int) throws(CLIError) -> String {
        try Self.session(ofWindow: number, among: scenes(), app: target.app)
    }

    /// The session of the `number`th of `open` (from 1), or a failure saying how many are open.
    package static func session(ofWindow number: Int, among open: [AppScene], app: String) throws(CLIError) -> String {
        guard open.indices.contains(number - 1) else {
            throw CLIError(.failed, "\(app) has \(open.count) window\(open.count == 1 ? "" : "s") open, not \(number)")
        }
        return open[number - 1].session
    }
}
