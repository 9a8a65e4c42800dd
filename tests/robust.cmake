# Robustness (issue 12): outputs written atomically, damaged inputs, deep hierarchies, GL errors.
add_executable(test_atomic_output test_atomic_output.c)
target_link_libraries(test_atomic_output PRIVATE skinview_testutil)
add_dependencies(test_atomic_output skinview)
add_test(NAME robust_atomic_export COMMAND test_atomic_output export)
add_test(NAME robust_atomic_screenshot COMMAND test_atomic_output screenshot)
set_tests_properties(robust_atomic_export PROPERTIES LABELS "robust" TIMEOUT 120)
set_tests_properties(robust_atomic_screenshot PROPERTIES LABELS "robust;gl" TIMEOUT 120)

# --gl-debug: the KHR_debug callback and the glGetError fallback catch a deliberate GL error.
add_executable(test_gl_debug test_gl_debug.c)
target_link_libraries(test_gl_debug PRIVATE skinview_app skinview_testutil)
add_test(NAME robust_gl_debug_callback COMMAND test_gl_debug 1)
add_test(NAME robust_gl_debug_poll COMMAND test_gl_debug poll)
set_tests_properties(robust_gl_debug_callback robust_gl_debug_poll PROPERTIES
  LABELS "robust;gl;gl_debug_selftest" SKIP_RETURN_CODE 77 TIMEOUT 60)

# Node trees 60 000 and 100 000 deep; a stack overflow inside Assimp still ends with one line.
add_executable(test_deep_hierarchy test_deep_hierarchy.c)
target_link_libraries(test_deep_hierarchy PRIVATE skinview_io skinview_testutil)
add_dependencies(test_deep_hierarchy skinview)
add_test(NAME robust_deep_hierarchy COMMAND test_deep_hierarchy)
set_tests_properties(robust_deep_hierarchy PROPERTIES LABELS "robust;io" TIMEOUT 300)

# The libFuzzer target (clang, -DSKINVIEW_FUZZ=ON; scripts/fuzz.sh builds and runs it).
if(SKINVIEW_FUZZ)
  add_executable(fuzz_import fuzz/fuzz_import.c)
  target_link_libraries(fuzz_import PRIVATE skinview_io)
  target_link_options(fuzz_import PRIVATE -fsanitize=fuzzer,address,undefined)
endif()

# >= 2 000 damaged copies of real files (truncations, bit flips, chunk swaps; fixed seed) through
# --info, --export-pose and --screenshot: exit 0 or 1, never a signal, one line per failure.
# The sanitizer build runs every 4th copy (each run is several times slower there).
add_executable(test_damaged_corpus test_damaged_corpus.c)
target_link_libraries(test_damaged_corpus PRIVATE skinview_testutil)
add_dependencies(test_damaged_corpus skinview)
if(SKINVIEW_SANITIZE)
  add_test(NAME robust_damaged_corpus COMMAND test_damaged_corpus --every 4)
else()
  add_test(NAME robust_damaged_corpus COMMAND test_damaged_corpus)
endif()
set_tests_properties(robust_damaged_corpus PROPERTIES LABELS "robust;gl" TIMEOUT 1500)

# Validation rules through small glTF files the test writes (singular bind, keys backwards,
# absurd keys, zero weights, textures that are not images or too large, node cycles).
add_executable(test_robust_files test_robust_files.c)
target_link_libraries(test_robust_files PRIVATE skinview_testutil)
add_dependencies(test_robust_files skinview)
add_test(NAME robust_files COMMAND test_robust_files)
set_tests_properties(robust_files PROPERTIES LABELS "robust;io" TIMEOUT 120)

# Every reproducer the fuzzer found, through the real binary.
add_executable(test_fuzz_regressions test_fuzz_regressions.c)
target_link_libraries(test_fuzz_regressions PRIVATE skinview_testutil)
add_dependencies(test_fuzz_regressions skinview)
add_test(NAME robust_fuzz_regressions COMMAND test_fuzz_regressions)
set_tests_properties(robust_fuzz_regressions PROPERTIES LABELS "robust;io" TIMEOUT 120)

# The import's memory budget: a 9 KiB file that makes Assimp reserve 2.4 GiB ends with one line.
# Release builds only (the budget is an address-space limit, which sanitizers cannot live with).
if(NOT SKINVIEW_SANITIZE)
  add_executable(test_memory_budget test_memory_budget.c)
  target_link_libraries(test_memory_budget PRIVATE skinview_testutil)
  add_dependencies(test_memory_budget skinview)
  add_test(NAME robust_memory_budget COMMAND test_memory_budget)
  set_tests_properties(robust_memory_budget PROPERTIES LABELS "robust;io" TIMEOUT 120)
endif()
