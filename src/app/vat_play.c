/* vat_play.c — the `--vat OUTDIR` window: a loaded bake (vat_load.h) and its instances as a
 * player subject (view/player.h: playback, camera, keys, HUD and frame loop are the player's).
 * The clip keys shift the crowd (instance i plays clip + i); G toggles the ground grid, Shift+G
 * the ground shadow. The crowd's look (app_vat_look_init, app_vat_draw_scene: --shadow,
 * --environment) is the window's and --screenshot's. */
#include "vat_load.h"
#include "view/lighting.h"
#include "glcontext.h"
#include "view/player.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the look: as the skinned viewer's scene_draw ---------------------------------------- */

bool app_vat_look_init(VatRenderer *renderer, const Options *options)
{
    char error[1280];
    if (!options->aids.environment || view_environment_apply_vat(renderer, options->aids.environment, error, sizeof error))
        return true;
    fprintf(stderr, "skinview: %s\n", error);
    return false;
}

int app_vat_draw_scene(VatRenderer *renderer, VatGround *ground, bool grid, bool shadow, float time, const mat4 view,
                       const mat4 projection, const RenderLight *light, int width, int height)
{
    const GroundGrid *g = &ground->grid;
    if (shadow)   /* before the crowd, which covers it; over the grid's square */
        vat_renderer_draw_shadow(renderer, time, view, projection, light, g->y, g->center, g->spacing * (float)g->half_lines);
    int draw_calls = vat_renderer_draw(renderer, time, view, projection, light);
    if (grid) app_vat_ground_draw(ground, view, projection, width, height);
    return draw_calls;
}

/* ---- the window: the bake as a player subject (view/player.h) ---------------------------- */

typedef struct VatSubject {
    const LoadedBake *bake;
    VatRenderer      *renderer;
    VatInstance      *instances;
    int               instance_count;
    vec3              grid_min, grid_max;
    VatGround        *ground;
    bool              show_grid;       /* G */
    bool              show_shadow;     /* Shift+G, --shadow */
    bool              flat_lighting;   /* --lighting flat */
    int               shown_clip;      /* the clip instance 0 plays (the crowd shifts with it) */
    float             time;
    int               draw_calls;
    char              line[256];       /* the HUD's VAT line */
} VatSubject;

static void vat_evaluate(void *self, const Playback *p)
{
    VatSubject *vat = self;
    const VatManifest *manifest = &vat->bake->manifest;
    int clip = p->clip >= 0 ? p->clip : 0;   /* a bake has only clips */
    if (clip != vat->shown_clip) {   /* a clip key: the crowd shifts with it (not per frame) */
        vat->shown_clip = clip;
        for (int i = 0; i < vat->instance_count; i++) {
            int c = (clip + i) % manifest->clip_count;
            double stagger = fmod((double)i * 0.6180339887, 1.0);
            vat->instances[i].clip = (float)c;
            vat->instances[i].time_offset = i == 0 ? 0.0f : (float)(stagger * manifest->clips[c].duration);
        }
        vat_renderer_set_instances(vat->renderer, vat->instances, vat->instance_count);
    }
    vat->time = p->time;
    vat->renderer->cull_back_faces = p->cull_back_faces;
}

static void vat_draw(void *self, const mat4 view, const mat4 projection, int width, int height, bool overlays)
{
    (void)overlays;
    VatSubject *vat = self;
    RenderLight light;
    view_light(vat->flat_lighting, &light);
    vat->draw_calls = app_vat_draw_scene(vat->renderer, vat->ground, vat->show_grid, vat->show_shadow, vat->time, view,
                                         projection, &light, width, height);
}

static void vat_frame(void *self, int clip, float aspect, bool front, float hud_top, float hud_bottom, Camera *camera)
{
    (void)front;   /* the crowd is always seen from its front */
    VatSubject *vat = self;
    app_vat_frame_crowd(vat->bake, vat->instances, vat->instance_count, clip >= 0 ? clip : 0, vat->grid_min, vat->grid_max,
                aspect, hud_top, hud_bottom, camera);
}

static bool vat_action(void *self, Player *player, Action a)
{
    (void)player;
    VatSubject *vat = self;
    bool *toggled = a.kind == ACTION_TOGGLE_GRID ? &vat->show_grid : a.kind == ACTION_TOGGLE_SHADOW ? &vat->show_shadow : NULL;
    if (!toggled) return false;
    *toggled = !*toggled;
    return true;
}

static void vat_status(void *self, const Player *player, HudInfo *info)
{
    VatSubject *vat = self;
    snprintf(vat->line, sizeof vat->line, "VAT  instances %d  draw calls %d  frame %.2f ms", vat->instance_count,
             vat->draw_calls, player->fps > 0.0f ? 1e3 / player->fps : 0.0);
    info->extra_lines[info->extra_count++] = vat->line;
}

/* The bake's clips as a Model with clips only (names and durations; no tracks, no meshes): the
 * player's clip list (HUD, browser, timeline). */
static bool vat_clip_model(const VatManifest *manifest, Model *model, float **durations)
{
    memset(model, 0, sizeof *model);
    model->clips = calloc((size_t)manifest->clip_count, sizeof *model->clips);
    *durations = calloc((size_t)manifest->clip_count, sizeof **durations);
    if (!model->clips || !*durations) {
        free(model->clips);
        free(*durations);
        model->clips = NULL;
        *durations = NULL;
        return false;
    }
    model->clip_count = manifest->clip_count;
    for (int c = 0; c < manifest->clip_count; c++) {
        snprintf(model->clips[c].name, sizeof model->clips[c].name, "%s", manifest->clips[c].name);
        model->clips[c].duration = manifest->clips[c].duration;
        (*durations)[c] = manifest->clips[c].duration;
    }
    return true;
}

int app_vat_view(const Options *options, const LoadedBake *bake, int clip, const PlayerDriver *driver)
{
    const char *dir = options->vat_dir;
    char error[1024], title[1200];
    snprintf(title, sizeof title, "skinview \xe2\x80\x94 VAT %s", dir);
    GlContext context = {0};
    if (!glcontext_create_window(&context, title, options->width, options->height, error, sizeof error)) {
        fprintf(stderr, "skinview: cannot open a window: %s (without a display, --vat with --screenshot, "
                        "--export-pose and --verify still work)\n", error);
        return 1;
    }
    const VatManifest *manifest = &bake->manifest;
    VatRenderer renderer;
    if (!app_vat_renderer_start(&renderer, bake, dir)) {
        glcontext_destroy(&context);
        return 1;
    }
    if (!app_vat_look_init(&renderer, options)) return app_vat_session_end(&renderer, &context, 1, dir);
    static VatGround ground;   /* static: its scratch vertices are too many for the stack */
    static Player player;
    VatSubject vat = {.bake = bake, .renderer = &renderer, .ground = &ground, .shown_clip = clip,
                      .instance_count = options->instances, .show_grid = options->aids.grid,
                      .show_shadow = options->aids.shadow,
                      .flat_lighting = options->flat_lighting};
    vat.instances = app_vat_instances(bake, options->instances, clip, vat.grid_min, vat.grid_max);
    Model clips;
    float *durations = NULL;
    bool have_clips = vat_clip_model(manifest, &clips, &durations), player_ready = false;
    int status = 1;
    if (!have_clips || !vat.instances || !vat_renderer_set_instances(&renderer, vat.instances, options->instances)) {
        fprintf(stderr, "skinview: %s: out of memory\n", dir);
        goto done;
    }
    app_vat_ground_init(&ground, bake, vat.grid_min, vat.grid_max);
    PlayerSubject subject = {
        .self = &vat,
        .key_mode = KEY_MODE_VAT,
        .title = title,
        .evaluate = vat_evaluate,
        .draw = vat_draw,
        .frame = vat_frame,
        .action = vat_action,
        .status = vat_status,
    };
    if (!player_init(&player, context.window, &subject, &clips, NULL, durations, clip, options->time, options->speed))
        goto done;
    player_ready = true;
    player.playback.loop_mode = (PlaybackLoopMode)options->loop_mode;
    status = player_drive(&player, driver) > 0 ? 1 : 0;
done:
    if (player_ready) player_free(&player);
    app_vat_ground_free(&ground);
    if (have_clips) model_free(&clips);
    free(durations);
    free(vat.instances);
    return app_vat_session_end(&renderer, &context, status, dir);
}

