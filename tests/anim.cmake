# Animation-core tests (src/anim/): pure functions on hand-built data — no files, no window.
foreach(name sampling pose skin)
  add_executable(test_${name} test_${name}.c)
  target_link_libraries(test_${name} PRIVATE skinview_anim skinview_testutil)
endforeach()

# test_skin counts malloc/calloc/realloc calls to show that animator_evaluate()
# and the jobs it runs never allocate (GNU ld / lld: -Wl,--wrap=SYMBOL).
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang" AND CMAKE_SYSTEM_NAME STREQUAL "Linux")
  target_link_options(test_skin PRIVATE
    -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc)
  target_compile_definitions(test_skin PRIVATE TEST_WRAP_MALLOC)
endif()

add_test(NAME anim_sampling COMMAND test_sampling)
add_test(NAME anim_pose COMMAND test_pose)
add_test(NAME anim_skin COMMAND test_skin skin)
add_test(NAME anim_animator COMMAND test_skin animator)
set_tests_properties(anim_sampling anim_pose anim_skin anim_animator PROPERTIES
  LABELS "anim" SKIP_RETURN_CODE 77)

# Generated tangent frames for normal maps (src/anim/tangents.c).
add_executable(test_tangents test_tangents.c)
target_link_libraries(test_tangents PRIVATE skinview_anim skinview_testutil)
add_test(NAME anim_tangents COMMAND test_tangents)
