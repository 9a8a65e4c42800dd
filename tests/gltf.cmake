# skinview's own glTF 2.0 reader (src/io/gltf/): files the test writes (every accessor form,
# extensionsRequired refusals, damaged GLB / JSON, reads per import, skins per node and the
# --max-bones split) and the three conformance models of ../shared/models/gltf-asset-generator.
add_executable(test_gltf_reader test_gltf_reader.c)
target_link_libraries(test_gltf_reader PRIVATE skinview_io skinview_testutil PkgConfig::CJSON)
add_dependencies(test_gltf_reader skinview)   # the refusals and damaged files also run the binary
foreach(part accessors refusals damaged once skins conformance)
  add_test(NAME io_gltf_${part} COMMAND test_gltf_reader ${part})
  set_tests_properties(io_gltf_${part} PROPERTIES LABELS "io" SKIP_RETURN_CODE 77 TIMEOUT 120)
endforeach()

# POINTS / LINES / LINE_LOOP / LINE_STRIP primitives: counts, element lists, skinned and morphed
# poses, --info and --export-pose (OBJ p / l elements).
add_executable(test_gltf_primitives test_gltf_primitives.c)
target_link_libraries(test_gltf_primitives PRIVATE skinview_io skinview_testutil PkgConfig::CJSON)
add_dependencies(test_gltf_primitives skinview)
add_test(NAME io_gltf_primitives COMMAND test_gltf_primitives)
set_tests_properties(io_gltf_primitives PROPERTIES LABELS "io;gl" TIMEOUT 60)   # gl: --verify makes a context

# The glTF reader's own libFuzzer target (clang, -DSKINVIEW_FUZZ=ON; scripts/fuzz.sh runs it on
# the JSON and GLB seeds for one share of the fuzz stage).
if(SKINVIEW_FUZZ)
  add_executable(fuzz_gltf fuzz/fuzz_gltf.c)
  target_link_libraries(fuzz_gltf PRIVATE skinview_io)
  target_link_options(fuzz_gltf PRIVATE -fsanitize=fuzzer,address,undefined)
endif()
