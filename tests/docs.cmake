# --help, the README and the man page list the same options; README and man page the same keys.
add_executable(test_docs test_docs.c ${CMAKE_SOURCE_DIR}/src/view/keys.c)
target_include_directories(test_docs PRIVATE ${CMAKE_SOURCE_DIR}/src ${GLFW_INCLUDE_DIRS})
target_link_libraries(test_docs PRIVATE skinview_testutil)
add_dependencies(test_docs skinview skinview_man)
add_test(NAME docs_flags_agree COMMAND test_docs ${CMAKE_BINARY_DIR}/man/skinview.1)

# --version prints CMake's project version.
add_test(NAME cli_version COMMAND skinview --version)
set_tests_properties(cli_version PROPERTIES PASS_REGULAR_EXPRESSION "^skinview ${PROJECT_VERSION}\n$")
