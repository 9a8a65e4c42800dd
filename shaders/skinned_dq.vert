#version 330 core
// skinned_dq.vert — dual quaternion skinning on the GPU (the CPU reference is skin_vertices_dq
// in src/anim/skin_dq.c; `skinview --skinning dq --verify` compares the two through transform
// feedback, via skin_dq_pose_skin_mesh: the morph pass, then skin_vertices_dq). Same vertex layout, outputs and fragment shader as skinned.vert (linear blend).
// The loader inserts "#define MAX_BONES N" after the #version line.
#ifndef MAX_BONES
#define MAX_BONES 64
#endif
#ifndef MAX_MORPH_ACTIVE
#define MAX_MORPH_ACTIVE 64
#endif

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
// The difference view (--compare A,B): as in skinned.vert.
layout(location = 8) in float heatValue;
uniform bool showHeat;
// Also outside the 16 floats, for the material (src/gfx/renderer_mesh.c upload_vertices; docs/materials.md):
// each in its own buffer, bound only when the mesh has it; otherwise the attribute's current value
// applies, set by the renderer: colour (1,1,1,1), tangent (0,0,0,0) = none, uv1 unused.
layout(location = 9) in vec4 color;      // COLOR_0 / Assimp colour set 0, linear RGBA
layout(location = 10) in vec4 tangent;    // mesh space xyz, w = bitangent sign (file's TANGENT or generated)
layout(location = 11) in vec2 uv1;       // TEXCOORD_1 (v flipped like uv)
uniform bool hasUv1;                     // false: texCoord1 = uv
// FBX SkinningType Blend: this vertex's LBS share, 1 - Mesh.dq_weight (0, the attribute left unset:
// all DQS).
layout(location = 12) in float linearShare;

// The mesh's palette split by skin_palette_to_dq: palette_i = D_i * P_i (D_i rigid, P_i symmetric).
// Bone i: boneDualQuats[2i] = rotation r_i (x, y, z, w), boneDualQuats[2i+1] = d_i = 1/2 (t_i, 0) r_i
// (the layout of DualQuat in src/anim/skin_dq.h, uploaded in one call); boneStretches[2i],
// [2i+1] = P_i as DqStretch packs it: (p00, p11, p22, p01), (p02, p12, 0, 0).
uniform vec4 boneDualQuats[2 * MAX_BONES];
uniform vec4 boneStretches[2 * MAX_BONES];
// Morph targets, applied before skinning in mesh space, exactly as in skinned.vert.
uniform samplerBuffer morphDeltas;
uniform int morphVertexCount;
uniform int morphActiveCount;            // 0: no morph in this draw
uniform vec4 morphActive[MAX_MORPH_ACTIVE / 2];
uniform bool skinned;                    // false: static mesh, `model` places it
uniform mat4 model;                      // identity for skinned meshes
uniform mat4 view;
uniform mat4 projection;
uniform int selectedBone;                // palette index of the selected joint in this mesh, -1: none

out vec3 scenePosition;                  // captured by transform feedback (--verify)
out vec3 sceneNormal;
out vec2 texCoord;
out vec2 texCoord1;
out vec4 vertexColor;
out vec4 sceneTangent;                   // (0,0,0,0) when the mesh has none: the fragment shader uses derivatives
out float selectedWeight;                // weight heat-map (W): this vertex's weight on selectedBone
out float influenceCount;                // influence-count view: non-zero weights 0..4, 5 = more were cut

// P v for a packed symmetric stretch (a, b)
vec3 stretch(vec4 a, vec4 b, vec3 v)
{
    return vec3(a.x * v.x + a.w * v.y + b.x * v.z,
                a.w * v.x + a.y * v.y + b.y * v.z,
                b.x * v.x + b.y * v.y + a.z * v.z);
}

// r p r* + t, t = 2 d r*, for a unit dual quaternion (r, d) (written out: no matrix is built)
vec3 dqMove(vec4 r, vec4 d, vec3 p)
{
    return p + 2.0 * cross(r.xyz, cross(r.xyz, p) + r.w * p) + 2.0 * (r.w * d.xyz - d.w * r.xyz + cross(r.xyz, d.xyz));
}

vec3 dqRotate(vec4 r, vec3 n)
{
    return n + 2.0 * cross(r.xyz, cross(r.xyz, n) + r.w * n);
}

void main()
{
    vec2 info[4] = vec2[4](bone0info, bone1info, bone2info, bone3info);
    // p = p_stored + sum_i w_i * positionDelta[t_i][v]  (normals alike)
    vec3 morphedPosition = position;
    vec3 morphedNormal = normal;
    for (int i = 0; i < morphActiveCount; i++) {
        vec4 pair = morphActive[i / 2];
        vec2 targetWeight = (i % 2 == 0) ? pair.xy : pair.zw;   // x = target index (as float), y = weight
        int texel = 2 * (int(targetWeight.x) * morphVertexCount + gl_VertexID);
        morphedPosition += targetWeight.y * texelFetch(morphDeltas, texel).xyz;
        morphedNormal += targetWeight.y * texelFetch(morphDeltas, texel + 1).xyz;
    }
    vec3 p = morphedPosition;
    vec3 n = morphedNormal;
    vec3 t = tangent.xyz;
    selectedWeight = 0.0;
    influenceCount = 0.0;
    if (skinned) {
        // b = sum_k w_k sign_k q_k, sign_k aligns q_k to the first influence's hemisphere
        // (q and -q are the same rigid transform; without the fix the blend can pass near zero)
        int firstSlot = 0;                           // the first slot with a weight
        while (firstSlot < 3 && info[firstSlot].y == 0.0) firstSlot++;
        vec4 first = boneDualQuats[2 * int(info[firstSlot].x)];
        vec4 real = vec4(0.0), dual = vec4(0.0), stretchA = vec4(0.0), stretchB = vec4(0.0);
        float weightSum = 0.0;
        for (int k = 0; k < 4; k++) {
            float w = info[k].y;
            if (w == 0.0) continue;                  // unused slot (bone index 0 is a real bone)
            int i = int(info[k].x);
            vec4 r = boneDualQuats[2 * i], d = boneDualQuats[2 * i + 1];
            float signed_w = dot(r, first) < 0.0 ? -w : w;
            real += signed_w * r;
            dual += signed_w * d;
            stretchA += w * boneStretches[2 * i];    // P = sum_k w_k P_k / sum_k w_k (linear)
            stretchB += w * boneStretches[2 * i + 1];
            weightSum += w;
            if (i == selectedBone) selectedWeight += w;
            influenceCount += 1.0;
        }
        // normalise the blend: a unit dual quaternion = a rigid transform
        float len = length(real);
        real /= len;
        dual /= len;
        stretchA /= weightSum;
        stretchB /= weightSum;
        // p' = b moves (P p), n' = rotation of b applied to (P n)
        p = dqMove(real, dual, stretch(stretchA, stretchB, morphedPosition));
        n = dqRotate(real, stretch(stretchA, stretchB, morphedNormal));
        t = dqRotate(real, stretch(stretchA, stretchB, t));   // the tangent: a direction, as the normal
        if (linearShare != 0.0) {
            // SkinningType Blend: p' = (1 - s) p_dq + s p_lbs, p_lbs = sum_k w_k D_k P_k p (the palette, rebuilt)
            vec3 lbs = vec3(0.0), lbsNormal = vec3(0.0), lbsTangent = vec3(0.0);
            for (int k = 0; k < 4; k++) {
                float w = info[k].y;
                if (w == 0.0) continue;
                int i = int(info[k].x);
                vec4 r = boneDualQuats[2 * i], d = boneDualQuats[2 * i + 1];
                vec4 a = boneStretches[2 * i], b = boneStretches[2 * i + 1];
                lbs += (w / weightSum) * dqMove(r, d, stretch(a, b, morphedPosition));
                lbsNormal += (w / weightSum) * dqRotate(r, stretch(a, b, morphedNormal));
                lbsTangent += (w / weightSum) * dqRotate(r, stretch(a, b, tangent.xyz));
            }
            p = mix(p, lbs, linearShare);
            n = mix(n, lbsNormal, linearShare);
            t = mix(t, lbsTangent, linearShare);
        }
        if (influencesInFile > 4.0) influenceCount = 5.0;   // lost its 5th+ influences at import
    }
    if (showHeat) selectedWeight = heatValue;   // the difference view reuses the heat-map colours
    vec4 sceneSpace = model * vec4(p, 1.0);
    scenePosition = sceneSpace.xyz;
    sceneNormal = (model * vec4(n, 0.0)).xyz;
    texCoord = uv;
    texCoord1 = hasUv1 ? uv1 : uv;
    vertexColor = color;
    sceneTangent = vec4((model * vec4(t, 0.0)).xyz, tangent.w);
    gl_Position = projection * view * sceneSpace;
}
