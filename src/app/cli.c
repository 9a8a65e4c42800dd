/* cli.c — command-line parsing: one table of options (name, value, parser, help) from which both
 * cli_parse and the --help text are made. */
#include "cli.h"
#include "cli_check.h"
#include "view/playback.h"
#include "view/camera.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* How an option reads its value (the next argument) into its Options field. */
typedef enum OptionKind {
    OPTION_FLAG,     /* no value: the bool field is set */
    OPTION_TEXT,     /* the value itself (a const char * field) */
    OPTION_FLOAT,    /* a number in [min, max] (min excluded when min_open) into a float field */
    OPTION_INT,      /* an integer in [min, max] into an int field */
    OPTION_CUSTOM,   /* parse(): values, optional values, several fields */
} OptionKind;

typedef struct CliOption CliOption;
/* A custom option: argv[*i] is the option; consume its values by advancing *i. False with the
 * message in error. */
typedef bool (*OptionParse)(const CliOption *option, int argc, char **argv, int *i, Options *options, char *error,
                            size_t error_size);

struct CliOption {
    const char *name;        /* "--time" */
    const char *shown;       /* what --help shows after the name ("SECONDS"), NULL: nothing */
    OptionKind  kind;
    size_t      field;       /* offsetof(Options, ...) of what it sets */
    double      min, max;    /* OPTION_FLOAT / OPTION_INT range */
    bool        min_open;    /* OPTION_FLOAT: min itself is refused */
    const char *needs;       /* the message's "--NAME needs <needs>, got 'VALUE'" */
    size_t      also;        /* a bool field set as well (0: none), e.g. bake_option_set */
    OptionParse parse;       /* OPTION_CUSTOM */
    const char *help;        /* --help lines ('\n' between); NULL: not listed (an alias, or said with another) */
};

#define FIELD(f) offsetof(Options, f)
#define NO_ALSO 0

/* Writes the message for a bad value of `option`. */
static bool bad_value(const CliOption *option, const char *value, char *error, size_t error_size)
{
    snprintf(error, error_size, "%s needs %s, got '%s'", option->name, option->needs, value);
    return false;
}

const char *cli_version(void)
{
    return "skinview " SKINVIEW_VERSION;
}

static bool parse_float(const char *text, float *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0' || !isfinite(v)) return false;
    *out = (float)v;
    return true;
}

static bool parse_int(const char *text, int *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v < -1000000000L || v > 1000000000L) return false;
    *out = (int)v;
    return true;
}

bool cli_parse_compare(const char *text, SkinningMethod *a, SkinningMethod *b)
{
    static const char *const names[3] = {"lbs", "dq", "rigid"};
    static const SkinningMethod methods[3] = {SKINNING_GPU_LBS, SKINNING_GPU_DQ, SKINNING_RIGID};
    const char *comma = strchr(text, ',');
    if (!comma) return false;
    int found[2] = {-1, -1};
    for (int i = 0; i < 3; i++) {
        size_t length = strlen(names[i]);
        if ((size_t)(comma - text) == length && strncmp(text, names[i], length) == 0) found[0] = i;
        if (strcmp(comma + 1, names[i]) == 0) found[1] = i;
    }
    if (found[0] < 0 || found[1] < 0) return false;
    *a = methods[found[0]];
    *b = methods[found[1]];
    return true;
}


/* The value after argv[*i], consumed; NULL (with the message) when there is none. */
static const char *take_value(int argc, char **argv, int *i, char *error, size_t error_size)
{
    if (*i + 1 >= argc) {
        snprintf(error, error_size, "option %s needs a value", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

static bool parse_speed(const CliOption *option, int argc, char **argv, int *i, Options *o, char *error, size_t size)
{
    const char *value = take_value(argc, argv, i, error, size);
    if (!value) return false;
    float magnitude = 0.0f;
    if (parse_float(value, &o->speed)) magnitude = fabsf(o->speed);
    return magnitude >= PLAYBACK_SPEED_MIN && magnitude <= PLAYBACK_SPEED_MAX ? true : bad_value(option, value, error, size);
}

static bool parse_loop(const CliOption *option, int argc, char **argv, int *i, Options *o, char *error, size_t size)
{
    const char *value = take_value(argc, argv, i, error, size);
    PlaybackLoopMode mode;
    if (!value) return false;
    if (!playback_parse_loop_mode(value, &mode)) return bad_value(option, value, error, size);
    o->loop_mode = (int)mode;
    return true;
}

/* The value after argv[*i] (consumed), which must be one of `words` (NULL-terminated): its index, or
 * -1 with the message in error. */
static int take_choice(const CliOption *option, int argc, char **argv, int *i, const char *const *words, char *error,
                       size_t size)
{
    const char *value = take_value(argc, argv, i, error, size);
    for (int w = 0; value && words[w]; w++)
        if (strcmp(value, words[w]) == 0) return w;
    if (value) bad_value(option, value, error, size);
    return -1;
}

static bool parse_view(const CliOption *option, int argc, char **argv, int *i, Options *o, char *error, size_t size)
{
    static const char *const views[] = {"front", "back", "right", "left", "top", "bottom", NULL};
    o->view = take_choice(option, argc, argv, i, views, error, size);
    return o->view >= 0;
}

static bool parse_skinning(const CliOption *option, int argc, char **argv, int *i, Options *o, char *error, size_t size)
{
    /* "lbs": the same as gpu (linear blend skinning; the word --export-gltf users look for) */
    static const char *const methods[SKINNING_METHOD_COUNT + 2] = {"gpu", "cpu", "dq", "rigid", "lbs", NULL};
    int found = take_choice(option, argc, argv, i, methods, error, size);
    if (found == SKINNING_METHOD_COUNT) found = SKINNING_GPU_LBS;
    o->aids.skinning = found >= 0 ? (SkinningMethod)found : o->aids.skinning;
    o->skinning_given = true;
    return found >= 0;
}

static bool parse_lighting(const CliOption *option, int argc, char **argv, int *i, Options *o, char *error, size_t size)
{
    static const char *const modes[] = {"default", "flat", NULL};
    int found = take_choice(option, argc, argv, i, modes, error, size);
    o->flat_lighting = found == 1;
    return found >= 0;
}

static bool parse_precision(const CliOption *option, int argc, char **argv, int *i, Options *o, char *error, size_t size)
{
    static const char *const kinds[] = {"16", "float", NULL};
    int found = take_choice(option, argc, argv, i, kinds, error, size);
    o->float_precision = found == 1;
    return found >= 0;
}

static bool parse_compare(const CliOption *option, int argc, char **argv, int *i, Options *o, char *error, size_t size)
{
    const char *value = take_value(argc, argv, i, error, size);
    if (!value) return false;
    if (!cli_parse_compare(value, &o->aids.compare_a, &o->aids.compare_b)) return bad_value(option, value, error, size);
    o->aids.compare = true;
    return true;
}

static bool parse_size(const CliOption *option, int argc, char **argv, int *i, Options *o, char *error, size_t size)
{
    const char *value = take_value(argc, argv, i, error, size);
    if (!value) return false;
    int w = 0, h = 0;
    char tail = 0;
    if (sscanf(value, "%dx%d%c", &w, &h, &tail) != 2 || w < 1 || h < 1 || w > 16384 || h > 16384)
        return bad_value(option, value, error, size);
    o->width = w;
    o->height = h;
    return true;
}

static bool parse_clips(const CliOption *option, int argc, char **argv, int *i, Options *o, char *error, size_t size)
{
    const char *value = take_value(argc, argv, i, error, size);
    if (!value) return false;
    if (!value[0]) {
        snprintf(error, size, "%s needs %s", option->name, option->needs);
        return false;
    }
    o->clips = value;
    return true;
}

static bool parse_thumbnail(const CliOption *option, int argc, char **argv, int *i, Options *o, char *error, size_t size)
{
    if (*i + 3 >= argc) {
        snprintf(error, size, "%s needs three values: IN OUT SIZE", option->name);
        return false;
    }
    o->thumbnail_in = argv[*i + 1];
    o->thumbnail_out = argv[*i + 2];
    if (!parse_int(argv[*i + 3], &o->thumbnail_size) || o->thumbnail_size < 1 || o->thumbnail_size > 4096) {
        snprintf(error, size, "%s SIZE needs an integer in 1..4096, got '%s'", option->name, argv[*i + 3]);
        return false;
    }
    *i += 3;
    return true;
}

/* --show-weights [JOINT]: the next argument is the joint unless it is an option or an existing
 * file (the MODEL). */
static bool parse_show_weights(const CliOption *option, int argc, char **argv, int *i, Options *o, char *error,
                               size_t size)
{
    (void)option, (void)error, (void)size;
    o->aids.show_weights = true;
    const char *value = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (value && value[0] != '-' && access(value, F_OK) != 0) {
        o->aids.joint = value;
        ++*i;
    }
    return true;
}

/* --optimize-keys [TOLERANCE]: the next argument when it is a number (a MODEL named "0.001" needs ./). */
static bool parse_optimize_keys(const CliOption *option, int argc, char **argv, int *i, Options *o, char *error,
                                size_t size)
{
    o->optimize_keys = 1e-5f;   /* KEY_REDUCE_DEFAULT_TOLERANCE (anim/key_reduce.h) */
    const char *value = *i + 1 < argc ? argv[*i + 1] : NULL;
    float tolerance;
    if (!value || value[0] == '-' || !parse_float(value, &tolerance)) return true;
    if (!(tolerance > 0.0f) || tolerance > 0.1f) return bad_value(option, value, error, size);
    o->optimize_keys = tolerance;
    ++*i;
    return true;
}

/* --compress meshopt (the one method so far) */
/* --max-influences 4|8 */
static bool parse_max_influences(const CliOption *option, int argc, char **argv, int *i, Options *o, char *error,
                                 size_t size)
{
    const char *value = take_value(argc, argv, i, error, size);
    if (!value) return false;
    if (strcmp(value, "4") != 0 && strcmp(value, "8") != 0) return bad_value(option, value, error, size);
    o->max_influences = atoi(value);
    return true;
}

static bool parse_compress(const CliOption *option, int argc, char **argv, int *i, Options *o, char *error, size_t size)
{
    const char *value = take_value(argc, argv, i, error, size);
    if (!value) return false;
    if (strcmp(value, "meshopt") != 0) return bad_value(option, value, error, size);
    o->compress_meshopt = true;
    return true;
}

/* --show-axes [all] */
static bool parse_show_axes(const CliOption *option, int argc, char **argv, int *i, Options *o, char *error, size_t size)
{
    (void)option, (void)error, (void)size;
    o->aids.axes = AXES_SELECTED;
    if (*i + 1 < argc && strcmp(argv[*i + 1], "all") == 0) {
        o->aids.axes = AXES_ALL;
        ++*i;
    }
    return true;
}

static bool parse_retarget(const CliOption *option, int argc, char **argv, int *i, Options *o, char *error, size_t size)
{
    static const char *const words[] = {"on", "off", NULL};
    int choice = take_choice(option, argc, argv, i, words, error, size);
    if (choice < 0) return false;
    o->retarget_off = choice == 1;
    o->retarget_given = true;
    return true;
}

/* --animations: each occurrence adds to one list, an item a line ('\n' joins them: a path holds no
 * newline in practice, and may hold a comma). An argument that names an existing file or folder is one
 * item whatever it holds; else it is split at its commas, "\," standing for a comma in a name. */
static bool parse_animations(const CliOption *option, int argc, char **argv, int *i, Options *o, char *error, size_t size)
{
    static char list[16384];
    const char *value = take_value(argc, argv, i, error, size);
    if (!value) return false;
    if (strchr(value, '\n')) {
        snprintf(error, size, "%s: a name with a line break is not supported", option->name);
        return false;
    }
    size_t length = o->animations ? strlen(list) : 0;
    if (length > 0) list[length++] = '\n';   /* after the earlier --animations */
    struct stat st;
    bool whole = stat(value, &st) == 0;
    for (const char *c = value; *c; c++) {
        char put = *c;
        if (!whole && c[0] == '\\' && c[1] == ',') put = *++c;   /* an escaped comma */
        else if (!whole && put == ',') put = '\n';
        if (length + 2 >= sizeof list) {
            snprintf(error, size, "%s: the list is too long (16 KiB at most)", option->name);
            return false;
        }
        list[length++] = put;
    }
    list[length] = '\0';
    o->animations = list;
    return true;
}

#define FLAG(name, f, help) {name, NULL, OPTION_FLAG, FIELD(f), 0, 0, false, NULL, NO_ALSO, NULL, help}
#define TEXT(name, shown, f, help) {name, shown, OPTION_TEXT, FIELD(f), 0, 0, false, NULL, NO_ALSO, NULL, help}
#define CUSTOM(name, shown, parse, needs, help) {name, shown, OPTION_CUSTOM, 0, 0, 0, false, needs, NO_ALSO, parse, help}

/* Every option, in the order --help lists them. */
static const CliOption options_table[] = {
    TEXT("--clip", "NAME|INDEX", clip, "clip by name or by index from 0 (as --info lists them);\n"
                                       "'bind' = bind pose, 'rest' = file node transforms"),
    {"--time", "SECONDS", OPTION_FLOAT, FIELD(time), 0.0, INFINITY, false, "a number of seconds >= 0", FIELD(time_set), NULL,
     "time from the clip start"},
    CUSTOM("--speed", "X", parse_speed, "a number with 1/64 <= |X| <= 64 (negative plays backwards)",
           "playback speed factor (default 1); negative plays backwards;\n1/64 <= |X| <= 64 (the keys' range)"),
    CUSTOM("--loop", "MODE", parse_loop, "loop, once or ping-pong",
           "loop (default), once (stop on the last frame) or ping-pong"),
    {"--blend", "SECONDS", OPTION_FLOAT, FIELD(blend_seconds), 0.0, PLAYBACK_BLEND_MAX, false, "seconds in [0, 10]", NO_ALSO,
     NULL, "cross-fade when the viewer changes clip or pose source (T)\n(default 0.25, 0 = cut)"},
    FLAG("--watch", watch, "the viewer reloads MODEL when the file changes on disk"),
    FLAG("--show-hud", show_hud, "--screenshot also draws the status line and the timeline"),
    {"--show-browser", NULL, OPTION_FLAG, FIELD(show_browser), 0, 0, false, NULL, FIELD(show_hud), NULL,
     "--screenshot also draws the clip list (implies --show-hud)"},
    {"--show-help", NULL, OPTION_FLAG, FIELD(show_help), 0, 0, false, NULL, FIELD(show_hud), NULL,
     "--screenshot also draws the help panel (key H; implies --show-hud)"},
    CUSTOM("--view", "VIEW", parse_view, "front, back, right, left, top or bottom",
           "--screenshot camera: front, back, right, left, top or bottom\n"
           "(default: three-quarter front, as the viewer opens)"),
    {"--info", "[--json]", OPTION_FLAG, FIELD(info), 0, 0, false, NULL, NO_ALSO, NULL,
     "print meshes, joints and clips, then exit"},
    FLAG("--json", json, NULL),
    FLAG("--verbose", verbose, "--info also lists each FBX joint's node features (after the clips)"),
    TEXT("--screenshot", "PNG", screenshot_path, "render one frame off-screen, write a PNG, exit"),
    TEXT("--record", "OUT", record_path, "render --clip from --time off-screen and write OUT.mp4 (H.264),\n"
                                         "OUT.webm (VP9), OUT.gif or OUT-%04d.png frames, exit; takes what\n"
                                         "--screenshot takes (--size, --view, aids, --show-hud), --fps,\n"
                                         "--speed, --loop and --duration"),
    {"--duration", "SECONDS", OPTION_FLOAT, FIELD(duration), 0.0, 3600.0, true, "seconds in (0, 3600]",
     FIELD(duration_given), NULL, "--record length (default one loop of the clip at --speed;\nping-pong: there and back)"},
    CUSTOM("--size", "WxH", parse_size, "WxH with 1..16384 pixels each", "screenshot / window size (default 1280x720)"),
    TEXT("--export-pose", "OBJ", export_pose_path, "write the skinned meshes at --clip/--time in scene space, exit"),
    FLAG("--verify", verify, "compare GPU skinning (shaders/skinned.vert) with the CPU\n"
                             "reference for every clip; exit 1 on mismatch"),
    {"--max-bones", "N", OPTION_INT, FIELD(max_bones), 1, 4096, false, "an integer in 1..4096", NO_ALSO, NULL,
     "force a smaller bones-per-mesh limit (meshes are split)"},
    FLAG("--gl-debug", gl_debug, "report every OpenGL error (KHR_debug callback, else glGetError\n"
                                 "after each stage) and exit 1 if there was one"),
    CUSTOM("--thumbnail", "IN OUT SIZE", parse_thumbnail, NULL,
           "write a SIZExSIZE PNG of model IN to OUT (transparent\n"
           "background; the middle of clip 0 or --clip, or --time; the bind\npose without clips), exit; for file managers"),
    {"--thumbnail-budget", "SECONDS", OPTION_FLOAT, FIELD(thumbnail_budget), 0.0, 3600.0, true, "seconds in (0, 3600]",
     NO_ALSO, NULL, "give up a thumbnail after this long: exit 1, nothing\nwritten (default 5)"},
    TEXT("--bake-vat", "OUTDIR", bake_vat_dir, "bake vertex animation textures (positions.png, normals.png,\n"
                                               "mesh.glb, vat.json) of the selected clips into OUTDIR, exit"),
    {"--fps", "N", OPTION_FLOAT, FIELD(fps), 0.0, 1000.0, true, "a number of frames per second in (0, 1000]",
     FIELD(fps_given), NULL, "bake rate in frames per second (default 30); --record: frame rate\n"
                             "(default the clip's, at most 60; GIF at most 50); --export-gltf:\n"
                             "resample every joint channel at N per second plus its keys, LINEAR"},
    {"--clips", "A,B|all", OPTION_CUSTOM, 0, 0, 0, false, "clip names or indices separated by commas, or 'all'",
     FIELD(bake_option_set), parse_clips, "clips to bake or export, by name or index from 0 (default all)"},
    {"--precision", "16|float", OPTION_CUSTOM, 0, 0, 0, false, "16 or float", FIELD(precision_or_texture), parse_precision,
     "16-bit PNG positions (default) or 32-bit float EXR"},
    {"--max-texture", "N", OPTION_INT, FIELD(max_texture), 16, 65536, false, "an integer in 16..65536",
     FIELD(precision_or_texture), NULL,
     "largest texture side (default: GL_MAX_TEXTURE_SIZE, else 16384);\nmore frames go to further pages (positions_1.png ...)"},
    {"--quiet", NULL, OPTION_FLAG, FIELD(quiet), 0, 0, false, NULL, FIELD(bake_option_set), NULL,
     "no progress line on stderr while baking; with --export-gltf:\nnothing on success (errors still one line on stderr)"},
    TEXT("--export-gltf", "OUT", export_gltf_path,
         "write the model as glTF 2.0 (OUT.glb: one file; OUT.gltf: with\n"
         "OUT.bin and PNG images beside it): hierarchy, skins, every clip\n"
         "(--clips), morph targets, materials and textures, exit"),
    FLAG("--check-export", check_export, "with --export-gltf: read the file back, pose every clip at every key\n"
                                         "and halfway between against MODEL as skinview shows it (--skinning),\n"
                                         "print the worst vertex distance per clip over the model's size\n"
                                         "(at keys, halfway); exit 1 above 1e-4"),
    CUSTOM("--compress", "meshopt", parse_compress, "meshopt",
           "with --export-gltf (or the window's Ctrl+E): EXT_meshopt_compression\n(meshoptimizer)"),
    CUSTOM("--max-influences", "4|8", parse_max_influences, "4 or 8",
           "with --export-gltf (or the window's Ctrl+E): 8 writes JOINTS_1 /\nWEIGHTS_1 for vertices with\n"
           "more than four influences (the file's 8 largest; default 4: what\n"
           "the renderer draws)"),
    TEXT("--vat", "OUTDIR", vat_dir, "play a bake back with shaders/vat.vert (no skeleton)"),
    {"--instances", "N", OPTION_INT, FIELD(instances), 1, 1000000, false, "an integer in 1..1000000",
     FIELD(instances_given), NULL, "with --vat: N copies on a grid, one draw call per mesh"},
    CUSTOM("--animations", "FILE[,FILE...]|DIR", parse_animations, NULL,
           "add the clips of other files (a folder: every model file in it,\n"
           "sorted) to MODEL: joints matched by name, prefix-free name,\n"
           "humanoid role or --bone-map, clips retargeted onto MODEL's\n"
           "skeleton (docs/retargeting.md); --clip names them. May be given\n"
           "again; a path with a comma: as it is (an existing file) or '\\,'"),
    TEXT("--bone-map", "FILE", bone_map, "with --animations: one 'source target' joint pair a line,\n"
                                         "matched before any name or role"),
    CUSTOM("--retarget", "on|off", parse_retarget, "on or off",
           "with --animations: on (default) retargets rotations and scales\n"
           "the hips' travel; off copies the local keys as they are (same rig)"),
    CUSTOM("--skinning", "METHOD", parse_skinning, "gpu, cpu, dq, rigid or lbs",
           "gpu (or lbs): linear blend skinning in the shader (default); cpu: linear\n"
           "blend skinning on the CPU, uploaded each frame; dq: dual quaternion\n"
           "skinning in the shader; rigid: each vertex follows its heaviest joint\n"
           "only (the joints crack). --screenshot, --export-pose and --verify follow it;\n"
           "--export-gltf too: dq / rigid as LBS + corrective morph targets, lbs plain"),
    FLAG("--reference", aids.reference, "run the functions docs/skinning.md teaches (clip_sample,\n"
                                        "pose_local_to_model, skin_palette, skin_vertices_lbs) instead of the\n"
                                        "fast path (packed keys, SIMD); the window, --screenshot, --export-pose,\n"
                                        "--inspect-vertex and --verify follow it (key Shift+R)"),
    TEXT("--inspect-vertex", "MESH:INDEX", inspect_vertex,
         "print one vertex through the skinning formula at --clip/--time\n"
         "(MESH: index or name; INDEX as --export-pose orders the vertices): stored\n"
         "position, morph steps, bone<k>info with joint names, each joint's\n"
         "model-space, offset and palette matrix, each weighted term, the sum,\n"
         "bone-space coordinates; with --json one object (keys: influences [joint,\n"
         "weight, joint_model, offset, palette, bone_space, term], sum, final, ...)\n"
         "With --screenshot: the inspector panel in the picture (key E, click a vertex)"),
    CUSTOM("--compare", "A,B", parse_compare, "two of lbs, dq, rigid separated by a comma",
           "colour each vertex by the distance between methods A and B (lbs, dq,\n"
           "rigid), surface drawn by A, legend in scene units (key D)"),
    TEXT("--against", "OTHER", against_path,
         "colour each vertex of MODEL by its distance to OTHER's vertex at\n"
         "the same clip (by name, else index) and time: two files of one\n"
         "character, e.g. an FBX and a converter's glTF (window and\n"
         "--screenshot, key D); vertices paired by order when the totals\n"
         "agree, else by the nearest point at the bind pose (stderr says which)"),
    {"--report", NULL, OPTION_FLAG, FIELD(against_report), 0, 0, false, NULL, NO_ALSO, NULL,
     "with --against: per clip the worst and mean distance at 0, every\n"
     "1/30 s and the clip's end (stdout), exit 1 above --tolerance"},
    {"--tolerance", "X", OPTION_FLOAT, FIELD(tolerance), 0.0, 1.0, true, "a fraction of the diagonal in (0, 1]",
     FIELD(tolerance_given), NULL, "--report's limit, of MODEL's bounding-box diagonal (default 1e-3)"},
    TEXT("--morph", "NAME=W,...", aids.morph, "set morph target weights (target name or index) over the clip's"),
    FLAG("--show-morphs", aids.show_morphs, "morph target sliders of the selected mesh (key Z; drag a bar,\n"
                                             "release: back to the clip's weight)"),
    FLAG("--show-bone-space", aids.show_bone_space, "the selected joint's bone space: its axes now and at bind time, and\n"
                                                    "the vertices it moves coloured by weight (key Y)"),
    FLAG("--isolate-joint", aids.isolate_joint, "the skeleton overlay shows only the selected joint's chain, the\n"
                                                "influence view only its vertices (key /)"),
    TEXT("--hide-joints", "A,B", aids.hide_joints, "hide these joints and their descendants in the overlay (key Backspace)"),
    CUSTOM("--lighting", "MODE", parse_lighting, "flat or default",
           "default: the materials as glTF defines them (metallic-roughness PBR)\n"
           "under a key light that follows the camera, a sky/ground ambient and\n"
           "a tone map; flat: the old look, one fixed light over the base colour"),
    FLAG("--shadow", aids.shadow, "the model's shadow on the ground grid, cast by the key light"),
    /* checked by main (a bad file exits 1) */
    TEXT("--environment", "HDR", aids.environment, "ambient light from an equirectangular Radiance .hdr image\n"
                                                   "(diffuse and specular, prefiltered at load) instead of the sky/ground"),
    FLAG("--show-skeleton", aids.show_skeleton, "bones as lines, joints as dots (key B)"),
    FLAG("--show-source-rig", aids.show_source_rig, "with a clip of --animations: the skeleton it was retargeted from,\n"
                                                    "posed beside the character at its size (key Shift+B)"),
    CUSTOM("--show-weights", "[JOINT]", parse_show_weights, NULL,
           "colour each vertex by its weight on the selected joint (key W)\n"
           "(JOINT: a joint name; an argument naming an existing file is the MODEL)"),
    FLAG("--show-influences", aids.show_influences, "colour each vertex by its number of influences (W pressed twice);\n"
                                                    "magenta: it had 5 or more, the import kept 4"),
    TEXT("--joint", "NAME", aids.joint, "select a joint: weights, axes and the HUD show it (keys [ ], click)"),
    CUSTOM("--show-axes", "[all]", parse_show_axes, NULL, "RGB axis triads at the selected joint, or at every joint (key A)"),
    FLAG("--show-names", aids.show_names, "joint names next to the joints (key J)"),
    FLAG("--joint-values", aids.joint_values, "the selected joint's local T, R, S and model-space values (key I)"),
    FLAG("--wireframe", aids.wireframe, "triangle edges over the surface (key X)"),
    FLAG("--show-normals", aids.show_normals, "skinned normals as short lines (key V)"),
    FLAG("--no-grid", no_grid, "hide the ground grid and world axes (key G; on by default)"),
    CUSTOM("--optimize-keys", "[TOLERANCE]", parse_optimize_keys, "a tolerance in (0, 0.1]",
           "drop the animation keys that interpolation reproduces within\n"
           "TOLERANCE x the model's size (bbox diagonal), measured at the skin\n"
           "(default 1e-5; off unless given: skinview shows the file's keys);\n"
           "--info reports keys before/after and the measured worst pose change"),
    FLAG("--no-extrapolation", no_extrapolation, "FBX curves hold their first and last keys instead of the file's\n"
                                                 "pre/post extrapolation (repetition, mirror, keep slope), as Assimp does"),
    FLAG("--help", help, "print this help, exit"),
    FLAG("-h", help, NULL),
    FLAG("--version", version, "print the version, exit"),
};
enum { OPTION_COUNT = sizeof options_table / sizeof options_table[0] };

const char *cli_usage(void)
{
    static const char synopsis[] =
        "usage: skinview [MODEL] [--clip NAME|INDEX] [--time SECONDS] [--speed X]\n"
        "                [--info] [--json]\n"
        "                [--screenshot OUT.png] [--size WxH]\n"
        "                [--export-pose OUT.obj]\n"
        "                [--verify] [--max-bones N] [--gl-debug] [--skinning gpu|cpu|dq|rigid]\n"
        "                [--inspect-vertex MESH:INDEX [--json]] [--compare A,B] [--morph NAME=W,...]\n"
        "                [--show-bone-space] [--show-morphs] [--isolate-joint] [--hide-joints A,B]\n"
        "                [--lighting flat|default] [--shadow] [--environment FILE.hdr]\n"
        "                [--show-skeleton] [--show-source-rig] [--show-weights [JOINT]] [--show-influences]\n"
        "                [--joint NAME]\n"
        "                [--show-axes [all]] [--show-names] [--joint-values] [--wireframe]\n"
        "                [--show-normals] [--no-grid] [--optimize-keys [TOLERANCE]] [--no-extrapolation]\n"
        "                [--loop loop|once|ping-pong] [--blend SECONDS] [--watch]\n"
        "                [--show-hud] [--show-browser] [--show-help] [--view VIEW]\n"
        "                [--record OUT.mp4|OUT.webm|OUT.gif|OUT-%04d.png [--duration S] [--fps N]]\n"
        "                [--bake-vat OUTDIR [--fps N] [--clips A,B|all] [--precision 16|float]\n"
        "                                   [--max-texture N] [--quiet]]\n"
        "                [--export-gltf OUT.glb|OUT.gltf [--clips A,B|all] [--fps N] [--compress meshopt]\n"
        "                                   [--max-influences 4|8] [--skinning dq|lbs|rigid] [--check-export] [--quiet]]\n"
        "       skinview --vat OUTDIR [--instances N] [--clip ...] [--time ...] [--speed X]\n"
        "                [--screenshot OUT.png | --export-pose OUT.obj | --verify] [--size WxH]\n"
        "       skinview MODEL --against OTHER [--report [--tolerance X] | --screenshot OUT.png]\n"
        "       skinview --thumbnail IN OUT SIZE [--thumbnail-budget SECONDS]\n"
        "                [--help] [--version]\n"
        "  MODEL              any file Assimp reads (FBX, glTF/GLB, Collada, X, ...);\n"
        "                     default: the bundled demo model\n";
    static char text[12288];
    if (text[0]) return text;
    size_t length = (size_t)snprintf(text, sizeof text, "%s", synopsis);
    /* one entry per option: "  --name VALUE" padded to column 21 (or two spaces), then the help,
     * its further lines indented to column 21 */
    for (int o = 0; o < OPTION_COUNT && length < sizeof text; o++) {
        const CliOption *option = &options_table[o];
        if (!option->help) continue;
        char head[64];
        snprintf(head, sizeof head, "%s%s%s%s", option->name, option->shown ? " " : "", option->shown ? option->shown : "",
                 strcmp(option->name, "--help") == 0 ? ", -h" : "");
        length += (size_t)snprintf(text + length, sizeof text - length, "  %-*s%s", strlen(head) < 19 ? 19 : (int)strlen(head) + 1,
                                   head, strlen(head) < 19 ? "" : " ");
        for (const char *line = option->help; *line && length < sizeof text;) {
            size_t n = strcspn(line, "\n");
            length += (size_t)snprintf(text + length, sizeof text - length, "%s%.*s\n", line == option->help ? "" : "                     ",
                                       (int)n, line);
            line += n + (line[n] == '\n');
        }
    }
    if (length < sizeof text) snprintf(text + length, sizeof text - length, "Keys, exit codes and examples: man skinview\n");
    return text;
}

/* Reads one option (argv[*i]) through its table row. */
static bool apply_option(const CliOption *option, int argc, char **argv, int *i, Options *options, char *error,
                         size_t error_size)
{
    char *field = (char *)options + option->field;
    if (option->kind == OPTION_CUSTOM) {
        if (!option->parse(option, argc, argv, i, options, error, error_size)) return false;
    } else if (option->kind == OPTION_FLAG) {
        *(bool *)(void *)field = true;
    } else {
        const char *value = take_value(argc, argv, i, error, error_size);
        if (!value) return false;
        if (option->kind == OPTION_TEXT) {
            *(const char **)(void *)field = value;
        } else if (option->kind == OPTION_FLOAT) {
            float number;
            if (!parse_float(value, &number) || number < option->min || number > option->max ||
                (option->min_open && number <= option->min))
                return bad_value(option, value, error, error_size);
            *(float *)(void *)field = number;
        } else {
            int number;
            if (!parse_int(value, &number) || number < option->min || number > option->max)
                return bad_value(option, value, error, error_size);
            *(int *)(void *)field = number;
        }
    }
    if (option->also) *(bool *)(void *)((char *)options + option->also) = true;
    return true;
}

bool cli_parse(int argc, char **argv, Options *options, char *error, size_t error_size)
{
    memset(options, 0, sizeof *options);
    options->speed = 1.0f;
    options->loop_mode = PLAYBACK_LOOP;
    options->blend_seconds = PLAYBACK_BLEND_DEFAULT;
    options->view = -1;
    options->width = 1280;
    options->height = 720;
    options->thumbnail_budget = 5.0f;
    options->fps = 30.0f;
    options->instances = 1;
    options->tolerance = 1e-3f;   /* AGAINST_DEFAULT_TOLERANCE (teach/against.h) */
    options->aids.compare_a = SKINNING_GPU_LBS;
    options->aids.compare_b = SKINNING_GPU_DQ;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const CliOption *option = NULL;
        for (int o = 0; o < OPTION_COUNT && !option; o++)
            if (strcmp(arg, options_table[o].name) == 0) option = &options_table[o];
        if (option) {
            if (!apply_option(option, argc, argv, &i, options, error, error_size)) return false;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            snprintf(error, error_size, "unknown option '%s'", arg);
            return false;
        } else if (!options->model_path) {
            options->model_path = arg;
        } else {
            snprintf(error, error_size, "more than one MODEL given ('%s' and '%s')", options->model_path, arg);
            return false;
        }
    }
    return cli_check(options, error, error_size);
}
