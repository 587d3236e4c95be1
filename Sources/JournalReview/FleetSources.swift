/// Which journal files speak for which host: the files of each certificate name the host table pins
/// (bound), and the rest (unbound: this machine's own journal, an export, a host not pinned yet).
///
/// A bound host's entries count only when they claim its pinned machine id and hostname; an unbound
/// file's entries count only when they claim no pinned host. Either way the others are left out
/// and counted as ``JournalTrust/Reason/claimsAnotherHost``. Each bound host is reviewed from its own
/// files alone, so what permissiond's uid is on it is learned from them alone.
package struct FleetSources: Sendable, Equatable {
    /// One pinned host's files.
    package struct Bound: Sendable, Equatable {
        /// Its certificate name.
        package var name: String
        /// What its entries must claim.
        package var pin: FleetHostTable.Pin
        /// Its journal files, sorted.
        package var files: [String]
    }

    /// The pinned hosts that have files, by certificate name (then folder).
    package var bound: [Bound]
    /// Every other file, sorted.
    package var unbound: [String]
    /// Every machine id and hostname a table pins: an unbound file may claim none of them.
    package var pinnedMachineIDs: Set<String>
    package var pinnedHostnames: Set<String>

    /// Groups `files` by the tables of their folders: `tables[folder]` is the host table found in
    /// `folder` (none: every file there is unbound).
    package init(files: [String], tables: [String: FleetHostTable]) {
        var byKey: [String: Bound] = [:]
        var unbound: [String] = []
        for path in files {
            let (folder, name) = Self.split(path)
            if let table = tables[folder], let certificate = FleetHostTable.certificateName(ofFile: name),
               let pin = table.pins[certificate] {
                byKey[folder + "/" + certificate, default: Bound(name: certificate, pin: pin, files: [])].files.append(path)
            } else {
                unbound.append(path)
            }
        }
        bound = byKey.keys.sorted().map { key in
            var source = byKey[key]!
            source.files.sort()
            return source
        }
        self.unbound = unbound.sorted()
        pinnedMachineIDs = tables.values.reduce(into: []) { $0.formUnion($1.machineIDs) }
        pinnedHostnames = tables.values.reduce(into: []) { $0.formUnion($1.hostnames) }
    }

    /// Whether an unbound file's entry claims no pinned host, by its journald fields.
    package func unboundAdmits(machineID: String?, hostname: String?) -> Bool {
        !pinnedMachineIDs.contains(machineID ?? "") && !pinnedHostnames.contains(hostname ?? "")
    }

    /// The folder and the file name of `path` (folder "." for a bare name).
    package static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}
