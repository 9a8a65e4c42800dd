#!/bin/sh
# render_screens.sh BIN OUTDIR — the renderer's pixel-diff set: both lighting models over the demo
# (lit, weights, influences, wireframe, DQ, CPU skinning) and ../shared models when present, the
# normals and compare views, the VAT player. Compare two runs with tools/png_diff.py BEFORE AFTER.
# Needs a display (xvfb-run). Writes OUTDIR/NAME.png and OUTDIR/exit-codes.txt.
set -u
bin=${1:?usage: render_screens.sh BIN OUTDIR}
out=${2:?usage: render_screens.sh BIN OUTDIR}
models=${SHARED:-$(dirname "$0")/../../shared/models}
vat=$(mktemp -d)
mkdir -p "$out"
"$bin" --bake-vat "$vat/demo" --fps 15 --quiet > /dev/null 2>&1
# one screenshot per line: NAME ARGUMENTS (MODELS and VAT expand; a line whose file is absent is skipped)
list() {
    for lighting in default flat; do
        echo "demo-$lighting --lighting $lighting --time 0.4"
        echo "demo-weights-$lighting --lighting $lighting --show-weights spine --time 0.4"
        echo "demo-influences-$lighting --lighting $lighting --show-influences"
        echo "demo-wire-$lighting --lighting $lighting --wireframe"
        echo "demo-dq-$lighting --lighting $lighting --skinning dq --time 0.3"
        echo "demo-cpu-$lighting --lighting $lighting --skinning cpu --time 0.3"
        for model in threejs-xbot/Xbot.glb khronos-fox/Fox.glb quaternius-male-casual/Male_Casual.fbx \
                     khronos-animatedmorphcube/AnimatedMorphCube.glb gltf-asset-generator/Animation_Skin_11.gltf; do
            echo "$(basename "$model" | sed 's/\..*//')-$lighting $models/$model --lighting $lighting --time 0.5"
        done
    done
    echo "xbot-normals $models/threejs-xbot/Xbot.glb --show-normals"
    echo "demo-compare --compare lbs,dq --time 0.3"
    echo "vat --vat $vat/demo --instances 4 --time 0.3"
    echo "vat-flat --vat $vat/demo --lighting flat"
}
list | while read -r name arguments; do
    first=${arguments%% *}
    case $first in -*) ;; *) [ -e "$first" ] || continue ;; esac
    # shellcheck disable=SC2086  # the arguments are split on purpose
    "$bin" $arguments --size 480x360 --screenshot "$out/$name.png" > /dev/null 2> "$out/$name.err"
    echo "$name $?"
done > "$out/exit-codes.txt"
rm -rf "$vat"
find "$out" -name '*.err' -empty -delete
