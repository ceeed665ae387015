#!/usr/bin/env bash
# The benchmark's setup and run in one: installs the peers (Debian packages), builds
# rig in release mode and runs `rig bench` with the arguments given.
#   bench/run.sh [--json] [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps bench
swift build -c release --product rig >&2
exec .build/release/rig bench "$@"
