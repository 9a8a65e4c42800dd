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

# ---- desktop integration (data/): launcher, icon, MIME types, thumbnailer, docs
install(FILES data/skinview.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES data/skinview.thumbnailer DESTINATION ${CMAKE_INSTALL_DATADIR}/thumbnailers)
install(FILES data/skinview-mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages RENAME skinview.xml)
install(DIRECTORY data/icons/hicolor DESTINATION ${CMAKE_INSTALL_DATADIR}/icons)
install(FILES README.md CHANGELOG.md LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})

# A plain `cmake --install` (no DESTDIR: packagers run these in their post-install step)
# refreshes the caches the desktop reads, where the tools exist, so file managers know .fbx
# and .dae at once and list skinview under "Open With".
option(SKINVIEW_UPDATE_DESKTOP_CACHES "Run update-mime-database, update-desktop-database and gtk-update-icon-cache on install (not with DESTDIR)" ON)
if(SKINVIEW_UPDATE_DESKTOP_CACHES)
  install(CODE [[
    if("$ENV{DESTDIR}" STREQUAL "")
      set(share "${CMAKE_INSTALL_PREFIX}/share")
      find_program(update_mime update-mime-database)
      find_program(update_desktop update-desktop-database)
      find_program(update_icons gtk-update-icon-cache)
      if(update_mime)
        message(STATUS "Updating the MIME database in ${share}/mime")
        execute_process(COMMAND ${update_mime} "${share}/mime")
      endif()
      if(update_desktop)
        execute_process(COMMAND ${update_desktop} -q "${share}/applications")
      endif()
      if(update_icons AND EXISTS "${share}/icons/hicolor/index.theme")
        execute_process(COMMAND ${update_icons} -q -t -f "${share}/icons/hicolor")
      endif()
    endif()
  ]])
endif()
