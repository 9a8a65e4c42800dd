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
