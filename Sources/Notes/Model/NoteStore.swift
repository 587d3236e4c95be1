internal import FoundationEssentials

/// One note: a title and a body of plain text.
package struct Note: Equatable, Sendable, Codable {
    /// The note's identifier (`note-1`, `note-2`, …): what a window's saved activity names.
    package var id: String
    /// The title; empty until the user types one.
    package var title: String
    /// The text.
    package var body: String

    /// A note.
    package init(id: String, title: String = "", body: String = "") {
        self.id = id
        self.title = title
        self.body = body
    }

    /// The title, or `Untitled` while it has none.
    package var displayTitle: String { title.isEmpty ? "Untitled" : title }
}

/// The app's notes, kept like a notes app's database: in the app's data (`AppEffect.saveData`,
/// `$STATE_DIRECTORY/app.data`), never in the restoration archive. A window's activity names the
/// note it shows; the text comes from here, so a force quit or another build keeps every note.
package final class NoteStore {
    /// The notes, in the order they were made.
    package private(set) var notes: [Note] = []
    /// The number the next note's identifier takes.
    private var nextNumber = 1

    /// An empty store.
    package init() {}

    /// The note `id`, or nil.
    package func note(_ id: String) -> Note? { notes.first { $0.id == id } }

    /// Makes an empty note and returns it.
    @discardableResult
    package func makeNote() -> Note {
        let note = Note(id: "note-\(nextNumber)")
        nextNumber += 1
        notes.append(note)
        return note
    }

    /// Replaces the note with the same identifier; a note the store does not have is ignored.
    package func update(_ note: Note) {
        guard let index = notes.firstIndex(where: { $0.id == note.id }) else { return }
        notes[index] = note
    }

    /// The saved form (JSON).
    package var bytes: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let saved = Saved(nextNumber: nextNumber, notes: notes)
        return (try? encoder.encode(saved)).map { Array($0) } ?? []
    }

    /// Takes the saved form back.
    /// - Throws: `NoteStoreError` when the bytes are not a saved store.
    package func load(_ bytes: [UInt8]) throws(NoteStoreError) {
        let saved: Saved
        do {
            saved = try JSONDecoder().decode(Saved.self, from: Data(bytes))
        } catch {
            throw NoteStoreError(message: "\(error)")
        }
        guard Set(saved.notes.map(\.id)).count == saved.notes.count else {
            throw NoteStoreError(message: "two notes share an identifier")
        }
        notes = saved.notes
        nextNumber = max(saved.nextNumber, saved.notes.count + 1)
    }

    private struct Saved: Codable {
        var nextNumber: Int
        var notes: [Note]
    }
}

/// Saved notes that cannot be read.
package struct NoteStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    package var message: String
    /// `the saved notes cannot be read: message`.
    package var description: String { "the saved notes cannot be read: \(message)" }
}
