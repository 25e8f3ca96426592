#if canImport(Glibc)
import Glibc
#endif

public func planted(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self) // expect: String.init(validating:as:) needs macOS 15 / iOS 18
}

public func interpolated(_ bytes: [UInt8]) -> String {
    "text: \(String(validating: bytes, as: UTF8.self) ?? "")" // expect: String.init(validating:as:) needs macOS 15 / iOS 18
}

/// Swift 6.0 made `&*` a `FixedWidthInteger` requirement (macOS 15); the extension operator of the same
/// declaration serves macOS 13, so this is no use of the newer.
public func product(_ a: UInt64, _ b: UInt64) -> UInt64 {
    a &* b
}

public func checked(_ bytes: [UInt8]) -> String? {
    if #available(macOS 15, iOS 18, *) {
        return String(validating: bytes, as: UTF8.self)
    }
    return nil
}

public func guarded(_ bytes: [UInt8]) -> String? {
    guard #available(macOS 15.0, iOS 18.0, *) else { return nil }
    return String(validating: bytes, as: UTF8.self)
}

public func macOnly(_ bytes: [UInt8]) -> String? {
    if #available(macOS 15, *) {
        return String(validating: bytes, as: UTF8.self) // expect: String.init(validating:as:) needs iOS 18
    }
    return nil
}

public func tooEarly(_ bytes: [UInt8]) -> String? {
    if #available(macOS 14, iOS 17, *) {
        return String(validating: bytes, as: UTF8.self) // expect: String.init(validating:as:) needs macOS 15 / iOS 18
    }
    return nil
}

@available(macOS 15, iOS 18, *)
public func marked(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)
}

@available(macOS 15, iOS 18, *)
public struct Marked {
    public func member(_ bytes: [UInt8]) -> String? {
        String(validating: bytes, as: UTF8.self)
    }
}

#if os(Linux)
public func linuxOnly(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)
}
#elseif canImport(Darwin)
#else
public func elsewhere(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)
}
#endif

#if canImport(Glibc) || canImport(Musl)
public let glibcOnly = String(validating: [UInt8](), as: UTF8.self)
#endif

#if !os(Windows)
public let everywhere = String(validating: [UInt8](), as: UTF8.self) // expect: String.init(validating:as:) needs macOS 15 / iOS 18
#endif

public func looped(_ values: [Int]) async -> Int {
    // `for await` calls the newer `next(isolation:)` implicitly, where the deployment target has it.
    await withTaskGroup(of: Int.self) { group in
        for value in values { group.addTask { value } }
        var total = 0
        for await value in group { total += value }
        return total
    }
}
