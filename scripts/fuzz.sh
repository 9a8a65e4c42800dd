#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS]                   the fuzz stage of CI (issue 12; corpora: issue 32)
# scripts/fuzz.sh --long SECONDS [NAME...]    a deeper local run that updates the committed corpora
#
# Builds the libFuzzer targets (tests/fuzz/fuzz_*.c) with clang (-fsanitize=fuzzer,address,undefined)
# into build-fuzz/, replays the committed reproducers (tests/fuzz/regressions/) through every
# target, makes a seed corpus per format group from the test models (assimp-testmodels,
# ../shared/models, assets/: files <= 256 KiB that need no other file), then fuzzes each target
# of the table below with the token dictionary tests/fuzz/skinview.dict, starting from its
# committed corpus tests/fuzz/corpus/NAME/ plus the seeds.
#   CI (SECONDS, default 180): each target gets SECONDS / 7 (25 s). New units go to a scratch
#     folder, build-fuzz/corpus/NAME/; the clone is never written to.
#   --long SECONDS: each target (or the NAMEs given) runs SECONDS, then its committed corpus is
#     rebuilt with libFuzzer's -merge=1: the seeds count as covered, and of the committed corpus
#     and the run's new units only the smallest set that keeps every feature the seeds miss is
#     kept, its smallest 300 units and 1 MiB at most (tests/fuzz/corpus/NAME/ is replaced:
#     review and commit it).
# Every target's figures (seconds, executions, coverage before -> after, new units) are printed
# and kept in build-fuzz/summary.txt. Exits non-zero on any crash, leak, timeout, memory blow-up,
# broken promise or sanitizer report; the input that caused it is left in build-fuzz/artifacts/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode=ci
total=180
per_target=0
only=()
if [ "${1:-}" = "--long" ]; then
  mode=long
  per_target="${2:?usage: scripts/fuzz.sh --long SECONDS [NAME...]}"
  shift 2
  only=("$@")
elif [ -n "${1:-}" ]; then
  total="$1"
fi
build="$root/build-fuzz"

# The targets: NAME, libFuzzer program (tests/fuzz/PROGRAM.c), seed group. A new reader or writer
# adds its line here (see "Adding a target" in docs/robustness.md); its committed corpus is
# tests/fuzz/corpus/NAME/.
targets=(
  "import-gltf     fuzz_import gltf"      # the whole importer: glTF 2.0 through skinview's reader
  "import-fbx      fuzz_import fbx"       # Assimp's FBX + skinview's FBX stage (fbx_apply)
  "import-collada  fuzz_import collada"
  "import-directx  fuzz_import directx"
  "import-other    fuzz_import other"     # MD5, SMD, MS3D, B3D, OBJ, IQM
  "fbx-reader      fuzz_fbx    fbx"       # skinview's FBX reader alone (src/io/fbx/), no Assimp
  "gltf-reader     fuzz_gltf   gltf"      # skinview's glTF reader alone (src/io/gltf/)
)
programs=()
for line in "${targets[@]}"; do
  read -r _ program _ <<<"$line"
  [[ " ${programs[*]} " == *" $program "* ]] || programs+=("$program")
done

CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSKINVIEW_FUZZ=ON -DBUILD_TESTING=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${programs[@]}"
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

# 1. every committed reproducer still runs clean, through every target (one found by a reader's
#    own target, e.g. the glTF accessor type with a newline, is replayed by that target too)
regressions=("$root"/tests/fuzz/regressions/*)
if [ -e "${regressions[0]}" ]; then
  echo "== fuzz: replaying ${#regressions[@]} reproducers through ${programs[*]}"
  for program in "${programs[@]}"; do
    "$build/tests/$program" "${common[@]}" "${regressions[@]}" >"$build/replay.log" 2>&1 ||
      { tail -n 60 "$build/replay.log" >&2; echo "fuzz: $program: a reproducer fails again" >&2; exit 1; }
  done
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

# 3. each target for its time, from its committed corpus and its seeds; new units into the scratch
#    folder (CI) and, with --long, merged and minimised back into the committed corpus
if [ "$mode" = ci ]; then
  per_target=$(( total / ${#targets[@]} ))
  [ "$per_target" -ge 5 ] || per_target=5
fi
summary="$build/summary.txt"
: >"$summary"
# "cov: N ft: M" of the first line of the log that has `word` (INITED, DONE)
coverage_of() { grep -m1 -E "^#[0-9]+[[:space:]]+$1 " "$2" | sed -E 's/.* cov: ([0-9]+) ft: ([0-9]+).*/\1 \2/' || true; }
files_in() { find "$1" -type f 2>/dev/null | wc -l; }
# A committed corpus stays small: its smallest units, at most corpus_max_files files and
# corpus_max_bytes in all (merging prefers small inputs too; the seeds stand for large files).
corpus_max_files=300
corpus_max_bytes=$((1024 * 1024))
trim_corpus() {   # DIR
  local dir="$1" kept=0 bytes=0 size unit
  while read -r size unit; do
    if [ "$kept" -lt "$corpus_max_files" ] && [ $((bytes + size)) -le "$corpus_max_bytes" ]; then
      kept=$((kept + 1))
      bytes=$((bytes + size))
    else
      rm -f "${dir:?}/$unit"
    fi
  done < <(cd "$dir" && find . -maxdepth 1 -type f -printf '%s %f\n' | sort -n)
}
kib_in() { du -sb "$1" 2>/dev/null | awk '{ print int($1 / 1024) }'; }
run_target() {   # NAME PROGRAM GROUP
  local name="$1" target="$build/tests/$2" group="$3" status=0
  local committed="$root/tests/fuzz/corpus/$name" scratch="$build/corpus/$name"
  rm -rf "$scratch"
  mkdir -p "$scratch"
  local dirs=("$scratch")
  [ -d "$committed" ] && dirs+=("$committed")
  dirs+=("$seeds/$group")
  echo "== fuzz: $name ($2) for $per_target s from $(files_in "$committed") committed units + $(files_in "$seeds/$group") seeds"
  "$target" "${common[@]}" -max_total_time="$per_target" "${dirs[@]}" >"$build/$name.log" 2>&1 || status=$?
  local start end executions added
  start=$(coverage_of INITED "$build/$name.log")
  end=$(coverage_of DONE "$build/$name.log")
  executions=$(grep -m1 -oE "stat::number_of_executed_units: +[0-9]+" "$build/$name.log" | grep -oE "[0-9]+$" || echo "?")
  added=$(grep -m1 -oE "stat::new_units_added: +[0-9]+" "$build/$name.log" | grep -oE "[0-9]+$" || echo "?")
  local line
  line="$name: $per_target s, $executions executions, cov/ft ${start:-?} -> ${end:-?}, $added new units"
  if [ "$status" -ne 0 ]; then
    tail -n 60 "$build/$name.log" >&2
    echo "$line, STOPPED with status $status" | tee -a "$summary"
    echo "fuzz: $name: the fuzzer stopped with status $status (reproducer in $build/artifacts/)" >&2
    exit 1
  fi
  if [ "$mode" = long ]; then
    # the seeds go first: their features count as covered and they are not copied; what the
    # committed corpus and this run add beyond them is minimised (smallest inputs first)
    local merged="$build/merge/$name"
    rm -rf "$merged" "$merged.seeds"
    mkdir -p "$merged"
    cp "$seeds/$group"/* "$merged/" 2>/dev/null || true
    (cd "$merged" && ls) >"$merged.seeds"
    local inputs=()
    [ -d "$committed" ] && inputs+=("$committed")
    inputs+=("$scratch")
    "$target" "${common[@]}" -merge=1 "$merged" "${inputs[@]}" >"$build/$name.merge.log" 2>&1 ||
      { tail -n 40 "$build/$name.merge.log" >&2; echo "fuzz: $name: merge failed" >&2; exit 1; }
    rm -rf "$committed.new"
    mkdir -p "$committed.new"
    { (cd "$merged" && ls) | grep -vxF -f "$merged.seeds" || true; } | while read -r unit; do cp "$merged/$unit" "$committed.new/"; done
    trim_corpus "$committed.new"
    rm -rf "$committed"
    mv "$committed.new" "$committed"
    line="$line; corpus $(files_in "$committed") units, $(kib_in "$committed") KiB"
  fi
  echo "$line" | tee -a "$summary"
}
for entry in "${targets[@]}"; do
  read -r name program group <<<"$entry"
  if [ "${#only[@]}" -gt 0 ] && [[ " ${only[*]} " != *" $name "* ]]; then continue; fi
  run_target "$name" "$program" "$group"
done

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
echo "== fuzz: no crash, leak, timeout or sanitizer report in skinview's code ($per_target s per target)"
