#!/usr/bin/env bash
# scripts/test.sh — set up (with test packages), build into build/, run every test with CTest;
# then build again with AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/) and run
# every test there too; then the fuzz stage (scripts/fuzz.sh: libFuzzer on the importer, 180 s
# across the formats). Exits non-zero if anything fails.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/deps.sh" --test
jobs="$(nproc)"
# The Khronos glTF-Validator for io_export_gltf_validator (npm, when it is there; the test skips
# without it): only the validator, into build-npm/, so the tests that want gltfpack still skip.
if command -v npm >/dev/null 2>&1; then
  if [ -d "$root/build-npm/node_modules/gltf-validator" ] ||
     timeout 300 npm install --prefix "$root/build-npm" --no-audit --no-fund --no-save gltf-validator@2.0.0-dev.3.10 >/dev/null 2>&1; then
    export SKINVIEW_NPM_PREFIX="$root/build-npm"
  else
    echo "skinview: npm could not install gltf-validator: io_export_gltf_validator will skip"
  fi
fi
# GL tests use the X server that xvfb-run starts (Mesa llvmpipe); --screenshot/--verify
# tests also run once with DISPLAY unset (EGL surfaceless). -noreset: without it Xvfb resets
# whenever its last client leaves, and a test connecting just then loses its connection (a
# --verify run ended by SIGPIPE, exit 141, once in a CI run of 143 tests).
run_suite() {
  local dir="$1"; shift
  cmake -S "$root" -B "$root/$dir" "$@" >/dev/null
  cmake --build "$root/$dir" -j"$jobs"
  (cd "$root/$dir" && xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" ctest --output-on-failure -j"$jobs")
}
echo "== skinview: release build and tests (build/)"
run_suite build -DCMAKE_BUILD_TYPE=RelWithDebInfo
echo "== skinview: AddressSanitizer + UBSan build and tests (build-asan/)"
run_suite build-asan -DCMAKE_BUILD_TYPE=Debug -DSKINVIEW_SANITIZE=ON
echo "== skinview: fuzz stage (build-fuzz/, clang -fsanitize=fuzzer,address,undefined)"
"$root/scripts/fuzz.sh" "${SKINVIEW_FUZZ_SECONDS:-180}"
