#!/usr/bin/env bash
# tests/data/web/make_variants.sh TOOLS_BIN IN OUT_PREFIX [GLTFPACK_FLAGS] — the web-optimised variants of one glTF/GLB,
# as a user's pipeline makes them (README.md in this folder says which files were made so):
#   OUT_PREFIX.gltfpack.glb      gltfpack -i IN -o OUT            quantized attributes (KHR_mesh_quantization)
#   OUT_PREFIX.gltfpack-cc.glb   gltfpack -cc -i IN -o OUT        + EXT_meshopt_compression
#   OUT_PREFIX.quantize.glb      gltf-transform quantize IN OUT   KHR_mesh_quantization
#   OUT_PREFIX.meshopt.glb       gltf-transform meshopt IN OUT    EXT_meshopt_compression (+ quantization)
#   OUT_PREFIX.draco.glb         gltf-transform draco IN OUT      KHR_draco_mesh_compression
#   OUT_PREFIX.webp.glb          gltf-transform webp IN OUT       EXT_texture_webp (only when IN has images)
# GLTFPACK_FLAGS (one word or several, e.g. "-af 0") go to both gltfpack calls.
# TOOLS_BIN holds the gltfpack and gltf-transform commands (npm install --prefix tools/web:
# tools/web/node_modules/.bin). Prints each file written; exits non-zero if a tool fails.
set -euo pipefail
bin="$1" in="$2" out="$3"
read -r -a extra <<< "${4:-}"
run() { "$@" >/dev/null 2>&1 || { echo "make_variants.sh: failed: $*" >&2; exit 1; }; }
run "$bin/gltfpack" "${extra[@]}" -i "$in" -o "$out.gltfpack.glb";         echo "$out.gltfpack.glb"
run "$bin/gltfpack" "${extra[@]}" -cc -i "$in" -o "$out.gltfpack-cc.glb";  echo "$out.gltfpack-cc.glb"
run "$bin/gltf-transform" quantize "$in" "$out.quantize.glb";   echo "$out.quantize.glb"
run "$bin/gltf-transform" meshopt "$in" "$out.meshopt.glb";     echo "$out.meshopt.glb"
run "$bin/gltf-transform" draco "$in" "$out.draco.glb";         echo "$out.draco.glb"
if grep -aq '"images"' "$in"; then
  run "$bin/gltf-transform" webp "$in" "$out.webp.glb";         echo "$out.webp.glb"
fi
