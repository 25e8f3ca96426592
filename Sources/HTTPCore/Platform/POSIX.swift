/// The server's system calls, wrapped once so that the rest of the server reads as Swift and never
/// imports a C library. The wrappers are portable POSIX; the few calls that differ between Glibc and
/// Darwin come from ``LibC`` (`LibC+Glibc.swift`, `LibC+Darwin.swift`, one file each), and the
/// readiness backends live in `IO/`.
public enum POSIX {}
