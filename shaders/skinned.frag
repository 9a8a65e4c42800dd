#version 330 core
// skinned.frag — one directional light plus ambient, diffuse colour times diffuse texture.
// Lighting is computed in LINEAR colour; the output is sRGB-encoded either by the
// framebuffer (GL_FRAMEBUFFER_SRGB, encodeSrgb = false) or here (encodeSrgb = true),
// never both: the renderer picks per draw target.

in vec3 scenePosition;
in vec3 sceneNormal;
in vec2 texCoord;

uniform vec4 diffuseColor;        // linear RGBA
uniform sampler2D diffuseTexture; // GL_SRGB8_ALPHA8: sampled values are linear
uniform vec3 lightDirection;      // toward the light, scene space
uniform vec3 lightColor;
uniform vec3 ambientColor;
uniform bool encodeSrgb;

out vec4 fragColor;

vec3 linear_to_srgb(vec3 c)
{
    c = clamp(c, 0.0, 1.0);
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

void main()
{
    vec4 albedo = diffuseColor * texture(diffuseTexture, texCoord);
    vec3 n = normalize(sceneNormal);
    if (!gl_FrontFacing) n = -n;          // back faces are drawn (no culling): light their inside
    float diffuse = max(dot(n, normalize(lightDirection)), 0.0);
    vec3 color = albedo.rgb * (ambientColor + diffuse * lightColor);
    // Opaque: no blending or alpha test (alpha is ignored; the screenshot is opaque).
    fragColor = vec4(encodeSrgb ? linear_to_srgb(color) : color, 1.0);
}
