/* commands.h — what `skinview` can do once the command line is parsed.
 * Each returns the process exit code (0 ok, 1 file/check failure, 2 bad usage). */
#ifndef SKINVIEW_COMMANDS_H
#define SKINVIEW_COMMANDS_H

#include "anim/animator.h"
#include "anim/model.h"
#include "anim/skin_dq.h"
#include "cli.h"
#include "io/import.h"
#include "view/playback.h"
#include "view/player.h"

#include <stddef.h>

/* The import options the command line asks for: --max-bones (0 = none), --optimize-keys (its error
 * measured for --info), --no-extrapolation. Every import of a command starts from these. */
ImportOptions app_import_options(const Options *options);

/* skinview's program (app_main.c): the command line parsed, one command run; its exit code.
 * `driver` runs the windows (view/player.h; NULL: the user, as main.c passes). */
int app_main(int argc, char **argv, const PlayerDriver *driver);

/* Imports `path` with `import` (guarded: io/import_guard.h), then adds the --animations clips when
 * `path` is the character. On failure prints "skinview: PATH: cause" on stderr and returns false. */
bool app_load_model(const char *path, const ImportOptions *import, Model *model);

/* A file whose clips go onto a character: imported as app_load_model does (guarded, one line on
 * failure) with `import`'s key options, but with no bone limit, quietly (its materials' warnings do
 * not matter) and without --animations. */
bool app_load_animation_file(const char *path, const ImportOptions *import, Model *model);

/* --animations (animations.c): the clips of every file of `list` (files or folders, one a line;
 * a folder: every model file in it, sorted) appended to `character`, joints matched and clips
 * retargeted by anim/retarget.h (retarget_off: local keys copied), `bone_map_path` (may be NULL)
 * read first; print_match_table: the --info table of matched joints on stdout. False with one
 * line "FILE: cause" in error, or "" when a file did not import (app_load_model printed why); clips
 * added before the failure stay: the caller frees the model. */
bool app_add_animations(Model *character, const char *list, const char *bone_map_path, bool retarget_off,
                        bool print_match_table, const ImportOptions *import, char *error, size_t error_size);
/* Set once by main: every later app_load_model of `character_path` adds these (start-up, re-imports,
 * reloads, --bake-vat). */
void app_set_animations(const char *character_path, const char *list, const char *bone_map, bool retarget_off,
                        bool print_table);
/* Whether app_load_model(path) adds the --animations clips; and the adding, after one line on stderr
 * when it fails. */
bool app_animations_wanted(const char *path);
bool app_add_configured_animations(Model *character, const ImportOptions *import);

/* Errors first: imports `path` with the --max-bones limit only (no GL context is needed)
 * and resolves --clip against it, before any window or context exists. Returns 0, or the
 * exit code after printing one line (1 unusable file, 2 no such clip). */
int app_load_checked(const Options *options, const char *path, Model *model, int *clip);

/* Once a GL context says how many bones a mesh may have (`limit`): if some mesh of `model`
 * has more, imports the file again with `import` and that limit (meshes split). Returns false
 * after printing why when that fails. */
bool app_fit_bone_limit(const char *path, const ImportOptions *import, int limit, Model *model);

/* Resolves --clip text (a name, an index from 0, "bind" or "rest") to an
 * Animator clip index. NULL text = clip 0 if any, else the rest pose.
 * Returns false with a message if no such clip exists. */
bool app_resolve_clip(const Model *model, const char *text, int *clip, char *error, size_t error_size);

/* `text` as a clip index from 0 among clip_count (the skinned model's clips or a bake's): 1 with
 * *clip set; 0 for a number out of range (error says so, naming `owner`, e.g. "the model"); -1 when
 * `text` is not a number (the caller looks for a name). */
int app_parse_clip_index(const char *text, int clip_count, const char *owner, int *clip, char *error, size_t error_size);

/* Finds a data file shipped next to the binary (shaders/..., assets/...):
 * <exe dir>/REL, <exe dir>/../share/skinview/REL, then the install data dir. */
bool app_find_data(const char *relative, char *out, size_t out_size);

/* `model_path`, or without one the bundled demo (assets/demo.fbx, through app_find_data, into
 * `demo`); NULL after one line "PROGRAM: no MODEL given ..." when the demo is not there either. */
const char *app_model_or_demo(const char *model_path, const char *program, char *demo, size_t demo_size);

/* Writes RGBA pixels (rows top to bottom) as a PNG through a temporary file renamed onto `path`
 * when complete (a failure leaves no file); false with a one-line cause in error. */
bool app_write_png(const char *path, int width, int height, const unsigned char *pixels, char *error,
                   size_t error_size);

/* The first free "DIR/NAME-shot-NNN.png" next to the model (NAME = its file name without the
 * extension, NNN from 001). False when all 999 exist or the path does not fit. */
bool app_next_screenshot_path(const char *model_path, char *out, size_t out_size);

/* The first free "DIR/NAME-KIND-NNN.EXTENSION" next to the model (the screenshot's is KIND "shot",
 * EXTENSION "png"; the window's recording "rec", "mp4"). False as above. */
bool app_next_output_path(const char *model_path, const char *kind, const char *extension, char *out, size_t out_size);

/* --info [--json] [--verbose] (info.c): FBX node features one line per feature (a count, a few
 * joints); --verbose lists every joint's at the end, --json names them all. */
int command_info(const Model *model, bool json, bool verbose);

/* --inspect-vertex MESH:INDEX [--json] (inspect_cmd.c): the vertex through the formula at clip/time,
 * morph weights of --morph (morph_spec, may be NULL) over the clip's; exit 2 for a bad MESH:INDEX
 * (scene_parse_vertex_spec, teach/teaching_aids.h). */
int command_inspect_vertex(const Model *model, int clip, float time, SkinningMethod method, bool reference,
                           const char *spec, bool json, const char *morph_spec);

/* The CPU pose a command evaluates: an Animator (its `reference` switch set: --reference) and the
 * dual quaternions of its references (DQS, the inspector); false after "skinview: PATH: out of
 * memory" (nothing to free). */
bool app_pose_init(const Model *model, bool reference, Animator *animator, SkinDqPose *dq_pose);

/* --export-pose (export_cmd.c) */
/* Skinned on the CPU by `method` (skin_mesh_by_method): DQS for SKINNING_GPU_DQ, rigid for
 * SKINNING_RIGID, LBS for the other two (they draw the same picture). */
int command_export_pose(const Model *model, int clip, float time, SkinningMethod method, bool reference,
                        const char *out_path);

/* GL commands: the model is imported first (errors before any window), then the context
 * says the bones-per-mesh limit (GL_MAX_VERTEX_UNIFORM_COMPONENTS), and app_fit_bone_limit()
 * re-imports in the rare case a mesh has more bones than that. */
/* Each takes the model app_load_checked() imported (and frees it) and the clip it resolved. */
/* `against`: --against OTHER opened on `model` (app/against.h), bound again to the command's own copy of
 * the model; NULL: none. */
struct Against;
/* `driver`: what runs the window (view/player.h; NULL: the user, player_run). */
int command_view(const Options *options, const char *model_path, Model *model, int clip, struct Against *against,
                 const PlayerDriver *driver);
int command_screenshot(const Options *options, const char *model_path, Model *model, int clip, struct Against *against);
/* --record OUT (record.c): --clip from --time for --duration (default one loop) at --fps, off-screen
 * like --screenshot, into MP4 / WebM / GIF (io/video.h) or numbered PNG frames. */
int command_record(const Options *options, const char *model_path, Model *model, int clip);

/* The viewer's HUD (status line, timeline; the clip list with --show-browser, the help with
 * --show-help) over the frame in the bound framebuffer, for `playback`'s clip and time. Its Text is
 * made once per process. False with a one-line cause. */
bool app_draw_hud(const Options *options, const Model *model, const Playback *playback, int width, int height,
                  char *error, size_t error_size);
int command_verify(const Options *options, const char *model_path, Model *model);

/* --thumbnail IN OUT SIZE (thumbnail.c): within options->thumbnail_budget seconds or exit 1
 * with nothing written. */
int command_thumbnail(const Options *options);

/* Clips named by --clips ("all" or NULL: every clip; else names / indices from 0 separated by commas; a
 * name that itself contains commas is matched whole first) into selected[] (clip_count entries at most).
 * Returns the count, or -1 with a one-line message. (vat_bake.c; --bake-vat and --export-gltf) */
int app_select_clips(const Model *model, const char *list, int *selected, char *error, size_t error_size);

/* --export-gltf OUT.glb|OUT.gltf [--clips ...] [--fps N] [--compress meshopt] [--check-export] [--quiet]
 * (export_gltf_cmd.c): the model as glTF 2.0; with --check-export read back and compared. */
int command_export_gltf(const Options *options, const char *model_path);

/* The window's Ctrl+E (export_gltf_cmd.c): `model` written to `path` (GLB, with the command line's --max-influences and
 * --compress from `options`, skinned as `method`: the window's K), read back and checked
 * as --check-export does; summary: the worst distance over the model's size per clip and the verdict ("rest 1.6e-07,
 * Idle 3.3e-07, ... (ok, within 1e-04)"), or the cause of a failure. True when written and within the tolerance. */
bool app_export_gltf_checked(const Model *model, const char *path, const Options *options, SkinningMethod method,
                             char *summary, size_t summary_size);

/* --bake-vat OUTDIR (vat_bake.c): vertex animation textures of the model's clips. */
int command_bake_vat(const Options *options, const char *model_path);

/* --vat OUTDIR (vat_play.c): play a bake back; with --screenshot, --export-pose or --verify
 * that one thing instead of the window. */
int command_vat(const Options *options, const PlayerDriver *driver);

#endif
