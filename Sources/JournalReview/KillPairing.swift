import RelaunchContract

/// Pairs each of permissiond's kill entries with the change it carried out: the latest change of the
/// same app on the same machine not paired yet, taking entries in time order. The change then knows the killed unit before
/// systemd's entries about the dying process, which may reach the journal before permissiond's own.
struct KillPairing {
    private struct Key: Hashable {
        var machine: String
        var app: String
    }

    /// The position of the latest unpaired change of each app on each machine.
    private var changeOfApp: [Key: Int] = [:]

    /// Notes a change (`isChange`) or a kill of `app` on `machine` at `position` in time order; for a
    /// kill, returns the position of the change it pairs with, if any.
    mutating func add(isChange: Bool, machine: String, app: String, at position: Int) -> Int? {
        let key = Key(machine: machine, app: app)
        if isChange {
            changeOfApp[key] = position
            return nil
        }
        return changeOfApp.removeValue(forKey: key)
    }

    /// Notes `record` at `position` in time order; for a kill entry, returns the position of the change
    /// it pairs with and the unit it names.
    mutating func add(_ record: JournalRecord, at position: Int) -> (change: Int, unit: String)? {
        switch record.messageID {
        case MessageID.permissionChanged.rawValue:
            _ = add(isChange: true, machine: record.machineID, app: record["APP_ID"], at: position)
            return nil
        case MessageID.appKilled.rawValue:
            return add(isChange: false, machine: record.machineID, app: record["APP_ID"], at: position).map { ($0, record["UNIT"]) }
        default:
            return nil
        }
    }
}
