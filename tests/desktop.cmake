# --thumbnail on every test model, and its refusals (damaged files, hangs, the time budget).
add_executable(test_thumbnail test_thumbnail.c)
target_include_directories(test_thumbnail PRIVATE /usr/include/stb)
target_link_libraries(test_thumbnail PRIVATE skinview_testutil)
add_dependencies(test_thumbnail skinview)
# The budget the tests give each thumbnail: a safety net on a loaded machine (sanitizer builds
# run several times slower), not a speed check; the seconds are printed.
if(SKINVIEW_SANITIZE)
  set(SKINVIEW_TEST_THUMBNAIL_BUDGET 60)
else()
  set(SKINVIEW_TEST_THUMBNAIL_BUDGET 20)
endif()
target_compile_definitions(test_thumbnail PRIVATE SKINVIEW_TEST_THUMBNAIL_BUDGET="${SKINVIEW_TEST_THUMBNAIL_BUDGET}")
add_test(NAME thumbnail COMMAND test_thumbnail)
set_tests_properties(thumbnail PROPERTIES LABELS "gl" TIMEOUT 600)

# cmake --install into a DESTDIR: every file, the installed binary run from elsewhere, the
# desktop entry, MIME XML and database, icons and the thumbnailer entry.
add_executable(test_install test_install.c)
target_include_directories(test_install PRIVATE /usr/include/stb)
target_link_libraries(test_install PRIVATE skinview_testutil)
target_compile_definitions(test_install PRIVATE SKINVIEW_TEST_THUMBNAIL_BUDGET="${SKINVIEW_TEST_THUMBNAIL_BUDGET}")
add_dependencies(test_install skinview skinview_man)
add_test(NAME install_desktop COMMAND test_install ${CMAKE_COMMAND} ${CMAKE_BINARY_DIR})
set_tests_properties(install_desktop PROPERTIES LABELS "gl" TIMEOUT 120)
