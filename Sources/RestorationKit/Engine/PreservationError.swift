/// Why the hierarchy could not be preserved: a `code` to switch on, the details, and a description
/// that says what to do.
///
/// A struct over a private enum, as swift-service-lifecycle's `ServiceGroupError`.
public struct PreservationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Value: String, Hashable, Sendable { case duplicatePath, archive, declinedByDelegate }
        fileprivate let value: Value

        /// Two controllers have the same restoration path.
        public static let duplicatePath = Code(value: .duplicatePath)
        /// The archive could not be encoded (over the hard size limit).
        public static let archive = Code(value: .archive)
        /// The app delegate's `shouldSaveApplicationState` returned false.
        public static let declinedByDelegate = Code(value: .declinedByDelegate)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    private enum Detail: Hashable, Sendable {
        case duplicatePath(path: [String], firstClass: String, secondClass: String)
        case archive(ArchiveError)
        case declinedByDelegate
    }

    private let detail: Detail

    private init(_ detail: Detail) { self.detail = detail }

    /// Two controllers, of `firstClass` and `secondClass`, have the restoration path `path`.
    public static func duplicatePath(path: [String], firstClass: String, secondClass: String) -> PreservationError {
        .init(.duplicatePath(path: path, firstClass: firstClass, secondClass: secondClass))
    }
    /// Encoding the archive failed with `error`.
    public static func archive(_ error: ArchiveError) -> PreservationError { .init(.archive(error)) }
    /// The app delegate's `shouldSaveApplicationState` returned false.
    public static let declinedByDelegate = PreservationError(.declinedByDelegate)

    /// The kind of failure.
    public var code: Code {
        switch detail {
        case .duplicatePath: .duplicatePath
        case .archive: .archive
        case .declinedByDelegate: .declinedByDelegate
        }
    }

    /// The shared path, for `duplicatePath`.
    public var path: [String]? {
        if case .duplicatePath(let path, _, _) = detail { return path }
        return nil
    }

    /// The classes of the two controllers that share a path, for `duplicatePath`.
    public var classes: (first: String, second: String)? {
        if case .duplicatePath(_, let first, let second) = detail { return (first, second) }
        return nil
    }

    /// The archive's error, for `archive`.
    public var archiveError: ArchiveError? {
        if case .archive(let error) = detail { return error }
        return nil
    }

    /// What went wrong and what to do, in one line.
    public var description: String {
        switch detail {
        case .duplicatePath(let path, let first, let second):
            "cannot preserve state: \(first) and \(second) both have the restoration path "
                + "'\(path.joined(separator: "/"))'; give one of them another restorationIdentifier"
        case .archive(let error):
            "cannot preserve state: \(error)"
        case .declinedByDelegate:
            "state was not preserved: the app delegate's shouldSaveApplicationState returned false"
        }
    }
}
