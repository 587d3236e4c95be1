// The storyboard text format (Sources/Colorboard/Storyboard/Colorboard.storyboard), as an app reads
// the file it ships: read, then the initial scene and every scene instantiated and every segue of
// each performed.
// fuzz-build: RestorationKit
// fuzz-link: RestorationKit
import RestorationKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let storyboard = try? Storyboard(text: text) else { return 0 }
    _ = storyboard.instantiateInitialViewController()
    for (identifier, scene) in storyboard.scenes.sorted(by: { $0.key < $1.key }) {
        guard let source = storyboard.instantiateViewController(withIdentifier: identifier) else { continue }
        for segue in scene.segues.keys.sorted() {
            _ = storyboard.performSegue(segue, from: source, sender: nil, animated: false)
        }
    }
    return 0
}
