#version 330 core
// skinned.frag — one directional light plus ambient, diffuse colour times diffuse texture.
// Lighting is computed in LINEAR colour; the output is sRGB-encoded either by the
// framebuffer (GL_FRAMEBUFFER_SRGB, encodeSrgb = false) or here (encodeSrgb = true),
// never both: the renderer picks per draw target.

in vec3 scenePosition;
in vec3 sceneNormal;
in vec2 texCoord;
in float selectedWeight;
in float influenceCount;

uniform vec4 diffuseColor;        // linear RGBA
uniform sampler2D diffuseTexture; // GL_SRGB8_ALPHA8: sampled values are linear
uniform vec3 lightDirection;      // toward the light, scene space
uniform vec3 lightColor;
uniform vec3 ambientColor;
uniform bool encodeSrgb;
// What to show (the viewer's teaching aids: src/gfx/renderer.h RenderMode, whose values the
// renderer #defines here as RENDER_LIT ... RENDER_WIREFRAME):
//   RENDER_LIT the lit material; RENDER_WEIGHTS weight heat-map: colorMap(selectedWeight);
//   RENDER_INFLUENCES influence count: one colour per count 1..4, magenta for a vertex whose 5th+
//   influences the import cut; both shaded by the light so the shape reads, the colour kept
//   recognisable (heatShade below); RENDER_WIREFRAME lines: a darker shade of the lit surface (a
//   lighter one on dark surfaces)
uniform int displayMode;
uniform sampler2D colorMap;       // 256 x 1, GL_SRGB8: weight 0 -> texel 0, weight 1 -> texel 255
uniform bool skinnedMesh;         // false: a static mesh has no weights (grey in the weight and influence views)
uniform bool onlySelected;        // RENDER_INFLUENCES: vertices the selected joint does not move are grey (isolate, /)

out vec4 fragColor;

// RENDER_WEIGHTS, RENDER_INFLUENCES: colour * ((1 - HEAT_SHADING) + HEAT_SHADING * lightLevel), lightLevel = the
// luminance of the light that reaches the surface (ambient + diffuse), at most 1. A scalar on
// the linear colour: the hue stays, only the brightness follows the shape (under an ambient-only
// light of 1 the map's exact colours show: tests/test_teach_aids.c reads them back that way).
const float HEAT_SHADING = 0.6;
vec3 heatShade(vec3 heat, float diffuse)
{
    float lightLevel = min(dot(ambientColor + diffuse * lightColor, vec3(0.2126, 0.7152, 0.0722)), 1.0);
    return heat * ((1.0 - HEAT_SHADING) + HEAT_SHADING * lightLevel);
}

vec3 linear_to_srgb(vec3 c)
{
    c = clamp(c, 0.0, 1.0);
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

// Colours of the influence-count view (linear RGB): 1 blue, 2 green, 3 yellow, 4 red,
// 5 = "had more than 4, the rest were cut at import" magenta (src/gfx/renderer.h INFLUENCE_COLORS).
const vec3 countColors[6] = vec3[6](vec3(0.05), vec3(0.02, 0.10, 0.80), vec3(0.05, 0.60, 0.05),
                                    vec3(0.90, 0.75, 0.02), vec3(0.80, 0.02, 0.02), vec3(0.80, 0.02, 0.80));

void main()
{
    vec4 albedo = diffuseColor * texture(diffuseTexture, texCoord);
    vec3 n = normalize(sceneNormal);
    if (!gl_FrontFacing) n = -n;          // back faces are drawn (no culling): light their inside
    float diffuse = max(dot(n, normalize(lightDirection)), 0.0);
    vec3 color = albedo.rgb * (ambientColor + diffuse * lightColor);
    if (displayMode == RENDER_WEIGHTS || displayMode == RENDER_INFLUENCES) {
        if (!skinnedMesh)
            color = vec3(0.05);
        else if (displayMode == RENDER_WEIGHTS)   // texel centres: weight w -> (w * 255 + 0.5) / 256
            color = texture(colorMap, vec2((clamp(selectedWeight, 0.0, 1.0) * 255.0 + 0.5) / 256.0, 0.5)).rgb;
        else if (onlySelected && selectedWeight == 0.0)
            color = vec3(0.05);
        else
            color = countColors[int(clamp(influenceCount + 0.5, 0.0, 5.0))];
        color = heatShade(color, diffuse);
    } else if (displayMode == RENDER_WIREFRAME) {
        float luminance = dot(color, vec3(0.2126, 0.7152, 0.0722));
        // a darker (or, on dark surfaces, lighter) shade of the lit surface: dense meshes stay readable
        color = luminance > 0.12 ? 0.35 * color : mix(color, vec3(1.0), 0.6);
    }
    // Opaque: no blending or alpha test (alpha is ignored; the screenshot is opaque).
    fragColor = vec4(encodeSrgb ? linear_to_srgb(color) : color, 1.0);
}
