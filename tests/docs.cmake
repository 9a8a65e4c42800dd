# Stage docs: the documentation agrees with the code. CTest names start with docs_.

# --help, the README and the man page list the same options; README and man page the same keys.
skinview_test(docs_flags_agree docs/test_docs.c LINK skinview_view_core BINARY DEPENDS skinview_man
              ARGS ${CMAKE_BINARY_DIR}/man/skinview.1)

# docs/skinning.md cannot disagree with the code: its worked-example numbers (the demo vertex's
# from `skinview --inspect-vertex ... --json`, checked against the reference jobs) and
# images/offset_matrix.svg are what tools/skinning_numbers.c computes with src/anim today, and
# every "trap N" / "section N" / "Name" reference to it (in the doc and the sources) resolves.
# The tool's functions are compiled in without its main (SKINNING_NUMBERS_NO_MAIN).
skinview_test(docs_numbers docs/test_doc_numbers.c SOURCES ${CMAKE_SOURCE_DIR}/tools/skinning_numbers.c
              INCLUDES ${CMAKE_SOURCE_DIR}/tools LINK skinview_io PkgConfig::CJSON BINARY
              DEFINES SKINNING_NUMBERS_NO_MAIN SKINNING_NUMBERS_DEMO="${CMAKE_SOURCE_DIR}/assets/demo.fbx"
                      SKINNING_NUMBERS_ARM="${CMAKE_SOURCE_DIR}/assets/arm.gltf"
                      SKINNING_NUMBERS_SKINVIEW="$<TARGET_FILE:skinview>"
              LABELS docs TIMEOUT 60)

# README.md and docs/skinning.md point at code that exists: every path a file or folder of the tree,
# every "`name` (src/file.c)" a name in that file (test_doc_pointers.c).
skinview_test(docs_code_pointers docs/test_doc_pointers.c LABELS docs)
