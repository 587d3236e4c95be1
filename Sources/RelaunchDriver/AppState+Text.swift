internal import FoundationEssentials
package import RelaunchContract

extension JSONValue {
    /// The JSON value `text` holds, or nil when it is not JSON.
    package init?(jsonText text: String) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { return nil }
        self = value
    }
}

extension AppState {
    /// Reads `State()`'s JSON text.
    /// - Throws: ``RelaunchTestingError/Code/unexpectedReply`` when it is not JSON, or naming the key
    ///   that is missing or wrong.
    package init(json text: String, app: String) throws(RelaunchTestingError) {
        let json: JSONValue
        do {
            json = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        } catch {
            throw RelaunchTestingError(.unexpectedReply, "\(app)'s state is not JSON: \(error)")
        }
        try self.init(json: json, app: app)
    }
}
