import Glibc
import RestorationKit
import Testing

/// Releasing a long chain of controllers takes the same stack at any length: checked on a thread
/// whose stack is far too small for one frame per level.
@Suite("Releasing long chains")
struct ReleaseStackTests {
    /// Runs `body` (a C function: no captures) on a new thread with a 256 KiB stack and waits for it.
    private func onSmallStack(_ body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?) throws {
        var attributes = pthread_attr_t()
        try #require(pthread_attr_init(&attributes) == 0)
        defer { pthread_attr_destroy(&attributes) }
        try #require(pthread_attr_setstacksize(&attributes, 256 * 1024) == 0)
        var thread = pthread_t()
        try #require(pthread_create(&thread, &attributes, body, nil) == 0)
        #expect(pthread_join(thread, nil) == 0)
    }

    @Test("a chain of 20,000 presentations is released on a 256 KiB stack")
    func presentationChain() throws {
        try onSmallStack { _ in
            var root: ViewController? = ViewController()
            var top = root!
            for _ in 1..<20_000 {
                let next = ViewController()
                top.present(next, animated: false)
                top = next
            }
            root = nil
            return nil
        }
    }

    @Test("a chain of 20,000 single children is released on a 256 KiB stack")
    func childChain() throws {
        try onSmallStack { _ in
            var root: ViewController? = ViewController()
            var bottom = root!
            for _ in 1..<20_000 {
                let next = ViewController()
                bottom.addChild(next)
                bottom = next
            }
            root = nil
            return nil
        }
    }
}
