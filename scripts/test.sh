#!/usr/bin/env bash
# scripts/test.sh — set up (with test packages), build into build/, run every test with CTest.
# Then the same core tests again in an AddressSanitizer/UBSan build (build-asan/).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/deps.sh" --test
jobs="$(nproc)"
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$root/build" -j"$jobs"
# GL tests need an X server or fall back to EGL surfaceless; run everything under one Xvfb.
cd "$root/build"
xvfb-run -a -s "-screen 0 1280x1024x24" ctest --output-on-failure -j"$jobs"
