#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS] — the fuzz stage of CI (issue 12): builds the libFuzzer target
# tests/fuzz/fuzz_import.c with clang (-fsanitize=fuzzer,address,undefined) into build-fuzz/,
# replays the committed reproducers (tests/fuzz/regressions/), makes a seed corpus per format
# group from the test models (assimp-testmodels, ../shared/models, assets/: files <= 256 KiB
# that need no other file), and fuzzes each group for its share of SECONDS (default 180) with the
# token dictionary tests/fuzz/skinview.dict; then the FBX reader's own target tests/fuzz/fuzz_fbx.c
# (no Assimp) on the FBX seeds and the glTF reader's tests/fuzz/fuzz_gltf.c on the JSON and GLB
# seeds, one more share each. Exits non-zero on any crash, leak, timeout, memory
# blow-up or sanitizer report; the input that caused it is left in build-fuzz/artifacts/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
total="${1:-180}"
build="$root/build-fuzz"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSKINVIEW_FUZZ=ON -DBUILD_TESTING=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target fuzz_import fuzz_fbx fuzz_gltf
fuzzer="$build/tests/fuzz_import"
fbx_fuzzer="$build/tests/fuzz_fbx"
gltf_fuzzer="$build/tests/fuzz_gltf"
mkdir -p "$build/artifacts"
assimp_crashes="$build/assimp-crashes"
rm -rf "$assimp_crashes"
mkdir -p "$assimp_crashes"
export SKINVIEW_FUZZ_ASSIMP_CRASHES="$assimp_crashes"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/tests/fuzz/lsan.supp:print_suppressions=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
common=(-timeout=30 -rss_limit_mb=3072 -max_len=262144
        -dict="$root/tests/fuzz/skinview.dict" -artifact_prefix="$build/artifacts/" -print_final_stats=1)

# 1. every committed reproducer still runs clean
regressions=("$root"/tests/fuzz/regressions/*)
if [ -e "${regressions[0]}" ]; then
  echo "== fuzz: replaying ${#regressions[@]} reproducers"
  "$fuzzer" "${common[@]}" "${regressions[@]}"
fi

# 2. seed corpora, generated now from the test models
seeds="$build/seeds"
rm -rf "$seeds"
groups=(gltf fbx collada directx other)
# the model folders that exist (a user's clone has no ../shared: find would fail, and pipefail with it)
sources=()
for folder in /usr/share/assimp/models "$root/../shared/models" "$root/assets"; do
  if [ -d "$folder" ]; then sources+=("$folder"); fi
done
declare -A patterns=(
  [gltf]='*.glb *.gltf' [fbx]='*.fbx' [collada]='*.dae' [directx]='*.x'
  [other]='*.md5mesh *.smd *.ms3d *.b3d *.obj *.iqm')
for group in "${groups[@]}"; do
  mkdir -p "$seeds/$group"
  for pattern in ${patterns[$group]}; do
    find "${sources[@]}" -type f -iname "$pattern" -size -257k | sort | while read -r file; do
      # glTF that points at other files (buffers, images) cannot be read from memory alone
      if [[ "$file" == *.gltf ]] && grep -q '"uri" *: *"[^d"]' "$file"; then continue; fi
      cp "$file" "$seeds/$group/$(echo "$file" | md5sum | cut -c1-12)-$(basename "$file" | tr -c 'A-Za-z0-9._\n-' _)"
    done
  done
  echo "== fuzz: $group: $(ls "$seeds/$group" | wc -l) seed files"
done

# 3. fuzz each group for its share of the time (the FBX and glTF readers' targets take one share each)
share=$(( total / (${#groups[@]} + 2) ))
[ "$share" -ge 5 ] || share=5
for group in "${groups[@]}"; do
  corpus="$build/corpus/$group"
  mkdir -p "$corpus"
  echo "== fuzz: $group for $share s"
  status=0
  "$fuzzer" "${common[@]}" -max_total_time="$share" "$corpus" "$seeds/$group" >"$build/$group.log" 2>&1 || status=$?
  grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units|stat::new_units_added" "$build/$group.log" || true
  if [ "$status" -ne 0 ]; then
    tail -n 60 "$build/$group.log" >&2
    echo "fuzz: $group: the fuzzer stopped with status $status (reproducer in $build/artifacts/)" >&2
    exit 1
  fi
done
# 3b. skinview's own readers alone, no Assimp: the FBX reader (src/io/fbx/: records, graph,
#     legacy builder, blend shapes) seeded with the binary and ASCII FBX files (ufbx-dcc: FBX 5.0
#     to 7.7), and the glTF reader (src/io/gltf/) seeded with the JSON and GLB files
reader_share() {   # NAME FUZZER SEEDS
  local name="$1" target="$2" seed_dir="$3" status=0
  local corpus="$build/corpus/$name"
  mkdir -p "$corpus"
  echo "== fuzz: $name for $share s"
  "$target" "${common[@]}" -max_total_time="$share" "$corpus" "$seed_dir" >"$build/$name.log" 2>&1 || status=$?
  grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units|stat::new_units_added" "$build/$name.log" || true
  if [ "$status" -ne 0 ]; then
    tail -n 60 "$build/$name.log" >&2
    echo "fuzz: $name: the fuzzer stopped with status $status (reproducer in $build/artifacts/)" >&2
    exit 1
  fi
}
reader_share fbx-reader "$fbx_fuzzer" "$seeds/fbx"
reader_share gltf-reader "$gltf_fuzzer" "$seeds/gltf"
# 4. inputs on which Assimp itself died, hung or flooded memory (probed in a child, see
#    fuzz_import.c): skinview must end each with exit 1 and one line on stderr, never by a signal,
#    or load it (exit 0, nothing on stderr). Loading is right where the probe's failure does not
#    carry over to a file: the release binary's memory budget is larger than the sanitized
#    probe's footprint (memory-*), and Assimp reads from memory differently (an OBJ's `mtllib`
#    crashed its in-memory reader, signal-obj, and reads fine from the file).
cmake -S "$root" -B "$root/build" >/dev/null && cmake --build "$root/build" -j"$(nproc)" --target skinview >/dev/null
crashes=("$assimp_crashes"/*)
guarded=0
for input in "${crashes[@]}"; do
  [ -e "$input" ] || continue
  status=0
  SKINVIEW_IMPORT_TIMEOUT=10 timeout 60 "$root/build/skinview" "$input" --info >/dev/null 2>"$build/guard.err" || status=$?
  lines=$(wc -l <"$build/guard.err")
  if [ "$status" -eq 0 ] && [ "$lines" -eq 0 ]; then
    guarded=$((guarded + 1))
    continue
  fi
  if [ "$status" -ne 1 ] || [ "$lines" -ne 1 ]; then
    echo "fuzz: skinview's guard did not end $input cleanly (exit $status, $lines lines on stderr):" >&2
    cat "$build/guard.err" >&2
    exit 1
  fi
  guarded=$((guarded + 1))
done
echo "== fuzz: $guarded inputs crashed, hung or flooded Assimp itself; skinview ended each cleanly (one line on failure)"
echo "== fuzz: no crash, leak, timeout or sanitizer report in skinview's code in $total s"
