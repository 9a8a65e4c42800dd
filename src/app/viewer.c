/* viewer.c — `skinview MODEL`: the interactive window, the skinned model as a player subject.
 *
 * Start-up: main() has imported the model and checked --clip (errors before any window);
 * here: window + GL context -> bones-per-mesh limit (re-import only if a mesh needs more) ->
 * the loaded file (animator, renderer, teaching aids (teach/teaching_aids.h)) -> the player (view/player.h:
 * playback, camera, keys, HUD, frame loop), which calls back in here to pose (animator, with a
 * cross-fade while one runs), draw (scene_draw: model + aids), frame the camera on the current
 * clip facing the character's front, pick joints, reload, and write S screenshots.
 * NOTE: nothing is allocated and no name is looked up per frame.
 */
#include "against.h"
#include "view/framing.h"
#include "commands.h"
#include "glcontext.h"
#include "view/lighting.h"   /* view_light */
#include "record.h"
#include "teach/teaching_aids.h"
#include "gfx/framebuffer.h"
#include "view/player.h"
#include "gfx/text.h"
#include "gfx/renderer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define VIEWER_WATCH_SECONDS 0.5       /* --watch: how often the file's time stamp is checked */
#define VIEWER_RECORD_SLICE 0.04       /* Shift+S: seconds of recording work per loop turn (the window stays live) */
#define VIEWER_RECORD_SAMPLES 4        /* MSAA of the recorded frames, as --record and --screenshot */

/* Shift+S: one loop of the clip being recorded, a few frames per loop turn (viewer_record_step),
 * from the camera and framebuffer size (rounded down to even: yuv420p) the key was pressed with. */
typedef struct Recording {
    bool           active;
    RecordOutput   output;
    Framebuffer    framebuffer;
    unsigned char *pixels;
    Playback       playback;           /* the recording's own clock, from the clip's start */
    int            frame, frame_count, width, height;
    double         fps, started;
    mat4           view, projection;
    char           path[4200];
} Recording;

/* Everything one loaded file needs; replaced as a whole on reload / drop. */
typedef struct Loaded {
    Model     model;
    Animator  animator;
    Renderer  renderer;
    TeachingAids teaching;         /* the teaching aids drawn around the model (teach/teaching_aids.h) */
    bool      animator_ready, renderer_ready, aids_ready;
    vec3      bounds_min, bounds_max; /* every clip's reach (view_model_bounds): the ground grid */
    float    *durations;           /* [clip_count] seconds */
    bool     *mesh_visible;        /* [mesh_count] U list */
} Loaded;

/* The skinned subject (reached through PlayerSubject.self). */
typedef struct Viewer {
    const Options *options;
    char           model_path[4096];
    char           title[512];
    int            max_bones;
    ImportOptions  import;             /* every import of the window: the command line's, max_bones as the limit */
    Loaded        *loaded;             /* on the heap: the renderer and animator point into it */
    Against       *against;            /* --against OTHER (against.h), paired with loaded->model; NULL: none */
    Text           aids_text;         /* the teaching aids' text at their size (the HUD's is the player's) */
    time_t         watched_mtime;
    double         next_watch;
    Recording      recording;
    char           added[8192];        /* files whose clips a Shift-drop added (one a line), added again
                                          on reload; "" when none */
} Viewer;

/* ---- the loaded file ---------------------------------------------------------------------- */

static void loaded_free(Loaded *loaded)
{
    if (loaded->aids_ready) scene_free(&loaded->teaching);
    if (loaded->renderer_ready) renderer_free(&loaded->renderer);
    if (loaded->animator_ready) animator_free(&loaded->animator);
    free(loaded->durations);
    free(loaded->mesh_visible);
    model_free(&loaded->model);
    memset(loaded, 0, sizeof *loaded);
}

/* Builds everything around `model` (taken over, freed on failure) with the teaching aids of
 * `aids`. False after writing why (a --joint the file lacks: "no joint ..."). */
static bool loaded_open(Loaded *loaded, Model *model, int max_bones, const AidOptions *aids, char *error,
                        size_t error_size)
{
    memset(loaded, 0, sizeof *loaded);
    loaded->model = *model;
    memset(model, 0, sizeof *model);
    Model *m = &loaded->model;
    size_t clips = (size_t)(m->clip_count > 0 ? m->clip_count : 1);
    loaded->durations = calloc(clips, sizeof *loaded->durations);
    loaded->mesh_visible = malloc(sizeof *loaded->mesh_visible * (size_t)(m->mesh_count > 0 ? m->mesh_count : 1));
    bool ok = loaded->durations && loaded->mesh_visible && (loaded->animator_ready = animator_init(&loaded->animator, m));
    if (!ok) {
        snprintf(error, error_size, "out of memory");
        loaded_free(loaded);
        return false;
    }
    for (int c = 0; c < m->clip_count; c++) loaded->durations[c] = m->clips[c].duration;
    for (int i = 0; i < m->mesh_count; i++) loaded->mesh_visible[i] = true;
    if (!app_renderer_init(&loaded->renderer, m, max_bones, error, error_size)) {
        loaded_free(loaded);
        return false;
    }
    loaded->renderer_ready = true;
    loaded->renderer.mesh_visible = loaded->mesh_visible;
    if (!view_model_bounds(m, &loaded->animator, loaded->bounds_min, loaded->bounds_max)) {
        glm_vec3_fill(loaded->bounds_min, -1.0f);
        glm_vec3_fill(loaded->bounds_max, 1.0f);
    }
    if (!scene_init(&loaded->teaching, m, &loaded->renderer, &loaded->animator, aids, loaded->bounds_min, loaded->bounds_max,
                    error, error_size)) {
        loaded_free(loaded);
        return false;
    }
    loaded->aids_ready = true;
    loaded->teaching.hud = true;
    return true;
}

/* "name.fbx" from "dir/name.fbx". */
static const char *file_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void set_title(Viewer *viewer)
{
    snprintf(viewer->title, sizeof viewer->title, "skinview \xe2\x80\x94 %.400s", file_name(viewer->model_path)); /* U+2014 em dash */
}

static time_t file_mtime(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_mtime : 0;
}

/* ---- the subject's functions (player.h) ------------------------------------------------------ */

static void skinned_evaluate(void *self, const Playback *p)
{
    Loaded *loaded = ((Viewer *)self)->loaded;
    loaded->animator.root.in_place = p->root_motion == ROOT_MOTION_IN_PLACE;
    loaded->animator.reference = loaded->teaching.shown.reference;   /* Shift+R, --reference */
    loaded->renderer.cull_back_faces = p->cull_back_faces;
    /* the pose (a cross-fade while one runs), then the skinning method's CPU work, both timed for the HUD */
    SceneFade fade = {p->fade_clip, p->fade_time, playback_fade_weight(p)};
    scene_evaluate_fade(&loaded->teaching, &loaded->animator, p->clip, p->time, p->fading ? &fade : NULL);
}

static void skinned_draw(void *self, const mat4 view, const mat4 projection, int width, int height, bool overlays)
{
    Viewer *viewer = self;
    Loaded *loaded = viewer->loaded;
    RenderLight light;
    view_light(viewer->options->flat_lighting, &light);
    loaded->teaching.hud = overlays;
    scene_draw(&loaded->teaching, &loaded->animator, view, projection, &light, &viewer->aids_text, width, height);
    loaded->teaching.hud = true;
}

static void skinned_frame(void *self, int clip, float aspect, bool front, float hud_top, float hud_bottom,
                          Camera *camera)
{
    Loaded *loaded = ((Viewer *)self)->loaded;
    view_frame_clip(&loaded->model, &loaded->animator, clip, aspect, front, hud_top, hud_bottom, camera);
}

static bool skinned_root_position(void *self, vec3 root)
{
    animator_root_position(&((Viewer *)self)->loaded->animator, root);
    return true;
}

/* ---- Shift+S: recording from the window ------------------------------------------------------ */

static void record_stop(Viewer *viewer)
{
    Recording *r = &viewer->recording;
    if (r->active) {
        record_output_abort(&r->output);
        framebuffer_free(&r->framebuffer);
    }
    free(r->pixels);
    memset(r, 0, sizeof *r);
}

/* Starts recording the playing clip: one loop (ping-pong: there and back) at its speed, from its
 * start, as NAME-rec-NNN.mp4 next to the model. */
static void record_start(Viewer *viewer, Player *player)
{
    Recording *r = &viewer->recording;
    const Model *model = &viewer->loaded->model;
    char error[1200];
    if (r->active) {
        player_message(player, "already recording");
        return;
    }
    int clip = player->playback.clip, width = 0, height = 0;
    glfwGetFramebufferSize(player->window, &width, &height);
    width &= ~1;   /* yuv420p: even sides; the last column / row is left out */
    height &= ~1;
    if (clip < 0 || clip >= model->clip_count) {
        player_message(player, "record: no clip is playing (the bind and rest poses do not move)");
        return;
    }
    if (!app_next_output_path(viewer->model_path, "rec", "mp4", r->path, sizeof r->path)) {
        player_message(player, "record: no free file name next to the model");
        return;
    }
    if (!record_plan(model, clip, player->playback.speed, player->playback.loop_mode, 0.0, 0.0, VIDEO_FORMAT_MP4, &r->fps,
                     &r->frame_count, error, sizeof error) ||
        !(r->pixels = malloc((size_t)(width > 0 ? width : 1) * (size_t)(height > 0 ? height : 1) * 4)) ||
        !framebuffer_create(&r->framebuffer, width, height, VIEWER_RECORD_SAMPLES, error, sizeof error)) {
        if (!r->pixels) snprintf(error, sizeof error, "out of memory");
        char text[1400];
        snprintf(text, sizeof text, "record: %.1300s", error);
        player_message(player, text);
        free(r->pixels);
        r->pixels = NULL;
        return;
    }
    if (!record_output_open(&r->output, r->path, width, height, r->fps, error, sizeof error)) {
        char text[1400];
        snprintf(text, sizeof text, "record: %.1300s", error);
        player_message(player, text);
        framebuffer_free(&r->framebuffer);
        free(r->pixels);
        r->pixels = NULL;
        return;
    }
    r->active = true;
    r->width = width;
    r->height = height;
    r->frame = 0;
    r->started = glfwGetTime();
    camera_view(&player->camera, r->view);
    camera_projection(&player->camera, (float)width / (float)height, r->projection);
    playback_init(&r->playback, model->clip_count, viewer->loaded->durations, clip, 0.0f, player->playback.speed);
    r->playback.loop_mode = player->playback.loop_mode;
    r->playback.root_motion = player->playback.root_motion;
    r->playback.cull_back_faces = player->playback.cull_back_faces;
}

/* Some frames of the recording (VIEWER_RECORD_SLICE seconds' worth), the progress in the status
 * line; at the end the file is completed and its path shown (and printed, like S). */
static void record_step(Viewer *viewer, Player *player)
{
    Recording *r = &viewer->recording;
    if (!r->active) return;
    static const float background[3] = {0.18f, 0.2f, 0.23f};   /* the player's */
    char error[1200] = "", text[1400];
    double slice_end = glfwGetTime() + VIEWER_RECORD_SLICE;
    bool ok = true;
    do {
        skinned_evaluate(viewer, &r->playback);
        framebuffer_bind(&r->framebuffer);
        renderer_clear(background[0], background[1], background[2]);
        skinned_draw(viewer, r->view, r->projection, r->width, r->height, false);
        if (!framebuffer_read_rgba(&r->framebuffer, r->pixels)) {
            snprintf(error, sizeof error, "cannot read the rendered image back");
            ok = false;
        }
        ok = ok && record_output_add(&r->output, r->pixels, error, sizeof error);
        playback_advance(&r->playback, (float)(1.0 / r->fps), viewer->loaded->durations);
        r->frame++;
    } while (ok && r->frame < r->frame_count && glfwGetTime() < slice_end);
    if (ok && r->frame < r->frame_count) {
        double elapsed = glfwGetTime() - r->started;
        snprintf(text, sizeof text, "recording %.1000s: %d / %d frames, %.0f s left", file_name(r->path), r->frame,
                 r->frame_count, elapsed / r->frame * (r->frame_count - r->frame));
        player_message(player, text);
        return;
    }
    ok = ok && record_output_finish(&r->output, error, sizeof error);
    if (ok) {
        snprintf(text, sizeof text, "saved %.1000s (%d frames, %dx%d, %g fps)", r->path, r->frame_count, r->width,
                 r->height, r->fps);
        printf("skinview: saved %s\n", r->path);
        fflush(stdout);
    } else {
        record_output_abort(&r->output);
        snprintf(text, sizeof text, "recording failed: %.1000s", error);
    }
    framebuffer_free(&r->framebuffer);
    r->active = false;
    free(r->pixels);
    r->pixels = NULL;
    player_message(player, text);
}

/* Ctrl+E: the model as NAME-export-NNN.glb next to it, read back and posed against the model (as --check-export):
 * the worst distance per clip over the model's size in the message line, and on stdout. */
static void export_gltf_checked(Viewer *viewer, Player *player)
{
    char path[4096], summary[1100], text[1400];
    if (!app_next_output_path(viewer->model_path, "export", "glb", path, sizeof path)) {
        player_message(player, "export: no free file name next to the model");
        return;
    }
    /* the skinning method the window shows now (key K): DQ (rigid) gets corrective morph targets */
    bool ok = app_export_gltf_checked(&viewer->loaded->model, path, viewer->options, viewer->loaded->teaching.shown.skinning,
                                      summary, sizeof summary);
    if (ok) printf("skinview: exported %s: worst distance / size: %s\n", path, summary);
    else fprintf(stderr, "skinview: %s: export: %s\n", path, summary);
    fflush(stdout);
    snprintf(text, sizeof text, "%s %.200s, worst / size: %.1100s", ok ? "exported" : "export FAILED:", file_name(path),
             summary);
    player_message(player, text);
}

static bool skinned_action(void *self, Player *player, Action a)
{
    if (a.kind == ACTION_RECORD) {
        record_start(self, player);
        return true;
    }
    if (a.kind == ACTION_EXPORT_GLTF) {
        export_gltf_checked(self, player);
        return true;
    }
    (void)player;
    TeachingAids *aids = &((Viewer *)self)->loaded->teaching;
    switch (a.kind) {
    case ACTION_JOINT_NEXT: scene_step_joint(aids, 1); return true;
    case ACTION_JOINT_PREV: scene_step_joint(aids, -1); return true;
    case ACTION_TOGGLE_HIDE_JOINT: scene_toggle_hide_joint(aids); return true;
    case ACTION_TOGGLE_INSPECTOR:   /* E: with the matrices -> without -> off */
        if (aids->shown.inspector && !aids->inspector_compact) {
            aids->inspector_compact = true;
            return true;
        }
        aids->inspector_compact = false;
        break;
    default: break;
    }
    if (!aids_apply(&aids->shown, a)) return false;   /* a teaching aid (teach/aids.h) */
    /* an aid about one joint with none selected: the weights start at the joint with the most
     * weighted vertices (the root often has none), the others at the skeleton's root */
    bool wants_joint = aids->shown.show_weights || aids->shown.axes == AXES_SELECTED || aids->shown.joint_values ||
                       aids->shown.show_bone_space || aids->shown.isolate_joint;
    if (aids->shown.show_weights && aids->selected_joint < 0) scene_select_joint(aids, scene_most_weighted_joint(aids));
    if (wants_joint && aids->selected_joint < 0) scene_step_joint(aids, 1);
    return true;
}

/* A click, not a drag, selects the joint dot under the cursor (tested in test_joint_click). */
static void skinned_click(void *self, Player *player, double press_x, double press_y, double x, double y)
{
    Loaded *loaded = ((Viewer *)self)->loaded;
    int ww, wh, fw, fh;
    glfwGetWindowSize(player->window, &ww, &wh);
    glfwGetFramebufferSize(player->window, &fw, &fh);
    int joint = scene_click_joint(&loaded->teaching, &loaded->animator, player->view, player->projection, ww, wh, fw, fh,
                                  press_x, press_y, x, y);
    bool click = fabs(x - press_x) < SCENE_CLICK_PIXELS && fabs(y - press_y) < SCENE_CLICK_PIXELS;
    if (joint < 0 && click)   /* not a joint dot: the vertex under the cursor goes to the inspector */
        scene_click_vertex(&loaded->teaching, &loaded->animator, player->view, player->projection, ww, wh, fw, fh, x, y);
}

/* The morph sliders take a press on their bars (scene_slider_grab). */
static bool skinned_grab(void *self, Player *player, int phase, float x, float y)
{
    (void)player;
    return scene_slider_grab(&((Viewer *)self)->loaded->teaching, phase, x, y);
}

static void skinned_status(void *self, const Player *player, HudInfo *info)
{
    (void)player;
    const TeachingAids *aids = &((Viewer *)self)->loaded->teaching;
    info->no_skeleton = aids->shown.show_skeleton && aids->segment_count == 0;
}

static void skinned_save_screenshot(void *self, Player *player, const unsigned char *rgba, int width, int height)
{
    Viewer *viewer = self;
    char path[4200], text[4400], error[512];
    if (!app_next_screenshot_path(viewer->model_path, path, sizeof path))
        snprintf(text, sizeof text, "screenshot failed: no free file name");
    else if (app_write_png(path, width, height, rgba, error, sizeof error))
        snprintf(text, sizeof text, "saved %s", path);
    else
        snprintf(text, sizeof text, "cannot write %.3000s: %.300s", path, error);
    printf("skinview: %s\n", text);
    fflush(stdout);
    player_message(player, text);
}

/* Opens `path` (NULL: the current file again) in place of the current file (reload, drop). On
 * failure the old one stays and the reason is shown on screen. */
static void skinned_open(void *self, Player *player, const char *path, bool keep_clip)
{
    Viewer *viewer = self;
    /* a drop with Shift held, or of a file with clips but no meshes (an animation file), adds clips */
    bool add = path && player->drop_adds_clips;
    player->drop_adds_clips = false;
    if (!path) path = viewer->model_path;
    if (viewer->recording.active) {   /* the recording's model goes away: it stops, nothing is left */
        record_stop(viewer);
        player_message(player, "recording stopped");
    }
    Model model;
    /* import errors are printed on stderr by app_load_model; the screen gets a short notice */
    if (!add && !app_load_model(path, &viewer->import, &model)) {
        char text[1200];
        snprintf(text, sizeof text, "cannot open %.400s (see the terminal); still showing %.400s", file_name(path),
                 file_name(viewer->model_path));
        player_message(player, text);
        return;
    }
    if (!add && path != viewer->model_path && model.mesh_count == 0 && model.clip_count > 0) {
        model_free(&model);
        add = true;
    }
    char error[1400];
    int first_added = -1;
    const char *dropped = NULL;   /* the file whose clips were added */
    const char *extra = path == viewer->model_path ? viewer->added : "";   /* a reload keeps the dropped clips */
    char list[sizeof viewer->added + 4200];
    snprintf(list, sizeof list, "%s%s%s", viewer->added, viewer->added[0] ? "\n" : "", add ? path : "");   /* a line each */
    if (add) {   /* the character afresh (with --animations), then every file added so far and this one */
        if (!app_load_model(viewer->model_path, &viewer->import, &model)) {
            player_message(player, "cannot add clips: the model itself no longer imports (see the terminal)");
            return;
        }
        first_added = model.clip_count;
        extra = list;
    }
    if (extra[0] && !app_add_animations(&model, extra, viewer->options->bone_map, viewer->options->retarget_off, false,
                                        &viewer->import, error, sizeof error)) {
        if (error[0]) fprintf(stderr, "skinview: %s\n", error);
        model_free(&model);
        char text[1600];
        snprintf(text, sizeof text, "cannot add clips: %.1400s; still showing %.100s",
                 error[0] ? error : "a file does not import (see the terminal)", file_name(viewer->model_path));
        player_message(player, text);
        return;
    }
    if (add) {
        for (int c = first_added; c < model.clip_count; c++)   /* the clips this drop brought */
            if (strcmp(model.clips[c].source_file, file_name(path)) == 0) {
                first_added = c;
                break;
            }
        size_t length = strlen(list);
        if (length < sizeof viewer->added) memcpy(viewer->added, list, length + 1);   /* else: this session only */
        dropped = file_name(path);
        path = viewer->model_path;
        keep_clip = true;
    } else if (path != viewer->model_path) {
        viewer->added[0] = '\0';   /* another model: the dropped clips were the old one's */
    }
    char old_clip_name[SV_NAME_MAX] = "";
    int old_clip = player->playback.clip;
    float old_time = player->playback.time;
    if (old_clip >= 0 && old_clip < viewer->loaded->model.clip_count)
        snprintf(old_clip_name, sizeof old_clip_name, "%s", viewer->loaded->model.clips[old_clip].name);
    Loaded *fresh = malloc(sizeof *fresh);
    AidOptions aids = viewer->loaded->teaching.shown;
    aids.joint = NULL;   /* the joint the aids follow is looked up again only when it still exists */
    aids.morph = NULL;   /* --morph, --inspect-vertex and --hide-joints name the first file's targets, vertices, joints */
    aids.inspect_vertex = NULL;
    aids.hide_joints = NULL;
    if (!fresh || !loaded_open(fresh, &model, viewer->max_bones, &aids, error, sizeof error)) {
        if (!fresh) model_free(&model);
        free(fresh);
        char text[1200];
        snprintf(text, sizeof text, "cannot open %.400s: %.400s", file_name(path), fresh ? error : "out of memory");
        player_message(player, text);
        return;
    }
    if (viewer->against) {   /* OTHER paired with the new model; else the old one stays, paired as before */
        if (!against_bind(viewer->against, &fresh->model, error, sizeof error)) {
            char text[1200];
            snprintf(text, sizeof text, "cannot compare %.300s with %.300s: %.400s", file_name(path),
                     file_name(viewer->against->other_path), error);
            against_bind(viewer->against, &viewer->loaded->model, error, sizeof error);
            loaded_free(fresh);
            free(fresh);
            printf("skinview: %s\n", text);   /* on the terminal too, as "opened" */
            fflush(stdout);
            player_message(player, text);
            return;
        }
        scene_set_against(&fresh->teaching, viewer->against);
        fresh->teaching.shown.compare = aids.compare;   /* D as it was */
    }
    int selected = viewer->loaded->teaching.selected_joint;
    char selected_name[SV_NAME_MAX] = "";
    if (selected >= 0) snprintf(selected_name, sizeof selected_name, "%s", viewer->loaded->model.skeleton.names[selected]);
    if (!player_clips_changed(player, &fresh->model, fresh->mesh_visible, fresh->durations)) {
        loaded_free(fresh);
        free(fresh);
        player_message(player, "cannot open: out of memory");
        player_clips_changed(player, &viewer->loaded->model, viewer->loaded->mesh_visible, viewer->loaded->durations);
        return;
    }
    bool other_model = camera_bounds_changed(viewer->loaded->bounds_min, viewer->loaded->bounds_max, fresh->bounds_min,
                                             fresh->bounds_max);
    loaded_free(viewer->loaded);
    free(viewer->loaded);
    viewer->loaded = fresh;
    for (int j = 0; selected_name[0] && j < fresh->model.skeleton.joint_count; j++)   /* the same joint, by name */
        if (strcmp(fresh->model.skeleton.names[j], selected_name) == 0) scene_select_joint(&fresh->teaching, j);
    if (path != viewer->model_path) snprintf(viewer->model_path, sizeof viewer->model_path, "%s", path);
    set_title(viewer);
    glfwSetWindowTitle(player->window, viewer->title);
    const Model *m = &viewer->loaded->model;
    int clip = m->clip_count > 0 ? 0 : ANIMATOR_REST_POSE;
    float time = 0.0f;
    if (first_added >= 0 && first_added < m->clip_count) {   /* clips added: play the first of them */
        clip = first_added;
    } else if (keep_clip) {   /* reload: the same clip (by name) at the same time */
        int by_name = old_clip_name[0] ? model_find_clip(m, old_clip_name) : -1;
        if (by_name >= 0) {
            clip = by_name;
            time = old_time;
        } else if (old_clip < 0) {
            clip = old_clip;
        }
    }
    Playback kept = player->playback;
    playback_init(&player->playback, m->clip_count, viewer->loaded->durations, clip, time, kept.speed);
    player->playback.loop_mode = kept.loop_mode;
    player->playback.root_motion = kept.root_motion;
    player->playback.blend_seconds = kept.blend_seconds;
    player->playback.paused = kept.paused;
    player->playback.show_help = kept.show_help;
    player->playback.cull_back_faces = kept.cull_back_faces;
    player_sync_clip(player);
    if (!keep_clip || other_model) {
        player->camera.fov_y = 0.0f;   /* a new file, or a reload that now holds another model: a fresh first view */
        player->frame_requested = true;
    }
    viewer->watched_mtime = file_mtime(viewer->model_path);
    char text[1200];
    if (first_added >= 0)
        snprintf(text, sizeof text, "added the clips of %.400s to %.400s", dropped, file_name(viewer->model_path));
    else
        snprintf(text, sizeof text, "%s %.1000s", keep_clip ? "reloaded" : "opened", file_name(viewer->model_path));
    printf("skinview: %s\n", text);   /* on the terminal too, as a screenshot's "saved" line */
    fflush(stdout);
    player_message(player, text);
}

/* --watch: the file's time stamp, checked every VIEWER_WATCH_SECONDS. */
static void skinned_tick(void *self, Player *player, double now)
{
    Viewer *viewer = self;
    record_step(viewer, player);   /* Shift+S in progress: a few frames */
    if (!viewer->options->watch || now < viewer->next_watch) return;
    viewer->next_watch = now + VIEWER_WATCH_SECONDS;
    time_t mtime = file_mtime(viewer->model_path);
    if (mtime != 0 && mtime != viewer->watched_mtime) {
        player->reload_requested = true;
        viewer->watched_mtime = mtime;   /* a file that fails is tried again when it changes again */
    }
}

/* ---- the command ------------------------------------------------------------------------------ */

int command_view(const Options *options, const char *model_path, Model *loaded, int clip, Against *against,
                 const PlayerDriver *driver)
{
    static Viewer viewer;   /* large (paths); one per process */
    static Player player;
    memset(&viewer, 0, sizeof viewer);
    viewer.options = options;
    snprintf(viewer.model_path, sizeof viewer.model_path, "%s", model_path);
    set_title(&viewer);
    char error[512];

    GlContext context = {0};
    if (!glcontext_create_window(&context, viewer.title, options->width, options->height, error, sizeof error)) {
        fprintf(stderr, "skinview: cannot open a window: %s (without a display, --info, --screenshot, "
                        "--export-pose and --verify still work)\n", error);
        model_free(loaded);
        return 1;
    }
    viewer.max_bones = glcontext_bones_per_mesh(options->max_bones);
    viewer.import = app_import_options(options);
    viewer.import.max_bones_per_mesh = viewer.max_bones;
    int status = 1;
    bool text_ready = false, player_ready = false;
    if (!app_fit_bone_limit(model_path, &viewer.import, viewer.max_bones, loaded)) goto done;
    viewer.loaded = malloc(sizeof *viewer.loaded);
    if (!viewer.loaded || !loaded_open(viewer.loaded, loaded, viewer.max_bones, &options->aids, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, viewer.loaded ? error : "out of memory");
        if (viewer.loaded && (strncmp(error, "no joint", 8) == 0 || strncmp(error, "--", 2) == 0)) status = 2;
        free(viewer.loaded);
        viewer.loaded = NULL;
        goto done;
    }
    if (against) {
        if (!against_follow(against, &viewer.loaded->model, error, sizeof error)) {
            fprintf(stderr, "skinview: %s: %s\n", against->other_path, error);
            goto done;
        }
        viewer.against = against;
        scene_set_against(&viewer.loaded->teaching, against);
    }
    if (!text_init(&viewer.aids_text, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", model_path, error);
        goto done;
    }
    text_ready = true;

    static const PlayerSubject subject_template = {
        .key_mode = KEY_MODE_SKINNED,
        .evaluate = skinned_evaluate,
        .draw = skinned_draw,
        .frame = skinned_frame,
        .root_position = skinned_root_position,
        .action = skinned_action,
        .click = skinned_click,
        .grab = skinned_grab,
        .status = skinned_status,
        .tick = skinned_tick,
        .open = skinned_open,
        .save_screenshot = skinned_save_screenshot,
    };
    PlayerSubject subject = subject_template;
    subject.self = &viewer;
    subject.title = viewer.title;
    subject.wake_seconds = options->watch ? VIEWER_WATCH_SECONDS : 0.0;
    Loaded *first = viewer.loaded;    /* the first file; a reload or a drop replaces viewer.loaded */
    if (!player_init(&player, context.window, &subject, &first->model, first->mesh_visible, first->durations, clip,
                     options->time, options->speed))
        goto done;
    player_ready = true;
    player.playback.loop_mode = (PlaybackLoopMode)options->loop_mode;
    player.playback.blend_seconds = options->blend_seconds;
    viewer.watched_mtime = file_mtime(model_path);
    status = player_drive(&player, driver) > 0 ? 1 : 0;

done:
    record_stop(&viewer);   /* closed while recording: the half-written file is removed */
    if (player_ready) player_free(&player);
    if (text_ready) text_free(&viewer.aids_text);
    if (viewer.loaded) loaded_free(viewer.loaded);
    free(viewer.loaded);
    model_free(loaded);
    glcontext_destroy(&context);
    return status;
}
