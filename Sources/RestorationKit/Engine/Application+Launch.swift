/// Launching (with restoration), preservation and the lifecycle.
extension Application {
    /// What happened to the archive handed to `launch(restoringFrom:)`.
    public enum RestorationOutcome: Hashable, Sendable {
        /// There was no archive.
        case none
        /// The app delegate's `shouldRestoreApplicationState` said no: `.buildMismatch` when the archive
        /// was written by another build (its `StateCoder.bundleVersionKey`), else `.declined`.
        case declined(DiscardReason)
        /// The archive was restored; the report lists only controllers that reached the window.
        case restored(RestorationReport)
    }

    /// Launches: will-finish, should-restore, restoration, finished-restoring, did-decode, did-finish,
    /// then the scenes of a scene-based app (see `SceneDelegate` for their order).
    ///
    /// Restoration is complete when this returns, unless something called `extendStateRestoration()`
    /// during it: then it completes with the last `completeStateRestoration()`
    /// (`whenStateRestorationCompletes(_:)` runs code then).
    ///
    /// The app delegate alone decides whether an archive of another build is restored, from the
    /// app-level keys in the coder (`StateCoder.bundleVersionKey` and the others), as in UIKit.
    ///
    /// - Parameter archive: The saved state to restore, already read by `LaunchPlanner`; nil for a fresh launch.
    /// - Returns: What became of the archive; the application is `active` afterwards.
    @discardableResult
    public func launch(restoringFrom archive: RestorationArchive?) -> RestorationOutcome {
        state = .launching
        delegate?.applicationWillFinishLaunching(self)
        var outcome = RestorationOutcome.none
        var restorer: Restorer?
        var restoring = false
        if let archive {
            let coder = StateCoder(storage: archive.applicationValues, application: self)
            if delegate?.application(self, shouldRestoreApplicationState: coder) == true {
                isRestoringState = true
                restoring = true
                pendingStateRestorations = 0
                // Run in place: copying the restorer would retain each of its tables once more.
                restorer = Restorer(application: self, archive: archive)
                restorer?.run()
                delegate?.application(self, didDecodeRestorableStateWith: coder)
            } else {
                let archivedBuild = coder.decodeString(forKey: StateCoder.bundleVersionKey) ?? archive.header.buildVersion
                outcome = .declined(archivedBuild == buildVersion ? .declined : .buildMismatch)
            }
        }
        delegate?.applicationDidFinishLaunching(self)
        // Only now is the hierarchy final: the delegate may still have set the window's root.
        if let report = restorer?.settle() { outcome = .restored(report) }
        // Then the scenes, each connected, restored and brought to the front (`Application+Scenes.swift`).
        let sceneNotes = connectScenes(from: archive, restoring: restoring)
        if case .restored(var report) = outcome, !sceneNotes.isEmpty {
            report.notes += sceneNotes
            outcome = .restored(report)
        }
        state = .active
        sceneLaunchFinished()
        if pendingStateRestorations == 0 { finishStateRestoration() }
        return outcome
    }

    /// Preserves the window's hierarchy, if the app delegate agrees.
    ///
    /// The application-level coder holds UIKit's keys (`StateCoder.bundleVersionKey`, `systemVersionKey`,
    /// `timestampKey`, `userInterfaceIdiomKey`) before the delegate is asked, so that the delegate sees
    /// them at restoration.
    ///
    /// - Parameters:
    ///   - generation: The archive's generation; give each preservation a larger one.
    ///   - timestamp: When, in microseconds since the Unix epoch.
    /// - Returns: The archive, or nil when `shouldSaveApplicationState` said no.
    /// - Throws: `PreservationError.duplicatePath` naming both controllers when two share a path.
    public func preserve(generation: UInt64, timestamp: UInt64) throws(PreservationError) -> RestorationArchive? {
        var coder = StateCoder(capacity: 4)
        coder.encode(buildVersion, forKey: StateCoder.bundleVersionKey)
        coder.encode(systemVersion, forKey: StateCoder.systemVersionKey)
        coder.encode(Double(timestamp) / 1_000_000, forKey: StateCoder.timestampKey)
        coder.encode(userInterfaceIdiom.rawValue, forKey: StateCoder.userInterfaceIdiomKey)
        guard delegate?.application(self, shouldSaveApplicationState: &coder) == true else { return nil }
        delegate?.application(self, willEncodeRestorableStateWith: &coder)
        let controllers = try Preserver.records(from: window.rootViewController, expected: lastPreservedCount)
        lastPreservedCount = controllers.count
        return RestorationArchive(
            header: ArchiveHeader(buildVersion: buildVersion, timestamp: timestamp, generation: generation),
            applicationValues: coder.storage,
            controllers: controllers,
            objects: try preservedObjects(),
            sceneSessions: archivedSceneSessions())
    }

    /// The registered objects whose path is known (they and their parents are preserved), parents first.
    private func preservedObjects() throws(PreservationError) -> [ArchivedObject] {
        var records: [ArchivedObject] = []
        for entry in registeredObjects {
            guard let object = entry.object, let path = restorationPath(ofObject: object) else { continue }
            if records.contains(where: { $0.path == path }) {
                throw .duplicatePath(path: path, firstClass: "a registered object", secondClass: String(reflecting: type(of: object)))
            }
            var coder = StateCoder()
            object.encodeRestorableState(with: &coder)
            records.append(ArchivedObject(
                path: path, restorationClassName: object.objectRestorationClass.map { TypeNameCache.name(of: $0) }, state: coder.values))
        }
        return records.sorted { $0.path.count < $1.path.count }
    }

    /// Moves to the background, with every connected scene (each asked for the activity to save with
    /// its session); the caller preserves state then, as UIKit does.
    public func enterBackground() {
        for scene in connectedScenes { sendToBackground(scene) }
        state = .background
    }

    /// Comes back to the foreground, with every connected scene.
    public func enterForeground() {
        state = .active
        for scene in connectedScenes { bringToFront(scene) }
    }
}
