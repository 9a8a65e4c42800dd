#!/usr/bin/env bash
# scripts/make_icons.sh [SKINVIEW] — regenerates the application icon in data/icons/ from the
# bundled demo character, walking (clip Walk at 0.3 s), rendered by skinview's own --thumbnail
# (transparent background, the viewer's three-quarter camera) at every hicolor size; the
# scalable SVG embeds the 512-pixel rendering. SKINVIEW defaults to build/skinview.
# Needs no display (EGL surfaceless). Run it after the demo model changes, then commit data/icons.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
skinview="${1:-$root/build/skinview}"
icons="$root/data/icons/hicolor"
frame=(--clip Walk --time 0.3)
for size in 16 22 24 32 48 64 128 256 512; do
  dir="$icons/${size}x${size}/apps"
  mkdir -p "$dir"
  "$skinview" --thumbnail "$root/assets/demo.fbx" "$dir/skinview.png" "$size" "${frame[@]}"
done
mkdir -p "$icons/scalable/apps"
{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  echo '<!-- skinview icon: the demo character (assets/demo.fbx, clip Walk at 0.3 s) rendered by'
  echo "     skinview's thumbnail mode at 512 pixels; made by scripts/make_icons.sh -->"
  echo '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
  echo '     width="256" height="256" viewBox="0 0 256 256">'
  echo '  <title>skinview</title>'
  printf '  <image x="0" y="0" width="256" height="256" xlink:href="data:image/png;base64,'
  base64 -w 0 "$icons/512x512/apps/skinview.png"
  echo '"/>'
  echo '</svg>'
} > "$icons/scalable/apps/skinview.svg"
echo "skinview: icons written to $icons"
