# fbx_properties: every Properties70 / Properties60 name the FBX files under the given paths set,
# per object kind (tools/fbx_properties.c), for docs/skinning.md's table of FBX properties.
add_executable(fbx_properties tools/fbx_properties.c)
target_link_libraries(fbx_properties PRIVATE skinview_io)
