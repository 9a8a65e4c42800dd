#!/bin/sh
# screenshot_set.sh BIN OUTDIR — a fixed set of screenshots and --verify exit codes, for
# pixel-exact before/after comparison of refactors (tools/png_diff.py compares two sets).
# Covers the demo with every teaching-aid flag, the HUD and browser, the view presets, the
# skinning methods, small and tall sizes, ../shared models when present, and the VAT player
# (--bake-vat, then --vat ... --screenshot, with --instances). Needs a display (xvfb-run).
# Writes OUTDIR/*.png and OUTDIR/exit-codes.txt (name, exit code per command).
BIN=${1:?usage: screenshot_set.sh BIN OUTDIR}
OUT=${2:?usage: screenshot_set.sh BIN OUTDIR}
SHARED=${SHARED:-$(dirname "$0")/../../shared/models}
mkdir -p "$OUT"
: > "$OUT/exit-codes.txt"
shot() {   # shot NAME ARGS...
    name=$1; shift
    "$BIN" "$@" --screenshot "$OUT/$name.png" > /dev/null 2> "$OUT/$name.err"
    echo "$name $?" >> "$OUT/exit-codes.txt"
}
code() {   # code NAME ARGS...  (exit code only)
    name=$1; shift
    "$BIN" "$@" > /dev/null 2>&1
    echo "$name $?" >> "$OUT/exit-codes.txt"
}
S="--size 640x480"
shot demo $S
shot demo-t07 --time 0.7 $S
shot skeleton --show-skeleton --time 0.4 $S
shot weights --show-weights --time 0.4 $S
shot weights-joint --show-weights spine --time 0.4 $S
shot influences --show-influences $S
shot axes --show-axes --show-skeleton $S
shot axes-all --show-axes all $S
shot names --show-names --show-skeleton $S
shot joint-values --joint-values $S
shot joint-values-legend --joint-values --show-weights $S
shot wireframe --wireframe $S
shot normals --show-normals $S
shot no-grid --no-grid $S
shot hud --show-hud $S
shot browser --show-browser $S
shot hud-browser --show-hud --show-browser --show-skeleton $S
for v in front back right left top bottom; do shot view-$v --view $v $S; done
shot cpu --skinning cpu --time 0.3 $S
shot dq --skinning dq --time 0.3 $S
shot bind --clip bind $S
shot rest --clip rest $S
shot small --size 160x120 --show-hud
shot tall --size 300x900 --show-hud --show-names --show-skeleton
shot wide --size 1280x360 --show-hud --show-weights
for m in threejs-xbot/Xbot.glb khronos-cesiumman/cesium_man.gltf khronos-fox/Fox.glb quaternius-wizard/Wizard.glb; do
    [ -f "$SHARED/$m" ] || continue
    n=$(basename "$m" | sed 's/\..*//')
    shot "$n" "$SHARED/$m" --time 0.5 $S
    shot "$n-aids" "$SHARED/$m" --time 0.5 --show-skeleton --show-weights --show-names --show-hud $S
    code "$n-verify" "$SHARED/$m" --verify
done
code demo-verify --verify
code demo-verify-dq --verify --skinning dq
code bad-clip --clip nosuch --screenshot "$OUT/never.png"
code bad-file /nonexistent.glb --verify
VAT=$(mktemp -d)
code bake "--bake-vat" "$VAT/demo" --fps 15
shot vat --vat "$VAT/demo" $S
shot vat-t05 --vat "$VAT/demo" --time 0.5 --clip 1 $S
shot vat-crowd --vat "$VAT/demo" --instances 9 --time 0.3 $S
shot vat-no-grid --vat "$VAT/demo" --instances 4 --no-grid $S
shot vat-tall --vat "$VAT/demo" --size 300x900
code vat-verify --vat "$VAT/demo" --verify
if [ -f "$SHARED/threejs-xbot/Xbot.glb" ]; then
    code bake-xbot "$SHARED/threejs-xbot/Xbot.glb" --bake-vat "$VAT/xbot" --fps 10 --clips 0,1
    shot vat-xbot --vat "$VAT/xbot" --instances 4 --time 0.4 $S
    code vat-xbot-verify --vat "$VAT/xbot" --verify
fi
rm -rf "$VAT"
find "$OUT" -name '*.err' -empty -delete
