#!/bin/sh
# make_doc_images.sh — regenerates every picture of docs/ that skinview draws itself.
#
#   tools/make_doc_images.sh [BUILD_DIR]      (default: build; needs build/skinview)
#
# Offscreen (EGL surfaceless or Xvfb's display): no window opens. Each picture is one
# `skinview --screenshot` command line, so the doc can quote it. Of the diagrams
# (docs/images/*.svg), offset_matrix.svg is written to scale by build/skinning_numbers (which also
# rewrites the worked-example numbers of docs/skinning.md); spaces.svg and fbx_pivot.svg are drawn
# by hand and committed as text.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$here/build"}
skinview="$build/skinview"
out="$here/docs/images"
demo="$here/assets/demo.fbx"
[ -x "$skinview" ] || { echo "make_doc_images.sh: $skinview not found (build first)" >&2; exit 1; }
mkdir -p "$out"

# the worked examples of docs/skinning.md and their diagram, from src/anim (tests: docs_numbers)
if [ -x "$build/skinning_numbers" ]; then
    "$build/skinning_numbers" --update "$here/docs/skinning.md"
    "$build/skinning_numbers" --svg "$out/offset_matrix.svg"
fi

shot() {   # shot NAME ARGS... : one picture, and the command echoed for the record
    name=$1; shift
    echo "skinview $*  ->  docs/images/$name.png"
    "$skinview" "$@" --screenshot "$out/$name.png"
}

# the README's picture: the viewer as it opens a clip, skeleton on, status line and timeline
shot viewer "$demo" --clip Walk --time 0.45 --show-skeleton --show-hud --size 1280x720
# the candy wrapper: the same pose under linear blend and dual quaternion skinning
shot twist "$demo" --clip Twist --time 0.75 --size 640x480
shot twist_lbs "$demo" --clip Twist --time 0.75 --skinning gpu --show-weights forearm.L --size 640x480
shot twist_dqs "$demo" --clip Twist --time 0.75 --skinning dq --show-weights forearm.L --size 640x480
shot twist_lbs_wire "$demo" --clip Twist --time 0.75 --skinning gpu --wireframe --no-grid --size 800x600
shot twist_dqs_wire "$demo" --clip Twist --time 0.75 --skinning dq --wireframe --no-grid --size 800x600
# weights: the heat-map of one joint, and the influence count
shot weights "$demo" --clip bind --show-weights upper_arm.R --size 640x480
shot influences "$demo" --clip bind --show-influences --size 640x480
# the pose sources: bind (the T-pose the mesh was bound in), rest (the file's A-pose) and a clip
shot pose_bind "$demo" --clip bind --show-skeleton --size 400x400
shot pose_rest "$demo" --clip rest --show-skeleton --size 400x400
shot pose_clip "$demo" --clip Wave --time 0.8 --show-skeleton --size 400x400
# the skeleton with every joint's axes and names, and one joint's values
shot skeleton_axes "$demo" --clip Walk --time 0.3 --show-skeleton --show-axes all --show-names --size 800x600
shot joint_values "$demo" --clip Wave --time 0.8 --joint forearm.R --show-axes --joint-values --size 800x600
# normals as lines
shot normals "$demo" --clip Walk --time 0.3 --show-normals --no-grid --size 640x480
# rigid pieces crack, LBS pinches, DQS keeps the volume; the difference of two methods
shot rigid_walk "$demo" --clip Walk --time 0.25 --skinning rigid --view right --no-grid --size 800x600
shot lbs_walk "$demo" --clip Walk --time 0.25 --skinning gpu --view right --no-grid --size 800x600
shot twist_rigid "$demo" --clip Twist --time 0.75 --skinning rigid --size 640x480
shot twist_dq "$demo" --clip Twist --time 0.75 --skinning dq --size 640x480
shot compare_lbs_dq "$demo" --clip Twist --time 0.75 --compare lbs,dq --size 640x480
# the vertex inspector on the elbow vertex docs/skinning.md section 11 follows
shot inspector "$demo" --clip Twist --time 0.75 --inspect-vertex 0:5648 --size 1280x720
# the lesson's arm (assets/arm.gltf, tools/make_arm_model.c) at the frame section 4 follows
shot arm_frame "$here/assets/arm.gltf" --clip Bend --time 0.25 --show-skeleton --inspect-vertex 0:48 --size 1280x720
echo "done: $(ls "$out" | wc -l) files in docs/images"
