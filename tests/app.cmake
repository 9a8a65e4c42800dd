# Stage app (src/app/): the command line, the commands through the real binary, install and
# desktop integration, the bundled demo. CTest names start with app_.
skinview_test(app_cli_parse app/test_cli.c LINK skinview_app)

# Bad usage through the real binary: exit code 2 and a message.
skinview_test(app_cli_bad_usage COMMAND skinview --no-such-option PROPERTIES WILL_FAIL TRUE)
skinview_test(app_cli_help COMMAND skinview --help PROPERTIES PASS_REGULAR_EXPRESSION "usage: skinview")

# --version prints CMake's project version.
skinview_test(app_cli_version COMMAND skinview --version PROPERTIES PASS_REGULAR_EXPRESSION "^skinview ${PROJECT_VERSION}\n$")

# After `cmake --install`, the installed binary finds its shaders and the demo model
# (share/skinview next to bin/).
skinview_test(app_install_finds_demo
  COMMAND ${CMAKE_COMMAND} -E env
          sh -c "rm -rf '${CMAKE_BINARY_DIR}/install-test' && '${CMAKE_COMMAND}' --install '${CMAKE_BINARY_DIR}' --prefix '${CMAKE_BINARY_DIR}/install-test' >/dev/null && '${CMAKE_BINARY_DIR}/install-test/bin/skinview' --info"
  PROPERTIES PASS_REGULAR_EXPRESSION "install-test/bin/../share/skinview/assets/demo.fbx")

# --thumbnail on every test model, and its refusals (damaged files, hangs, the time budget).
# The budget the tests give each thumbnail: a safety net on a loaded machine (sanitizer builds
# run several times slower), not a speed check; the seconds are printed.
if(SKINVIEW_SANITIZE)
  set(SKINVIEW_TEST_THUMBNAIL_BUDGET 60)
else()
  set(SKINVIEW_TEST_THUMBNAIL_BUDGET 20)
endif()
skinview_test(app_thumbnail app/test_thumbnail.c STB BINARY DEFINES SKINVIEW_TEST_THUMBNAIL_BUDGET="${SKINVIEW_TEST_THUMBNAIL_BUDGET}"
              LABELS gl TIMEOUT 600)

# The skinned viewer's --shadow and --environment in the VAT player (--vat --screenshot, against
# the skinned --screenshot) and the thumbnailer, on the demo and a .hdr the test writes.
skinview_test(app_players_look app/test_players_look.c STB BINARY LABELS gl TIMEOUT 300)

# cmake --install into a DESTDIR: every file, the installed binary run from elsewhere, the
# desktop entry, MIME XML and database, icons and the thumbnailer entry.
skinview_test(app_install_desktop app/test_install.c STB BINARY DEPENDS skinview_man
              DEFINES SKINVIEW_TEST_THUMBNAIL_BUDGET="${SKINVIEW_TEST_THUMBNAIL_BUDGET}"
              ARGS ${CMAKE_COMMAND} ${CMAKE_BINARY_DIR} LABELS gl TIMEOUT 120)

# The bundled demo character: regenerated == committed, FBX == GLB, clips move and loop, clean skin.
skinview_test(app_demo_assets app/test_demo.c LINK skinview_testio DEFINES DEMO_GENERATOR="$<TARGET_FILE:make_demo_model>"
              DEPENDS make_demo_model LABELS demo TIMEOUT 300)

# The viewer opens the bundled demo when no MODEL is given.
skinview_test(app_demo_default_model COMMAND skinview --info --json LABELS demo PROPERTIES PASS_REGULAR_EXPRESSION "\"Twist\"")

# With no MODEL the bundled demo opens on its Walk clip (clip 0 is the quieter Idle).
skinview_test(app_demo_starts_walking
  COMMAND sh -c "d='${CMAKE_CURRENT_BINARY_DIR}' && s='$<TARGET_FILE:skinview>' && \
$s --time 0.25 --export-pose $d/default.obj && \
$s '${CMAKE_SOURCE_DIR}/assets/demo.fbx' --clip Walk --time 0.25 --export-pose $d/walk.obj && \
$s '${CMAKE_SOURCE_DIR}/assets/demo.fbx' --time 0.25 --export-pose $d/clip0.obj && \
cmp $d/default.obj $d/walk.obj && ! cmp -s $d/default.obj $d/clip0.obj")

# Errors first: every bad flag and bad file ends before a window exists, with no display at all
# (DISPLAY and WAYLAND_DISPLAY unset): the message names the problem, never "cannot open a window".
skinview_test(app_errors_first app/test_errors_first.c BINARY TIMEOUT 120)

# --record (issue 29): MP4 / WebM / GIF / PNG frames of the demo's Walk, decoded back by the test's
# own libavformat / libavcodec reader (video_decode.c): codec, pixel format, size, frame count and
# rate, MP4's moov before mdat, frames against --screenshot (PSNR), ping-pong and reverse order,
# and the refusals (extension, folder, odd size, GIF rate) with nothing left behind.
skinview_test(app_record app/test_record.c SOURCES util/video_decode.c LINK skinview_io PkgConfig::FFMPEG STB BINARY LABELS gl TIMEOUT 600)
# ... and a browser plays them: headless Chromium loads the MP4 and WebM in <video> (size, duration,
# play()) and the GIF as an image; skipped without chromium.
skinview_test(app_record_browser app/test_record_browser.c BINARY SKIP LABELS gl TIMEOUT 300)
# Issue 28: --animations from the command line (src/app/animations.c): clips with their source file
# (--info, --json), the match table, a folder, a bone map, --export-pose / --bake-vat of an added
# clip (the character travels with the take), bad use in one line. Label gl: --bake-vat asks a GL
# context its texture limit (Mesa leaks what LeakSanitizer cannot name).
skinview_test(app_animations app/test_animations_cli.c BINARY SKIP LABELS gl TIMEOUT 300)
# --against OTHER [--report]: a model against itself (0), one vertex moved (that distance exactly, by
# order and by nearest point), another unit (the hint), demo.fbx against demo.glb, the rigid skin
# against LBS, mixamo.fbx against Xbot.glb (../shared), the heat map in --screenshot, and bad use.
skinview_test(app_against app/test_against.c BINARY LABELS gl TIMEOUT 300)
# Issue 28: the rig a clip was retargeted from, beside the character (Shift+B, --show-source-rig,
# src/teach/source_rig.c): a CMU take on Xbot, screenshots read back — the rig's bones drawn right of
# the character (front and side views), at its size on its ground, none without the flag or on the
# character's own clip; the key table's Shift+B.
skinview_test(app_source_rig app/test_source_rig.c LINK skinview_view STB BINARY SKIP LABELS gl TIMEOUT 120)
# Issue 28: commas in --animations names (src/app/cli.c parse_animations): an existing file with
# commas is one item, '\,' escapes, --animations given again adds up; the list app_add_animations
# takes (the viewer's Shift-drops) holds a path a line, so a dropped path is never split.
skinview_test(app_animations_paths app/test_animations_paths.c LINK skinview_app SKIP LABELS io TIMEOUT 120)
# Issue 29: a scene of many skinned meshes is framed as tightly as a character: the test rebuilds
# Khronos' RecursiveSkeletons from its glTF JSON (924 nodes, 84 skins of 10 joints on one mesh, 840
# rotation channels; the buffer synthesised) and measures the first frame's fill at 1280x720, 800x600,
# 720x720 and 600x800 (>= 55 %, nothing cut off; the square and portrait windows failed before the
# start pose's share, src/view/framing.c view_frame_clip_points).
skinview_test(app_framing_many_skins app/test_framing_many_skins.c STB BINARY LABELS gl TIMEOUT 120)
