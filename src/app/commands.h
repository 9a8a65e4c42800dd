/* commands.h — what `skinview` can do once the command line is parsed.
 * Each returns the process exit code (0 ok, 1 file/check failure, 2 bad usage). */
#ifndef SKINVIEW_COMMANDS_H
#define SKINVIEW_COMMANDS_H

#include "anim/model.h"
#include "cli.h"

#include <stddef.h>

/* Imports `path` (bones-per-mesh limit max_bones, 0 = none). On failure prints
 * "skinview: PATH: cause" on stderr and returns false. */
bool app_load_model(const char *path, int max_bones, Model *model);

/* The file descriptor of the real stderr, for signal handlers: while app_load_model() imports,
 * fd 2 is a temporary capture (so a crash inside Assimp stays one line). Async-signal-safe. */
int app_error_fd(void);

/* Resolves --clip text (a name, an index from 0, "bind" or "rest") to an
 * Animator clip index. NULL text = clip 0 if any, else the rest pose.
 * Returns false with a message if no such clip exists. */
bool app_resolve_clip(const Model *model, const char *text, int *clip, char *error, size_t error_size);

/* Finds a data file shipped next to the binary (shaders/..., assets/...):
 * <exe dir>/REL, <exe dir>/../share/skinview/REL, then the install data dir. */
bool app_find_data(const char *relative, char *out, size_t out_size);

/* Writes RGBA8 pixels (rows top to bottom) as a PNG through a temporary file renamed onto `path`
 * when complete (io/atomic_file.h; gl_commands.c). False with a one-line cause. */
bool app_write_png(const char *path, int width, int height, const unsigned char *pixels, char *error,
                   size_t error_size);

/* --info [--json] (info.c) */
int command_info(const Model *model, bool json);

/* --export-pose (export_cmd.c) */
/* Skinned by `method`: SKINNING_GPU_DQ writes the CPU DQS reference (skin_dq_pose_skin_mesh),
 * the other two the CPU LBS reference (they draw the same picture). */
int command_export_pose(const Model *model, int clip, float time, SkinningMethod method, const char *out_path);

/* GL commands: they create the context first, because the bones-per-mesh limit
 * comes from GL_MAX_VERTEX_UNIFORM_COMPONENTS, then import the model. */
int command_view(const Options *options, const char *model_path);
int command_screenshot(const Options *options, const char *model_path);
int command_verify(const Options *options, const char *model_path);

/* --thumbnail IN OUT SIZE (thumbnail.c): within options->thumbnail_budget seconds or exit 1
 * with nothing written. */
int command_thumbnail(const Options *options);

/* --bake-vat OUTDIR (vat_bake.c): vertex animation textures of the model's clips. */
int command_bake_vat(const Options *options, const char *model_path);

/* --vat OUTDIR (vat_play.c): play a bake back; with --screenshot, --export-pose or --verify
 * that one thing instead of the window. */
int command_vat(const Options *options);

#endif
