import Glibc
import RestorationKit
import Testing

/// Releasing a long chain of controllers takes the same stack at any length: checked on a thread
/// whose stack is far too small for one frame per level.
@Suite("Releasing long chains")
struct ReleaseStackTests {
    /// Makes a chain of 20,000 controllers (single children when `argument` is non-nil, else
    /// presentations) and releases it; a C function, run on the small stack.
    private static let chain: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { argument in
        var root: ViewController? = ViewController()
        var last = root!
        for _ in 1..<20_000 {
            let next = ViewController()
            if argument != nil { last.addChild(next) } else { last.present(next, animated: false) }
            last = next
        }
        root = nil
        return nil
    }

    @Test("a chain of 20,000 presentations or single children is released on a 256 KiB stack", arguments: [false, true])
    func releaseChain(ofChildren children: Bool) throws {
        var attributes = pthread_attr_t()
        try #require(pthread_attr_init(&attributes) == 0)
        defer { pthread_attr_destroy(&attributes) }
        try #require(pthread_attr_setstacksize(&attributes, 256 * 1024) == 0)
        var thread = pthread_t()
        try #require(pthread_create(&thread, &attributes, Self.chain, children ? UnsafeMutableRawPointer(bitPattern: 1) : nil) == 0)
        #expect(pthread_join(thread, nil) == 0)
    }
}
