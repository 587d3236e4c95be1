import RelaunchContract

/// The syntax of an app id, shared by the registrations and the service (see `AppIDSyntax`).
enum AppID {
    /// The accepted form, in words and as a pattern, for error messages.
    static var acceptedForm: String { AppIDSyntax.acceptedForm }

    /// Whether `id` is a syntactically valid app id (`[a-z0-9][a-z0-9._-]{0,63}`).
    static func isValid(_ id: String) -> Bool { AppIDSyntax.isValid(id) }
}
