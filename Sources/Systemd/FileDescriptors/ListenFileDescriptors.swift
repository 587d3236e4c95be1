import CSystemd

#if canImport(Glibc)
import Glibc
#endif

/// A file descriptor passed in by systemd (socket activation or the file descriptor store).
package struct ListenedFileDescriptor: Sendable, Hashable {
    /// The descriptor number in this process (3 and up).
    package var fd: CInt
    /// Its name from `LISTEN_FDNAMES` (`FDNAME=` when stored, `FileDescriptorName=` for sockets).
    package var name: String

    /// Pairs a descriptor with its name.
    package init(fd: CInt, name: String) {
        self.fd = fd
        self.name = name
    }
}

/// The descriptors systemd passed to this process via `LISTEN_FDS`/`LISTEN_FDNAMES`/`LISTEN_PID`.
package enum ListenFileDescriptors {
    /// Returns the passed descriptors with their names, or `[]` when none were passed to this process.
    ///
    /// libsystemd checks that `LISTEN_PID` names this process and marks the descriptors close-on-exec.
    /// - Parameter unsetEnvironment: Also remove the `LISTEN_*` variables (not thread-safe; off by default).
    /// - Throws: ``SystemdError`` if the variables are malformed.
    package static func take(unsetEnvironment: Bool = false) throws(SystemdError) -> [ListenedFileDescriptor] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = try sdCall("sd_listen_fds_with_names", on: "LISTEN_FDS") {
            sd_listen_fds_with_names(unsetEnvironment ? 1 : 0, &names)
        }
        defer {
            if let names {
                for index in 0..<Int(count) { free(names[index]) }
                free(names)
            }
        }
        return (0..<Int(count)).map { index in
            let name = names?[index].map { String(cString: $0) } ?? "unknown"
            return ListenedFileDescriptor(fd: SD_LISTEN_FDS_START + CInt(index), name: name)
        }
    }

    /// The first passed descriptor named `name`, if any.
    package static func first(named name: String) throws(SystemdError) -> ListenedFileDescriptor? {
        try take().first { $0.name == name }
    }
}
