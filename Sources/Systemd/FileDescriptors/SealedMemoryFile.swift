import CSystemd

#if canImport(Glibc)
import Glibc
#endif

/// Sealed in-memory files (memfd): a way to hand bytes to systemd's file descriptor store.
///
/// A sealed memfd can no longer be written, grown or shrunk, so whoever receives it reads exactly the
/// bytes that were put in.
package enum SealedMemoryFile {
    /// The seals a memfd can carry (`F_SEAL_*`).
    package struct Seals: OptionSet, Sendable, Hashable {
        /// The `F_SEAL_*` bits.
        package var rawValue: CInt
        /// Wraps `F_SEAL_*` bits.
        package init(rawValue: CInt) { self.rawValue = rawValue }

        /// `F_SEAL_SEAL`: no more seals can be added.
        package static let seal = Seals(rawValue: CSYSTEMD_F_SEAL_SEAL)
        /// `F_SEAL_SHRINK`: the file cannot shrink.
        package static let shrink = Seals(rawValue: CSYSTEMD_F_SEAL_SHRINK)
        /// `F_SEAL_GROW`: the file cannot grow.
        package static let grow = Seals(rawValue: CSYSTEMD_F_SEAL_GROW)
        /// `F_SEAL_WRITE`: the contents cannot change.
        package static let write = Seals(rawValue: CSYSTEMD_F_SEAL_WRITE)
        /// Every seal: the file is immutable.
        package static let all: Seals = [.seal, .shrink, .grow, .write]
    }

    /// Creates a close-on-exec memfd named `name` holding `bytes`, sealed against every change.
    ///
    /// - Returns: The new descriptor; the caller owns it (close it after handing it on).
    /// - Throws: ``SystemdError`` naming the step that failed.
    package static func create(name: String, bytes: some Collection<UInt8>) throws(SystemdError) -> CInt {
        let fd = try sysCall("memfd_create", on: name) {
            csystemd_memfd_create(name, CSYSTEMD_MFD_CLOEXEC | CSYSTEMD_MFD_ALLOW_SEALING)
        }
        do throws(SystemdError) {
            var remaining = Array(bytes)[...]
            while !remaining.isEmpty {
                let written = try sysCall("write", on: name) {
                    remaining.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                }
                remaining = remaining.dropFirst(written)
            }
            _ = try sysCall("fcntl(F_ADD_SEALS)", on: name) {
                csystemd_fcntl_int(fd, CSYSTEMD_F_ADD_SEALS, Seals.all.rawValue)
            }
            return fd
        } catch {
            close(fd)
            throw error
        }
    }

    /// The seals currently on `fd`.
    package static func seals(of fd: CInt) throws(SystemdError) -> Seals {
        let bits = try sysCall("fcntl(F_GET_SEALS)", on: "fd \(fd)") {
            csystemd_fcntl_int(fd, CSYSTEMD_F_GET_SEALS, 0)
        }
        return Seals(rawValue: bits)
    }

    /// Reads the bytes of the file behind `fd` from offset 0 (`pread`; the file offset is untouched),
    /// at most `limit` of them.
    ///
    /// - Parameter limit: Reading stops there, whatever the file's size: pass one byte more than the
    ///   most you accept, so that an oversized file is seen as such without being read whole.
    package static func readAll(from fd: CInt, limit: Int = .max) throws(SystemdError) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while result.count < limit {
            let offset = off_t(result.count)
            let wanted = min(chunk.count, limit - result.count)
            let count = try sysCall("pread", on: "fd \(fd)") {
                chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, wanted, offset) }
            }
            if count == 0 { break }
            result.append(contentsOf: chunk[0..<count])
        }
        return result
    }
}
