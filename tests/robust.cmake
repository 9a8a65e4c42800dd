# Robustness (issue 12): outputs written atomically, damaged inputs, deep hierarchies, GL errors.
add_executable(test_atomic_output test_atomic_output.c)
target_link_libraries(test_atomic_output PRIVATE skinview_testutil)
add_dependencies(test_atomic_output skinview)
add_test(NAME robust_atomic_export COMMAND test_atomic_output export)
add_test(NAME robust_atomic_screenshot COMMAND test_atomic_output screenshot)
set_tests_properties(robust_atomic_export PROPERTIES LABELS "robust" TIMEOUT 120)
set_tests_properties(robust_atomic_screenshot PROPERTIES LABELS "robust;gl" TIMEOUT 120)
