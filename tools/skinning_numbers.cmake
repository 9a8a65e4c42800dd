# skinning_numbers: the worked examples of docs/skinning.md (a two-bone arm, one vertex of the demo),
# printed by src/anim.
#   build/skinning_numbers                             print the blocks
#   build/skinning_numbers --update docs/skinning.md   rewrite them in the doc
#   build/skinning_numbers --svg docs/images/offset_matrix.svg
# tests/docs.cmake's docs_numbers test fails when the committed text differs from its output.
add_executable(skinning_numbers ${CMAKE_CURRENT_LIST_DIR}/skinning_numbers.c)
target_include_directories(skinning_numbers PRIVATE ${CMAKE_SOURCE_DIR}/src ${CMAKE_CURRENT_LIST_DIR})
target_compile_definitions(skinning_numbers PRIVATE SKINNING_NUMBERS_DEMO="${CMAKE_SOURCE_DIR}/assets/demo.fbx"
  SKINNING_NUMBERS_ARM="${CMAKE_SOURCE_DIR}/assets/arm.gltf"
  SKINNING_NUMBERS_SKINVIEW="$<TARGET_FILE:skinview>")
target_link_libraries(skinning_numbers PRIVATE skinview_io PkgConfig::CJSON)
# the demo vertex comes from `skinview --inspect-vertex ... --json`
add_dependencies(skinning_numbers skinview)
