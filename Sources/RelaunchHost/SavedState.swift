internal import Logging
internal import RestorationKit
internal import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// The two copies of the restoration archive: `restoration.archive` in the state directory and a sealed
/// memfd in systemd's file descriptor store (`FDNAME=restoration-archive`), which outlives a SIGKILL.
struct SavedState: Sendable {
    /// The archive's file name; scripts rely on it.
    static let fileName = "restoration.archive"
    /// The fd store name of the memfd copy.
    static let fileDescriptorName = "restoration-archive"

    /// The file copy.
    let file: ArchiveFile
    /// Talks to systemd (fd store).
    let notifier: ServiceNotifier
    let logger: Logger
    /// The standby, which is handed every archive memfd systemd's fd store is handed (nil: none).
    let standby: StandbyKeeper?
    /// The descriptors systemd passed at launch (`LISTEN_FDS`), taken once.
    private let passedDescriptors: @Sendable () throws(SystemdError) -> [ListenedFileDescriptor]

    /// - Parameter passedDescriptors: systemd's `LISTEN_FDS`, unless a test passes descriptors itself.
    init(
        directory: String, notifier: ServiceNotifier, logger: Logger, standby: StandbyKeeper? = nil,
        passedDescriptors: @escaping @Sendable () throws(SystemdError) -> [ListenedFileDescriptor] = { () throws(SystemdError) in
            try ListenFileDescriptors.take()
        }
    ) {
        file = ArchiveFile(directory: directory, fileName: Self.fileName)
        self.notifier = notifier
        self.logger = logger
        self.standby = standby
        self.passedDescriptors = passedDescriptors
    }

    /// Every copy found at launch, as candidates for the launch planner; unreadable copies are logged.
    ///
    /// The memfds passed in `LISTEN_FDS` are read and closed: the store keeps its own reference.
    func candidates() -> [ArchiveCandidate] {
        var candidates: [ArchiveCandidate] = []
        do {
            if let bytes = try file.read() { candidates.append(ArchiveCandidate(source: PreservedCopies.Copy.file.rawValue, bytes: bytes)) }
        } catch {
            logger.warning("could not read the saved state file; launching without it", metadata: ["ERROR": "\(error)"])
        }
        let passed: [ListenedFileDescriptor]
        do {
            passed = try passedDescriptors()
        } catch {
            logger.warning("could not read the descriptors systemd passed (LISTEN_FDS)", metadata: ["ERROR": "\(error)"])
            return candidates
        }
        for descriptor in passed {
            defer { close(descriptor.fd) }
            guard descriptor.name == Self.fileDescriptorName else {
                logger.notice("ignoring a passed descriptor of another name", metadata: ["FDNAME": "\(descriptor.name)"])
                continue
            }
            do {
                // The file's limit: one byte over it is enough for the planner to refuse it as too-large.
                let bytes = try SealedMemoryFile.readAll(from: descriptor.fd, limit: ArchiveLimits.default.hard + 1)
                // The fd store still holds it: so does a standby spawned later.
                standby?.preserved(descriptor.fd)
                candidates.append(ArchiveCandidate(source: PreservedCopies.Copy.fdStore.rawValue, bytes: bytes))
            } catch {
                logger.warning("could not read the fd store's saved state", metadata: ["ERROR": "\(error)"])
            }
        }
        return candidates
    }

    /// Writes both copies, each whatever became of the other: a new sealed memfd replacing the stored
    /// one, then the file atomically.
    ///
    /// The memfd goes first: it takes microseconds where the file takes an fsync, so a kill during
    /// the fsync (or a write stuck on a failing disk) still finds this preservation in the fd store.
    /// - Returns: Which copies were made and why the others were not (``PreservedCopies``).
    func store(_ bytes: [UInt8]) -> PreservedCopies {
        var copies = PreservedCopies()
        do {
            let fd = try SealedMemoryFile.create(name: Self.fileDescriptorName, bytes: bytes)
            defer { close(fd) }
            // At most one copy is kept: FDSTOREREMOVE drops every fd of the name, then the new one goes in.
            try notifier.removeStoredFileDescriptors(named: Self.fileDescriptorName)
            if try !notifier.storeFileDescriptor(fd, name: Self.fileDescriptorName) {
                copies.failed(.fdStore, because: "not run by systemd (no NOTIFY_SOCKET), so there is no fd store")
            }
            standby?.preserved(fd)
        } catch {
            copies.failed(.fdStore, because: "\(error)")
        }
        do {
            try file.write(bytes)
        } catch {
            copies.failed(.file, because: "\(error)")
        }
        return copies
    }

    /// Deletes both copies; failures are logged (the next launch would discard the copy again).
    func remove() {
        standby?.discarded()
        do {
            try file.remove()
        } catch {
            logger.error("could not delete the saved state file", metadata: ["ERROR": "\(error)"])
        }
        do {
            try notifier.removeStoredFileDescriptors(named: Self.fileDescriptorName)
        } catch {
            logger.error("could not drop the saved state from the fd store", metadata: ["ERROR": "\(error)"])
        }
    }
}
