import CSystemd

/// The values a field takes across the open journal files.
extension JournalReader {
    /// Every value `field` has in any entry of the open files, each once (`sd_journal_query_unique`),
    /// e.g. `_MACHINE_ID` for the hosts of a folder of systemd-journal-remote's files. It reads the
    /// files' field indexes, not their entries, and ignores the matches.
    package func uniqueValues(of field: String) throws(SystemdError) -> [String] {
        _ = try sdCall("sd_journal_query_unique", on: field) { sd_journal_query_unique(journal, field) }
        var values: Set<String> = []
        sd_journal_restart_unique(journal)
        while true {
            var data: UnsafeRawPointer?
            var length = 0
            let result = try sdCall("sd_journal_enumerate_unique", on: source) {
                sd_journal_enumerate_unique(journal, &data, &length)
            }
            guard result > 0, let data else { break }
            let bytes = UnsafeRawBufferPointer(start: data, count: length)
            let value = bytes.firstIndex(of: UInt8(ascii: "=")).map { bytes[($0 + 1)...] } ?? bytes[...]
            values.insert(String(decoding: value, as: UTF8.self))
        }
        return values.sorted()
    }
}
