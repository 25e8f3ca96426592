import HTTPCore

/// Process-wide settings that the test runner, as the process embedding the servers, owns.
public enum TestProcess {
    /// macOS starts processes with a soft limit of 256 descriptors; the parallel tests need more, so the
    /// runner raises its own (the library never changes it).
    public static let descriptorLimit = POSIX.raiseDescriptorLimit()
}
