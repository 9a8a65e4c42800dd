/* render_light.h — the light both renderers draw with (RenderLight), flat or PBR. The two rigs
 * skinview sets up: render_light_default and render_light_pbr (renderer.h). */
#ifndef SKINVIEW_RENDER_LIGHT_H
#define SKINVIEW_RENDER_LIGHT_H

#include <cglm/cglm.h>
#include <stdbool.h>

/* How the surface is lit (skinned.frag lightingModel). */
typedef enum RenderLighting {
    LIGHTING_FLAT = 0,   /* the old look: Lambert diffuse + ambient over the base colour, no tone map
                            (--lighting flat; the exact-colour tests and teaching legends) */
    LIGHTING_PBR = 1,    /* glTF metallic-roughness (Cook-Torrance GGX), hemisphere ambient, exposure,
                            Khronos PBR Neutral tone map (the default: --lighting default) */
} RenderLighting;
#define RENDER_LIGHTING_DEFINES "#define LIGHTING_FLAT 0\n#define LIGHTING_PBR 1\n"

/* A directional light plus ambient, linear RGB. The first three members are the flat light; a
 * RenderLight that sets only those (the rest zero) is LIGHTING_FLAT, as before materials. */
typedef struct RenderLight {
    vec3 direction;      /* direction TOWARD the light (need not be normalised); scene space, or view
                            space (x right, y up, z toward the viewer) when follow_camera */
    vec3 color;          /* flat: diffuse intensity; PBR: the light's irradiance E at normal incidence */
    vec3 ambient;        /* flat: added to every lit pixel (times the albedo); PBR: unused */
    RenderLighting lighting;
    bool follow_camera;  /* the key light moves with the camera (direction in view space) */
    vec3 sky, ground;    /* PBR: hemisphere radiance from above (+Y) and below */
    float exposure;      /* PBR: linear scale before the tone map */
} RenderLight;

#endif
