/* test_gltf_web.c — glTF as the web writes it: quantized, meshopt-, Draco- and WebP-optimised
 * variants open and pose like their uncompressed original, end to end through the binary.
 *
 * Pairs (variant, original):
 *   - the committed variants of the demo, tests/data/web/demo.*.glb (README.md there says how each
 *     was made), against assets/demo.glb: always;
 *   - variants of ../shared/models glTFs, written by tests/data/web/make_variants.sh with gltfpack
 *     and gltf-transform (npm install --prefix tools/web) into the build tree (tests/web-variants/,
 *     kept between runs: delete it to regenerate), when both the tools and ../shared are present.
 *     gltfpack runs with `-af 0` there (keep the keys): its default resamples every clip at 30 Hz,
 *     which moves a 24 fps clip by more than the tolerance (Fox's Run: 3.5e-3 of the diagonal,
 *     and every clip one 30 Hz frame longer): a loss of the file, not of reading it.
 * For every pair:
 *   - both open (`--info --json`) with the same clips (names; durations within 1e-3 s, variants
 *     resample keys);
 *   - every clip at 0, 1/3 and 2/3 of its duration (`--clip I --time T --export-pose`): the
 *     variant's vertices and the original's are within 1e-3 of the original pose's bounding-box
 *     diagonal of each other (symmetric point-set distance: every vertex of each set has one of the
 *     other within that distance; vertex order and count may differ, optimisers weld and reorder);
 *   - `--verify` passes on the variant (GPU skinning = CPU reference);
 *   - `--screenshot --no-grid` of clip 0 at 1/3 (320x240) differs from the original's in few
 *     pixels (at most 0.5 %, a pixel differing when a channel is off by more than 24 levels: edges
 *     shift by quantization, shading by quantized normals). Without the grid: the viewer places the
 *     grid under the bind pose (`--clip bind`: every joint at its inverse bind matrix, i.e. the
 *     stored vertices), and a quantizer that folds the dequantization into the inverse bind
 *     matrices (gltfpack, gltf-transform quantize) stores the vertices in integer space, so that
 *     grid is elsewhere although every animated pose is right.
 * A textured gltfpack file undoes its UV quantization with KHR_texture_transform, which the
 * renderer applies: it is held to the same limit.
 * `test_gltf_web demo` checks the committed demo variants, `test_gltf_web shared` the ../shared ones. */
#include "testimage.h"
#include "testpoints.h"
#include "testutil.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define POSE_TOLERANCE 1e-3      /* of the original pose's bounding-box diagonal */
#define PIXEL_THRESHOLD 24       /* levels per channel */
#define PIXEL_SHARE_LIMIT 0.005  /* of the picture */
#define SHOT_W 320
#define SHOT_H 240
#define MAX_CLIPS 64

static char folder[] = "/tmp/skinview-test-web-XXXXXX";
static int file_counter;

typedef struct ClipInfo {
    char name[256];
    double duration;
    double start;   /* file time of the clip's first key: --time counts from it */
} ClipInfo;

/* Runs skinview on `model` with `arguments`; exit code, output (stdout + stderr) in out. */
static int run_skinview(const char *model, const char *arguments, char *out, size_t out_size)
{
    char command[4096];
    snprintf(command, sizeof command, "'%s' '%s' %s 2>&1", SKINVIEW_BINARY, model, arguments);
    return test_run_capture(command, out, out_size);
}

/* The clips `--info --json` lists. Returns the count, -1 if the model does not open. */
static int read_clips(const char *model, ClipInfo *clips, int capacity)
{
    static char output[1 << 20];
    int code = run_skinview(model, "--info --json", output, sizeof output);
    CHECK(code == 0, "%s opens (--info --json): exit %d: %.300s", model, code, output);
    if (code != 0)
        return -1;
    cJSON *root = cJSON_Parse(output);
    cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "clips");
    int count = 0;
    cJSON *clip;
    cJSON_ArrayForEach(clip, list) {
        if (count >= capacity)
            break;
        cJSON *name = cJSON_GetObjectItemCaseSensitive(clip, "name"), *duration = cJSON_GetObjectItemCaseSensitive(clip, "duration"),
              *start = cJSON_GetObjectItemCaseSensitive(clip, "start");
        snprintf(clips[count].name, sizeof clips[count].name, "%s", cJSON_IsString(name) ? name->valuestring : "");
        clips[count].duration = cJSON_IsNumber(duration) ? duration->valuedouble : 0.0;
        clips[count].start = cJSON_IsNumber(start) ? start->valuedouble : 0.0;
        count++;
    }
    CHECK(root != NULL, "%s: --info --json is JSON", model);
    cJSON_Delete(root);
    return count;
}

/* `--export-pose` of clip `clip` at `time` (clip < 0: the bind pose), read back as points. */
static TestPoints export_pose(const char *model, int clip, double time)
{
    TestPoints set = {0};
    char obj[600], arguments[1024], output[4096];
    snprintf(obj, sizeof obj, "%s/pose-%d.obj", folder, file_counter++);
    if (clip >= 0)
        snprintf(arguments, sizeof arguments, "--clip %d --time %.9g --export-pose '%s'", clip, time, obj);
    else
        snprintf(arguments, sizeof arguments, "--clip bind --export-pose '%s'", obj);
    int code = run_skinview(model, arguments, output, sizeof output);
    CHECK(code == 0, "%s %s: exit %d: %.300s", model, arguments, code, output);
    FILE *file = code == 0 ? fopen(obj, "r") : NULL;
    if (!file)
        return set;
    char line[512];
    while (fgets(line, sizeof line, file)) {
        float x, y, z;
        if (line[0] == 'v' && line[1] == ' ' && sscanf(line + 2, "%f %f %f", &x, &y, &z) == 3)
            test_points_add(&set, x, y, z);
    }
    fclose(file);
    remove(obj);
    return set;
}

static TestImage screenshot(const char *model, int clip, double time)
{
    TestImage image = {0, 0, NULL};
    char png[600], arguments[1024], output[4096];
    snprintf(png, sizeof png, "%s/shot-%d.png", folder, file_counter++);
    snprintf(arguments, sizeof arguments, "--clip %d --time %.9g --no-grid --screenshot '%s' --size %dx%d", clip, time, png, SHOT_W,
             SHOT_H);
    int code = run_skinview(model, arguments, output, sizeof output);
    CHECK(code == 0, "%s %s: exit %d: %.300s", model, arguments, code, output);
    if (code == 0) {
        image = test_image_load(png);
        CHECK(image.rgba && image.width == SHOT_W && image.height == SHOT_H, "%s: the screenshot decodes at %dx%d", model,
              SHOT_W, SHOT_H);
    }
    remove(png);
    return image;
}

static double pixel_difference(const TestImage *a, const TestImage *b)
{
    if (!a->rgba || !b->rgba || a->width != b->width || a->height != b->height)
        return 1.0;
    int differing = 0;
    for (int i = 0; i < a->width * a->height; i++)
        for (int c = 0; c < 3; c++)
            if (abs((int)a->rgba[4 * i + c] - (int)b->rgba[4 * i + c]) > PIXEL_THRESHOLD) {
                differing++;
                break;
            }
    return (double)differing / (a->width * a->height);
}

/* The original's poses, computed once per original for all its variants. */
typedef struct Original {
    char path[1024];
    int clip_count;
    ClipInfo clips[MAX_CLIPS];
    TestPoints poses[MAX_CLIPS][3];
    TestImage shot;
} Original;

static const double pose_fractions[3] = {0.0, 1.0 / 3.0, 2.0 / 3.0};

static bool load_original(Original *original, const char *path)
{
    memset(original, 0, sizeof *original);
    snprintf(original->path, sizeof original->path, "%s", path);
    original->clip_count = read_clips(path, original->clips, MAX_CLIPS);
    if (original->clip_count < 0)
        return false;
    for (int c = 0; c < original->clip_count; c++)
        for (int k = 0; k < 3; k++)
            original->poses[c][k] = export_pose(path, c, pose_fractions[k] * original->clips[c].duration);
    if (original->clip_count == 0)
        original->poses[0][0] = export_pose(path, -1, 0.0);
    original->shot = original->clip_count > 0 ? screenshot(path, 0, original->clips[0].duration / 3.0) : (TestImage){0, 0, NULL};
    return true;
}

static void free_original(Original *original)
{
    for (int c = 0; c < MAX_CLIPS; c++)
        for (int k = 0; k < 3; k++)
            test_points_free(&original->poses[c][k]);
    test_image_free(&original->shot);
    memset(original, 0, sizeof *original);
}

/* Every check of one variant against its original. */
static void check_variant(const Original *original, const char *variant)
{
    ClipInfo clips[MAX_CLIPS];
    int clip_count = read_clips(variant, clips, MAX_CLIPS);
    if (clip_count < 0)
        return;
    CHECK(clip_count == original->clip_count, "%s: %d clips, the original has %d", variant, clip_count, original->clip_count);
    double worst = 0.0;
    int poses = 0;
    for (int c = 0; c < original->clip_count; c++) {
        int match = -1;   /* the variant's clip of the same name */
        for (int v = 0; v < clip_count && match < 0; v++)
            if (strcmp(clips[v].name, original->clips[c].name) == 0)
                match = v;
        CHECK(match >= 0, "%s: clip '%s' is there", variant, original->clips[c].name);
        if (match < 0)
            continue;
        CHECK(fabs(clips[match].duration - original->clips[c].duration) <= 1e-3, "%s: clip '%s' lasts %g s, the original %g s",
              variant, clips[match].name, clips[match].duration, original->clips[c].duration);
        for (int k = 0; k < 3; k++) {
            /* the same file time in both: an optimiser may move a clip's first key (resampling) */
            double time = pose_fractions[k] * original->clips[c].duration;
            double variant_time = fmax(0.0, time + original->clips[c].start - clips[match].start);
            TestPoints pose = export_pose(variant, match, variant_time);
            const TestPoints *want = &original->poses[c][k];
            double diagonal = test_points_diagonal(want);
            double distance = test_points_distance(&pose, want) / (diagonal > 0.0 ? diagonal : 1.0);
            CHECK(distance <= POSE_TOLERANCE, "%s: clip '%s' at %.4g s: %d vertices %g of the diagonal from the original's %d",
                  variant, original->clips[c].name, time, pose.count, distance, want->count);
            worst = fmax(worst, distance);
            poses++;
            test_points_free(&pose);
        }
    }
    if (original->clip_count == 0) {   /* a static model: the bind pose */
        TestPoints pose = export_pose(variant, -1, 0.0);
        double diagonal = test_points_diagonal(&original->poses[0][0]);
        double distance = test_points_distance(&pose, &original->poses[0][0]) / (diagonal > 0.0 ? diagonal : 1.0);
        CHECK(distance <= POSE_TOLERANCE, "%s: bind pose %g of the diagonal from the original's", variant, distance);
        worst = fmax(worst, distance);
        poses++;
        test_points_free(&pose);
    }

    char output[1 << 16];
    int code = run_skinview(variant, "--verify", output, sizeof output);
    CHECK(code == 0 && strstr(output, "verify passed"), "%s --verify: exit %d: %.400s", variant, code, output);

    double pixels = -1.0;
    int shot_clip = -1;   /* the variant's clip named as the original's clip 0 */
    for (int v = 0; v < clip_count && shot_clip < 0 && original->clip_count > 0; v++)
        if (strcmp(clips[v].name, original->clips[0].name) == 0)
            shot_clip = v;
    if (original->shot.rgba && shot_clip >= 0) {
        double time = fmax(0.0, original->clips[0].duration / 3.0 + original->clips[0].start - clips[shot_clip].start);
        TestImage shot = screenshot(variant, shot_clip, time);
        pixels = pixel_difference(&shot, &original->shot);
        /* gltfpack stores quantized texture coordinates and undoes the quantization with
         * KHR_texture_transform: the renderer applies it (docs/materials.md), so a textured
         * gltfpack file is checked like every other variant */
        CHECK(pixels <= PIXEL_SHARE_LIMIT,
              "%s: the screenshot differs from the original's in %.3f %% of the pixels (at most %.1f %%)", variant,
              100.0 * pixels, 100.0 * PIXEL_SHARE_LIMIT);
        test_image_free(&shot);
    }
    printf("%-60s %3d poses, worst %.3g of the diagonal; screenshot %.3f %% pixels differ\n", variant, poses, worst,
           100.0 * pixels);
    fflush(stdout);
}

static bool is_file(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && S_ISREG(info.st_mode);
}

/* Variants of `original` under prefix (make_variants.sh's names), each checked if it exists. */
static const char *const variant_kinds[] = {"gltfpack", "gltfpack-cc", "quantize", "meshopt", "draco", "webp"};

static int check_variants_of(const char *original_path, const char *prefix)
{
    Original *original = calloc(1, sizeof *original);
    int checked = 0;
    if (load_original(original, original_path)) {
        for (size_t k = 0; k < sizeof variant_kinds / sizeof variant_kinds[0]; k++) {
            char path[1200];
            snprintf(path, sizeof path, "%s.%s.glb", prefix, variant_kinds[k]);
            if (!is_file(path))
                continue;
            check_variant(original, path);
            checked++;
        }
    }
    free_original(original);
    free(original);
    return checked;
}

/* The ../shared glTFs whose variants are made here when the npm tools are installed. */
static const char *const shared_models[] = {
    "threejs-xbot/Xbot.glb",           "khronos-fox/Fox.glb",
    "khronos-cesiumman/cesium_man.gltf", "khronos-riggedfigure/RiggedFigure.glb",
    "khronos-simpleskin/SimpleSkin.gltf", "khronos-animatedmorphcube/AnimatedMorphCube.glb",
    "khronos-simplemorph/SimpleMorph.gltf",
};

int main(int argc, char **argv)
{
    bool demo = argc < 2 || strcmp(argv[1], "demo") == 0, shared = argc < 2 || strcmp(argv[1], "shared") == 0;
    if (!demo && !shared) {
        fprintf(stderr, "usage: test_gltf_web [demo|shared]\n");
        return 2;
    }
    if (!mkdtemp(folder)) {
        perror("mkdtemp");
        return 1;
    }
    int skipped = 0;
    /* 1. The committed demo variants: always there. */
    if (demo) {
        int demo_variants = check_variants_of(SKINVIEW_SOURCE_DIR "/assets/demo.glb", SKINVIEW_SOURCE_DIR "/tests/data/web/demo");
        CHECK(demo_variants == 5, "the five committed demo variants are there (%d found)", demo_variants);
    }

    /* 2. ../shared models, through the npm tools, when both are present. */
    const char *tools = getenv("SKINVIEW_WEB_TOOLS");
    if (!tools || !*tools)
        tools = SKINVIEW_WEB_TOOLS_BIN;
    char gltfpack[1200], gltf_transform[1200];
    snprintf(gltfpack, sizeof gltfpack, "%s/gltfpack", tools);
    snprintf(gltf_transform, sizeof gltf_transform, "%s/gltf-transform", tools);
    bool have_tools = access(gltfpack, X_OK) == 0 && access(gltf_transform, X_OK) == 0 && system("node --version >/dev/null 2>&1") == 0;
    bool have_shared = access(SKINVIEW_SHARED_MODELS_DIR, R_OK) == 0;
    if (!shared) {
    } else if (!have_tools || !have_shared) {
        skipped = 1;
        printf("../shared variants skipped: %s\n", !have_tools ? "no gltfpack / gltf-transform (npm install --prefix tools/web)"
                                                               : "no ../shared/models");
    } else {
        mkdir(SKINVIEW_WEB_CACHE, 0755);
        for (size_t m = 0; m < sizeof shared_models / sizeof shared_models[0]; m++) {
            char original[1200], prefix[1200], marker[1300], command[4096], output[4096];
            snprintf(original, sizeof original, "%s/%s", SKINVIEW_SHARED_MODELS_DIR, shared_models[m]);
            if (!is_file(original)) {
                printf("%s: not in ../shared (skipped)\n", original);
                continue;
            }
            const char *base = strrchr(shared_models[m], '/') + 1;
            snprintf(prefix, sizeof prefix, "%s/%.*s", SKINVIEW_WEB_CACHE, (int)(strrchr(base, '.') - base), base);
            snprintf(marker, sizeof marker, "%s.done", prefix);   /* written once every variant is */
            if (!is_file(marker)) {
                snprintf(command, sizeof command,
                         "'%s/tests/data/web/make_variants.sh' '%s' '%s' '%s' '-af 0' >/dev/null && touch '%s'",
                         SKINVIEW_SOURCE_DIR, tools, original, prefix, marker);
                int code = test_run_capture(command, output, sizeof output);
                CHECK(code == 0, "make_variants.sh %s: exit %d", original, code);
                if (code != 0)
                    continue;
            }
            int checked = check_variants_of(original, prefix);
            CHECK(checked >= 5, "%s: %d variants checked (5 or 6 wanted)", original, checked);
        }
    }
    test_remove_folder(folder);
    if (skipped && !demo && test_passed + test_failed == 0) {
        printf("skipped\n");
        return TEST_SKIP_CODE;
    }
    return test_finish();
}
