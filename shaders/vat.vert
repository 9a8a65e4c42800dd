#version 330 core
// vat.vert — vertex animation texture playback: no skeleton, no palette. Each vertex fetches
// its baked position and normal at the two frames around the current time and blends them
// (docs/vat.md; the bake is src/app/vat_bake.c, the layout src/anim/vat.h).
// `skinview --vat DIR --verify` compares this shader's output (transform feedback) with the
// textures decoded on the CPU. The loader inserts "#define VAT_CLIP_COUNT N" after #version.
#ifndef VAT_CLIP_COUNT
#define VAT_CLIP_COUNT 1
#endif

layout(location = 0) in vec3 position;        // bind pose (unused: the textures hold every frame)
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
layout(location = 3) in float vertexId;       // TEXCOORD_1.x of mesh.glb: the texel index
layout(location = 4) in vec4 instanceOffset;  // per instance: xyz = grid offset, w = time offset (s)
layout(location = 5) in float instanceClip;   // per instance: clip index
layout(location = 9) in vec4 color;           // COLOR_0 of mesh.glb (white without one)
layout(location = 11) in vec2 uv1;            // the model's second UV set: TEXCOORD_2 of mesh.glb
uniform bool hasUv1;                          // false: texCoord1 = uv (as skinned.vert)

uniform sampler2DArray vatPositions;          // RGBA16 (unsigned normalised) or RGBA32F; layer = page
uniform sampler2DArray vatNormals;            // RG16: octahedral e, stored as (e + 1) / 2
uniform vec3 boundsMin;                       // 16-bit: p = boundsMin + texel.rgb * boundsRange
uniform vec3 boundsRange;                     // float EXR: boundsMin = 0, boundsRange = 1
uniform int textureWidth;                     // texels per row
uniform int rowsPerFrame;
uniform int framesPerPage;
uniform vec4 clips[VAT_CLIP_COUNT];           // first slot, frame count, duration (s), unused
uniform float time;                           // seconds into the clip (instance 0's clip time)
uniform mat4 view;
uniform mat4 projection;

out vec3 scenePosition;                       // captured by transform feedback (--verify)
out vec3 sceneNormal;
out vec2 texCoord;
// skinned.frag's other inputs: both UV sets and the vertex colour; no tangents (the normal map's
// frame comes from derivatives)
out vec2 texCoord1;
out vec4 vertexColor;
out vec4 sceneTangent;
out float selectedWeight;
out float influenceCount;

// Texel of vertex v in frame slot s: page = s / framesPerPage, x = v % width,
// y = (s % framesPerPage) * rowsPerFrame + v / width.
ivec3 vatTexel(int slot, int v)
{
    return ivec3(v % textureWidth, (slot % framesPerPage) * rowsPerFrame + v / textureWidth, slot / framesPerPage);
}

// Octahedral decode: v = (e, 1 - |e.x| - |e.y|); the lower hemisphere unfolds over the diagonals.
vec3 octahedralDecode(vec2 stored)
{
    vec2 e = stored * 2.0 - 1.0;
    vec3 v = vec3(e, 1.0 - abs(e.x) - abs(e.y));
    if (v.z < 0.0) v.xy = (1.0 - abs(v.yx)) * vec2(v.x >= 0.0 ? 1.0 : -1.0, v.y >= 0.0 ? 1.0 : -1.0);
    return normalize(v);
}

void main()
{
    vec4 clip = clips[int(instanceClip)];
    int frameCount = int(clip.y);
    float duration = clip.z;
    // Instances loop their clip; t = duration itself (the last frame) stays reachable.
    float t = time + instanceOffset.w;
    if (t > duration) t = duration > 0.0 ? mod(t, duration) : 0.0;
    // x = clamp(t / duration, 0, 1) * (frameCount - 1): blend frames floor(x) and floor(x) + 1
    float x = duration > 0.0 ? clamp(t / duration, 0.0, 1.0) * float(frameCount - 1) : 0.0;
    int frame0 = min(int(floor(x)), frameCount - 1);
    int frame1 = min(frame0 + 1, frameCount - 1);
    float alpha = x - float(frame0);

    int v = int(vertexId + 0.5);
    int slot = int(clip.x);
    vec3 p0 = boundsMin + texelFetch(vatPositions, vatTexel(slot + frame0, v), 0).rgb * boundsRange;
    vec3 p1 = boundsMin + texelFetch(vatPositions, vatTexel(slot + frame1, v), 0).rgb * boundsRange;
    vec3 n0 = octahedralDecode(texelFetch(vatNormals, vatTexel(slot + frame0, v), 0).rg);
    vec3 n1 = octahedralDecode(texelFetch(vatNormals, vatTexel(slot + frame1, v), 0).rg);

    scenePosition = mix(p0, p1, alpha) + instanceOffset.xyz;
    sceneNormal = normalize(mix(n0, n1, alpha));
    texCoord = uv;
    texCoord1 = hasUv1 ? uv1 : uv;
    vertexColor = color;
    sceneTangent = vec4(0.0);
    selectedWeight = 0.0;
    influenceCount = 0.0;
    gl_Position = projection * view * vec4(scenePosition, 1.0);
}
