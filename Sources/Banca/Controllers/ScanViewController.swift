internal import RestorationKit

/// The camera screen, pushed on `MainNC` to scan a price; it comes back by its restoration class. It
/// shows the camera when the camera is allowed, else that access is denied: what it shows follows the
/// permission, so it saves nothing.
final class ScanViewController: ViewController, ViewControllerRestoration {
    /// The price the demo's camera reads.
    static let scannedPrice = "24.90"

    override init() {
        super.init()
        restorationIdentifier = RestorationID.scan
        restorationClass = ScanViewController.self
        title = "Scan"
    }

    static func viewController(withRestorationIdentifierPath identifierComponents: [String], coder: StateCoder) -> ViewController? {
        ScanViewController()
    }
}
