/// What one preservation kept: each copy of the saved state made, or why it was not.
///
/// The two copies fail apart: a read-only, full or failing state directory (EROFS, ENOSPC, EIO) stops
/// the file, a full fd store or a process not run by systemd stops the memfd. Each copy alone restores
/// after a kill, so a preservation counts as long as one was made. Pure, so what the host concludes and
/// logs is tested without a disk or a service manager.
struct PreservedCopies: Equatable, Sendable {
    /// One copy of the saved state; its raw value is what the journal's ARCHIVE_SOURCE and
    /// ARCHIVE_COPIES fields say.
    enum Copy: String, CaseIterable, Sendable {
        /// `restoration.archive` in the state directory.
        case file
        /// The sealed memfd in systemd's file descriptor store.
        case fdStore = "fdstore"

        /// Where this copy lives and what it survives, for log lines.
        var place: String {
            switch self {
            case .file: "the saved state file"
            case .fdStore: "the fd store's copy"
            }
        }
    }

    /// Why each copy that was not made failed, one line each; a copy not named here was made.
    private(set) var failures: [Copy: String] = [:]

    /// Records that `copy` could not be made, and why.
    mutating func failed(_ copy: Copy, because reason: String) {
        failures[copy] = reason
    }

    /// The copies made, file first.
    var kept: [Copy] { Copy.allCases.filter { failures[$0] == nil } }

    /// Whether any copy was made: a kill now restores what was preserved.
    var isPreserved: Bool { !kept.isEmpty }

    /// The journal's ARCHIVE_COPIES value: the copies made, comma-separated (`file,fdstore`), empty for none.
    var journalValue: String { kept.map(\.rawValue).joined(separator: ",") }

    /// One line per copy that failed while another was made, saying what still restores the state.
    var warnings: [(copy: Copy, message: String)] {
        guard isPreserved else { return [] }
        return Copy.allCases.compactMap { copy in
            guard failures[copy] != nil else { return nil }
            let others = kept.map(\.place).joined(separator: " and ")
            return (copy, "could not keep \(copy.place); \(others) will restore the state after a kill")
        }
    }

    /// The error line when no copy was made, else nil.
    var failure: String? {
        guard !isPreserved else { return nil }
        return "could not preserve the app's state in either copy; a relaunch will restore an older copy, if any, or start fresh"
    }
}
