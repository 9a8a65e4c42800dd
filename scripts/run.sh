#!/usr/bin/env bash
# scripts/run.sh [MODEL] [options] — set up, build into build/, run build/skinview.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/deps.sh"
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$root/build" --target skinview -j"$(nproc)"
exec "$root/build/skinview" "$@"
