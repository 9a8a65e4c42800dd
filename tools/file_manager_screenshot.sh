#!/usr/bin/env bash
# tools/file_manager_screenshot.sh [OUT.png] — the desktop integration seen from a real file
# manager: installs build/ into a private prefix (cmake --install, which also builds its MIME and
# desktop databases), opens pcmanfm in thumbnail view on a folder of test models under Xvfb with
# a fresh home (empty thumbnail cache), waits until pcmanfm has run the installed thumbnailer
# (share/thumbnailers/skinview.thumbnailer) for every model, and screenshots the screen
# (default docs/images/file-manager.png). Prints how long each thumbnailer call took (a wrapper
# named skinview in PATH times them), each file's MIME type and the default application for FBX.
# A development aid, not a test. Needs: pcmanfm imagemagick xvfb xauth dbus bc (apt-get install).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD:-$root/build}"
out="${1:-$root/docs/images/file-manager.png}"
work="$(mktemp -d /tmp/skinview-fm-XXXXXX)"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null 2>&1
# a wrapper named skinview in PATH logs how long each call from the file manager takes
mkdir -p "$work/wrap" "$work/home/.config/libfm" "$work/home/.config/pcmanfm/default" "$work/models"
cat > "$work/wrap/skinview" <<WRAP
#!/bin/sh
start=\$(date +%s.%N)
"$prefix/bin/skinview" "\$@"; status=\$?
end=\$(date +%s.%N)
echo "\$(echo "\$end - \$start" | bc) s exit \$status: \$*" >> "$work/thumbnailer.log"
exit \$status
WRAP
chmod +x "$work/wrap/skinview"
cat > "$work/home/.config/libfm/libfm.conf" <<CONF
[config]
thumbnail_local=1
thumbnail_max=65536
[ui]
big_icon_size=128
thumbnail_size=128
show_thumbnail=1
CONF
cat > "$work/home/.config/pcmanfm/default/pcmanfm.conf" <<CONF
[ui]
win_width=1000
win_height=660
side_pane_mode=0
view_mode=2
show_hidden=0
sort_type=0
sort_by=2
CONF
shared="$root/../shared/models"
tm=/usr/share/assimp/models
cp "$root/assets/demo.fbx" "$work/models/demo.fbx"
cp "$shared/khronos-fox/Fox.glb" "$shared/threejs-xbot/Xbot.glb" "$shared/quaternius-wizard/Wizard.glb" \
   "$shared/quaternius-male-casual/Male_Casual.fbx" "$shared/threejs-mixamo-fbx/mixamo.fbx" \
   "$shared/khronos-riggedfigure/RiggedFigure.glb" "$tm/FBX/huesitos.fbx" "$tm/X/Testwuson.X" \
   "$tm/Collada/box_nested_animation.dae" "$tm/X/BCN_Epileptic.X" "$work/models/"
count=$(ls "$work/models" | wc -l)
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_CACHE_HOME="$work/home/.cache"
export XDG_DATA_HOME="$work/home/.local/share" XDG_DATA_DIRS="$prefix/share:/usr/local/share:/usr/share"
export PATH="$work/wrap:$PATH" NO_AT_BRIDGE=1
echo "work: $work"
xvfb-run -a -s "-screen 0 1000x660x24" sh -c "
  dbus-run-session -- sh -c '
    pcmanfm --no-desktop \"$work/models\" & pid=\$!
    for i in \$(seq 1 60); do sleep 1; n=\$(cat \"$work/thumbnailer.log\" 2>/dev/null | wc -l); [ \$n -ge $count ] && break; done
    sleep 3
    import -window root \"$out\"
    kill \$pid
  '
"
echo "thumbnailer calls (seconds each, as pcmanfm ran them):"
sed "s|$work/models/||; s| $work/home/[^ ]*| OUT|" "$work/thumbnailer.log"
echo "MIME types:"; for f in "$work"/models/*; do printf '%s: %s\n' "$(basename "$f")" "$(gio info -a standard::content-type "$f" | sed -n 's/^ *standard::content-type: //p')"; done
echo "$(gio mime application/vnd.autodesk.fbx | head -1)"
rm -rf "$work"
