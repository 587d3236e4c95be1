#if canImport(Glibc)
import Glibc
#endif

// The one conversion point: raw results → SystemdError.

/// Runs an `sd_*` call that returns `-errno` on failure; returns its non-negative result.
@inline(__always)
func sdCall(
    _ operation: String, on target: String? = nil, _ body: () -> Int32
) throws(SystemdError) -> Int32 {
    let result = body()
    if result < 0 {
        throw SystemdError(code: .init(rawValue: -result), operation: operation, target: target)
    }
    return result
}

/// Runs a system call that returns `-1` and sets `errno` on failure, retrying on `EINTR`.
@inline(__always)
func sysCall<R: BinaryInteger>(
    _ operation: String, on target: String? = nil, _ body: () -> R
) throws(SystemdError) -> R {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = errno
        if code == EINTR { continue }
        throw SystemdError(code: .init(rawValue: code), operation: operation, target: target)
    }
}

/// The value of an environment variable, or nil when unset or empty.
func environmentValue(_ name: String) -> String? {
    guard let raw = getenv(name) else { return nil }
    let value = String(cString: raw)
    return value.isEmpty ? nil : value
}
