#version 330 core
// skinned.frag — the surface: the material (glTF metallic-roughness: docs/materials.md) under
// one of two lights (src/gfx/renderer.h RenderLight.lighting, the renderer #defines
// LIGHTING_FLAT / LIGHTING_PBR here, and LIGHTING_COMPILED: see lightingModel below):
//   LIGHTING_FLAT  the old look: one directional light plus ambient, Lambert only, over the base
//                  colour; no tone map (exact-colour tests and the teaching aids' legends read it);
//   LIGHTING_PBR   Cook-Torrance GGX as the glTF 2.0 specification's BRDF appendix (B) states it,
//                  under the default rig: a key light that follows the camera, a sky/ground
//                  hemisphere for ambient (diffuse and specular), exposure, the Khronos PBR
//                  Neutral tone map.
// Both: base colour factor x texture x vertex colour, alpha MASK (discard below the cutoff) and
// BLEND (alpha out, the renderer blends), emissive x strength added (PBR only: flat keeps the old
// look). Lighting is computed in LINEAR colour; the output is sRGB-encoded either by the
// framebuffer (GL_FRAMEBUFFER_SRGB, encodeSrgb = false) or here (encodeSrgb = true), never both:
// the renderer picks per draw target.

in vec3 scenePosition;
in vec3 sceneNormal;
in vec4 sceneTangent;             // xyz scene space, w = bitangent sign; (0,0,0,0): none (derivatives used)
in vec2 texCoord;                 // TEXCOORD_0, v up (stored as 1 - v_glTF)
in vec2 texCoord1;                // TEXCOORD_1, the same convention (= texCoord when the mesh has none)
in vec4 vertexColor;              // COLOR_0 / Assimp colour set 0, linear; (1,1,1,1) when none
in float selectedWeight;
in float influenceCount;

// ---- the material (src/gfx/gpu_common.c gpu_bind_material) ----
uniform vec4 diffuseColor;        // linear RGBA: glTF baseColorFactor
uniform sampler2D diffuseTexture; // unit 0, GL_SRGB8_ALPHA8: sampled values are linear
uniform sampler2D metallicRoughnessTexture;   // unit 3, linear: B = metalness, G = roughness
uniform sampler2D normalTexture;  // unit 4, linear: tangent-space normal * 0.5 + 0.5
uniform sampler2D occlusionTexture;           // unit 5, linear: R = ambient occlusion
uniform sampler2D emissiveTexture;            // unit 6, sRGB
uniform float metallicFactor;
uniform float roughnessFactor;
uniform float normalScale;        // scales the map's X and Y (glTF normalTexture.scale)
uniform bool  hasNormalMap;
uniform float occlusionStrength;  // ao' = 1 + strength * (ao - 1)
uniform vec3  emissiveFactor;     // linear RGB, times KHR_materials_emissive_strength
uniform int   alphaMode;          // 0 OPAQUE, 1 MASK, 2 BLEND (MaterialAlphaMode)
uniform float alphaCutoff;
uniform bool  unlit;              // KHR_materials_unlit: base colour as is
// What the model's materials use at all (src/gfx/renderer_shader.c renderer_material_features): the skinned
// renderer defines MATERIAL_FEATURES_SELECTED and one HAS_* per feature some material or mesh of
// the model has, so a model pays per pixel only for what it uses (llvmpipe runs every path it
// compiles); without MATERIAL_FEATURES_SELECTED (the VAT player) everything is compiled in.
#ifndef MATERIAL_FEATURES_SELECTED
#define HAS_ALPHA_TEST
#define HAS_UV_TRANSFORM
#define HAS_VERTEX_COLOR
#define HAS_METALLIC_ROUGHNESS_MAP
#define HAS_NORMAL_MAP
#define HAS_OCCLUSION_MAP
#define HAS_EMISSIVE
#endif
// Per map (0 base colour, 1 metallic-roughness, 2 normal, 3 occlusion, 4 emissive): which UV set
// and KHR_texture_transform, as one 3x3 matrix that already includes the v flip (gpu_common.c).
uniform int  uvSet[5];
uniform mat3 uvTransform[5];

// ---- the light (src/gfx/renderer.h RenderLight) ----
// Which model: compiled in (the skinned renderer injects "#define LIGHTING_COMPILED LIGHTING_..."
// and keeps one program per model it has drawn with, so each pays only for its own path), or,
// without the define, chosen per draw by the uniform lightingModel (the VAT player).
#ifdef LIGHTING_COMPILED
#define LIGHTING_IS_PBR (LIGHTING_COMPILED == LIGHTING_PBR)
#else
uniform int  lightingModel;       // LIGHTING_FLAT or LIGHTING_PBR
#define LIGHTING_IS_PBR (lightingModel == LIGHTING_PBR)
#endif
uniform vec3 lightDirection;      // toward the light, scene space
uniform vec3 lightColor;          // flat: diffuse intensity; PBR: the key light's irradiance E
uniform vec3 ambientColor;        // flat: ambient term; PBR: unused
uniform vec3 skyColor;            // PBR: hemisphere radiance from above (+Y) ...
uniform vec3 groundColor;         // ... and from below
uniform float exposure;           // PBR: linear scale before the tone map
uniform vec3 cameraPosition;      // scene space: the view vector of the specular term
uniform bool encodeSrgb;
// What to show (the viewer's teaching aids: src/gfx/renderer.h RenderMode, whose values the
// renderer #defines here as RENDER_LIT ... RENDER_WIREFRAME):
//   RENDER_LIT the lit material; RENDER_WEIGHTS weight heat-map: colorMap(selectedWeight);
//   RENDER_INFLUENCES influence count: one colour per count 1..4, magenta for a vertex whose 5th+
//   influences the import cut; both shaded by the light so the shape reads, the colour kept
//   recognisable (heatShade below); RENDER_WIREFRAME lines: a darker shade of the lit surface (a
//   lighter one on dark surfaces). The teaching views draw transparent parts as cut-outs: MASK
//   parts keep their shape, BLEND parts show wherever alpha > 0, opaque (their colours readable).
uniform int displayMode;
uniform sampler2D colorMap;       // 256 x 1, GL_SRGB8: weight 0 -> texel 0, weight 1 -> texel 255
uniform bool skinnedMesh;         // false: a static mesh has no weights (grey in the weight and influence views)
uniform bool showHeat;            // the difference view: every mesh, static ones too, has a value (heatValue)
uniform bool onlySelected;        // RENDER_INFLUENCES: vertices the selected joint does not move are grey (isolate, /)

out vec4 fragColor;

const float PI = 3.14159265358979;

// RENDER_WEIGHTS, RENDER_INFLUENCES: colour * ((1 - HEAT_SHADING) + HEAT_SHADING * lightLevel), lightLevel = the
// luminance of the light that reaches the surface (ambient + diffuse), at most 1. A scalar on
// the linear colour: the hue stays, only the brightness follows the shape (under an ambient-only
// light of 1 the map's exact colours show: tests/gfx/test_teach_aids.c reads them back that way).
const float HEAT_SHADING = 0.6;
vec3 heatShade(vec3 heat, float diffuse, vec3 ambient, vec3 key)
{
    float lightLevel = min(dot(ambient + diffuse * key, vec3(0.2126, 0.7152, 0.0722)), 1.0);
    return heat * ((1.0 - HEAT_SHADING) + HEAT_SHADING * lightLevel);
}

vec3 linear_to_srgb(vec3 c)
{
    c = clamp(c, 0.0, 1.0);
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

// Khronos PBR Neutral tone map: colours below ~0.76 pass unchanged (base colours stay true), the
// peak above is compressed toward 1 and desaturated a little, so highlights do not clip in hue.
vec3 toneMapNeutral(vec3 color)
{
    const float startCompression = 0.8 - 0.04;
    const float desaturation = 0.15;
    float x = min(color.r, min(color.g, color.b));
    float offset = x < 0.08 ? x - 6.25 * x * x : 0.04;   // a small black offset, smooth near 0
    color -= offset;
    float peak = max(color.r, max(color.g, color.b));
    if (peak < startCompression) return color;
    const float d = 1.0 - startCompression;
    float newPeak = 1.0 - d * d / (peak + d - startCompression);
    color *= newPeak / peak;
    float g = 1.0 - 1.0 / (desaturation * (peak - newPeak) + 1.0);
    return mix(color, vec3(newPeak), g);
}

// UV of map `slot`: its set, then its transform (homogeneous 2D).
vec2 mapUv(int slot)
{
#ifdef HAS_UV_TRANSFORM
    vec2 uv = uvSet[slot] == 1 ? texCoord1 : texCoord;
    return (uvTransform[slot] * vec3(uv, 1.0)).xy;
#else
    return texCoord;
#endif
}

// The front side's shading normal: the interpolated normal n bent by the normal map through the
// tangent frame (T, B = w * N x T, N); the caller flips the result on back faces (as the frame
// flips with it: the back of a double-sided sheet shows the mirror of its front's relief). Without a stored tangent (a mesh whose
// material has no normal map, CPU skinning) the frame comes from screen-space derivatives of
// position and UV (the cotangent frame: per pixel, no vertex data needed).
vec3 shadingNormal(vec3 n)
{
#ifndef HAS_NORMAL_MAP
    return n;
#else
    if (!hasNormalMap) return n;
    vec2 uv = mapUv(2);
    vec3 m = texture(normalTexture, uv).xyz * 2.0 - 1.0;
    m.xy *= normalScale;
    vec3 t, b;
    if (dot(sceneTangent.xyz, sceneTangent.xyz) > 1e-12) {
        t = normalize(sceneTangent.xyz - n * dot(n, sceneTangent.xyz));   // Gram-Schmidt against n
        b = (sceneTangent.w < 0.0 ? -1.0 : 1.0) * cross(n, t);
    } else {
        vec3 dp1 = dFdx(scenePosition), dp2 = dFdy(scenePosition);
        vec2 duv1 = dFdx(uv), duv2 = dFdy(uv);
        // the UV space v grows upward in the texture as uploaded; solve dp = T du + B dv
        vec3 dp2perp = cross(dp2, n), dp1perp = cross(n, dp1);
        // T = dp/du, B = dp/dv (Schueler's cotangent frame); seen from behind the screen-space
        // determinant changes sign, so does the frame: undone here. B = dp/dv is the map's +Y:
        // v is stored flipped (1 - v_glTF) and the rows uploaded bottom first, so +v is "up" in the image.
        float side = gl_FrontFacing ? 1.0 : -1.0;
        t = side * (dp2perp * duv1.x + dp1perp * duv2.x);
        b = side * (dp2perp * duv1.y + dp1perp * duv2.y);
        float scale = max(dot(t, t), dot(b, b));
        if (scale < 1e-20) return n;
        scale = inversesqrt(scale);
        t *= scale;
        b *= scale;
    }
    return normalize(m.x * t + m.y * b + m.z * n);
#endif
}

// Specular D * V of the glTF BRDF (appendix B.3.2, B.3.3), alpha = roughness^2:
//   D = alpha^2 / (pi ((N.H)^2 (alpha^2 - 1) + 1)^2)
//   V = 1 / ((N.L + sqrt(alpha^2 + (1 - alpha^2)(N.L)^2)) (N.V + sqrt(alpha^2 + (1 - alpha^2)(N.V)^2)))
float specularDV(float alpha, float nl, float nv, float nh)
{
    float a2 = alpha * alpha;
    float f = nh * nh * (a2 - 1.0) + 1.0;
    float d = a2 / (PI * f * f);
    float v = 1.0 / ((nl + sqrt(a2 + (1.0 - a2) * nl * nl)) * (nv + sqrt(a2 + (1.0 - a2) * nv * nv)));
    return d * v;
}

// The hemisphere's radiance in direction `dir`: sky above, ground below, blended over the horizon.
vec3 hemisphere(vec3 dir)
{
    return mix(groundColor, skyColor, clamp(0.5 + 0.5 * dir.y, 0.0, 1.0));
}

#ifdef HAS_ENVIRONMENT
// --environment (src/gfx/renderer_environment.c): the image's irradiance / pi as 9 spherical
// harmonics, and its radiance prefiltered per roughness in the mip levels of one
// latitude-longitude texture (level k: roughness k / (ENVIRONMENT_LEVELS - 1)).
uniform vec3 environmentSh[9];
uniform sampler2D environmentMap; // unit 7, linear RGB16F; +Y up, the centre column along -Z
const float ENVIRONMENT_LEVELS = 5.0;
vec3 environmentDiffuse(vec3 n)
{
    return max(environmentSh[0] * 0.282095
             + environmentSh[1] * (0.488603 * n.y) + environmentSh[2] * (0.488603 * n.z) + environmentSh[3] * (0.488603 * n.x)
             + environmentSh[4] * (1.092548 * n.x * n.y) + environmentSh[5] * (1.092548 * n.y * n.z)
             + environmentSh[6] * (0.315392 * (3.0 * n.z * n.z - 1.0)) + environmentSh[7] * (1.092548 * n.x * n.z)
             + environmentSh[8] * (0.546274 * (n.x * n.x - n.y * n.y)), vec3(0.0));
}
vec3 environmentSpecular(vec3 r, float roughness)
{
    // u = 0.5 + atan2(x, -z) / (2 pi), v = acos(y) / pi from the top row (uploaded top row first)
    vec2 uv = vec2(0.5 + atan(r.x, -r.z) / (2.0 * PI), acos(clamp(r.y, -1.0, 1.0)) / PI);
    return textureLod(environmentMap, uv, roughness * (ENVIRONMENT_LEVELS - 1.0)).rgb;
}
#endif

vec3 shadePbr(vec3 baseColor, vec3 n, float metallic, float roughness, float occlusion)
{
    vec3 v = normalize(cameraPosition - scenePosition);
    vec3 l = normalize(lightDirection);
    vec3 h = normalize(l + v);
    float nl = max(dot(n, l), 0.0);
    float nv = max(abs(dot(n, v)), 1e-4);
    float nh = max(dot(n, h), 0.0);
    float vh = max(dot(v, h), 0.0);
    float alpha = roughness * roughness;
    // c_diff = lerp(baseColor, black, metallic), F0 = lerp(0.04, baseColor, metallic) (B.3.5)
    vec3 cDiff = mix(baseColor, vec3(0.0), metallic);
    vec3 f0 = mix(vec3(0.04), baseColor, metallic);
    // Schlick: F = F0 + (1 - F0) (1 - |V.H|)^5
    vec3 fresnel = f0 + (1.0 - f0) * pow(1.0 - vh, 5.0);
    // f = (1 - F) c_diff / pi + F D V;  L_out = f E (N.L)
    vec3 direct = ((1.0 - fresnel) * cDiff / PI + fresnel * specularDV(alpha, nl, nv, nh)) * lightColor * nl;
    // Ambient from the hemisphere: diffuse with the normal's irradiance; specular with the mirror
    // direction's radiance times the split-sum BRDF integral approximated analytically
    // (Karis/Lazarov "EnvBRDFApprox": F0 * A + B from roughness and N.V).
    const vec4 c0 = vec4(-1.0, -0.0275, -0.572, 0.022);
    const vec4 c1 = vec4(1.0, 0.0425, 1.04, -0.04);
    vec4 r = roughness * c0 + c1;
    float a004 = min(r.x * r.x, exp2(-9.28 * nv)) * r.x + r.y;
    vec2 ab = vec2(-1.04, 1.04) * a004 + r.zw;
#ifdef HAS_ENVIRONMENT
    vec3 specularAmbient = (f0 * ab.x + ab.y) * environmentSpecular(reflect(-v, n), roughness);
    vec3 diffuseAmbient = cDiff * environmentDiffuse(n);
#else
    vec3 specularAmbient = (f0 * ab.x + ab.y) * hemisphere(reflect(-v, n));
    vec3 diffuseAmbient = cDiff * hemisphere(n);
#endif
    return direct + occlusion * (diffuseAmbient + specularAmbient);
}

// Colours of the influence-count view (linear RGB): 1 blue, 2 green, 3 yellow, 4 red,
// 5 = "had more than 4, the rest were cut at import" magenta (src/gfx/renderer.h INFLUENCE_COLORS).
const vec3 countColors[6] = vec3[6](vec3(0.05), vec3(0.02, 0.10, 0.80), vec3(0.05, 0.60, 0.05),
                                    vec3(0.90, 0.75, 0.02), vec3(0.80, 0.02, 0.02), vec3(0.80, 0.02, 0.80));

void main()
{
    vec4 albedo = diffuseColor * texture(diffuseTexture, mapUv(0));
#ifdef HAS_VERTEX_COLOR
    albedo *= vertexColor;
#endif
    // Alpha: MASK cuts below the cutoff; BLEND keeps alpha (the teaching views cut at ~0)
    bool teaching = displayMode != RENDER_LIT;
#ifdef HAS_ALPHA_TEST
    if (alphaMode == 1 && albedo.a < alphaCutoff) discard;
    if (alphaMode == 2 && teaching && albedo.a < 1.0 / 255.0) discard;
#endif
    float alpha = alphaMode == 2 && !teaching ? albedo.a : 1.0;
    if (displayMode == RENDER_SHADOW) {   // the ground shadow's mask: coverage only (renderer_shadow.c)
        fragColor = vec4(1.0);
        return;
    }

    vec3 n = normalize(sceneNormal);
    vec3 color;
    float diffuse;                        // N.L of the light, for the teaching views' shading
    vec3 ambient, key;                    // what a white Lambert surface receives (teaching views)
    if (LIGHTING_IS_PBR) {
        n = shadingNormal(n);
        if (!gl_FrontFacing) n = -n;      // back faces are drawn (double-sided, or no culling): light their inside
        diffuse = max(dot(n, normalize(lightDirection)), 0.0);
        ambient = 0.5 * (skyColor + groundColor);
        key = lightColor / PI;
        if (unlit) {
            color = albedo.rgb;
        } else {
#ifdef HAS_METALLIC_ROUGHNESS_MAP
            vec4 mr = texture(metallicRoughnessTexture, mapUv(1));
#else
            vec4 mr = vec4(1.0);
#endif
            float metallic = clamp(metallicFactor * mr.b, 0.0, 1.0);
            float roughness = clamp(roughnessFactor * mr.g, 0.03, 1.0);   // 0 would be a delta highlight
#ifdef HAS_OCCLUSION_MAP
            float occlusion = 1.0 + occlusionStrength * (texture(occlusionTexture, mapUv(3)).r - 1.0);
#else
            float occlusion = 1.0;
#endif
            color = shadePbr(albedo.rgb, n, metallic, roughness, occlusion);
        }
#ifdef HAS_EMISSIVE
        color += emissiveFactor * texture(emissiveTexture, mapUv(4)).rgb;
#endif
        color = toneMapNeutral(exposure * color);
    } else {
        if (!gl_FrontFacing) n = -n;
        diffuse = max(dot(n, normalize(lightDirection)), 0.0);
        ambient = ambientColor;
        key = lightColor;
        color = albedo.rgb * (ambientColor + diffuse * lightColor);
    }
    if (displayMode == RENDER_WEIGHTS || displayMode == RENDER_INFLUENCES) {
        if (!skinnedMesh && !showHeat)
            color = vec3(0.05);
        else if (displayMode == RENDER_WEIGHTS)   // texel centres: weight w -> (w * 255 + 0.5) / 256
            color = texture(colorMap, vec2((clamp(selectedWeight, 0.0, 1.0) * 255.0 + 0.5) / 256.0, 0.5)).rgb;
        else if (onlySelected && selectedWeight == 0.0)
            color = vec3(0.05);
        else
            color = countColors[int(clamp(influenceCount + 0.5, 0.0, 5.0))];
        color = heatShade(color, diffuse, ambient, key);
    } else if (displayMode == RENDER_WIREFRAME) {
        float luminance = dot(color, vec3(0.2126, 0.7152, 0.0722));
        // a darker (or, on dark surfaces, lighter) shade of the lit surface: dense meshes stay readable
        color = luminance > 0.12 ? 0.35 * color : mix(color, vec3(1.0), 0.6);
    }
    // OPAQUE and MASK write alpha 1; BLEND writes its alpha (blended over what is drawn: renderer_draw.c)
    fragColor = vec4(encodeSrgb ? linear_to_srgb(color) : color, alpha);
}
