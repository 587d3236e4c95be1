internal import Logging
internal import RelaunchContract
internal import Systemd

extension Logger {
    /// Logs one of the contract's journal events: `MESSAGE_ID` and its fields (CONTRACT.md "Journal").
    ///
    /// Field names are passed through as given; they must already be valid journal field names.
    func event<Fields: Sequence<(key: String, value: String)>>(
        _ id: MessageID, _ message: String, _ fields: Fields,
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        var metadata: Logger.Metadata = [JournalLogHandler.messageIDKey: .string(id.rawValue)]
        for (name, value) in fields { metadata[name] = .string(value) }
        notice("\(message)", metadata: metadata, file: file, function: function, line: line)
    }
}
