// The contract model needs only Foundation's essentials (JSON coding, Data, FileManager);
// importing them alone keeps the mock server small and quick to start.
#if canImport(FoundationEssentials)
@_exported import FoundationEssentials
#else
@_exported import Foundation
#endif
