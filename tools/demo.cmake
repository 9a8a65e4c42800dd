# make_demo_model: builds the bundled demo character in code and writes
# OUTDIR/demo.fbx (ASCII FBX) and OUTDIR/demo.glb with Assimp's exporters.
#   cmake --build build --target make_demo_model && build/make_demo_model assets
# (or: cmake --build build --target demo_assets, which regenerates assets/ in the source tree)
add_executable(make_demo_model ${CMAKE_CURRENT_LIST_DIR}/make_demo_model.c)
target_link_libraries(make_demo_model PRIVATE PkgConfig::ASSIMP PkgConfig::CGLM ${MATH_LIBRARY})
add_custom_target(demo_assets
  COMMAND make_demo_model ${CMAKE_SOURCE_DIR}/assets
  DEPENDS make_demo_model
  COMMENT "Regenerating assets/demo.fbx and assets/demo.glb"
  VERBATIM)
