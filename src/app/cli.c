/* cli.c — command-line parsing. */
#include "cli.h"
#include "view/playback.h"
#include "view/camera.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *cli_usage(void)
{
    return "usage: skinview [MODEL] [--clip NAME|INDEX] [--time SECONDS] [--speed X]\n"
           "                [--info] [--json]\n"
           "                [--screenshot OUT.png] [--size WxH]\n"
           "                [--export-pose OUT.obj]\n"
           "                [--verify] [--max-bones N] [--gl-debug] [--skinning gpu|cpu|dq|rigid]\n"
           "                [--inspect-vertex MESH:INDEX [--json]] [--compare A,B] [--morph NAME=W,...]\n"
           "                [--show-bone-space] [--show-morphs] [--isolate-joint] [--hide-joints A,B]\n"
           "                [--lighting flat|default] [--shadow] [--environment FILE.hdr]\n"
           "                [--show-skeleton] [--show-weights [JOINT]] [--show-influences] [--joint NAME]\n"
           "                [--show-axes [all]] [--show-names] [--joint-values] [--wireframe]\n"
           "                [--show-normals] [--no-grid] [--optimize-keys [TOLERANCE]] [--no-extrapolation]\n"
           "                [--loop loop|once|ping-pong] [--blend SECONDS] [--watch]\n"
           "                [--show-hud] [--show-browser] [--view VIEW]\n"
           "                [--bake-vat OUTDIR [--fps N] [--clips A,B|all] [--precision 16|float]\n"
           "                                   [--max-texture N] [--quiet]]\n"
           "       skinview --vat OUTDIR [--instances N] [--clip ...] [--time ...] [--speed X]\n"
           "                [--screenshot OUT.png | --export-pose OUT.obj | --verify] [--size WxH]\n"
           "       skinview --thumbnail IN OUT SIZE [--thumbnail-budget SECONDS]\n"
           "                [--help] [--version]\n"
           "  MODEL              any file Assimp reads (FBX, glTF/GLB, Collada, X, ...);\n"
           "                     default: the bundled demo model\n"
           "  --clip NAME|INDEX  clip by name or by index from 0 (as --info lists them);\n"
           "                     'bind' = bind pose, 'rest' = file node transforms\n"
           "  --time SECONDS     time from the clip start\n"
           "  --speed X          playback speed factor (default 1); negative plays backwards;\n"
           "                     1/64 <= |X| <= 64 (the keys' range)\n"
           "  --loop MODE        loop (default), once (stop on the last frame) or ping-pong\n"
           "  --blend SECONDS    cross-fade when the viewer changes clip or pose source (T)\n"
           "                     (default 0.25, 0 = cut)\n"
           "  --watch            the viewer reloads MODEL when the file changes on disk\n"
           "  --show-hud         --screenshot also draws the status line and the timeline\n"
           "  --show-browser     --screenshot also draws the clip list (implies --show-hud)\n"
           "  --view VIEW        --screenshot camera: front, back, right, left, top or bottom\n"
           "                     (default: three-quarter front, as the viewer opens)\n"
           "  --info [--json]    print meshes, joints and clips, then exit\n"
           "  --screenshot PNG   render one frame off-screen, write a PNG, exit\n"
           "  --size WxH         screenshot / window size (default 1280x720)\n"
           "  --export-pose OBJ  write the skinned meshes at --clip/--time in scene space, exit\n"
           "  --verify           compare GPU skinning (shaders/skinned.vert) with the CPU\n"
           "                     reference for every clip; exit 1 on mismatch\n"
           "  --max-bones N      force a smaller bones-per-mesh limit (meshes are split)\n"
           "  --gl-debug         report every OpenGL error (KHR_debug callback, else glGetError\n"
           "                     after each stage) and exit 1 if there was one\n"
           "  --thumbnail IN OUT SIZE  write a SIZExSIZE PNG of model IN to OUT (transparent\n"
           "                     background; the middle of clip 0 or --clip, or --time; the bind\n"
           "                     pose without clips), exit; for file managers\n"
           "  --thumbnail-budget SECONDS  give up a thumbnail after this long: exit 1, nothing\n"
           "                     written (default 5)\n"
           "  --bake-vat OUTDIR  bake vertex animation textures (positions.png, normals.png,\n"
           "                     mesh.glb, vat.json) of the selected clips into OUTDIR, exit\n"
           "  --fps N            bake rate in frames per second (default 30)\n"
           "  --clips A,B|all    clips to bake, by name or index from 0 (default all)\n"
           "  --precision 16|float  16-bit PNG positions (default) or 32-bit float EXR\n"
           "  --max-texture N    largest texture side (default: GL_MAX_TEXTURE_SIZE, else 16384);\n"
           "                     more frames go to further pages (positions_1.png ...)\n"
           "  --quiet            no progress bar on stderr while baking\n"
           "  --vat OUTDIR       play a bake back with shaders/vat.vert (no skeleton)\n"
           "  --instances N      with --vat: N copies on a grid, one draw call per mesh\n"
           "  --skinning METHOD  gpu: linear blend skinning in the shader (default); cpu: linear\n"
           "                     blend skinning on the CPU, uploaded each frame; dq: dual quaternion\n"
           "                     skinning in the shader; rigid: each vertex follows its heaviest joint\n"
           "                     only (the joints crack). --screenshot, --export-pose and --verify follow it\n"
           "  --inspect-vertex MESH:INDEX  print one vertex through the skinning formula at --clip/--time\n"
           "                     (MESH: index or name; INDEX as --export-pose orders the vertices): stored\n"
           "                     position, morph steps, bone<k>info with joint names, each joint's\n"
           "                     model-space, offset and palette matrix, each weighted term, the sum,\n"
           "                     bone-space coordinates; with --json one object (keys: influences [joint,\n"
           "                     weight, joint_model, offset, palette, bone_space, term], sum, final, ...)\n"
           "                     With --screenshot: the inspector panel in the picture (key E, click a vertex)\n"
           "  --compare A,B      colour each vertex by the distance between methods A and B (lbs, dq,\n"
           "                     rigid), surface drawn by A, legend in scene units (key D)\n"
           "  --morph NAME=W,... set morph target weights (target name or index) over the clip's\n"
           "  --show-morphs      morph target sliders of the selected mesh (key Z; drag a bar,\n"
           "                     release: back to the clip's weight)\n"
           "  --show-bone-space  the selected joint's bone space: its axes now and at bind time, and\n"
           "                     the vertices it moves coloured by weight (key Y)\n"
           "  --isolate-joint    the skeleton overlay shows only the selected joint's chain, the\n"
           "                     influence view only its vertices (key /)\n"
           "  --hide-joints A,B  hide these joints and their descendants in the overlay (key Backspace)\n"
           "  --lighting MODE    default: the materials as glTF defines them (metallic-roughness PBR)\n"
           "                     under a key light that follows the camera, a sky/ground ambient and\n"
           "                     a tone map; flat: the old look, one fixed light over the base colour\n"
           "  --shadow           the model's shadow on the ground grid, cast by the key light\n"
           "  --environment HDR  ambient light from an equirectangular Radiance .hdr image\n"
           "                     (diffuse and specular, prefiltered at load) instead of the sky/ground\n"
           "  --show-skeleton    bones as lines, joints as dots (key B)\n"
           "  --show-weights [JOINT]  colour each vertex by its weight on the selected joint (key W)\n"
           "                     (JOINT: a joint name; an argument naming an existing file is the MODEL)\n"
           "  --show-influences  colour each vertex by its number of influences (W pressed twice);\n"
           "                     magenta: it had 5 or more, the import kept 4\n"
           "  --joint NAME       select a joint: weights, axes and the HUD show it (keys [ ], click)\n"
           "  --show-axes [all]  RGB axis triads at the selected joint, or at every joint (key A)\n"
           "  --show-names       joint names next to the joints (key J)\n"
           "  --joint-values     the selected joint's local T, R, S and model-space values (key I)\n"
           "  --wireframe        triangle edges over the surface (key X)\n"
           "  --show-normals     skinned normals as short lines (key V)\n"
           "  --no-grid          hide the ground grid and world axes (key G; on by default)\n"
           "  --optimize-keys [TOLERANCE]  drop the animation keys that interpolation reproduces within\n"
           "                     TOLERANCE x the model's size (bbox diagonal), measured at the skin\n"
           "                     (default 1e-5; off unless given: skinview shows the file's keys);\n"
           "                     --info reports keys before/after and the measured worst pose change\n"
           "  --no-extrapolation FBX curves hold their first and last keys instead of the file's\n"
           "                     pre/post extrapolation (repetition, mirror, keep slope), as Assimp does\n"
           "  --help, -h         print this help, exit\n"
           "  --version          print the version, exit\n"
           "Keys, exit codes and examples: man skinview\n";
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
    bool instances_set = false;
    options->aids.grid = true;
    options->aids.compare_a = SKINNING_GPU_LBS;
    options->aids.compare_b = SKINNING_GPU_DQ;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = (i + 1 < argc) ? argv[i + 1] : NULL;
#define NEED_VALUE()                                                              \
    do {                                                                          \
        if (!value) {                                                             \
            snprintf(error, error_size, "option %s needs a value", arg);          \
            return false;                                                         \
        }                                                                         \
        i++;                                                                      \
    } while (0)
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            options->help = true;
        } else if (strcmp(arg, "--version") == 0) {
            options->version = true;
        } else if (strcmp(arg, "--info") == 0) {
            options->info = true;
        } else if (strcmp(arg, "--json") == 0) {
            options->json = true;
        } else if (strcmp(arg, "--gl-debug") == 0) {
            options->gl_debug = true;
        } else if (strcmp(arg, "--verify") == 0) {
            options->verify = true;
        } else if (strcmp(arg, "--clip") == 0) {
            NEED_VALUE();
            options->clip = value;
        } else if (strcmp(arg, "--time") == 0) {
            NEED_VALUE();
            if (!parse_float(value, &options->time) || options->time < 0.0f) {
                snprintf(error, error_size, "--time needs a number of seconds >= 0, got '%s'", value);
                return false;
            }
            options->time_set = true;
        } else if (strcmp(arg, "--speed") == 0) {
            NEED_VALUE();
            float magnitude = 0.0f;
            if (parse_float(value, &options->speed)) magnitude = options->speed < 0.0f ? -options->speed : options->speed;
            if (!(magnitude >= PLAYBACK_SPEED_MIN && magnitude <= PLAYBACK_SPEED_MAX)) {
                snprintf(error, error_size,
                         "--speed needs a number with 1/64 <= |X| <= 64 (negative plays backwards), got '%s'", value);
                return false;
            }
        } else if (strcmp(arg, "--loop") == 0) {
            NEED_VALUE();
            PlaybackLoopMode mode;
            if (!playback_parse_loop_mode(value, &mode)) {
                snprintf(error, error_size, "--loop needs loop, once or ping-pong, got '%s'", value);
                return false;
            }
            options->loop_mode = (int)mode;
        } else if (strcmp(arg, "--blend") == 0) {
            NEED_VALUE();
            if (!parse_float(value, &options->blend_seconds) || options->blend_seconds < 0.0f ||
                options->blend_seconds > PLAYBACK_BLEND_MAX) {
                snprintf(error, error_size, "--blend needs seconds in [0, 10], got '%s'", value);
                return false;
            }
        } else if (strcmp(arg, "--view") == 0) {
            NEED_VALUE();
            static const char *const views[] = {"front", "back", "right", "left", "top", "bottom"};
            options->view = -1;
            for (int v = 0; v < 6; v++)
                if (strcmp(value, views[v]) == 0) options->view = v;
            if (options->view < 0) {
                snprintf(error, error_size, "--view needs front, back, right, left, top or bottom, got '%s'", value);
                return false;
            }
        } else if (strcmp(arg, "--watch") == 0) {
            options->watch = true;
        } else if (strcmp(arg, "--show-hud") == 0) {
            options->show_hud = true;
        } else if (strcmp(arg, "--show-browser") == 0) {
            options->show_browser = true;
            options->show_hud = true;
        } else if (strcmp(arg, "--screenshot") == 0) {
            NEED_VALUE();
            options->screenshot_path = value;
        } else if (strcmp(arg, "--export-pose") == 0) {
            NEED_VALUE();
            options->export_pose_path = value;
        } else if (strcmp(arg, "--size") == 0) {
            NEED_VALUE();
            int w = 0, h = 0;
            char tail = 0;
            if (sscanf(value, "%dx%d%c", &w, &h, &tail) != 2 || w < 1 || h < 1 || w > 16384 || h > 16384) {
                snprintf(error, error_size, "--size needs WxH with 1..16384 pixels each, got '%s'", value);
                return false;
            }
            options->width = w;
            options->height = h;
        } else if (strcmp(arg, "--thumbnail") == 0) {
            if (i + 3 >= argc) {
                snprintf(error, error_size, "--thumbnail needs three values: IN OUT SIZE");
                return false;
            }
            options->thumbnail_in = argv[i + 1];
            options->thumbnail_out = argv[i + 2];
            if (!parse_int(argv[i + 3], &options->thumbnail_size) || options->thumbnail_size < 1 ||
                options->thumbnail_size > 4096) {
                snprintf(error, error_size, "--thumbnail SIZE needs an integer in 1..4096, got '%s'", argv[i + 3]);
                return false;
            }
            i += 3;
        } else if (strcmp(arg, "--thumbnail-budget") == 0) {
            NEED_VALUE();
            if (!parse_float(value, &options->thumbnail_budget) || options->thumbnail_budget <= 0.0f ||
                options->thumbnail_budget > 3600.0f) {
                snprintf(error, error_size, "--thumbnail-budget needs seconds in (0, 3600], got '%s'", value);
                return false;
            }
        } else if (strcmp(arg, "--skinning") == 0) {
            NEED_VALUE();
            static const char *const methods[SKINNING_METHOD_COUNT] = {"gpu", "cpu", "dq", "rigid"};
            int found = -1;
            for (int m = 0; m < SKINNING_METHOD_COUNT; m++)
                if (strcmp(value, methods[m]) == 0) found = m;
            if (found < 0) {
                snprintf(error, error_size, "--skinning needs gpu, cpu, dq or rigid, got '%s'", value);
                return false;
            }
            options->aids.skinning = (SkinningMethod)found;
            options->skinning_given = true;
        } else if (strcmp(arg, "--inspect-vertex") == 0) {
            NEED_VALUE();
            options->inspect_vertex = value;
        } else if (strcmp(arg, "--morph") == 0) {
            NEED_VALUE();
            options->aids.morph = value;
        } else if (strcmp(arg, "--compare") == 0) {
            NEED_VALUE();
            if (!cli_parse_compare(value, &options->aids.compare_a, &options->aids.compare_b)) {
                snprintf(error, error_size, "--compare needs two of lbs, dq, rigid separated by a comma, got '%s'", value);
                return false;
            }
            options->aids.compare = true;
        } else if (strcmp(arg, "--show-bone-space") == 0) {
            options->aids.show_bone_space = true;
        } else if (strcmp(arg, "--show-morphs") == 0) {
            options->aids.show_morphs = true;
        } else if (strcmp(arg, "--isolate-joint") == 0) {
            options->aids.isolate_joint = true;
        } else if (strcmp(arg, "--hide-joints") == 0) {
            NEED_VALUE();
            options->aids.hide_joints = value;
        } else if (strcmp(arg, "--lighting") == 0) {
            NEED_VALUE();
            if (strcmp(value, "flat") != 0 && strcmp(value, "default") != 0) {
                snprintf(error, error_size, "--lighting needs flat or default, got '%s'", value);
                return false;
            }
            options->flat_lighting = strcmp(value, "flat") == 0;
        } else if (strcmp(arg, "--shadow") == 0) {
            options->aids.shadow = true;
        } else if (strcmp(arg, "--environment") == 0) {
            NEED_VALUE();
            options->aids.environment = value;   /* checked by main (a bad file exits 1) */
        } else if (strcmp(arg, "--show-skeleton") == 0) {
            options->aids.show_skeleton = true;
        } else if (strcmp(arg, "--show-weights") == 0) {
            options->aids.show_weights = true;
            /* optional JOINT: the next argument, unless it is an option or an existing file (the MODEL) */
            if (value && value[0] != '-' && access(value, F_OK) != 0) {
                options->aids.joint = value;
                i++;
            }
        } else if (strcmp(arg, "--optimize-keys") == 0) {
            options->optimize_keys = 1e-5f;   /* KEY_REDUCE_DEFAULT_TOLERANCE (anim/key_reduce.h) */
            /* optional TOLERANCE: the next argument when it is a number (a MODEL named "0.001" needs ./) */
            float tolerance;
            if (value && value[0] != '-' && parse_float(value, &tolerance)) {
                if (!(tolerance > 0.0f) || tolerance > 0.1f) {
                    snprintf(error, error_size, "--optimize-keys needs a tolerance in (0, 0.1], got '%s'", value);
                    return false;
                }
                options->optimize_keys = tolerance;
                i++;
            }
        } else if (strcmp(arg, "--no-extrapolation") == 0) {
            options->no_extrapolation = true;
        } else if (strcmp(arg, "--show-influences") == 0) {
            options->aids.show_influences = true;
        } else if (strcmp(arg, "--joint") == 0) {
            NEED_VALUE();
            options->aids.joint = value;
        } else if (strcmp(arg, "--show-axes") == 0) {
            options->aids.axes = AXES_SELECTED;
            if (value && strcmp(value, "all") == 0) {
                options->aids.axes = AXES_ALL;
                i++;
            }
        } else if (strcmp(arg, "--show-names") == 0) {
            options->aids.show_names = true;
        } else if (strcmp(arg, "--joint-values") == 0) {
            options->aids.joint_values = true;
        } else if (strcmp(arg, "--wireframe") == 0) {
            options->aids.wireframe = true;
        } else if (strcmp(arg, "--show-normals") == 0) {
            options->aids.show_normals = true;
        } else if (strcmp(arg, "--no-grid") == 0) {
            options->aids.grid = false;
        } else if (strcmp(arg, "--max-bones") == 0) {
            NEED_VALUE();
            if (!parse_int(value, &options->max_bones) || options->max_bones < 1 || options->max_bones > 4096) {
                snprintf(error, error_size, "--max-bones needs an integer in 1..4096, got '%s'", value);
                return false;
            }
        } else if (strcmp(arg, "--bake-vat") == 0) {
            NEED_VALUE();
            options->bake_vat_dir = value;
        } else if (strcmp(arg, "--vat") == 0) {
            NEED_VALUE();
            options->vat_dir = value;
        } else if (strcmp(arg, "--fps") == 0) {
            NEED_VALUE();
            if (!parse_float(value, &options->fps) || !(options->fps > 0.0f) || options->fps > 1000.0f) {
                snprintf(error, error_size, "--fps needs a number of frames per second in (0, 1000], got '%s'", value);
                return false;
            }
            options->bake_option_set = true;
        } else if (strcmp(arg, "--clips") == 0) {
            NEED_VALUE();
            if (!value[0]) {
                snprintf(error, error_size, "--clips needs clip names or indices separated by commas, or 'all'");
                return false;
            }
            options->clips = value;
            options->bake_option_set = true;
        } else if (strcmp(arg, "--precision") == 0) {
            NEED_VALUE();
            if (strcmp(value, "16") == 0) options->float_precision = false;
            else if (strcmp(value, "float") == 0) options->float_precision = true;
            else {
                snprintf(error, error_size, "--precision is 16 or float, got '%s'", value);
                return false;
            }
            options->bake_option_set = true;
        } else if (strcmp(arg, "--max-texture") == 0) {
            NEED_VALUE();
            if (!parse_int(value, &options->max_texture) || options->max_texture < 16 || options->max_texture > 65536) {
                snprintf(error, error_size, "--max-texture needs an integer in 16..65536, got '%s'", value);
                return false;
            }
            options->bake_option_set = true;
        } else if (strcmp(arg, "--quiet") == 0) {
            options->quiet = true;
            options->bake_option_set = true;
        } else if (strcmp(arg, "--instances") == 0) {
            NEED_VALUE();
            if (!parse_int(value, &options->instances) || options->instances < 1 || options->instances > 1000000) {
                snprintf(error, error_size, "--instances needs an integer in 1..1000000, got '%s'", value);
                return false;
            }
            instances_set = true;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            snprintf(error, error_size, "unknown option '%s'", arg);
            return false;
        } else if (!options->model_path) {
            options->model_path = arg;
        } else {
            snprintf(error, error_size, "more than one MODEL given ('%s' and '%s')", options->model_path, arg);
            return false;
        }
#undef NEED_VALUE
    }
    if (options->view >= 0 && !options->screenshot_path) {
        snprintf(error, error_size, "--view only goes with --screenshot (the viewer has keypad 1 / 3 / 7)");
        return false;
    }
    if ((options->show_hud) && !options->screenshot_path) {
        snprintf(error, error_size, "%s only goes with --screenshot (the viewer shows them with its keys)",
                 options->show_browser ? "--show-browser" : "--show-hud");
        return false;
    }
    if (options->thumbnail_in && options->model_path) {
        snprintf(error, error_size, "--thumbnail names its model itself (IN); drop '%s'", options->model_path);
        return false;
    }
    if (options->inspect_vertex && options->screenshot_path) {   /* the panel in the picture */
        options->aids.inspect_vertex = options->inspect_vertex;
        options->aids.inspector = true;
        options->inspect_vertex = NULL;
    }
    if (options->json && !options->info && !options->inspect_vertex) {
        snprintf(error, error_size, "--json only goes with --info or --inspect-vertex");
        return false;
    }
    if (options->bake_option_set && !options->bake_vat_dir) {
        snprintf(error, error_size, "--fps, --clips, --precision, --max-texture and --quiet only go with --bake-vat");
        return false;
    }
    if (instances_set && !options->vat_dir) {
        snprintf(error, error_size, "--instances only goes with --vat");
        return false;
    }
    if (options->bake_vat_dir && (options->info || options->screenshot_path || options->export_pose_path ||
                                  options->verify || options->vat_dir || options->thumbnail_in)) {
        snprintf(error, error_size, "--bake-vat is a mode of its own: no --info, --screenshot, --export-pose, "
                                    "--verify, --vat or --thumbnail with it");
        return false;
    }
    if (options->vat_dir && (options->model_path || options->info || options->max_bones || options->thumbnail_in)) {
        snprintf(error, error_size, "--vat plays a bake folder: no MODEL, --info, --max-bones or --thumbnail with it");
        return false;
    }
    return true;
}
