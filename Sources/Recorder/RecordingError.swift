/// Why a recording could not be written. Nothing was written when this is thrown: the folders hold what
/// they held before.
public struct RecordingError: Error, CustomStringConvertible, Equatable {
    /// One line that names the folder or file and says what to do.
    public let description: String

    init(_ description: String) { self.description = description }
}
