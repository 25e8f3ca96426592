# Sourced by the benchmark scripts before their static release build. `mock-server` depends on the HTTPS bridge
# `mock-server-tls`, which links FoundationNetworking; statically linked (`--static-swift-stdlib`) that needs
# libcurl's static development files, which the toolchain does not ship. Debian's package provides them.
if ! dpkg -s libcurl4-openssl-dev >/dev/null 2>&1; then
    echo "installing libcurl4-openssl-dev for the static build of mock-server-tls..." >&2
    apt-get install -y libcurl4-openssl-dev >/dev/null 2>&1 \
        || { apt-get update >/dev/null && apt-get install -y libcurl4-openssl-dev >/dev/null; }
fi
