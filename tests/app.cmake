add_executable(test_cli test_cli.c)
target_link_libraries(test_cli PRIVATE skinview_app skinview_testutil)
add_test(NAME cli_parse COMMAND test_cli)

# Bad usage through the real binary: exit code 2 and a message.
add_test(NAME cli_bad_usage COMMAND skinview --no-such-option)
set_tests_properties(cli_bad_usage PROPERTIES WILL_FAIL TRUE)
add_test(NAME cli_help COMMAND skinview --help)
set_tests_properties(cli_help PROPERTIES PASS_REGULAR_EXPRESSION "usage: skinview")

# After `cmake --install`, the installed binary finds its shaders and the demo model
# (share/skinview next to bin/).
add_test(NAME install_finds_demo
  COMMAND ${CMAKE_COMMAND} -E env
          sh -c "rm -rf '${CMAKE_BINARY_DIR}/install-test' && '${CMAKE_COMMAND}' --install '${CMAKE_BINARY_DIR}' --prefix '${CMAKE_BINARY_DIR}/install-test' >/dev/null && '${CMAKE_BINARY_DIR}/install-test/bin/skinview' --info")
set_tests_properties(install_finds_demo PROPERTIES PASS_REGULAR_EXPRESSION "install-test/bin/../share/skinview/assets/demo.fbx")

# A bones-per-mesh limit below what one triangle needs cannot be met by splitting
# (Assimp 5.2's SplitByBoneCount would loop forever): a clear error, exit 1, no hang.
add_test(NAME max_bones_too_small
  COMMAND sh -c "out=$('$<TARGET_FILE:skinview>' '${SKINVIEW_TESTMODELS_DIR}/FBX/huesitos.fbx' --info --max-bones 3 2>&1); rc=$?; echo \"$out\"; test $rc -eq 1 && echo \"$out\" | grep -q 'huesitos.fbx: a triangle uses 7 bones'")
set_tests_properties(max_bones_too_small PROPERTIES TIMEOUT 30)

# Files that make Assimp itself abort or hang: exit 1 with one line, never a crash or a hang.
add_executable(test_import_guard test_import_guard.c)
target_link_libraries(test_import_guard PRIVATE skinview_testutil)
add_dependencies(test_import_guard skinview)
add_test(NAME import_guard COMMAND test_import_guard)
set_tests_properties(import_guard PROPERTIES LABELS "io" TIMEOUT 120)

# With no MODEL the bundled demo opens on its Walk clip (clip 0 is the quieter Idle).
add_test(NAME demo_starts_walking
  COMMAND sh -c "d='${CMAKE_CURRENT_BINARY_DIR}' && s='$<TARGET_FILE:skinview>' && \
$s --time 0.25 --export-pose $d/default.obj && \
$s '${CMAKE_SOURCE_DIR}/assets/demo.fbx' --clip Walk --time 0.25 --export-pose $d/walk.obj && \
$s '${CMAKE_SOURCE_DIR}/assets/demo.fbx' --time 0.25 --export-pose $d/clip0.obj && \
cmp $d/default.obj $d/walk.obj && ! cmp -s $d/default.obj $d/clip0.obj")
