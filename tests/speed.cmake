# The fast paths (src/anim/skin_fast.c, skin_threads.c) against the scalar references on real
# models. Speed itself is measured by bench/bench_anim, never by a test.
add_executable(test_skin_fast_models test_skin_fast_models.c)
target_link_libraries(test_skin_fast_models PRIVATE skinview_io skinview_testutil)
add_test(NAME speed_skin_fast_models COMMAND test_skin_fast_models)
set_tests_properties(speed_skin_fast_models PROPERTIES LABELS "anim;io" SKIP_RETURN_CODE 77 TIMEOUT 300)
