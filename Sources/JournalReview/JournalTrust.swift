package import RelaunchContract

/// Which journal entries the timeline believes, judged only by the fields journald adds itself
/// (CONTRACT.md, "What the timeline trusts").
///
/// Anyone can write an entry with any MESSAGE_ID and any fields they name (`logger --journald`), but
/// not the fields starting with `_`: journald sets those from the sender's credentials and cgroup.
/// - permissiond's entries (permission changed, app killed) count only from `_SYSTEMD_UNIT=`
///   ``permissiondUnit`` with `_UID` permissiond's user (``PermissiondUser``).
/// - An app's entries count only from a unit registered for an app: the sender's `_SYSTEMD_UNIT`
///   (never a `UNIT=` it wrote) names the unit, and the unit names the app.
/// - systemd's unit entries count only with `_PID=1` and `_UID=0`.
///
/// Every other entry with one of these MESSAGE_IDs is left out and counted by ``Reason``; systemd's
/// MESSAGE_IDs without `UNIT=` (a user manager's, about `USER_UNIT=`) are not about system units and
/// are left out without counting.
///
/// Judging is in two steps: ``learn(_:)`` sees permissiond's entries of the whole journal first (the
/// timeline's first pass), then ``judge(_:)`` is the same for an entry whichever pass asks.
package struct JournalTrust: Sendable {
    /// The unit permissiond runs as (systemd/permissiond.service).
    package static let permissiondUnit = "permissiond.service"
    /// The system user permissiond runs as (systemd/sysusers.d/relaunch.conf).
    package static let permissiondUserName = "relaunch-permissiond"
    /// The executable name (`_COMM`) of permissiond's daemon process.
    package static let permissiondCommand = "permissiond"

    /// Whose `_UID` permissiond's entries must show.
    package enum PermissiondUser: Sendable, Hashable {
        /// This uid: permissiond's user in the passwd database of the machine the journal is of.
        case uid(UInt32)
        /// No user is permissiond's (its name does not resolve): none of its entries count.
        case unknown
        /// For journals of other machines, whose passwd database is not here (sysusers.d allocates
        /// the uid on each machine): per `_MACHINE_ID`, the `_UID` of the first entry in journal
        /// order from ``JournalTrust/permissiondUnit`` written by the daemon itself
        /// (`_COMM=permissiond`, not a helper of the unit such as `ExecReload=`'s kill) that most of
        /// those entries show; of uids shown equally often, the first met. So one entry (a forged
        /// one dated 1970, first in journal order) cannot make the daemon's genuine entries
        /// untrusted. A fleet review learns it for each host from that host's own files alone
        /// (``FleetSources``): no other host's file has a say.
        case shownByItsEntries
    }

    /// Why an entry was left out.
    package enum Reason: String, Sendable, Hashable, CaseIterable, Comparable {
        /// A permission or kill entry from another unit than permissiond's.
        case permissionNotFromPermissiond = "permission-entry-not-from-permissiond"
        /// A permission or kill entry from permissiond's unit but another user.
        case permissionNotFromPermissiondUser = "permission-entry-not-from-permissiond-user"
        /// An app entry from a unit no app is registered with.
        case appNotFromRegisteredUnit = "app-entry-not-from-registered-unit"
        /// A systemd unit entry (with `UNIT=`) not written by PID 1 as root.
        case unitNotFromPID1 = "unit-entry-not-from-pid-1"
        /// An entry of a fleet host's files that claims another machine id or hostname than the host
        /// table pinned for it, or an entry of an unpinned file that claims a pinned host
        /// (``FleetSources``).
        case claimsAnotherHost = "entry-claiming-another-host"

        /// `2 permission entries not from permissiond.service`, as the text summary says it.
        package func phrase(count: Int) -> String {
            if self == .claimsAnotherHost { return "\(count) \(count == 1 ? "entry" : "entries") claiming another host" }
            let (kind, fault) = switch self {
            case .permissionNotFromPermissiond: ("permission", "not from \(JournalTrust.permissiondUnit)")
            case .permissionNotFromPermissiondUser: ("permission", "not from permissiond's user")
            case .appNotFromRegisteredUnit: ("app", "not from the app's registered unit")
            case .unitNotFromPID1: ("unit", "not from PID 1")
            case .claimsAnotherHost: ("", "")
            }
            return "\(count) \(kind) \(count == 1 ? "entry" : "entries") \(fault)"
        }

        /// In the order of the cases, as the summary lists them.
        package static func < (lhs: Reason, rhs: Reason) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// What the timeline does with an entry.
    package enum Verdict: Sendable, Hashable {
        /// A Relaunch or systemd unit entry of this kind from where its kind says: the timeline reads it.
        case counts(Kind)
        /// It looks like one but is not from where its kind says: left out and counted.
        case ignored(Reason)
        /// Not an entry the timeline reads (another MESSAGE_ID, or a user manager's): left out.
        case unrelated
    }

    /// The kinds of entry by who may write them.
    package enum Kind: Sendable, Hashable {
        /// permissiond's: permission changed, app killed.
        case permissiond
        /// An app's: launched, lifecycle, preserved, restored, restoration finished, discarded.
        case app
        /// systemd's (PID 1's) about a unit.
        case manager
    }

    /// The fields judging reads.
    package enum Field: String, Sendable, CaseIterable {
        /// `MESSAGE_ID`: which rule applies.
        case messageID = "MESSAGE_ID"
        /// `UNIT=`: the unit systemd's entry is about (the sender's claim elsewhere).
        case unit = "UNIT"
        /// `APP_ID=`: the app permissiond's entry is about.
        case appID = "APP_ID"
        /// The sender's unit, from its cgroup (journald's).
        case systemdUnit = "_SYSTEMD_UNIT"
        /// The sender's uid, from its socket credentials (journald's).
        case uid = "_UID"
        /// The sender's pid, from its socket credentials (journald's).
        case pid = "_PID"
        /// The sender's executable name (journald's).
        case command = "_COMM"
        /// The machine the entry was written on (journald's).
        case machineID = "_MACHINE_ID"
    }

    private let permissiondUser: PermissiondUser
    /// ``PermissiondUser/uid(_:)``'s uid as the journal writes it.
    private let fixedUID: String?
    /// The app of each registered unit.
    private var appOfUnit: [String: String]
    /// permissiond's uid on each machine, as most of its entries show (``PermissiondUser/shownByItsEntries``).
    private var shownUID: [String: String] = [:]
    /// How many of permissiond's entries on each machine show each uid.
    private var uidCounts: [String: [String: Int]] = [:]

    /// Rules for a journal whose permissiond runs as `permissiondUser`, with the apps of `registry`.
    package init(permissiondUser: PermissiondUser = .shownByItsEntries, registry: AppRegistry = AppRegistry()) {
        self.permissiondUser = permissiondUser
        if case .uid(let uid) = permissiondUser { fixedUID = String(uid) } else { fixedUID = nil }
        var appOfUnit: [String: String] = [:]
        for id in registry.ids {
            if let unit = registry[id]?.unit, appOfUnit[unit] == nil { appOfUnit[unit] = id }
        }
        self.appOfUnit = appOfUnit
    }

    /// The kind of `entry` by its MESSAGE_ID, or nil when the timeline does not read it.
    package static func kind(of entry: some JournalTrustFields) -> Kind? {
        if daemonIDs.contains(where: { entry.has(.messageID, equalTo: $0) }) { return .permissiond }
        if managerIDs.contains(where: { entry.has(.messageID, equalTo: $0) }) { return .manager }
        if appIDs.contains(where: { entry.has(.messageID, equalTo: $0) }) { return .app }
        return nil
    }

    private static let daemonIDs = [MessageID.permissionChanged.rawValue, MessageID.appKilled.rawValue]
    private static let managerIDs = ManagerMessageID.allCases.map(\.rawValue)
    private static let appIDs = MessageID.allCases.map(\.rawValue).filter { !daemonIDs.contains($0) }

    /// Notes what one of permissiond's entries shows about its user; call it for all of them, in
    /// journal order, before ``judge(_:)``.
    package mutating func learn(_ entry: some JournalTrustFields) {
        guard permissiondUser == .shownByItsEntries,
              entry.has(.systemdUnit, equalTo: Self.permissiondUnit),
              entry.has(.command, equalTo: Self.permissiondCommand),
              let uid = entry.value(of: .uid), !uid.isEmpty
        else { return }
        let machine = entry.value(of: .machineID) ?? ""
        let count = uidCounts[machine, default: [:]][uid, default: 0] + 1
        uidCounts[machine, default: [:]][uid] = count
        if let leader = shownUID[machine], leader != uid, uidCounts[machine]![leader]! >= count { return }
        shownUID[machine] = uid
    }

    /// Notes the unit a counted kill entry names as its app's: permissiond kills only registered
    /// units, so it tells the registration of the machine the journal is of, which may not be here.
    package mutating func learnKilledUnit(_ unit: String, app: String) {
        guard !unit.isEmpty, !app.isEmpty, appOfUnit[unit] == nil else { return }
        appOfUnit[unit] = app
    }

    /// The app whose registered unit is `unit`, if any.
    package func app(ofUnit unit: String) -> String? {
        appOfUnit[unit]
    }

    /// Whether the timeline reads `entry`, by its trusted fields.
    package func judge(_ entry: some JournalTrustFields) -> Verdict {
        switch Self.kind(of: entry) {
        case .permissiond:
            guard entry.has(.systemdUnit, equalTo: Self.permissiondUnit) else {
                return .ignored(.permissionNotFromPermissiond)
            }
            let uid: String? = switch permissiondUser {
            case .uid: fixedUID
            case .unknown: nil
            case .shownByItsEntries: shownUID[entry.value(of: .machineID) ?? ""]
            }
            guard let uid, entry.has(.uid, equalTo: uid) else { return .ignored(.permissionNotFromPermissiondUser) }
            return .counts(.permissiond)
        case .app:
            guard let unit = entry.value(of: .systemdUnit), appOfUnit[unit] != nil else {
                return .ignored(.appNotFromRegisteredUnit)
            }
            return .counts(.app)
        case .manager:
            guard entry.contains(.unit) else { return .unrelated }
            guard entry.has(.pid, equalTo: "1"), entry.has(.uid, equalTo: "0") else { return .ignored(.unitNotFromPID1) }
            return .counts(.manager)
        case nil:
            return .unrelated
        }
    }

    /// The unit a counted entry is about: `UNIT=` for systemd's, the sender's `_SYSTEMD_UNIT` for an
    /// app's (never a `UNIT=` the app wrote).
    package static func unit(of entry: some JournalTrustFields, kind: Kind) -> String? {
        switch kind {
        case .manager: entry.value(of: .unit)
        case .app: entry.value(of: .systemdUnit)
        case .permissiond: nil
        }
    }
}

/// Read access to the fields ``JournalTrust`` judges by: a ``JournalRecord``'s, or those a journal
/// reader picked out of the current entry.
package protocol JournalTrustFields {
    /// The value of `field`, if the entry has it.
    func value(of field: JournalTrust.Field) -> String?
    /// Whether the entry has `field` with exactly `value`.
    func has(_ field: JournalTrust.Field, equalTo value: String) -> Bool
    /// Whether the entry has `field`, whatever its value.
    func contains(_ field: JournalTrust.Field) -> Bool
}

extension JournalTrustFields {
    /// Whether the entry has `field` with exactly `value`, by ``value(of:)``; a reader that can
    /// compare without making the value's String gives its own.
    package func has(_ field: JournalTrust.Field, equalTo value: String) -> Bool {
        self.value(of: field) == value
    }

    /// Whether the entry has `field`, by ``value(of:)``.
    package func contains(_ field: JournalTrust.Field) -> Bool {
        value(of: field) != nil
    }
}

extension JournalRecord: JournalTrustFields {
    /// The record's value of `field`, if any.
    package func value(of field: JournalTrust.Field) -> String? {
        fields[field.rawValue]
    }
}
