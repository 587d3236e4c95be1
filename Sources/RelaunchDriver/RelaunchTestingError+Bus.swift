package import RelaunchContract
package import Systemd

extension RelaunchTestingError {
    /// A bus failure of a call to `peer`, as the code a test branches on.
    package static func bus(_ error: BusError, talkingTo peer: String) -> RelaunchTestingError {
        if error.isAccessDenied {
            return .init(.notAuthorized, "\(peer) refused: \(error.message) (run the tests as root, or as a member of the group 'relaunch')")
        }
        if error.isUnreachable {
            return .init(.unreachable, "\(peer) is not reachable on the system bus: \(error.message)")
        }
        if error.name == BusError.invalidArgsName {
            return .init(.rejected, "\(peer) refused the request: \(error.message)")
        }
        return .init(.rejected, "\(peer): \(error.message)")
    }
}
