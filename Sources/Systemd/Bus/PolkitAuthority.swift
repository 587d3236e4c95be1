/// A client of polkit's authority (`org.freedesktop.PolicyKit1.Authority.CheckAuthorization`), the
/// way systemd's own daemons authorize a bus caller: the subject is the caller's unique bus name.
package struct PolkitAuthority: Sendable {
    /// polkit's answer for one caller and action.
    package struct Answer: Sendable, Hashable {
        /// The caller may do it.
        package var isAuthorized: Bool
        /// The caller could, after authenticating (not authorized yet).
        package var isChallenge: Bool
    }

    /// The link the checks go through.
    package let link: BusLink
    /// How long a check that may prompt waits (``interactiveTimeout`` unless a test says otherwise).
    let promptBound: Duration

    /// Asks over `link`.
    package init(link: BusLink) {
        self.init(link: link, promptBound: Self.interactiveTimeout)
    }

    init(link: BusLink, promptBound: Duration) {
        self.link = link
        self.promptBound = promptBound
    }

    /// How long a check may wait when polkit may ask the user to authenticate: as long as sd-bus
    /// waits for any reply (25 s), after which the caller has given up anyway.
    package static let interactiveTimeout: Duration = .seconds(25)
    /// How long a check may wait otherwise.
    package static let timeout: Duration = .seconds(5)

    /// Whether the bus client `busName` may do `action`.
    ///
    /// The check suspends without holding the link's connection: an authentication prompt that
    /// nobody answers delays this caller alone.
    /// - Parameters:
    ///   - interactive: let polkit ask the user to authenticate (only when the caller's message
    ///     allowed interactive authorization); the call then waits up to ``interactiveTimeout``.
    /// - Throws: ``BusError`` when polkit cannot be asked or did not answer in time.
    package func check(action: String, busName: String, interactive: Bool) async throws(BusError) -> Answer {
        let subject = BusValue.structure([
            .string("system-bus-name"),
            .array(elementSignature: "{sv}", [.dictEntry(.string("name"), .variant(.string(busName)))]),
        ])
        let bound = interactive ? promptBound : Self.timeout
        let reply: BusValues
        do throws(BusError) {
            reply = try await link.callAsync(
                destination: "org.freedesktop.PolicyKit1", path: "/org/freedesktop/PolicyKit1/Authority",
                interface: "org.freedesktop.PolicyKit1.Authority", member: "CheckAuthorization",
                arguments: [subject, .string(action), .array(elementSignature: "{ss}", []), .uint32(interactive ? 1 : 0), .string("")],
                timeout: bound, interactive: interactive)
        } catch where error.name == BusError.noReplyName {
            throw BusError(
                name: error.name,
                message: interactive
                    ? "polkit did not answer within \(bound) (an authentication prompt that nobody answered?)"
                    : "polkit did not answer within \(bound)")
        }
        let result = try reply.structure(at: 0)
        return Answer(isAuthorized: try result.bool(at: 0), isChallenge: try result.bool(at: 1))
    }
}
