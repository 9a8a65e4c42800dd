# make_arm_model: writes the two-bone arm of docs/skinning.md (tools/arm_model.h) as OUTDIR/arm.gltf
# (JSON) and OUTDIR/arm.bin (its buffer), the file the doc's numbers are reproduced from:
#   cmake --build build --target arm_asset     (regenerates assets/arm.gltf and assets/arm.bin)
add_executable(make_arm_model ${CMAKE_CURRENT_LIST_DIR}/make_arm_model.c)
target_link_libraries(make_arm_model PRIVATE PkgConfig::CJSON PkgConfig::CGLM ${MATH_LIBRARY})
add_custom_target(arm_asset
  COMMAND make_arm_model ${CMAKE_SOURCE_DIR}/assets
  DEPENDS make_arm_model
  COMMENT "Regenerating assets/arm.gltf and assets/arm.bin"
  VERBATIM)
