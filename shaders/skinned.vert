#version 330 core
// skinned.vert — linear blend skinning on the GPU. `skinview --verify` compares it, through
// transform feedback, with animator_skin_mesh (src/anim/animator.c: the morph pass, then the fast
// job skin_job_run of src/anim/skin_fast.c, held to the reference skin_vertices_lbs of
// src/anim/skin.c by tests/anim/test_skin.c). The normal leaves here unnormalised: skinned.frag
// normalises it (--verify compares normals by their angle).
// The loader inserts "#define MAX_BONES N" after the #version line, N from
// GL_MAX_VERTEX_UNIFORM_COMPONENTS (src/gfx/renderer_shader.c).
#ifndef MAX_BONES
#define MAX_BONES 64
#endif
// Morph targets with a non-zero weight listed per draw (the renderer sums more into one).
#ifndef MAX_MORPH_ACTIVE
#define MAX_MORPH_ACTIVE 64
#endif

// The design card: 16 floats per vertex.
layout(location = 0) in vec3 position;   // mesh space
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
layout(location = 3) in vec2 bone0info;  // x = palette index (as float), y = weight
layout(location = 4) in vec2 bone1info;
layout(location = 5) in vec2 bone2info;
layout(location = 6) in vec2 bone3info;
// Not part of the 16 floats: how many weights the file gave this vertex when the import cut
// some (Mesh.influences_in_file, > 4); 0 (the attribute left unset) when it lost none.
layout(location = 7) in float influencesInFile;
// The difference view (--compare A,B, key D): per vertex |p_A - p_B| / legend maximum, uploaded by
// the CPU (renderer_set_vertex_heat); shown through the weight heat-map's colours when showHeat.
layout(location = 8) in float heatValue;
uniform bool showHeat;
// Also outside the 16 floats, for the material (src/gfx/renderer_mesh.c upload_vertices; docs/materials.md):
// each in its own buffer, bound only when the mesh has it; otherwise the attribute's current value
// applies, set by the renderer: colour (1,1,1,1), tangent (0,0,0,0) = none, uv1 unused.
layout(location = 9) in vec4 color;      // COLOR_0 / Assimp colour set 0, linear RGBA
layout(location = 10) in vec4 tangent;    // mesh space xyz, w = bitangent sign (file's TANGENT or generated)
layout(location = 11) in vec2 uv1;       // TEXCOORD_1 (v flipped like uv)
uniform bool hasUv1;                     // false: texCoord1 = uv

uniform mat4 bonesMatrices[MAX_BONES];   // the mesh's palette: model[joint] * inverse_bind
uniform bool skinned;                    // false: static mesh, the palette is not used
// Morph targets (blend shapes), applied BEFORE skinning, in mesh space (CPU: morph_vertices
// in src/anim/morph.c). Deltas of every target live in one buffer texture, RGBA32F, two texels
// per (target t, vertex v): [2 * (t * morphVertexCount + v)] = position delta, [+1] = normal delta.
// Only the targets with a non-zero weight are listed, two per vec4: (target, weight, target, weight).
uniform samplerBuffer morphDeltas;
uniform int morphVertexCount;
uniform int morphActiveCount;            // 0: no morph in this draw
uniform vec4 morphActive[MAX_MORPH_ACTIVE / 2];
uniform bool cpuSkinned;                 // --skinning cpu: position and normal arrive skinned
uniform bool rigidSkinning;              // --skinning rigid: only the heaviest influence (CPU: skin_vertices_rigid)
uniform mat4 model;                      // identity for skinned meshes (palette is in scene space)
uniform mat4 view;
uniform mat4 projection;

out vec3 scenePosition;                  // captured by transform feedback (--verify)
out vec3 sceneNormal;
out vec2 texCoord;
out vec2 texCoord1;
out vec4 vertexColor;
out vec4 sceneTangent;                   // (0,0,0,0) when the mesh has none: the fragment shader uses derivatives
out float selectedWeight;                // weight heat-map (W): this vertex's weight on selectedBone
out float influenceCount;                // influence-count view: non-zero weights 0..4, 5 = more were cut

uniform int selectedBone;                // palette index of the selected joint in this mesh, -1: none

void main()
{
    // p = p_stored + sum_i w_i * positionDelta[t_i][v]  (normals alike; skinning normalises later)
    vec3 morphedPosition = position;
    vec3 morphedNormal = normal;
    for (int i = 0; i < morphActiveCount; i++) {
        vec4 pair = morphActive[i / 2];
        vec2 targetWeight = (i % 2 == 0) ? pair.xy : pair.zw;   // x = target index (as float), y = weight
        int texel = 2 * (int(targetWeight.x) * morphVertexCount + gl_VertexID);
        morphedPosition += targetWeight.y * texelFetch(morphDeltas, texel).xyz;
        morphedNormal += targetWeight.y * texelFetch(morphDeltas, texel + 1).xyz;
    }
    vec4 skinnedPosition = vec4(morphedPosition, 1.0);
    vec4 skinnedNormal = vec4(morphedNormal, 0.0);
    vec4 skinnedTangent = vec4(tangent.xyz, 0.0);
    if (skinned && !cpuSkinned) {
        // p' = sum_k w_k * bonesMatrices[i_k] * (p, 1),  n' = sum_k w_k * bonesMatrices[i_k] * (n, 0)
        // (bone index 0 is a real bone; unused slots have weight 0)
        mat4 skin = bone0info.y * bonesMatrices[int(bone0info.x)]
                  + bone1info.y * bonesMatrices[int(bone1info.x)]
                  + bone2info.y * bonesMatrices[int(bone2info.x)]
                  + bone3info.y * bonesMatrices[int(bone3info.x)];
        if (rigidSkinning) {
            // rigid: p' = bonesMatrices[i_h] * (p, 1), h = the slot with the largest weight (the first
            // of equal weights): each vertex follows one joint, so the surface cracks at the joints
            vec2 heaviest = bone0info;
            if (bone1info.y > heaviest.y) heaviest = bone1info;
            if (bone2info.y > heaviest.y) heaviest = bone2info;
            if (bone3info.y > heaviest.y) heaviest = bone3info;
            skin = bonesMatrices[int(heaviest.x)];
        }
        skinnedPosition = skin * skinnedPosition;
        skinnedNormal = skin * skinnedNormal;
        skinnedTangent = skin * skinnedTangent;   // tangents move like normals' surface directions
    }
    // the teaching views: weight on the selected bone, number of influences
    selectedWeight = 0.0;
    influenceCount = 0.0;
    vec2 info[4] = vec2[4](bone0info, bone1info, bone2info, bone3info);
    for (int k = 0; k < 4 && skinned; k++) {
        if (info[k].y == 0.0) continue;
        if (int(info[k].x) == selectedBone) selectedWeight += info[k].y;
        influenceCount += 1.0;
    }
    if (skinned && influencesInFile > 4.0) influenceCount = 5.0;   // lost its 5th+ influences at import
    if (showHeat) selectedWeight = heatValue;   // the difference view reuses the heat-map colours
    vec4 sceneSpace = model * skinnedPosition;
    scenePosition = sceneSpace.xyz;
    // Normals use the same matrices (exact for rotation + uniform scale; under non-uniform
    // scale they tilt slightly, as in the CPU reference).
    sceneNormal = (model * skinnedNormal).xyz;
    texCoord = uv;
    texCoord1 = hasUv1 ? uv1 : uv;
    vertexColor = color;
    // --skinning cpu uploads skinned positions and normals only: its stored tangents would not
    // follow, so it leaves the frame to the fragment shader's derivatives
    sceneTangent = cpuSkinned && skinned ? vec4(0.0) : vec4((model * skinnedTangent).xyz, tangent.w);
    gl_Position = projection * view * sceneSpace;
}
