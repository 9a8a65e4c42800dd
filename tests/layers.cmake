# The rooms of src/ keep README's rules (base → anim → io / gfx → platform → view → app; Assimp in
# io, GL in gfx and platform, GLFW in the window-facing rooms; no circle inside a folder):
# tests/docs/test_layers.c reads every include and definition of src/. The build enforces part of it too
# (cmake/rooms.cmake: each library sees only the rooms it may include; glad is linked to gfx alone).
skinview_test(docs_layers docs/test_layers.c SOURCES util/layers_tree.c LABELS docs)   # layers_tree.c: the reader of src/

# The build's half: a room that may not use GL or a room above it does not compile when it tries
# (the include folders cmake/rooms.cmake makes, and glad linked PRIVATE to skinview_gfx).
skinview_test(docs_layers_view_cannot_include_gl
              COMMAND ${CMAKE_C_COMPILER} -fsyntax-only -x c -I${CMAKE_BINARY_DIR}/rooms/skinview_view
                      -I${CMAKE_BINARY_DIR}/rooms/skinview_gfx ${CMAKE_CURRENT_SOURCE_DIR}/data/layers_probe_gl.c
              LABELS docs PROPERTIES PASS_REGULAR_EXPRESSION "glad/gl.h: No such file")
skinview_test(docs_layers_anim_cannot_include_io
              COMMAND ${CMAKE_C_COMPILER} -fsyntax-only -x c -I${CMAKE_BINARY_DIR}/rooms/skinview_anim
                      ${CMAKE_CURRENT_SOURCE_DIR}/data/layers_probe_io.c
              LABELS docs PROPERTIES PASS_REGULAR_EXPRESSION "io/import.h: No such file")
