/// The keys that keep the incidents of one host apart from another's.
extension TimelineBuilder {
    /// An app on one machine: the key of open incidents.
    struct AppOnMachine: Hashable {
        var machine: String
        var app: String
    }

    /// Where an entry was written: its machine and boot, as journald recorded them.
    struct Host: Hashable {
        var machine: String
        var boot: String

        init(_ record: JournalRecord) {
            machine = record.machineID
            boot = record.bootID
        }
    }
}
