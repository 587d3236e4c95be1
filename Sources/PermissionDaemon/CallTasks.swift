/// The work of the calls the bus thread handed over (who the caller is, polkit, then the writer),
/// each a child task of the one task group that ``run()`` owns: nothing runs unstructured, and at
/// shutdown ``finish()`` followed by awaiting ``run()`` waits for every call taken.
///
/// Unlike ``Writer``, calls run concurrently: a polkit prompt holds up its own caller only.
package final class CallTasks: Sendable {
    /// One call's work.
    package typealias Work = @Sendable () async -> Void

    private let works: AsyncStream<Work>
    private let input: AsyncStream<Work>.Continuation

    package init() {
        (works, input) = AsyncStream.makeStream(of: Work.self, bufferingPolicy: .unbounded)
    }

    /// Starts `work` as a child of ``run()``.
    ///
    /// - Returns: false when the calls are finished and `work` will never run.
    @discardableResult
    package func start(_ work: @escaping Work) -> Bool {
        if case .enqueued = input.yield(work) { return true }
        return false
    }

    /// Takes no more work; ``run()`` returns once the work taken has finished.
    package func finish() {
        input.finish()
    }

    /// Runs every work started, each in a child task, until ``finish()`` and the last one ended.
    package func run() async {
        await withDiscardingTaskGroup { group in
            for await work in works {
                group.addTask { await work() }
            }
        }
    }
}
