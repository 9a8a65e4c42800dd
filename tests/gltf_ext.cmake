# glTF extension decoders (src/io/gltf/gltf_meshopt.c, gltf_draco.cpp, gltf_webp.c): round trips
# through each library's own encoder, then damaged inputs. No window, no GL, no files.
#   io_gltf_meshopt  EXT_meshopt_compression (vertex / index codecs, the three filters)
#   io_gltf_draco    KHR_draco_mesh_compression (draco's encoder, behind test_draco_encoder.cpp)
#   io_gltf_webp     EXT_texture_webp (WebPEncodeRGBA / WebPEncodeLosslessRGBA)
add_executable(test_gltf_meshopt test_gltf_meshopt.c)
target_link_libraries(test_gltf_meshopt PRIVATE skinview_io skinview_testutil meshoptimizer::meshoptimizer)
add_test(NAME io_gltf_meshopt COMMAND test_gltf_meshopt)

# The test's Draco encoder: C++ (draco has no C API), one file behind a C function, test-only.
add_library(skinview_test_draco_encoder STATIC test_draco_encoder.cpp)
target_include_directories(skinview_test_draco_encoder PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(skinview_test_draco_encoder PRIVATE PkgConfig::DRACO)
add_executable(test_gltf_draco test_gltf_draco.c)
target_link_libraries(test_gltf_draco PRIVATE skinview_io skinview_testutil skinview_test_draco_encoder)
add_test(NAME io_gltf_draco COMMAND test_gltf_draco)

add_executable(test_gltf_webp test_gltf_webp.c)
target_link_libraries(test_gltf_webp PRIVATE skinview_io skinview_testutil PkgConfig::WEBP)
add_test(NAME io_gltf_webp COMMAND test_gltf_webp)

set_tests_properties(io_gltf_meshopt io_gltf_draco io_gltf_webp PROPERTIES LABELS "io" TIMEOUT 120)

# io_gltf_web: web-optimised variants (tests/data/web/, and of ../shared models when the npm tools
# of tools/web are installed) open and pose like the original, through --export-pose, --verify and
# --screenshot (test_gltf_web.c). Runs the binary, so it needs a GL context (xvfb-run or EGL).
add_executable(test_gltf_web test_gltf_web.c)
target_include_directories(test_gltf_web PRIVATE /usr/include/stb)
target_link_libraries(test_gltf_web PRIVATE skinview_testutil PkgConfig::CJSON ${MATH_LIBRARY})
target_compile_definitions(test_gltf_web PRIVATE
  SKINVIEW_WEB_TOOLS_BIN="${CMAKE_SOURCE_DIR}/tools/web/node_modules/.bin"
  SKINVIEW_WEB_CACHE="${CMAKE_CURRENT_BINARY_DIR}/web-variants")
add_dependencies(test_gltf_web skinview)
add_test(NAME io_gltf_web COMMAND test_gltf_web demo)
# The same for ../shared models (skipped, exit 77, without the npm tools or ../shared): minutes.
add_test(NAME io_gltf_web_shared COMMAND test_gltf_web shared)
set_tests_properties(io_gltf_web PROPERTIES LABELS "io;gl" TIMEOUT 600)
set_tests_properties(io_gltf_web_shared PROPERTIES LABELS "io;gl" TIMEOUT 1500 SKIP_RETURN_CODE 77)
