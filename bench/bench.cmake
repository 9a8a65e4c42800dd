# bench_anim: per-frame cost of each animation-core job (not a test: prints numbers).
#   build-anim/bench_anim                      synthetic character built in code
#   build-anim/bench_anim MODEL [--clip N]     a real file through src/io/import.c
add_executable(bench_anim ${CMAKE_CURRENT_LIST_DIR}/bench_anim.c)
target_link_libraries(bench_anim PRIVATE skinview_io skinview_anim)
