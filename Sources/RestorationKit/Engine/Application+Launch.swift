/// Launching (with restoration), preservation and the lifecycle.
extension Application {
    /// What happened to the archive handed to `launch(restoringFrom:)`.
    public enum RestorationOutcome: Equatable, Sendable {
        /// There was no archive.
        case none
        /// The app delegate's `shouldRestoreApplicationState` said no.
        case declined
        /// The archive was restored.
        case restored(RestorationReport)
    }

    /// Launches: will-finish, should-restore, restoration, finished-restoring, did-decode, did-finish.
    ///
    /// - Parameter archive: The saved state to restore, already checked by `LaunchPlanner`; nil for a fresh launch.
    /// - Returns: What became of the archive; the application is `active` afterwards.
    @discardableResult
    public func launch(restoringFrom archive: RestorationArchive?) -> RestorationOutcome {
        state = .launching
        delegate?.applicationWillFinishLaunching(self)
        var outcome = RestorationOutcome.none
        if let archive {
            let coder = StateCoder(values: archive.applicationState, application: self)
            if delegate?.application(self, shouldRestoreApplicationState: coder) == true {
                var restorer = Restorer(application: self, archive: archive)
                outcome = .restored(restorer.run())
                delegate?.application(self, didDecodeRestorableStateWith: coder)
            } else {
                outcome = .declined
            }
        }
        delegate?.applicationDidFinishLaunching(self)
        state = .active
        return outcome
    }

    /// Preserves the window's hierarchy, if the app delegate agrees.
    ///
    /// - Parameters:
    ///   - generation: The archive's generation; give each preservation a larger one.
    ///   - timestamp: When, in microseconds since the Unix epoch.
    /// - Returns: The archive, or nil when `shouldSaveApplicationState` said no.
    /// - Throws: `PreservationError.duplicatePath` naming both controllers when two share a path.
    public func preserve(generation: UInt64, timestamp: UInt64) throws(PreservationError) -> RestorationArchive? {
        var coder = StateCoder()
        coder.encode(buildVersion, forKey: StateCoder.buildVersionKey)
        guard delegate?.application(self, shouldSaveApplicationState: &coder) == true else { return nil }
        delegate?.application(self, willEncodeRestorableStateWith: &coder)
        let controllers = try Preserver.records(from: window.rootViewController)
        return RestorationArchive(
            header: ArchiveHeader(buildVersion: buildVersion, timestamp: timestamp, generation: generation),
            applicationState: coder.values,
            controllers: controllers)
    }

    /// Moves to the background (the caller preserves state then, as UIKit does).
    public func enterBackground() { state = .background }

    /// Comes back to the foreground.
    public func enterForeground() { state = .active }
}
