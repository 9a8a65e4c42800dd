# Vertex animation textures (docs/vat.md): the pure math (src/anim/vat.c) and, through the
# real binary, bake -> files -> playback on the demo and a real FBX (tests/test_vat_bake.c).
add_executable(test_vat test_vat.c)
target_link_libraries(test_vat PRIVATE skinview_anim skinview_testutil)
add_test(NAME anim_vat COMMAND test_vat)
set_tests_properties(anim_vat PROPERTIES LABELS "anim" SKIP_RETURN_CODE 77)

add_executable(test_vat_bake test_vat_bake.c)
target_link_libraries(test_vat_bake PRIVATE skinview_testutil skinview_io PkgConfig::CJSON PkgConfig::PNG)
add_dependencies(test_vat_bake skinview)
add_test(NAME vat_bake_playback COMMAND test_vat_bake)
set_tests_properties(vat_bake_playback PROPERTIES LABELS "gl;io" SKIP_RETURN_CODE 77 TIMEOUT 600)

# The --vat window under a virtual X server (a crowd of 16, the HUD on): still drawing frames
# when `timeout` stops it (exit code 124), as viewer_window_xvfb checks for the skinned viewer.
find_program(XVFB_RUN_EXECUTABLE xvfb-run)
find_program(TIMEOUT_EXECUTABLE timeout)
if(XVFB_RUN_EXECUTABLE AND TIMEOUT_EXECUTABLE)
  add_test(NAME vat_window_bake
    COMMAND sh -c "rm -rf '${CMAKE_CURRENT_BINARY_DIR}/vat_window' && '$<TARGET_FILE:skinview>' '${CMAKE_SOURCE_DIR}/assets/demo.fbx' --bake-vat '${CMAKE_CURRENT_BINARY_DIR}/vat_window' --fps 2 --quiet")
  set_tests_properties(vat_window_bake PROPERTIES FIXTURES_SETUP vat_window_dir TIMEOUT 60 LABELS "gl")
  add_test(NAME vat_window_xvfb
    COMMAND sh -c [=[
rc_file="$PWD/vat_window_xvfb.rc"; rm -f "$rc_file"
"$1" -a -s "-screen 0 800x600x24" sh -c '"$1" 4 "$2" --vat "$3" --instances 16 --size 640x480; echo $? > "$4"' sh "$2" "$3" "$4" "$rc_file"
rc=$(cat "$rc_file" 2>/dev/null || echo none)
[ "$rc" = 124 ] || { echo "--vat window exited with $rc before the timeout (124 expected)"; exit 1; }
echo "--vat window ran until the timeout"]=]
            sh ${XVFB_RUN_EXECUTABLE} ${TIMEOUT_EXECUTABLE} $<TARGET_FILE:skinview> ${CMAKE_CURRENT_BINARY_DIR}/vat_window)
  set_tests_properties(vat_window_xvfb PROPERTIES FIXTURES_REQUIRED vat_window_dir TIMEOUT 60 LABELS "gl;window")
endif()
