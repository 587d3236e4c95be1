/// A check's failure, said in one line: what was expected and what was seen.
public struct CheckFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
