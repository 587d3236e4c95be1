/// What a running app sees of one permission change under its profile.
public enum TransitionEffect: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// permissiond kills the running app; it relaunches and restores its state.
    case kill
    /// The app keeps running and learns the new state in place (iOS's delegate callbacks).
    case notified
    /// The app keeps running and is told nothing; it finds the new state when it next looks
    /// (Android's `checkSelfPermission`).
    case nothing

    public var description: String { rawValue }
}

/// What a state of one permission lets the app do. A change that takes any of it away is a revoke.
package struct PermissionAccess: OptionSet, Sendable, Hashable {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Camera, microphone: use it. Location: use it while the app is in use.
    package static let use = PermissionAccess(rawValue: 1 << 0)
    /// Photos, contacts, calendars: read everything.
    package static let readAll = PermissionAccess(rawValue: 1 << 1)
    /// Photos, contacts: read what the user selected.
    package static let readSelected = PermissionAccess(rawValue: 1 << 2)
    /// Photos: add to the library; calendars: add events.
    package static let write = PermissionAccess(rawValue: 1 << 3)
    /// Location: in the background too.
    package static let background = PermissionAccess(rawValue: 1 << 4)
    /// Location: precise, not approximate.
    package static let precise = PermissionAccess(rawValue: 1 << 5)
    /// Notifications: delivered to the notification centre.
    package static let deliver = PermissionAccess(rawValue: 1 << 6)
    /// Notifications: shown as alerts, sounds and badges.
    package static let alert = PermissionAccess(rawValue: 1 << 7)
    /// The grant lasts until the user changes it (not a one-time grant).
    package static let lasting = PermissionAccess(rawValue: 1 << 8)

    /// Everything: what a state the profile does not know is taken to grant (so leaving it is a
    /// revoke, the conservative reading).
    package static let everything = PermissionAccess(rawValue: .max)
}

/// One state a permission may take under a profile: its name, other names accepted for it, and
/// what it lets the app do.
package struct ProfileState: Sendable, Hashable {
    /// The state (its raw value is the name stored and answered).
    package var state: PermissionState
    /// Other words `Set` and relaunchctl accept for it (`full` for `allowed`, `never` for `denied`).
    package var aliases: [String]
    /// What it lets the app do.
    package var access: PermissionAccess

    package init(_ state: PermissionState, _ access: PermissionAccess, aliases: [String] = []) {
        self.state = state
        self.access = access
        self.aliases = aliases
    }
}

/// One permission under one profile: its states, and what a change does to a running app, with the
/// source of each rule (docs/PERMISSIONS.md is this table).
package struct PermissionRule: Sendable, Hashable {
    /// The permission.
    package var permission: Permission
    /// Its states, from least to most access.
    package var states: [ProfileState]
    /// A change that takes some access away.
    package var onRevoke: TransitionEffect
    /// Any other change (access only added, or none on either side).
    package var onGrant: TransitionEffect
    /// Where the rule comes from: the platform's documentation, or observed behaviour and where it
    /// was reported; "unknown" says the conservative rule was chosen.
    package var source: String

    /// The row of `state`, or nil when this permission does not take it under the profile.
    package func row(_ state: PermissionState) -> ProfileState? { states.first { $0.state == state } }

    /// What `state` lets the app do; a state the profile does not list counts as everything.
    package func access(_ state: PermissionState) -> PermissionAccess { row(state)?.access ?? .everything }

    /// The state a word names: a state's own name or one of its aliases.
    package func state(named word: String) -> PermissionState? {
        states.first { $0.state.rawValue == word || $0.aliases.contains(word) }?.state
    }

    /// The accepted words, in order, with aliases in parentheses: `denied (none), limited, …`.
    package var acceptedNames: String {
        states.map { row in
            row.aliases.isEmpty ? row.state.rawValue : "\(row.state.rawValue) (\(row.aliases.joined(separator: ", ")))"
        }.joined(separator: ", ")
    }
}

/// A platform's permission model as data: the permissions, the states each may take, and for every
/// transition whether a running app is killed, notified in place, or neither.
///
/// The two profiles are ``ios`` and ``android`` (PermissionProfile+Platforms.swift); an app's
/// registration chooses one (`Profile=`, or `KillPolicy=` as before).
package struct PermissionProfile: Sendable, Hashable {
    /// The profile's name, which is also the kill policy's.
    package var name: KillPolicy
    /// One rule per permission, in ``Permission`` order.
    package var rules: [PermissionRule]
    /// How long an app may stay in the background before its one-time grants expire; nil when the
    /// profile has none.
    package var oneTimeDelay: Duration?

    /// The rule for `permission`.
    package func rule(_ permission: Permission) -> PermissionRule {
        rules.first { $0.permission == permission }
            ?? PermissionRule(
                permission: permission, states: Self.basicStates, onRevoke: .kill, onGrant: .kill,
                source: "not in the profile: every change kills (conservative)")
    }

    /// What changing `permission` from `old` to `new` does to a running app.
    ///
    /// No change does nothing; a change that takes any access away is a revoke; any other is a
    /// grant. A state the profile does not list grants everything, so leaving it is a revoke.
    package func effect(of permission: Permission, from old: PermissionState, to new: PermissionState) -> TransitionEffect {
        guard old != new else { return .nothing }
        let rule = rule(permission)
        let lost = !rule.access(new).isSuperset(of: rule.access(old))
        return lost ? rule.onRevoke : rule.onGrant
    }

    /// The state `word` names for `permission` under this profile, or nil when it accepts no such word.
    package func state(named word: String, for permission: Permission) -> PermissionState? {
        rule(permission).state(named: word)
    }

    /// `not-determined`, `denied`, `allowed`: the states every permission takes under every profile.
    package static let basicStates: [ProfileState] = [
        ProfileState(.notDetermined, []),
        ProfileState(.denied, []),
        ProfileState(.allowed, [.use, .readAll, .readSelected, .write, .precise, .deliver, .alert, .lasting]),
    ]

    /// The state `word` names under some profile for some permission: a state's word, or another
    /// name of it (the other names mean the same state wherever they are accepted). Whether the
    /// app's profile accepts it for a permission is permissiond's to say.
    package static func state(named word: String) -> PermissionState? {
        PermissionState(rawValue: word)
            ?? [ios, android].lazy.flatMap(\.rules).compactMap { $0.state(named: word) }.first
    }

    /// Every word some profile accepts for some permission: the states, then their other names.
    package static let stateWords: [String] = {
        var words = PermissionState.allCases.map(\.rawValue)
        for rule in ios.rules + android.rules {
            for row in rule.states { words += row.aliases.filter { !words.contains($0) } }
        }
        return words
    }()

    /// ``stateWords``, comma-separated, for error messages.
    package static let acceptedWords = stateWords.joined(separator: ", ")

    /// The profile named `name`.
    package static func named(_ name: KillPolicy) -> PermissionProfile {
        switch name {
        case .ios: ios
        case .android: android
        }
    }
}
