extension PermissionProfile {
    /// The profile as docs/PERMISSIONS.md prints it: one row per permission (its states, the
    /// effect of a revoke and of any other change, the source), then every transition of each
    /// permission as a matrix. RelaunchContractTests checks that the document holds this text.
    package var markdown: String {
        var lines = [
            "### Profile `\(name)`", "",
            "| permission | states (other names) | a revoke | any other change | source |",
            "|---|---|---|---|---|",
        ]
        for rule in rules {
            lines.append(
                "| `\(rule.permission)` | \(rule.acceptedNames) | \(rule.onRevoke) | \(rule.onGrant) | \(rule.source) |")
        }
        if let delay = oneTimeDelay {
            lines += ["", "One-time grants (`allowed-once`) expire after \(delay.components.seconds) s in the background."]
        }
        for rule in rules {
            let states = rule.states.map(\.state)
            lines += [
                "", "`\(name)` `\(rule.permission)`: from (row) to (column)", "",
                "| from \\ to | " + states.map(\.rawValue).joined(separator: " | ") + " |",
                "|---|" + String(repeating: "---|", count: states.count),
            ]
            for old in states {
                let cells = states.map { new in old == new ? "·" : effect(of: rule.permission, from: old, to: new).rawValue }
                lines.append("| \(old) | " + cells.joined(separator: " | ") + " |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
