# cmake/desktop.cmake — what makes skinview a desktop citizen once installed:
# the man page (docs/skinview.1.md -> roff with go-md2man), and --version from project().

target_compile_definitions(skinview_app PRIVATE SKINVIEW_VERSION="${PROJECT_VERSION}")

# ---- man page: Markdown source, @PROJECT_VERSION@ filled in, turned into roff at build time
find_program(GO_MD2MAN_EXECUTABLE go-md2man REQUIRED)
set(SKINVIEW_MAN_DIR ${CMAKE_BINARY_DIR}/man)
configure_file(${CMAKE_SOURCE_DIR}/docs/skinview.1.md ${SKINVIEW_MAN_DIR}/skinview.1.md @ONLY)
add_custom_command(
  OUTPUT ${SKINVIEW_MAN_DIR}/skinview.1
  COMMAND ${GO_MD2MAN_EXECUTABLE} -in ${SKINVIEW_MAN_DIR}/skinview.1.md -out ${SKINVIEW_MAN_DIR}/skinview.1
  DEPENDS ${SKINVIEW_MAN_DIR}/skinview.1.md
  COMMENT "Generating the man page skinview.1 with go-md2man"
  VERBATIM)
add_custom_target(skinview_man ALL DEPENDS ${SKINVIEW_MAN_DIR}/skinview.1)
install(FILES ${SKINVIEW_MAN_DIR}/skinview.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
