import JournalReview
import RelaunchContract
import RelaunchctlCore
import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// The review of a fleet receiver's folder whose host table pins its hosts (``FleetHostTable``):
/// each pinned host is read from its own files alone, with only the entries that claim its pinned
/// machine id and hostname; the other files as ``JournalSource/incidents(place:sinceUSec:hosts:begin:_:)``
/// reads a folder, without the entries that claim a pinned host. The entries left out for claiming
/// another host are counted (``JournalTrust/Reason/claimsAnotherHost``).
extension JournalSource {
    /// One host of the review: a pinned host's files, or a machine of the unbound files.
    private struct Member {
        var hostname: String
        var machine: String
        /// The pinned host's certificate name and files; nil for a machine of the unbound files.
        var bound: FleetSources.Bound?
    }

    /// The fleet's sources of `place`, or nil when no folder of it has a host table (the review then
    /// reads it as before: exports, this machine's journal, a receiver not yet upgraded).
    /// - Throws: a one-line ``CLIError`` for a host table that cannot be read.
    static func fleetSources(of place: JournalPlace) throws(CLIError) -> FleetSources? {
        let files: [String]
        switch place {
        case .live: return nil
        case .directory(let path):
            guard access(path + "/" + FleetHostTable.fileName, F_OK) == 0 else { return nil }
            files = journalFiles(in: path)
        case .files(let paths): files = paths
        case .merge: files = JournalPlace.mergedFiles()
        }
        var tables: [String: FleetHostTable] = [:]
        for folder in Set(files.map { FleetSources.split($0).folder }) {
            let path = folder + "/" + FleetHostTable.fileName
            guard access(path, F_OK) == 0 else { continue }
            tables[folder] = try hostTable(at: path)
        }
        return tables.isEmpty ? nil : FleetSources(files: files, tables: tables)
    }

    /// The incidents of `sources`, as ``incidents(place:sinceUSec:hosts:begin:_:)`` gives them.
    static func fleetIncidents(
        _ sources: FleetSources, place: JournalPlace, sinceUSec: UInt64?, hosts: [String],
        begin: (Hosts) -> Void, _ take: (Incident) -> Void
    ) throws(CLIError) -> [JournalTrust.Reason: Int] {
        do {
            let unbound = sources.unbound.isEmpty ? nil : try JournalReader(files: sources.unbound, source: place.name)
            var picker = JournalFieldPicker(TimelineStream.fieldNames)
            let trust = trust(place: place)
            var ignored: [JournalTrust.Reason: Int] = [:]

            // The pinned hosts named (all when none is), and the names left for the unbound files.
            var left = hosts
            let named = sources.bound.filter { source in
                let match = hosts.filter { [source.name, source.pin.hostname, source.pin.machineID].contains($0) }
                left.removeAll { match.contains($0) }
                return hosts.isEmpty || !match.isEmpty
            }
            var members: [Member] = []
            for source in named {
                let reader = try JournalReader(files: source.files, source: source.files[0])
                ignored[.claimsAnotherHost, default: 0] += try claims(in: reader, sinceUSec: sinceUSec) {
                    !source.pin.admits(machineID: $0, hostname: $1)
                }
                try select(TimelineReport.messageIDs, and: own(source.pin), sinceUSec: nil, in: reader)
                if try reader.next() {
                    members.append(Member(hostname: source.pin.hostname, machine: source.pin.machineID, bound: source))
                }
            }
            if let unbound, hosts.isEmpty || !left.isEmpty {
                ignored[.claimsAnotherHost, default: 0] += try claims(in: unbound, sinceUSec: sinceUSec) {
                    !sources.unboundAdmits(machineID: $0, hostname: $1)
                }
                let all = try unbound.uniqueValues(of: "_MACHINE_ID").filter { !sources.pinnedMachineIDs.contains($0) }
                for machine in try machines(forHosts: left, all: all, in: unbound, place: place)
                where !sources.pinnedMachineIDs.contains(machine) {
                    try select(TimelineReport.messageIDs, and: [[("_MACHINE_ID", machine)]], sinceUSec: nil, in: unbound)
                    if try unbound.next(), let hostname = try unbound.field("_HOSTNAME") ?? Optional(""),
                       sources.unboundAdmits(machineID: machine, hostname: hostname) {
                        members.append(Member(hostname: hostname, machine: machine, bound: nil))
                    }
                }
            } else if !left.isEmpty {
                let listed = Set(sources.bound.map(\.pin.hostname)).sorted()
                throw CLIError(.failed, "no host \(Echo.quoted(left[0])) in \(place.name) (\(listed.count) "
                    + "\(listed.count == 1 ? "host" : "hosts"): \(listed.prefix(5).joined(separator: ", "))\(listed.count > 5 ? ", …" : ""))")
            }
            members.sort { ($0.hostname, $0.machine, $0.bound?.name ?? "") < ($1.hostname, $1.machine, $1.bound?.name ?? "") }
            begin(Hosts(machines: members.map(\.machine),
                        hostnames: Dictionary(members.map { ($0.machine, $0.hostname) }, uniquingKeysWith: { first, _ in first })))

            for member in members {
                let counts: [JournalTrust.Reason: Int]
                if let source = member.bound {
                    // A reader of this host's files alone: what it learns of permissiond's uid is theirs.
                    let reader = try JournalReader(files: source.files, source: source.files[0])
                    counts = try readHost(reader, own: own(source.pin), trust: trust, sinceUSec: sinceUSec, picker: &picker,
                                          inTimeOrder: true, admit: { source.pin.admits(machineID: $0.value(of: .machineID), hostname: $0.hostname) }, take)
                } else if let unbound {
                    counts = try readHost(unbound, own: [[("_MACHINE_ID", member.machine)]], trust: trust, sinceUSec: sinceUSec,
                                          picker: &picker, inTimeOrder: true, admit: {
                                              $0.value(of: .machineID) == member.machine
                                                  && sources.unboundAdmits(machineID: member.machine, hostname: $0.hostname)
                                          }, take)
                } else {
                    counts = [:]
                }
                ignored.merge(counts, uniquingKeysWith: +)
            }
            return ignored.filter { $0.value > 0 }
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError(.failed, "cannot read \(place.name): \(error)")
        }
    }

    /// The matches of a pinned host's entries: its machine id and its hostname.
    private static func own(_ pin: FleetHostTable.Pin) -> [[(String, String)]] {
        [[("_MACHINE_ID", pin.machineID)], [("_HOSTNAME", pin.hostname)]]
    }

    /// How many of the timeline's entries in `reader` (from `sinceUSec` on) `claimsOther` says claim
    /// another host, by their `_MACHINE_ID` and `_HOSTNAME`. When the files' indexes show no value
    /// that could, no entry is read.
    private static func claims(
        in reader: JournalReader, sinceUSec: UInt64?, _ claimsOther: (String?, String?) -> Bool
    ) throws(SystemdError) -> Int {
        let machines = try reader.uniqueValues(of: "_MACHINE_ID")
        let hostnames = try reader.uniqueValues(of: "_HOSTNAME")
        guard machines.contains(where: { machine in hostnames.contains { claimsOther(machine, $0) } }) else { return 0 }
        var count = 0
        try select(TimelineReport.messageIDs, and: [], sinceUSec: sinceUSec, in: reader)
        while try next(reader, sinceUSec: sinceUSec) != nil {
            if claimsOther(try reader.field("_MACHINE_ID"), try reader.field("_HOSTNAME")) { count += 1 }
        }
        return count
    }

    /// The journal files `sd_journal_open_directory` reads in `path`: its own and those of its
    /// subfolders named by a machine id.
    private static func journalFiles(in path: String) -> [String] {
        var files: [String] = []
        for name in JournalPlace.folderNames(path) {
            if JournalPlace.isJournalFile(name) {
                files.append(path + "/" + name)
            } else if name.utf8.count == 32, name.utf8.allSatisfy({ isxdigit(Int32($0)) != 0 }) {
                files += JournalPlace.folderNames(path + "/" + name).filter(JournalPlace.isJournalFile).map { path + "/" + name + "/" + $0 }
            }
        }
        return files.sorted()
    }

    /// The host table at `path`.
    /// - Throws: a one-line ``CLIError`` naming the file and what is wrong with it.
    private static func hostTable(at path: String) throws(CLIError) -> FleetHostTable {
        let limit = 4 << 20
        guard let file = fopen(path, "r") else {
            throw CLIError(.failed, "cannot read the host table \(path) (errno \(errno)); it must be readable, or absent")
        }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        let count = fread(&bytes, 1, bytes.count, file)
        guard count <= limit else { throw CLIError(.failed, "the host table \(path) is larger than \(limit >> 20) MiB") }
        do {
            return try FleetHostTable(parsing: String(decoding: bytes[..<count], as: UTF8.self))
        } catch {
            throw CLIError(.failed, "the host table \(path): \(error); fix the line (docs/FLEET.md)")
        }
    }
}

extension JournalSource.PickedEntry {
    /// The entry's `_HOSTNAME` (not a field ``JournalTrust`` judges by, but one a pin does).
    var hostname: String? {
        picker.value(of: Self.hostnamePosition)
    }

    private static let hostnamePosition = TimelineStream.fieldNames.firstIndex(of: "_HOSTNAME")!
}
