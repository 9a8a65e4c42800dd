# rooms.cmake — skinview_rooms(TARGET ROOM...): TARGET's public include folder holds links to the
# src/ROOM folders it may include, and nothing else (so a library that includes a room it may not
# use fails to compile; src/app alone sees all of src). Links, not copies: edits are seen at once.
function(skinview_rooms target)
  set(view ${CMAKE_BINARY_DIR}/rooms/${target})
  file(MAKE_DIRECTORY ${view})
  foreach(room ${ARGN})
    if(NOT IS_SYMLINK ${view}/${room})
      file(CREATE_LINK ${CMAKE_SOURCE_DIR}/src/${room} ${view}/${room} SYMBOLIC)
    endif()
  endforeach()
  target_include_directories(${target} PUBLIC ${view})
endfunction()
