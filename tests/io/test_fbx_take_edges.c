/* test_fbx_take_edges — an FBX take's last key that lies a float rounding past the take's
 * LocalStop is played (src/io/import_fbx.c, docs/accuracy.md).
 *
 * threejs-mixamo-fbx/mixamo.fbx (../shared/models; this part is skipped without it): the take
 * "mixamo.com" stops at LocalStop = 777 466 993 000 ticks (16.8333 s, frame 505 at 30 fps). The
 * three rotation curves of mixamorig:Hips keep their key times as float seconds: their last key
 * is 29 128 ticks (0.63 µs) after LocalStop, the same 32-bit float. Assimp keeps keys only
 * within 10 000 ticks of the window, so without import_fbx.c the hips hold the frame before at
 * the end of the clip (0.24° off about Z).
 *
 * The test reads the binary FBX itself (its own reader: records, zlib arrays, Connections):
 * LocalStop, the Hips' PreRotation and its Lcl Rotation curves (d|X, d|Y, d|Z: key times and
 * degrees). At the clip's end and at 1/3 it interpolates the curves linearly at that file time
 * and compares R = PreRotation * Rz(z) Ry(y) Rx(x) (FBX's default XYZ order) with the Hips'
 * local rotation from the importer + Animator. It also checks the files that need nothing:
 * FBX/huesitos.fbx and FBX/animation_with_skeleton.fbx (assimp-testmodels) come back unchanged
 * from import_fbx_widen_takes, and a copy of mixamo.fbx whose LocalStop the test moves onto
 * the last key gives the same end pose as the original. */
#include "anim/animator.h"
#include "io/import.h"
#include "io/import_internal.h"
#include "testutil.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define TICKS 46186158000.0
#define PI 3.14159265358979323846
#define MAX_RECORDS 200000

/* ---- a small binary FBX reader --------------------------------------------------------- */

typedef struct Record {
    const uint8_t *name;
    size_t         name_length;
    int            parent;
    size_t         properties, first_property, property_end;
} Record;

static uint8_t *file_bytes;
static size_t file_size;
static bool wide;
static Record *records;
static int record_count;

static uint64_t u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static uint32_t u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool parse_list(size_t at, size_t end, int parent)
{
    size_t header = wide ? 25 : 13;
    while (at + header <= end) {
        const uint8_t *p = file_bytes + at;
        size_t record_end = wide ? u64(p) : u32(p);
        if (record_end == 0) return true;
        if (record_end > end || record_count == MAX_RECORDS) return false;
        Record *r = &records[record_count];
        r->properties = wide ? u64(p + 8) : u32(p + 4);
        size_t bytes = wide ? u64(p + 16) : u32(p + 8);
        r->name_length = p[header - 1];
        r->name = p + header;
        r->parent = parent;
        r->first_property = at + header + r->name_length;
        r->property_end = r->first_property + bytes;
        int self = record_count++;
        if (r->property_end < record_end && !parse_list(r->property_end, record_end, self)) return false;
        at = record_end;
    }
    return true;
}

static bool load_fbx(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    fseek(f, 0, SEEK_END);
    file_size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    file_bytes = malloc(file_size);
    bool ok = file_bytes && fread(file_bytes, 1, file_size, f) == file_size;
    fclose(f);
    if (!ok || file_size < 27 || memcmp(file_bytes, "Kaydara FBX Binary", 18) != 0) return false;
    wide = u32(file_bytes + 23) >= 7500;
    records = calloc(MAX_RECORDS, sizeof *records);
    record_count = 0;
    return records && parse_list(27, file_size, -1);
}

static bool named(const Record *r, const char *name)
{
    return r->name_length == strlen(name) && memcmp(r->name, name, r->name_length) == 0;
}

/* Property i of record r: its type and a pointer to its data (after the type code). */
static const uint8_t *property(const Record *r, size_t i, char *type)
{
    size_t at = r->first_property;
    for (size_t k = 0; k < r->properties && at < r->property_end; k++) {
        const uint8_t *p = file_bytes + at;
        size_t size;
        switch (p[0]) {
        case 'C': size = 2; break;
        case 'Y': size = 3; break;
        case 'I': case 'F': size = 5; break;
        case 'L': case 'D': size = 9; break;
        case 'S': case 'R': size = 5 + u32(p + 1); break;
        default: size = 13 + u32(p + 9); break;
        }
        if (k == i) {
            *type = (char)p[0];
            return p + 1;
        }
        at += size;
    }
    *type = 0;
    return NULL;
}

static int64_t property_int64(const Record *r, size_t i)
{
    char type;
    const uint8_t *p = property(r, i, &type);
    return p && type == 'L' ? (int64_t)u64(p) : 0;
}

static double property_double(const Record *r, size_t i)
{
    char type;
    const uint8_t *p = property(r, i, &type);
    if (!p) return NAN;
    if (type == 'D') {
        uint64_t bits = u64(p);
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    return NAN;
}

static bool property_string_starts(const Record *r, size_t i, const char *prefix)
{
    char type;
    const uint8_t *p = property(r, i, &type);
    return p && type == 'S' && u32(p) >= strlen(prefix) && memcmp(p + 4, prefix, strlen(prefix)) == 0;
}

/* An array property (l, f, d): decoded into a malloc'd buffer of `element` bytes each. */
static void *property_array(const Record *r, size_t i, size_t element, uint32_t *count)
{
    char type;
    const uint8_t *p = property(r, i, &type);
    *count = 0;
    if (!p) return NULL;
    uint32_t n = u32(p), encoding = u32(p + 4), stored = u32(p + 8);
    void *out = malloc((size_t)n * element + 1);
    if (!out) return NULL;
    uLongf length = (uLongf)n * element;
    if (encoding == 1) {
        if (uncompress(out, &length, p + 12, stored) != Z_OK || length != (uLongf)n * element) {
            free(out);
            return NULL;
        }
    } else {
        memcpy(out, p + 12, length);
    }
    *count = n;
    return out;
}

/* The first child of record `parent` with this name, or -1. */
static int child(int parent, const char *name)
{
    for (int i = parent + 1; i < record_count; i++)
        if (records[i].parent == parent && named(&records[i], name)) return i;
    return -1;
}

/* A Properties70 P value of the object record `object` ("LocalStop", "PreRotation"): index of the P record. */
static int p70(int object, const char *key)
{
    int list = child(object, "Properties70");
    if (list < 0) return -1;
    for (int i = list + 1; i < record_count; i++) {
        if (records[i].parent != list || !named(&records[i], "P")) continue;
        char type;
        const uint8_t *p = property(&records[i], 0, &type);
        if (p && type == 'S' && u32(p) == strlen(key) && memcmp(p + 4, key, strlen(key)) == 0) return i;
    }
    return -1;
}

/* The object under Objects with this class ("Model") whose name starts with `prefix`. */
static int object(const char *class_name, const char *prefix)
{
    int objects = child(-1, "Objects");
    for (int i = objects + 1; objects >= 0 && i < record_count; i++)
        if (records[i].parent == objects && named(&records[i], class_name) && property_string_starts(&records[i], 1, prefix))
            return i;
    return -1;
}

static int object_by_id(int64_t id)
{
    int objects = child(-1, "Objects");
    for (int i = objects + 1; objects >= 0 && i < record_count; i++)
        if (records[i].parent == objects && property_int64(&records[i], 0) == id) return i;
    return -1;
}

/* The source id of the "OP" connection into `destination` with property `what`, or 0. */
static int64_t connected_into(int64_t destination, const char *what)
{
    int connections = child(-1, "Connections");
    for (int i = connections + 1; connections >= 0 && i < record_count; i++) {
        if (records[i].parent != connections || !property_string_starts(&records[i], 0, "OP")) continue;
        if (property_int64(&records[i], 2) != destination || !property_string_starts(&records[i], 3, what)) continue;
        return property_int64(&records[i], 1);
    }
    return 0;
}

/* ---- the checks ---------------------------------------------------------------------- */

typedef struct Curve {
    uint32_t count;
    int64_t *times;
    float   *degrees;
} Curve;

static double curve_at(const Curve *c, double ticks)
{
    if (ticks <= (double)c->times[0]) return c->degrees[0];
    for (uint32_t k = 0; k + 1 < c->count; k++)
        if (ticks <= (double)c->times[k + 1]) {
            double f = (ticks - (double)c->times[k]) / (double)(c->times[k + 1] - c->times[k]);
            return c->degrees[k] + (c->degrees[k + 1] - c->degrees[k]) * f;
        }
    return c->degrees[c->count - 1];
}

/* 3x3 rotation, column-major m[c][r], of Rz(z) Ry(y) Rx(x) (degrees). */
static void euler_xyz(double x, double y, double z, double m[3][3])
{
    double a = x * PI / 180, b = y * PI / 180, c = z * PI / 180;
    double ca = cos(a), sa = sin(a), cb = cos(b), sb = sin(b), cc = cos(c), sc = sin(c);
    double rows[3][3] = {{cc * cb, cc * sb * sa - sc * ca, cc * sb * ca + sc * sa},
                         {sc * cb, sc * sb * sa + cc * ca, sc * sb * ca - cc * sa},
                         {-sb, cb * sa, cb * ca}};
    for (int r = 0; r < 3; r++)
        for (int col = 0; col < 3; col++) m[col][r] = rows[r][col];
}

static void mul3(double a[3][3], double b[3][3], double out[3][3])
{
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) out[c][r] = a[0][r] * b[c][0] + a[1][r] * b[c][1] + a[2][r] * b[c][2];
}

/* Largest entry difference between the expected rotation and the joint's local matrix (scale removed). */
static double rotation_difference(double want[3][3], mat4 local)
{
    double worst = 0.0;
    for (int c = 0; c < 3; c++) {
        double length = sqrt(local[c][0] * local[c][0] + local[c][1] * local[c][1] + local[c][2] * local[c][2]);
        for (int r = 0; r < 3; r++) worst = fmax(worst, fabs(want[c][r] - local[c][r] / length));
    }
    return worst;
}

static void check_unchanged(const char *relative)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", SKINVIEW_TESTMODELS_DIR, relative);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "required test model missing: %s", path);
    if (!f) return;
    fseek(f, 0, SEEK_END);
    size_t size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *bytes = malloc(size);
    bool ok = bytes && fread(bytes, 1, size, f) == size;
    fclose(f);
    int widened = -1;
    uint8_t *copy = ok ? import_fbx_widen_takes(bytes, size, &widened) : NULL;
    CHECK(ok && copy == NULL && widened == 0, "%s: import_fbx_widen_takes changed %d takes", relative, widened);
    free(copy);
    free(bytes);
}

/* The Hips' local matrix at playback time t of clip 0 of the model at `path`. */
static bool hips_local(const char *path, float t_fraction, mat4 out, float *file_time)
{
    Model model = {0};
    ImportOptions options = {.quiet = true};
    char error[512];
    if (!import_model(path, &options, &model, error, sizeof error)) {
        CHECK(false, "import %s: %s", path, error);
        return false;
    }
    int hips = -1;
    for (int j = 0; j < model.skeleton.joint_count; j++)
        if (strcmp(model.skeleton.names[j], "mixamorig:Hips") == 0) hips = j;
    Animator animator;
    bool ok = hips >= 0 && model.clip_count >= 1 && animator_init(&animator, &model);
    CHECK(ok, "%s: no mixamorig:Hips joint or clip", path);
    if (ok) {
        float t = model.clips[0].duration * t_fraction;
        animator_evaluate(&animator, 0, t);
        glm_mat4_copy(animator.local[hips], out);
        *file_time = model.clips[0].start + t;
        animator_free(&animator);
    }
    model_free(&model);
    return ok;
}

int main(void)
{
    check_unchanged("FBX/huesitos.fbx");
    check_unchanged("FBX/animation_with_skeleton.fbx");

    const char *path = SKINVIEW_SHARED_MODELS_DIR "/threejs-mixamo-fbx/mixamo.fbx";
    if (!test_file_exists(path)) {
        printf("skipped the Mixamo part: %s is absent\n", path);
        return test_finish();
    }
    CHECK(load_fbx(path), "%s: not a binary FBX this reader can read", path);
    if (test_failed) return test_finish();

    int stack = object("AnimationStack", "mixamo.com");
    int stop_record = stack >= 0 ? p70(stack, "LocalStop") : -1;
    int hips = object("Model", "mixamorig:Hips");
    int pre = hips >= 0 ? p70(hips, "PreRotation") : -1;
    int64_t curve_node = hips >= 0 ? connected_into(property_int64(&records[hips], 0), "Lcl Rotation") : 0;
    CHECK(stop_record >= 0 && pre >= 0 && curve_node != 0, "take, LocalStop, Hips PreRotation or rotation curves not found");
    if (test_failed) return test_finish();
    int64_t local_stop = property_int64(&records[stop_record], 4);
    double pre_rotation[3] = {property_double(&records[pre], 4), property_double(&records[pre], 5),
                              property_double(&records[pre], 6)};
    Curve curves[3] = {{0}};
    const char *axes[3] = {"d|X", "d|Y", "d|Z"};
    int64_t last_key = 0;
    for (int a = 0; a < 3; a++) {
        int curve = object_by_id(connected_into(curve_node, axes[a]));
        int key_time = curve >= 0 ? child(curve, "KeyTime") : -1, key_value = curve >= 0 ? child(curve, "KeyValueFloat") : -1;
        uint32_t values = 0;
        if (key_time >= 0) curves[a].times = property_array(&records[key_time], 0, 8, &curves[a].count);
        if (key_value >= 0) curves[a].degrees = property_array(&records[key_value], 0, 4, &values);
        CHECK(curves[a].count > 1 && values == curves[a].count, "Hips rotation %s: %u keys, %u values", axes[a],
              curves[a].count, values);
        if (curves[a].count > 1) last_key = curves[a].times[curves[a].count - 1] > last_key ? curves[a].times[curves[a].count - 1] : last_key;
    }
    if (test_failed) return test_finish();
    /* the file's situation: the last key just past LocalStop, further than Assimp's 10 000 ticks,
     * the same 32-bit float of seconds */
    printf("LocalStop %lld ticks (%.9f s); the Hips rotation curves end at %lld ticks, %lld ticks later\n",
           (long long)local_stop, local_stop / TICKS, (long long)last_key, (long long)(last_key - local_stop));
    CHECK(last_key - local_stop > 10000 && (float)(last_key / TICKS) == (float)(local_stop / TICKS),
          "the file no longer has a key a float rounding past LocalStop (%lld ticks)", (long long)(last_key - local_stop));

    /* skinview's hips against the curves, at 1/3 (checks this test's Euler convention) and at the end */
    const float fractions[2] = {1.0f / 3.0f, 1.0f};
    double pre_matrix[3][3];
    euler_xyz(pre_rotation[0], pre_rotation[1], pre_rotation[2], pre_matrix);
    for (int i = 0; i < 2; i++) {
        mat4 local;
        float file_time;
        if (!hips_local(path, fractions[i], local, &file_time)) break;
        double ticks = fractions[i] == 1.0f ? (double)local_stop : file_time * TICKS;
        double euler[3][3], want[3][3];
        euler_xyz(curve_at(&curves[0], ticks), curve_at(&curves[1], ticks), curve_at(&curves[2], ticks), euler);
        mul3(pre_matrix, euler, want);
        double d = rotation_difference(want, local);
        /* holding the key before the last (16.7999992 s) is off by ~4e-3 at the end */
        CHECK(d < 2e-4, "Hips rotation at %s (%.6f s) is %.2e off PreRotation x the curves", i ? "the end" : "1/3",
              ticks / TICKS, d);
        printf("Hips rotation at %s (%.6f s): within %.1e of PreRotation x the file's curves\n", i ? "the end" : "1/3",
               ticks / TICKS, d);
    }

    /* a copy whose LocalStop is moved onto the last key by the test: Assimp then keeps the key on
     * its own; the end pose must be the same */
    int stop_value_offset = -1;
    {
        char type;
        const uint8_t *p = property(&records[stop_record], 4, &type);
        if (p && type == 'L') stop_value_offset = (int)(p - file_bytes);
    }
    char dir[] = "/tmp/skinview-fbx-XXXXXX";
    if (stop_value_offset > 0 && mkdtemp(dir)) {
        char copy_path[600];
        snprintf(copy_path, sizeof copy_path, "%s/mixamo_stop_on_key.fbx", dir);
        for (int b = 0; b < 8; b++) file_bytes[stop_value_offset + b] = (uint8_t)((uint64_t)last_key >> (8 * b));
        FILE *f = fopen(copy_path, "wb");
        bool written = f && fwrite(file_bytes, 1, file_size, f) == file_size;
        if (f) fclose(f);
        CHECK(written, "write %s", copy_path);
        mat4 a, b;
        float ta, tb;
        if (written && hips_local(path, 1.0f, a, &ta) && hips_local(copy_path, 1.0f, b, &tb)) {
            double want[3][3];
            for (int c = 0; c < 3; c++)
                for (int r = 0; r < 3; r++) want[c][r] = b[c][r] / sqrt(b[c][0] * b[c][0] + b[c][1] * b[c][1] + b[c][2] * b[c][2]);
            double d = rotation_difference(want, a);
            CHECK(d < 1e-5, "end pose differs from the copy with LocalStop on the last key by %.2e", d);
        }
        unlink(copy_path);
        rmdir(dir);
    }
    for (int a = 0; a < 3; a++) {
        free(curves[a].times);
        free(curves[a].degrees);
    }
    free(records);
    free(file_bytes);
    return test_finish();
}
