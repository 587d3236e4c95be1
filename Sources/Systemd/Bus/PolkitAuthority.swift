/// A client of polkit's authority (`org.freedesktop.PolicyKit1.Authority.CheckAuthorization`), the
/// way systemd's own daemons authorize a bus caller: the subject is the caller's unique bus name.
public struct PolkitAuthority: Sendable {
    /// polkit's answer for one caller and action.
    public struct Answer: Sendable, Hashable {
        /// The caller may do it.
        public var isAuthorized: Bool
        /// The caller could, after authenticating (not authorized yet).
        public var isChallenge: Bool
    }

    /// The link the checks go through.
    public let link: BusLink

    /// Asks over `link`.
    public init(link: BusLink) {
        self.link = link
    }

    /// Whether the bus client `busName` may do `action`.
    ///
    /// - Parameters:
    ///   - interactive: let polkit ask the user to authenticate (only when the caller's message
    ///     allowed interactive authorization); the call then waits up to two minutes.
    /// - Throws: ``BusError`` when polkit cannot be asked.
    public func check(action: String, busName: String, interactive: Bool) throws(BusError) -> Answer {
        let subject = BusValue.structure([
            .string("system-bus-name"),
            .array(elementSignature: "{sv}", [.dictEntry(.string("name"), .variant(.string(busName)))]),
        ])
        let reply = try link.call(
            destination: "org.freedesktop.PolicyKit1", path: "/org/freedesktop/PolicyKit1/Authority",
            interface: "org.freedesktop.PolicyKit1.Authority", member: "CheckAuthorization",
            arguments: [subject, .string(action), .array(elementSignature: "{ss}", []), .uint32(interactive ? 1 : 0), .string("")],
            timeout: interactive ? .seconds(120) : .seconds(5))
        let result = try reply.structure(at: 0)
        return Answer(isAuthorized: try result.bool(at: 0), isChallenge: try result.bool(at: 1))
    }
}
