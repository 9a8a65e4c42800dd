# Stage io (src/io/): import, the glTF and FBX readers, validation, pose and VAT export; bad files.
# CTest names start with io_. Real models from assimp-testmodels (required) and ../shared/models
# (when present); most need no window.

# Import / --info tests (src/io/import*.c, src/app/info.c).
# The Assimp reference import (skinview's flags, none of its code) shared by the tests that
# compare the importer or --info with Assimp.
add_library(skinview_assimp_reference STATIC util/assimp_reference.c)
target_include_directories(skinview_assimp_reference PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/util)
target_link_libraries(skinview_assimp_reference PUBLIC PkgConfig::ASSIMP)

set(IO_LINK skinview_testio PkgConfig::ASSIMP PkgConfig::CJSON)
skinview_test(io_import_bindpose io/test_import_bindpose.c LINK ${IO_LINK} LABELS io SKIP TIMEOUT 300)
skinview_test(io_import_reference io/test_import_reference.c LINK ${IO_LINK} skinview_assimp_reference LABELS io SKIP TIMEOUT 300)
skinview_test(io_import_static io/test_import_static.c LINK ${IO_LINK} BINARY LABELS io SKIP TIMEOUT 300)
skinview_test(io_import_split io/test_import_split.c LINK ${IO_LINK} skinview_assimp_reference LABELS io SKIP TIMEOUT 300)
skinview_test(io_import_clips io/test_import_clips.c LINK ${IO_LINK} LABELS io SKIP TIMEOUT 300)
skinview_test(io_hierarchy io/test_hierarchy.c LINK ${IO_LINK} LABELS io SKIP TIMEOUT 300)
skinview_test(io_info_json io/test_info_json.c LINK ${IO_LINK} skinview_assimp_reference BINARY LABELS io SKIP TIMEOUT 300)
skinview_test(io_errors io/test_errors.c LINK ${IO_LINK} BINARY LABELS io SKIP TIMEOUT 300)
skinview_test(io_validate io/test_validate.c SOURCES io/test_validate_clips.c io/validate_fixture.c LINK ${IO_LINK} LABELS io SKIP TIMEOUT 300)

# The FBX transform and curves (src/io/fbx/fbx_transform.c, fbx_curve.c): pure functions against
# values worked out by hand. No files, no window.
skinview_test(io_fbx_transform io/test_fbx_transform.c LINK skinview_io LABELS io)
skinview_test(io_fbx_curve io/test_fbx_curve.c LINK skinview_io LABELS io)

# Import rules checked on small files the tests write.
# Name binding (src/io/import_skeleton.c, trap 10 in docs/skinning.md): a glTF written by the test with
# mesh nodes named like their bones; bones and channels must bind to the armature's nodes.
skinview_test(io_same_names io/test_same_names.c LINK skinview_testio LABELS io SKIP)

# glTF STEP / CUBICSPLINE samplers (src/io/gltf/gltf_anim.c),
# a clip that starts after 0: a .gltf (data: URI) and a .glb written by the test.
skinview_test(io_gltf_interpolation io/test_gltf_interpolation.c LINK skinview_testio LABELS io SKIP)

# skinview's own glTF 2.0 reader (src/io/gltf/): files the test writes (every accessor form,
# extensionsRequired refusals, damaged GLB / JSON, reads per import, skins per node and the
# --max-bones split) and the three conformance models of ../shared/models/gltf-asset-generator.
# (the refusals and damaged files also run the binary)
foreach(part accessors refusals damaged once skins conformance)
  skinview_test(io_gltf_${part} io/test_gltf_reader.c SOURCES io/test_gltf_reader_damaged.c io/test_gltf_reader_skins.c
                io/gltf_reader_fixture.c LINK skinview_io PkgConfig::CJSON BINARY ARGS ${part}
                LABELS io SKIP TIMEOUT 120)
endforeach()

# POINTS / LINES / LINE_LOOP / LINE_STRIP primitives: counts, element lists, skinned and morphed
# poses, --info and --export-pose (OBJ p / l elements). gl: its --verify makes a context.
skinview_test(io_gltf_primitives io/test_gltf_primitives.c LINK skinview_io PkgConfig::CJSON BINARY LABELS io gl TIMEOUT 60)

# glTF extension decoders (src/io/gltf/gltf_meshopt.c, gltf_draco.cpp, gltf_webp.c): round trips
# through each library's own encoder, then damaged inputs. No window, no GL, no files.
#   io_gltf_meshopt  EXT_meshopt_compression (vertex / index codecs, the three filters)
#   io_gltf_draco    KHR_draco_mesh_compression (draco's encoder, behind test_draco_encoder.cpp)
#   io_gltf_webp     EXT_texture_webp (WebPEncodeRGBA / WebPEncodeLosslessRGBA)
skinview_test(io_gltf_meshopt io/test_gltf_meshopt.c LINK skinview_io meshoptimizer::meshoptimizer LABELS io TIMEOUT 120)

# The test's Draco encoder: C++ (draco has no C API), one file behind a C function, test-only.
add_library(skinview_test_draco_encoder STATIC util/test_draco_encoder.cpp)
target_include_directories(skinview_test_draco_encoder PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/util)
target_link_libraries(skinview_test_draco_encoder PRIVATE PkgConfig::DRACO)
skinview_test(io_gltf_draco io/test_gltf_draco.c LINK skinview_io skinview_test_draco_encoder LABELS io TIMEOUT 120)

skinview_test(io_gltf_webp io/test_gltf_webp.c LINK skinview_io PkgConfig::WEBP LABELS io TIMEOUT 120)

# io_gltf_web: web-optimised variants (tests/data/web/, and of ../shared models when the npm tools
# of tools/web are installed) open and pose like the original, through --export-pose, --verify and
# --screenshot (test_gltf_web.c). Runs the binary, so it needs a GL context (xvfb-run or EGL).
skinview_test(io_gltf_web io/test_gltf_web.c LINK PkgConfig::CJSON ${MATH_LIBRARY} BINARY
              DEFINES SKINVIEW_WEB_TOOLS_BIN="${CMAKE_SOURCE_DIR}/tools/web/node_modules/.bin"
                      SKINVIEW_WEB_CACHE="${CMAKE_CURRENT_BINARY_DIR}/web-variants"
              ARGS demo LABELS io gl TIMEOUT 600)
# The same for ../shared models (skipped, exit 77, without the npm tools or ../shared): minutes.
skinview_test(io_gltf_web_shared io/test_gltf_web.c ARGS shared LABELS io gl SKIP TIMEOUT 1500)

# The FBX reader (issue 16, src/io/fbx/): the record tree and object graph on files the test
# writes (binary and ASCII, damaged ones), then on every FBX of ../shared/models and assets/.
skinview_test(io_fbx_doc_tokens io/test_fbx_doc.c SOURCES io/test_fbx_doc_files.c io/fbx_writer.c LINK skinview_io PkgConfig::ZLIB ARGS tokens LABELS io fbx SKIP TIMEOUT 300)
skinview_test(io_fbx_doc_files io/test_fbx_doc.c ARGS files LABELS io fbx SKIP TIMEOUT 300)

# Blend-shape channels with in-between targets (fbx_blend.c): the weight rule by hand, a small
# scene written by the test, Maya's in-between file from ../shared (skipped when absent).
skinview_test(io_fbx_blend io/test_fbx_blend.c LINK skinview_testio LABELS io fbx TIMEOUT 120)

# FBX older than 7.1 built without Assimp (fbx_legacy.c): a written FBX 6.1 scene, then every
# legacy FBX of ../shared/models through import_model and the real binary (--info, --export-pose).
skinview_test(io_fbx_legacy_scene io/test_fbx_legacy.c LINK skinview_testio BINARY ARGS scene LABELS io fbx TIMEOUT 300)
skinview_test(io_fbx_legacy_files io/test_fbx_legacy.c ARGS files LABELS io fbx TIMEOUT 300)

# FBX features as the authoring tools write them (issue 27), each on an ASCII FBX the test writes,
# checked against positions worked out by hand: FBX 5.8 takes and Limits, 6.1 instanced skins,
# Blender's per-vertex shape weights, a parent scaled to 0 about its pivots; --info's list of the
# features a file uses that skinview does not apply.
foreach(mode takes58 links58 instances shape_weights zero_scale not_applied)
  skinview_test(io_fbx_authored_${mode} io/test_fbx_authored.c LINK skinview_io ARGS ${mode} LABELS io fbx TIMEOUT 120)
endforeach()

# Where skinview and the three.js peer disagree (docs/accuracy.md), the authored data decides:
# each test reads the file's own numbers with its own parser and checks skinview's pose against
# them. Real files from assimp-testmodels (required) and ../shared/models (skipped when absent).
set(PEER_TESTS collada_full_turns collada_bind_shape fbx_take_edges)
foreach(name ${PEER_TESTS})
  skinview_test(io_peer_${name} io/test_${name}.c LINK skinview_io PkgConfig::ASSIMP PkgConfig::ZLIB LABELS io SKIP TIMEOUT 300)
endforeach()

# The authoring tool's own OBJ of each FBX at a given moment (../shared/models/ufbx-dcc, skipped
# when absent): skinview --export-pose against it, every row and FBX variant of its manifest.
# (util/dcc_common.c: the manifest and the rule, shared with io_export_gltf_dcc)
skinview_test(io_fbx_dcc io/test_fbx_dcc.c SOURCES util/dcc_common.c LINK PkgConfig::CJSON BINARY LABELS io SKIP TIMEOUT 300)

# Review findings (importer, --info): each test builds the file shape that showed a bug
# from assimp-testmodels files, in a temp folder. No window, no GL.
# (runs the real binary for --info --json)
skinview_test(io_review_import io/test_review_import.c LINK skinview_testio PkgConfig::CJSON BINARY LABELS io SKIP TIMEOUT 300)

# Morph targets (src/io/import_morph.c, src/anim/morph.c, the shader's morph pass): glTF files
# written by the test, checked against hand-computed positions on the CPU, through
# --export-pose, and GPU = CPU through --verify (transform feedback).
# It runs the real binary, and counts malloc/calloc/realloc to show the morph path allocates nothing per frame.
skinview_test(io_morph_targets io/test_morph.c SOURCES io/test_morph_fbx.c io/test_morph_many.c io/morph_fixture.c LINK skinview_testio WRAP_MALLOC BINARY LABELS io gl SKIP TIMEOUT 300)

# glTF STEP / CUBICSPLINE morph-weight samplers and node.weights, read from the file
# (src/io/gltf/gltf_anim.c): sampled weights and positions against hand-computed values.
skinview_test(io_morph_interpolation io/test_morph_interpolation.c LINK skinview_io BINARY LABELS io gl SKIP TIMEOUT 300)

# --export-pose: OBJ vertex count, bind pose, animated pose, unwritable output (real models).
skinview_test(io_export_pose io/test_export.c LINK skinview_io BINARY LABELS io export TIMEOUT 300)

# A bones-per-mesh limit below what one triangle needs cannot be met by splitting
# (Assimp 5.2's SplitByBoneCount would loop forever): a clear error, exit 1, no hang.
skinview_test(io_max_bones_too_small
  COMMAND sh -c "out=$('$<TARGET_FILE:skinview>' '${SKINVIEW_TESTMODELS_DIR}/FBX/huesitos.fbx' --info --max-bones 3 2>&1); rc=$?; echo \"$out\"; test $rc -eq 1 && echo \"$out\" | grep -q 'huesitos.fbx: a triangle uses 7 bones'"
  TIMEOUT 30)

# Files that make Assimp itself abort or hang: exit 1 with one line, never a crash or a hang.
skinview_test(io_import_guard io/test_import_guard.c BINARY LABELS io TIMEOUT 120)

# Outputs written atomically (issue 12, src/io/atomic_file.c): --export-pose / --screenshot failing
# half-way leave no file.
skinview_test(io_atomic_export io/test_atomic_output.c BINARY ARGS export LABELS robust TIMEOUT 120)
skinview_test(io_atomic_screenshot io/test_atomic_output.c ARGS screenshot LABELS robust gl TIMEOUT 120)

# Node trees 60 000 and 100 000 deep; a stack overflow inside Assimp still ends with one line.
skinview_test(io_deep_hierarchy io/test_deep_hierarchy.c LINK skinview_io BINARY LABELS robust io TIMEOUT 300)

# >= 2 000 damaged copies of real files (truncations, bit flips, chunk swaps; fixed seed) through
# --info, --export-pose and --screenshot: exit 0 or 1, never a signal, one line per failure.
# The release build runs the even-numbered copies, the sanitizer build every 4th of the odd ones, n = 1
# mod 4 (each run is several times slower there; the two builds together see three quarters).
# box_orphant_embedded_texture.fbx's copies 1 and 97 make Assimp free a block twice: ASan's report
# goes to a file of its own (log_path) and the guard's sanitizer death callback prints the one line
# (io/import_guard.c); a report outside Assimp fails the run.
if(SKINVIEW_SANITIZE)
  set(DAMAGED_CORPUS_ARGS --every 4 --offset 1)
else()
  set(DAMAGED_CORPUS_ARGS --every 2 --offset 0)
endif()
skinview_test(io_damaged_corpus io/test_damaged_corpus.c BINARY ARGS ${DAMAGED_CORPUS_ARGS} LABELS robust gl TIMEOUT 1500)

# Validation rules through small glTF files the test writes (singular bind, keys backwards,
# absurd keys, zero weights, textures that are not images or too large, node cycles).
skinview_test(io_robust_files io/test_robust_files.c BINARY LABELS robust io TIMEOUT 120)

# Every reproducer the fuzzer found, through the real binary.
skinview_test(io_fuzz_regressions io/test_fuzz_regressions.c BINARY LABELS robust io TIMEOUT 120)
# A message quoting text from a file (names, types, URIs, extension names, Assimp's own message)
# stays one line: every reader fed newlines, tabs, ESC and bytes that are not UTF-8 (issue 32).
skinview_test(io_one_line_messages io/test_one_line_messages.c LINK skinview_io BINARY LABELS robust io TIMEOUT 120)

# The import's memory budget: a 9 KiB file that makes Assimp reserve 2.4 GiB ends with one line.
# Release builds only (the budget is an address-space limit, which sanitizers cannot live with).
if(NOT SKINVIEW_SANITIZE)
  skinview_test(io_memory_budget io/test_memory_budget.c BINARY LABELS robust io TIMEOUT 120)
endif()

# VAT bake -> files -> playback through the real binary, on the demo and a real FBX.
skinview_test(io_vat_bake_playback io/test_vat_bake.c LINK skinview_io PkgConfig::CJSON PkgConfig::PNG BINARY LABELS gl io SKIP TIMEOUT 600)

# The libFuzzer targets are programs, not CTest tests (clang, -DSKINVIEW_FUZZ=ON; scripts/fuzz.sh builds and runs them, sharing the
# fuzz stage's time): the whole importer (fuzz_import), skinview's glTF reader on the JSON and GLB
# seeds (fuzz_gltf), its FBX reader (fuzz_fbx).
if(SKINVIEW_FUZZ)
  foreach(target import gltf fbx)
    add_executable(fuzz_${target} fuzz/fuzz_${target}.c)
    target_link_libraries(fuzz_${target} PRIVATE skinview_io)
    target_link_options(fuzz_${target} PRIVATE -fsanitize=fuzzer,address,undefined)
  endforeach()
endif()

# A VAT bake's mesh.glb keeps every map's texCoord and KHR_texture_transform, the second UV set
# (TEXCOORD_2, by vertex id) and the primitive kinds: written and read back, field by field; and
# the VAT player draws a transformed texture, lines and points as the skinned viewer does
# (gfx_vat_texture_lines, the same program, in tests/gfx.cmake).
skinview_test(io_vat_mesh_roundtrip io/test_vat_texture.c LINK skinview_app PkgConfig::CJSON STB BINARY LABELS io TIMEOUT 60)
skinview_test(gfx_vat_texture_lines io/test_vat_texture.c ARGS gfx LABELS gfx gl SKIP TIMEOUT 120)

# Each model file read from disk once by an import (src/io/import.c: every stage on the same bytes),
# counted with strace (skipped without it); an OBJ's .mtl still found next to it.
skinview_test(io_one_read io/test_one_read.c BINARY LABELS io SKIP TIMEOUT 120)
