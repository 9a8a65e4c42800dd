#!/bin/sh
# dcc_converters.sh — FBX2glTF (and, with --glb-tool, any other FBX -> glTF converter) against the
# authoring tools' own OBJ exports on every row and variant of ../shared/models/ufbx-dcc, next to
# skinview's own reading of the same FBX files; the numbers of docs/accuracy.md ("glTF export:
# skinview vs FBX2glTF"). Work is done by tools/dcc_converters.mjs; this finds or installs the tools.
#
#   tools/dcc_converters.sh [BUILD_DIR] [--json FILE] [--glb-tool NAME='CMD {in} {out} {extra}'] [--fbx2gltf none]
#
# e.g. skinview's own exporter beside FBX2glTF:
#   tools/dcc_converters.sh --glb-tool skinview="$PWD/build/skinview {in} --export-gltf {out} --quiet {extra}"
# (--fbx2gltf none: that converter alone). The options are tools/dcc_converters.mjs's.
#
# Needs: node and npm (FBX2glTF comes from npm's `fbx2gltf` package, which ships the Linux binary
# built on the Autodesk FBX SDK; the Khronos validator from npm's `gltf-validator`), installed once
# into $SKINVIEW_TOOLS (default /tmp/skinview-dcc-tools); the oracle's compare.mjs
# (../shared/tools/oracle); a built skinview (BUILD_DIR, default build). Writes GLBs and OBJs into
# $SKINVIEW_DCC_OUT (default /tmp/skinview-dcc-out).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=build
case "${1:-}" in --*|'') ;; *) build=$1; shift ;; esac
skinview="$here/$build/skinview"
shared="$here/../shared"
tools=${SKINVIEW_TOOLS:-/tmp/skinview-dcc-tools}
out=${SKINVIEW_DCC_OUT:-/tmp/skinview-dcc-out}
[ -x "$skinview" ] || { echo "dcc_converters: no $skinview (build it first)" >&2; exit 2; }
[ -f "$shared/models/ufbx-dcc/manifest.tsv" ] || { echo "dcc_converters: $shared/models/ufbx-dcc absent" >&2; exit 2; }
command -v node >/dev/null && command -v npm >/dev/null || { echo "dcc_converters: node and npm are needed" >&2; exit 2; }
mkdir -p "$tools"
[ -f "$tools/package.json" ] || echo '{"name":"skinview-dcc-tools","private":true}' > "$tools/package.json"
[ -d "$tools/node_modules/fbx2gltf" ] || npm install --prefix "$tools" --no-audit --no-fund fbx2gltf >&2
[ -d "$tools/node_modules/gltf-validator" ] || npm install --prefix "$tools" --no-audit --no-fund gltf-validator >&2
fbx2gltf="$tools/node_modules/fbx2gltf/bin/Linux/FBX2glTF"
chmod +x "$fbx2gltf"   # the npm package ships it without the executable bit
"$fbx2gltf" --version >/dev/null 2>&1 || { echo "dcc_converters: $fbx2gltf does not run here" >&2; exit 1; }
# three.js (the oracle's pose.mjs) as a second glTF reader: a copy of the oracle with its node_modules
oracle_copy="$tools/oracle"
if [ ! -d "$oracle_copy/node_modules/three" ]; then
    rm -rf "$oracle_copy" && cp -r "$shared/tools/oracle" "$oracle_copy" &&
        (cd "$oracle_copy" && npm ci --no-audit --no-fund >&2) || echo "dcc_converters: no three.js (npm ci failed): its column is left out" >&2
fi
three=""
[ -d "$oracle_copy/node_modules/three" ] && three="--three $oracle_copy"
exec node "$here/tools/dcc_converters.mjs" $three --skinview "$skinview" --fbx2gltf "$fbx2gltf" --validator "$tools" \
    --oracle "$shared/tools/oracle" --dcc "$shared/models/ufbx-dcc" --out "$out" "$@"
