/// A Linux cgroup's CPU quota (`docker --cpus 1.5`, a Kubernetes CPU limit) as a whole number of CPUs,
/// rounded up. The affinity mask does not show it, and more loop threads than the quota allows only
/// queue for the same CPU time.
public enum CPUQuota {
    /// The quota of this process's cgroup (v2, then v1), or `nil` when there is none.
    public static func current() -> Int? {
        let group = POSIX.readFile("/proc/self/cgroup").map { controllerPaths(String(decoding: $0, as: UTF8.self)) }
        for directory in candidates(group ?? [:]) {
            if let text = POSIX.readFile(directory + "/cpu.max").map({ String(decoding: $0, as: UTF8.self) }) {
                return cpus(cpuMax: text)
            }
            if let quota = POSIX.readFile(directory + "/cpu.cfs_quota_us").map({ String(decoding: $0, as: UTF8.self) }),
               let period = POSIX.readFile(directory + "/cpu.cfs_period_us").map({ String(decoding: $0, as: UTF8.self) }) {
                return cpus(quota: quota, period: period)
            }
        }
        return nil
    }

    /// CPUs from cgroup v2's `cpu.max` ("max 100000", or "150000 100000" for 1.5 CPUs → 2).
    public static func cpus(cpuMax: String) -> Int? {
        let fields = cpuMax.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count == 2 else { return nil }
        return cpus(quota: String(fields[0]), period: String(fields[1]))
    }

    /// CPUs from a quota and a period in microseconds; a quota of "max" or -1 means none.
    public static func cpus(quota: String, period: String) -> Int? {
        let trim = { (text: String) in text.split(separator: "\n").first.map(String.init) ?? "" }
        guard let quota = Int(trim(quota)), let period = Int(trim(period)), quota > 0, period > 0 else {
            return nil
        }
        return max(1, (quota + period - 1) / period)
    }

    /// `/proc/self/cgroup` lines ("0::/user.slice", "4:cpu,cpuacct:/docker/abc") as controller → path;
    /// the v2 unified hierarchy is the empty controller.
    public static func controllerPaths(_ text: String) -> [String: String] {
        var paths: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            for controller in parts[1].split(separator: ",", omittingEmptySubsequences: false) {
                paths[String(controller)] = String(parts[2])
            }
            if parts[1].isEmpty { paths[""] = String(parts[2]) }
        }
        return paths
    }

    /// Directories to read, the process's own cgroup first, then the mount root (inside a container
    /// the cgroup namespace makes the root the process's own).
    private static func candidates(_ paths: [String: String]) -> [String] {
        var directories: [String] = []
        if let unified = paths[""], unified != "/" { directories.append("/sys/fs/cgroup" + unified) }
        directories.append("/sys/fs/cgroup")
        if let cpu = paths["cpu"], cpu != "/" { directories.append("/sys/fs/cgroup/cpu" + cpu) }
        directories.append("/sys/fs/cgroup/cpu")
        directories.append("/sys/fs/cgroup/cpu,cpuacct")
        return directories
    }
}
