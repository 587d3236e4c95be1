import Foundation
@testable import RelaunchHost
import RelaunchTestSupport
import Testing

@Suite("The app's data model on disk")
struct AppDataTests {
    @Test("nothing saved reads as nil; a save reads back byte for byte and replaces the last")
    func roundTrip() throws {
        try TemporaryDirectory.with(prefix: "appdata") { directory in
            let data = AppData(directory: directory)
            #expect(try data.read() == nil)
            try data.write(Array("first".utf8))
            try data.write(Array("second".utf8))
            #expect(try data.read() == Array("second".utf8))
        }
    }

    @Test("unreadable bytes are kept aside, not deleted, and the next launch finds no data")
    func setAside() throws {
        try TemporaryDirectory.with(prefix: "appdata") { directory in
            let data = AppData(directory: directory)
            try data.write([0xFF, 0x00, 0x7B])
            try data.setAside([0xFF, 0x00, 0x7B])
            #expect(try data.read() == nil)
            let kept = FileManager.default.contents(atPath: directory + "/" + AppData.unreadableFileName)
            #expect(kept.map(Array.init) == [0xFF, 0x00, 0x7B])
        }
    }

    @Test("the data file is not one of the saved state's files, so discarding saved state keeps it")
    func apartFromTheArchive() {
        #expect(AppData.fileName != SavedState.fileName)
        #expect(AppData.fileName != InvocationRecord.fileName)
    }
}
