/* materials_fixture.h — what the two files of test_materials share: small glTF scenes written to
 * a temporary folder (quads, a sphere, images), rendered offscreen and read back, and the colour
 * arithmetic the checks use. */
#ifndef SKINVIEW_TEST_MATERIALS_FIXTURE_H
#define SKINVIEW_TEST_MATERIALS_FIXTURE_H

#include "testutil.h"
#include "app/commands.h"
#include "app/glcontext.h"
#include "gfx/gl.h"
#include "gfx/framebuffer.h"
#include "gfx/renderer.h"
#include "io/hdr_image.h"
#include "io/vat_mesh.h"

#define W 160
#define H 160
#define MATERIALS_DIR_TEMPLATE "/tmp/test_materials_XXXXXX"
extern char dir[sizeof MATERIALS_DIR_TEMPLATE];   /* made by mkdtemp in main */
extern const unsigned char background[3];

/* ---- a scene under construction: quads (and one sphere), each its own mesh + node + material -- */

typedef struct Scene {
    TestGltf gltf;
    char meshes[8192], nodes[4096], materials[8192], images[2048], textures[1024], extensions[256];
    int mesh_count, image_count;
} Scene;
void scene_init(Scene *s);
void append(char *out, size_t size, const char *fmt, const char *text);

/* An image file (RGBA, rows top to bottom) as images[i] + textures[i]; returns the index. */
int scene_image(Scene *s, const unsigned char *rgba, int w, int h);

/* A quad at depth z (half size `half`, centre (cx, cy)) facing +Z (or -Z when `back`), UVs glTF
 * (0,0) top-left .. (1,1) bottom-right as seen from its front; optional TANGENT (4 per vertex)
 * and COLOR_0 (`color_type` 5126 float VEC3 or 5121 normalized VEC4). `material` is JSON. */
void scene_quad(Scene *s, float cx, float cy, float z, float half, bool back, const float *tangents,
                const void *colors, int color_type, const char *material);

/* A UV sphere of radius r at the origin (32 x 16 segments). */
void scene_sphere(Scene *s, float r, const char *material);

/* Writes the scene as DIR/name.gltf and imports it. */
bool scene_load(Scene *s, const char *name, Model *model);

/* ---- rendering ---------------------------------------------------------------------------- */

typedef struct Render {
    unsigned char pixels[W * H * 4];
    mat4 view_projection;
} Render;

/* What a render adds to the model and light: the ground shadow (renderer_draw_shadow on the plane
 * y = shadow[0] in the square of centre (shadow[1], shadow[2]), half size shadow[3]) and an
 * environment image (rgb, w x h). NULL members: none. */
typedef struct Extras {
    const float *shadow;
    const float *environment;
    int          environment_width, environment_height;
} Extras;

/* Draws `model` seen from `eye` toward `target` under `light` (and `extras`, may be NULL) into r. */
void render_from(const Model *model, const float eye[3], const float target[3], const RenderLight *light,
                 const Extras *extras, Render *r);

/* Draws `model` seen from (0, 0, eye_z) toward the origin under `light` into r. */
void render(const Model *model, float eye_z, const RenderLight *light, Render *r);

/* The pixel where scene point (x, y, z) lands. */
const unsigned char *pixel_at(const Render *r, float x, float y, float z);
float srgb_to_linear(float c);
int linear_to_srgb8(float c);
bool near(const unsigned char *p, int r, int g, int b, int tolerance);
float luminance(const unsigned char *p);

/* Ambient 1, no directional light, flat: the pixel is the material's colour itself. */
void flat_white(RenderLight *light);

/* One unit quad with `material` (glTF JSON), loaded as `name`, rendered from z = 5 in flat white
 * light: the render (free it, and model_free the model), or NULL when it does not load. */
Render *render_material_quad(Scene *s, const char *name, const char *material, Model *model);

/* PBR with one directional light (scene space) of irradiance e and no ambient. */
void pbr_directional(RenderLight *light, float x, float y, float z, float e);

/* ---- the cases ---------------------------------------------------------------------------- */

/* 16x16 texels, 8x8 per quadrant (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right):
 * samples at the quadrants' quarter points stay clear of the filter's reach across edges */
void quadrant_texture(unsigned char out[16 * 16 * 4], const unsigned char colors[4][4]);

/* ---- what main runs from the other files of the program ---- */

/* A sphere (r 0.5) above the ground y = -1.5 lit from (1, 1, 0): its shadow falls around
 * (-1.5, -1.5, 0) (p' = p - L (p.y - g) / L.y), an ellipse of half axes 0.71 (x) and 0.5 (z).
 * In it the ground is the background darkened by RENDERER_SHADOW_STRENGTH; outside, exactly the
 * background; at its edge, in between (the soft edge); without --shadow, the background. */
void test_shadow(void);

/* The environment: the CPU prefilter of a uniform image is that radiance everywhere (diffuse
 * harmonics and every specular level); a red-above / blue-below image read through the file
 * reader lights the top of a rough white sphere red and its bottom blue with no key light; bad
 * files are refused with one line naming them. */
void test_environment(void);

/* An OBJ (Assimp) quad whose material has a diffuse texture (red), a separate opacity map (map_d:
 * grey, left half white, right half black) and a grey height map (map_bump: a ramp in x): the
 * opacity becomes the diffuse texture's alpha, a cut-out (MASK): the left half shows red, the
 * right half the background exactly; the height map becomes a normal map tilted toward -x by the
 * ramp's slope (n = normalize(-2 dh/dx, 2 dh/dy, 1)). */
void test_opacity_and_bump(void);

/* A VAT bake's mesh.glb (vat_export_mesh) carries the material the VAT player draws with: a quad
 * with every map (normal + scale, occlusion + strength, metallic-roughness, emissive), MASK and
 * vertex colours comes back from it with all of them. */
void test_vat_materials(void);

#endif
