package import RelaunchApp
package import RelaunchContract
package import RestorationKit

/// Banca, the currency converter of seed 000, as a library: the executable feeds it input, saved
/// state and its data, and does the I/O its effects ask for.
///
/// `MainNC` (the window's root, made at launch) holds the converter, which pushes the camera screen
/// and presents About in `AboutNC` and the currency list in `CurrenciesNC`. Not thread-safe: use it
/// from one task or actor.
package final class BancaApp {
    /// The running build; archives from another build are discarded.
    package let buildNumber: String
    /// The camera permission as the permission daemon last said (scanning a price needs it).
    package internal(set) var camera: PermissionState
    /// How the last instance ended, when it was killed for a permission change.
    package var lastExit: LastExit?
    /// The last launch's report, nil before `launch`.
    package var launchReport: LaunchReport? { session.launchReport }

    /// The session that launches, restores and preserves the app.
    package let session: RestorationSession
    let delegate: BancaAppDelegate
    var application: Application { session.application }

    /// An app for `buildNumber`, not launched yet.
    ///
    /// - Parameters:
    ///   - buildNumber: The running build (saved in every archive, compared at launch).
    ///   - camera: The camera permission at launch, from the permission daemon.
    ///   - currencies: The currencies it converts between.
    ///   - limits: Archive size limits.
    ///   - wallClock: The time in microseconds since the Unix epoch, for archive headers.
    ///   - uptime: A monotonic time since any fixed origin, to time launches and preservations.
    package init(
        buildNumber: String, camera: PermissionState, currencies: [Currency] = Currency.catalog,
        limits: ArchiveLimits = .default, wallClock: @escaping @Sendable () -> UInt64 = WallClock.microseconds,
        uptime: @escaping @Sendable () -> Duration = WallClock.uptime
    ) {
        self.buildNumber = buildNumber
        self.camera = camera
        delegate = BancaAppDelegate(buildNumber: buildNumber, currencies: currencies)
        var registry = RestorationRegistry()
        for restorationClass: any ViewControllerRestoration.Type in [
            AboutViewController.self, CurrenciesViewController.self, ScanViewController.self,
        ] {
            registry.register(restorationClass)
        }
        let application = Application(buildVersion: buildNumber, delegate: delegate, registry: registry)
        session = RestorationSession(application: application, limits: limits, wallClock: wallClock, uptime: uptime)
    }


    /// The two currencies (the data model).
    package var pair: CurrencyPair { delegate.pair }

    // MARK: The hierarchy, as the app knows it

    var mainNavigation: NavigationController? { application.window.rootViewController as? NavigationController }
    var converter: ConverterViewController? { mainNavigation?.viewControllers.first as? ConverterViewController }
    var scan: ScanViewController? { mainNavigation?.topViewController as? ScanViewController }
    var about: AboutViewController? { converter?.presentedNavigation?.viewControllers.first as? AboutViewController }
    var currencyList: CurrenciesViewController? {
        converter?.presentedNavigation?.viewControllers.first as? CurrenciesViewController
    }

    /// The currency on `side`; the catalog's first if the saved code is no longer in it.
    func currency(_ side: CurrencyPair.Side) -> Currency {
        delegate.currency(pair[side]) ?? delegate.currencies.first ?? Currency.catalog[0]
    }
}
