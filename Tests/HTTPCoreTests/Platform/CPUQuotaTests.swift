@testable import HTTPCore
import Testing

/// Loop threads follow what the process may use; a cgroup quota caps it below the affinity mask.
struct CPUQuotaTests {
    @Test(arguments: [
        ("max 100000", nil), ("100000 100000", 1), ("150000 100000", 2), ("400000 100000\n", 4),
        ("50000 100000", 1), ("garbage", nil), ("", nil),
    ] as [(String, Int?)])
    func cgroupV2CPUMax_IsWholeCPUsRoundedUp(text: String, cpus: Int?) {
        #expect(CPUQuota.cpus(cpuMax: text) == cpus)
    }

    @Test func cgroupV1Quota_MinusOneMeansNone() {
        #expect(CPUQuota.cpus(quota: "-1\n", period: "100000\n") == nil)
        #expect(CPUQuota.cpus(quota: "250000\n", period: "100000\n") == 3)
    }

    @Test func procSelfCgroup_IsReadPerController() {
        let paths = CPUQuota.controllerPaths("12:cpu,cpuacct:/docker/abc\n4:memory:/m\n0::/user.slice/x\n")
        #expect(paths["cpu"] == "/docker/abc" && paths["cpuacct"] == "/docker/abc")
        #expect(paths[""] == "/user.slice/x" && paths["memory"] == "/m")
    }
}
