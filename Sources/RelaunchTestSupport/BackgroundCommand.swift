import Dispatch
import Foundation
import Synchronization

/// A command run on a thread of its own while the check goes on, for a check that acts while the
/// command waits for it (a scenario that waits for a file the check plants, say); `wait` collects it.
/// The thread is not one of the cooperative pool's, so a long command starves no task.
public final class BackgroundCommand: Sendable {
    public let argv: [String]
    private let outcome = Mutex<Result<CommandResult, any Error>?>(nil)
    private let ended = DispatchSemaphore(value: 0)

    /// Starts `argv` as `Command.run` would (by PATH, as `user`, killed after `timeout`).
    public init(_ argv: [String], as user: RunAs? = nil, timeout: Duration = .seconds(120)) {
        self.argv = argv
        let thread = Thread { [self] in
            let result = Result { try Command.run(argv, as: user, timeout: timeout) }
            outcome.withLock { $0 = result }
            ended.signal()
        }
        thread.start()
    }

    /// The command's result once it has exited; throws `CheckFailure` when it is still running after
    /// `timeout`, and what `Command.run` threw (it could not start, or outlived its own bound).
    public func wait(timeout: Duration = .seconds(120)) throws -> CommandResult {
        guard ended.wait(timeout: .now() + timeout.timeInterval) == .success else {
            throw CheckFailure("'\(argv.joined(separator: " "))' still running after \(timeout)")
        }
        ended.signal()  // a later wait returns at once
        return try outcome.withLock { $0! }.get()
    }
}
