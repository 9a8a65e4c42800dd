/* vat_load.h — a VAT bake loaded for playback (vat_load.c): --vat (vat_commands.c, vat_play.c) and
 * bench/bench_vat. */
#ifndef SKINVIEW_VAT_LOAD_H
#define SKINVIEW_VAT_LOAD_H

#include "gfx/vat_renderer.h"
#include "io/vat_io.h"
#include "io/vat_mesh.h"
#include "cli.h"
#include "glcontext.h"
#include "teach/teaching_aids.h"          /* GroundGrid */
#include "view/camera.h"
#include "view/player.h"

/* A bake in memory: manifest, textures (pages stacked, each padded to page_height rows),
 * mesh.glb and, per baked vertex id, where it lives in the mesh model. */
typedef struct LoadedBake {
    VatManifest manifest;
    Model       mesh_model;
    void       *positions;   /* uint16 RGBA, or float RGBA (float precision) */
    uint16_t   *normals;     /* two per texel */
    vec4       *clips;       /* first slot, frame count, duration, 0 */
    VatMeshUv1  uv1;         /* the model's second UV set by vertex id (mesh.glb TEXCOORD_2), or none */
    VatGpuData  gpu;
} LoadedBake;

/* Loads and checks OUTDIR: vat.json (layout, every file's size and crc32), the page images,
 * mesh.glb (each baked vertex id exactly once). On failure prints one line and returns false. */
bool app_vat_load(const char *dir, LoadedBake *bake);
void app_vat_unload(LoadedBake *bake);

/* N copies on a square grid on the ground (x, z), centred on the origin, 1.25 footprints apart.
 * Instance 0 plays `clip` at the playback time; the others cycle through the clips with
 * staggered times (golden-ratio fractions of the clip). grid_min/max: the crowd's bounds over
 * every baked frame. Returns a malloc'ed array, or NULL. */
VatInstance *app_vat_instances(const LoadedBake *bake, int count, int clip, vec3 grid_min, vec3 grid_max);

/* --clip for a bake: a clip name, an index from 0, or NULL (clip 0). False with a message. */
bool app_vat_resolve_clip(const VatManifest *manifest, const char *text, int *clip, char *error, size_t error_size);

/* Baked `vertex` of `clip` at `time` (anim/vat.h vat_decode_vertex on the bake's textures). */
void app_vat_decode_vertex(const LoadedBake *bake, int clip, float time, int vertex, vec3 position, vec3 normal);

/* The crowd's first view: the corners of every instance's camera box, fitted from the clip's
 * front as the skinned viewer fits one figure (view_frame_point_array), so the crowd is centred
 * and seen from the front; beyond 4096 instances, the corners of the whole crowd's box. */
void app_vat_frame_crowd(const LoadedBake *bake, const VatInstance *instances, int count, int clip,
                         const vec3 crowd_min, const vec3 crowd_max, float aspect, float hud_top, float hud_bottom,
                         Camera *camera);

/* The ground grid under the crowd (as the skinned viewer's, key G, --no-grid): fitted as the
 * skinned viewer fits it (ground_grid_fit), to the bind pose (mesh.glb's vertices: its height)
 * and the crowd's box (its extent; one figure: the skinned viewer's camera box). */
typedef struct VatGround {
    bool       ready;
    GroundGrid grid;
    Lines      lines;
    LineVertex vertices[2 * GROUND_GRID_SEGMENTS];
} VatGround;

void app_vat_ground_init(VatGround *ground, const LoadedBake *bake, const vec3 crowd_min, const vec3 crowd_max);
void app_vat_ground_draw(VatGround *ground, const mat4 view, const mat4 projection, int width, int height);
void app_vat_ground_free(VatGround *ground);

/* The VAT renderer for the bake (shaders/vat.vert + skinned.frag); false after printing why. */
bool app_vat_renderer_start(VatRenderer *renderer, const LoadedBake *bake, const char *dir);

/* Frees the renderer and the context; returns `status`, or 1 when GL errors were reported
 * (--gl-debug / SKINVIEW_GL_DEBUG=1). */
int app_vat_session_end(VatRenderer *renderer, GlContext *context, int status, const char *dir);

/* The skinned viewer's look for the crowd (vat_play.c): --environment set up (false after
 * printing why), then each frame the ground shadow when `shadow` (before the crowd, on the ground
 * grid's square), the crowd, the grid when `grid`. Returns the draw calls. */
bool app_vat_look_init(VatRenderer *renderer, const Options *options);
int app_vat_draw_scene(VatRenderer *renderer, VatGround *ground, bool grid, bool shadow, float time, const mat4 view,
                       const mat4 projection, const RenderLight *light, int width, int height);

/* The window (vat_play.c): the bake as a player subject. Returns the exit code. */
int app_vat_view(const Options *options, const LoadedBake *bake, int clip, const PlayerDriver *driver);

#endif
