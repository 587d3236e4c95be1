package import RelaunchctlCore
import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// The files the runner writes and deletes as root: systemd drop-ins, and what is in an app's
/// state folder (never through a link the app's user put there: `AppStateFolder`).
extension ScenarioRunner {
    /// The unit's (first) StateDirectory=, as systemd says it (see
    /// ``stateDirectory(of:directories:dynamicUser:)``).
    func stateDirectory() throws(CLIError) -> String {
        let (directories, dynamicUser) = try systemd { manager throws(BusError) in
            (try manager.propertyText(target.unit, "StateDirectory"), try manager.propertyText(target.unit, "DynamicUser"))
        }
        return try Self.stateDirectory(of: target.unit, directories: directories, dynamicUser: dynamicUser)
    }

    /// The unit's (first) StateDirectory=, where the host library keeps the archive and `app.data`,
    /// from the unit's `StateDirectory` and `DynamicUser` properties as systemd prints them.
    ///
    /// With DynamicUser=, /var/lib/APP is systemd's link to /var/lib/private/APP: the real folder is
    /// named, since the runner follows no link into an app's folder.
    ///
    /// - Throws: `CLIError.failed` when the unit has no StateDirectory=.
    package static func stateDirectory(of unit: String, directories: String, dynamicUser: String) throws(CLIError) -> String {
        guard let first = directories.split(separator: " ").first else {
            throw .failed("\(unit) has no StateDirectory=, so it keeps no archive the runner can find")
        }
        return dynamicUser == "yes" ? "/var/lib/private/\(first)" : "/var/lib/\(first)"
    }

    /// Deletes the app's saved state in its state `folder`: the archive, the data model
    /// (`app.data`) and an unreadable one set aside; links are deleted, never followed. A folder
    /// that does not exist holds nothing to delete.
    ///
    /// - Throws: `CLIError.failed` when the folder's path has a link, or a file cannot be deleted.
    package static func removeSavedState(inFolder folder: String) throws(CLIError) {
        guard !isMissing(folder) else { return }
        let stateFolder = try AppStateFolder(folder)
        for name in ["restoration.archive", "app.data", "app.data.unreadable"] { try stateFolder.remove(name) }
    }

    /// Whether nothing is at `path` (anything there, a link too, is for `AppStateFolder` to judge).
    private static func isMissing(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) != 0 else { return false }
        return errno == ENOENT
    }

    /// `corrupt-archive` needs the app stopped (`mainPID` "0"): then no copy of the archive lives in
    /// systemd's fd store, and the app cannot write it meanwhile.
    ///
    /// - Throws: `CLIError.usage` while the app runs.
    package static func checkStopped(mainPID: String) throws(CLIError) {
        guard mainPID == "0" else { throw .usage("corrupt-archive needs the app stopped (stop-app first)") }
    }

    /// Flips the bits of the middle byte of `restoration.archive` in `folder`, as root may: never
    /// through a symbolic link in the folder's path or the file's place (the app's user controls both).
    ///
    /// - Throws: `CLIError.failed` when the archive is a link, hard-linked, not a regular file, too
    ///   short, or cannot be read or written.
    package static func corruptArchive(inFolder folder: String) throws(CLIError) {
        let stateFolder = try AppStateFolder(folder)
        try stateFolder.withFileForUpdate("restoration.archive") { (fd) throws(CLIError) in
            let archivePath = "\(folder)/restoration.archive"
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw .failed("cannot stat \(archivePath): \(errnoText())") }
            let size = Int(info.st_size)
            guard size > 16 else { throw .failed("\(archivePath) holds only \(size) bytes") }
            var byte: UInt8 = 0
            guard pread(fd, &byte, 1, off_t(size / 2)) == 1 else { throw .failed("cannot read \(archivePath): \(errnoText())") }
            byte ^= 0x5a
            guard pwrite(fd, &byte, 1, off_t(size / 2)) == 1 else { throw .failed("cannot write \(archivePath): \(errnoText())") }
        }
    }

    /// A `[Service]` section with one quoted `Environment=` line a variable, sorted by name.
    package static func environmentDropInText(_ variables: [String: String]) -> String {
        let lines = variables.sorted { $0.key < $1.key }.map { name, value in
            let quoted = value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("%", with: "%%")
            return "Environment=\"\(name)=\(quoted)\"\n"
        }
        return "[Service]\n" + lines.joined()
    }
}

/// Writes a systemd drop-in, creating its folder (and the folders above it).
///
/// - Throws: `CLIError.failed` naming the folder that cannot be created or the file that cannot
///   be written.
package func writeDropIn(_ path: String, _ text: String) throws(CLIError) {
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    var built = ""
    for part in folder.split(separator: "/") {
        built += "/" + part
        if mkdir(built, 0o755) != 0 && errno != EEXIST { throw .failed("cannot create \(built): \(errnoText())") }
    }
    guard let file = fopen(path, "w") else { throw .failed("cannot write \(path): \(errnoText())") }
    fputs(text, file)
    fclose(file)
}
