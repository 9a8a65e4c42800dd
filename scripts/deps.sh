#!/usr/bin/env bash
# scripts/deps.sh [--test] — installs the Debian 12 packages skinview needs (skips what is installed).
set -euo pipefail
packages=(build-essential cmake pkg-config python3-glad go-md2man libglfw3-dev libassimp-dev libcglm-dev
          libstb-dev libcjson-dev libxml2-dev libpng-dev zlib1g-dev libopenexr-dev libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri
          libmeshoptimizer-dev libdraco-dev libwebp-dev   # glTF extensions: EXT_meshopt_compression, KHR_draco_mesh_compression, EXT_texture_webp
          libavcodec-dev libavformat-dev libavfilter-dev libswscale-dev libavutil-dev   # --record: MP4 (libx264), WebM (VP9), GIF
          fonts-dejavu-core)
if [ "${1:-}" = "--test" ]; then
  packages+=(xvfb xauth assimp-testmodels desktop-file-utils shared-mime-info xdg-utils libxml2-utils
            libglib2.0-bin clang libclang-rt-14-dev   # clang + its libFuzzer runtime: scripts/fuzz.sh
            xdotool libx11-dev                        # view_live: keys and a dropped file
            strace)                                   # io_one_read: opens of a model file counted
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "skinview: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
