/* test_collada_full_turns — a Collada rotation that turns a full 360° between two keys plays as
 * authored: the angle goes linearly from key to key, the long way round (docs/accuracy.md).
 *
 * Collada/anims_with_full_rotations_between_keys.DAE (assimp-testmodels) is a chain of 64
 * nested boxes; every box has <rotate sid="rotateZ|rotateY|rotateX"> and one LINEAR channel per
 * angle ("BoxNNN/rotateZ.ANGLE"), keys at 0.033 s and 11.967 s. rotateZ goes 1080° -> 1440°:
 * a whole turn per box, whose two keys are the SAME rotation. A tool that turns the keys into
 * quaternions (or matrices) and interpolates those sees no motion at all (three.js'
 * ColladaLoader: its pose between the keys equals the rest pose). Collada's sampler interpolates
 * the ANGLE itself, so at a fraction f between the keys the box stands at 1080° + 360° f.
 *
 * The test reads every channel's key times, angles and interpolation from the .DAE's text (its
 * own parser, none of the importer's code), checks they are all LINEAR, and at 13 times strictly
 * between the keys compares, for each of the 64 boxes:
 *   - the box joint's local matrix from the Animator (importer + clip sampling) with
 *     Rz(az) Ry(ay) Rx(ax) built from the linearly interpolated authored angles;
 *   - the last box's scene matrix with the product of those 64 authored matrices.
 * Turning the short way (or not at all) is off by up to 180° per box and fails both. */
#include "anim/animator.h"
#include "io/import.h"
#include "testmath.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BOX_COUNT 64
#define MAX_KEYS 16
#define PI 3.14159265358979323846

/* One authored angle channel: "BoxNNN/rotateA.ANGLE". */
typedef struct AngleChannel {
    int    key_count;
    double times[MAX_KEYS];
    double degrees[MAX_KEYS];
    bool   all_linear;
} AngleChannel;

/* channels[box][axis], axis 0 = X, 1 = Y, 2 = Z */
static AngleChannel channels[BOX_COUNT][3];
static bool channel_seen[BOX_COUNT][3];

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = size > 0 ? malloc((size_t)size + 1) : NULL;
    if (text && fread(text, 1, (size_t)size, f) == (size_t)size) {
        text[size] = '\0';
    } else {
        free(text);
        text = NULL;
    }
    fclose(f);
    return text;
}

/* The text between the end of the first tag at or after `from` whose start matches `open`
 * (e.g. "<float_array") and the next '<', inside [from, end). NULL if there is none. */
static const char *tag_text(const char *from, const char *end, const char *open)
{
    const char *tag = strstr(from, open);
    if (!tag || tag >= end) return NULL;
    const char *close = strchr(tag, '>');
    return close && close < end ? close + 1 : NULL;
}

static int parse_numbers(const char *text, double *out, int capacity)
{
    int n = 0;
    char *next;
    while (n < capacity) {
        double v = strtod(text, &next);
        if (next == text) break;
        out[n++] = v;
        text = next;
    }
    return n;
}

/* Reads every <animation> block that holds a channel: its target, input (times), output
 * (angles) and interpolation names. Returns the number of channels read. */
static int parse_channels(const char *dae)
{
    int read = 0;
    for (const char *p = strstr(dae, "<animation>"); p; p = strstr(p + 1, "<animation>")) {
        const char *end = strstr(p, "</animation>");
        if (!end) break;
        const char *target = strstr(p, "<channel ");
        if (!target || target > end) continue;
        target = strstr(target, "target=\"");
        int box = 0;
        char axis = 0;
        if (!target || sscanf(target, "target=\"Box%d/rotate%c.ANGLE\"", &box, &axis) != 2) continue;
        int a = axis == 'X' ? 0 : axis == 'Y' ? 1 : axis == 'Z' ? 2 : -1;
        if (box < 1 || box > BOX_COUNT || a < 0) continue;
        AngleChannel *c = &channels[box - 1][a];
        /* sources in file order: input (times), output (angles), interpolation */
        const char *input = tag_text(p, end, "<float_array");
        const char *output = input ? tag_text(input, end, "<float_array") : NULL;
        const char *names = tag_text(p, end, "<Name_array");
        if (!input || !output || !names) continue;
        c->key_count = parse_numbers(input, c->times, MAX_KEYS);
        int values = parse_numbers(output, c->degrees, MAX_KEYS);
        if (values != c->key_count) c->key_count = 0;
        c->all_linear = true;
        const char *name_end = strchr(names, '<');
        for (const char *w = names; w < name_end;) {
            while (w < name_end && *w == ' ') w++;
            if (w >= name_end) break;
            if (strncmp(w, "LINEAR", 6) != 0) c->all_linear = false;
            while (w < name_end && *w != ' ') w++;
        }
        channel_seen[box - 1][a] = true;
        read++;
    }
    return read;
}

/* The authored angle at file time t: linear between the keys around t, held outside. */
static double authored_degrees(const AngleChannel *c, double t)
{
    if (t <= c->times[0]) return c->degrees[0];
    for (int k = 0; k + 1 < c->key_count; k++)
        if (t <= c->times[k + 1]) {
            double f = (t - c->times[k]) / (c->times[k + 1] - c->times[k]);
            return c->degrees[k] + (c->degrees[k + 1] - c->degrees[k]) * f;
        }
    return c->degrees[c->key_count - 1];
}

/* The box's local matrix as authored: <rotate sid="rotateZ"> <rotate sid="rotateY"> <rotate sid="rotateX">,
 * in that order (the node's own order in the file), each at its interpolated angle. */
static M4 authored_local(int box, double t)
{
    M4 z = m4_rotate(2, authored_degrees(&channels[box][2], t));
    M4 y = m4_rotate(1, authored_degrees(&channels[box][1], t));
    M4 x = m4_rotate(0, authored_degrees(&channels[box][0], t));
    return m4_mul(z, m4_mul(y, x));
}

int main(void)
{
    const char *path = SKINVIEW_TESTMODELS_DIR "/Collada/anims_with_full_rotations_between_keys.DAE";
    char *dae = read_file(path);
    CHECK(dae != NULL, "required test model missing: %s", path);
    if (!dae) return test_finish();

    /* 1. The authored motion, from the file's text. */
    int read = parse_channels(dae);
    free(dae);
    CHECK(read == 3 * BOX_COUNT, "%d angle channels read, expected %d", read, 3 * BOX_COUNT);
    double full_turns = 0.0;
    for (int b = 0; b < BOX_COUNT; b++)
        for (int a = 0; a < 3; a++) {
            const AngleChannel *c = &channels[b][a];
            CHECK(channel_seen[b][a] && c->key_count == 2, "Box%03d axis %d: %d keys", b + 1, a, c->key_count);
            CHECK(c->all_linear, "Box%03d axis %d: interpolation other than LINEAR", b + 1, a);
            if (a == 2 && c->key_count == 2) full_turns += (c->degrees[1] - c->degrees[0]) / 360.0;
        }
    /* What the file is about: each box turns exactly once between its two keys. */
    CHECK(fabs(full_turns - BOX_COUNT) < 1e-9, "rotateZ turns %.3f times in all, expected %d", full_turns, BOX_COUNT);
    if (test_failed) return test_finish();
    printf("authored: Box001 rotateZ %.1f deg at %.6f s -> %.1f deg at %.6f s (LINEAR), the same for all %d boxes\n",
           channels[0][2].degrees[0], channels[0][2].times[0], channels[0][2].degrees[1], channels[0][2].times[1],
           BOX_COUNT);

    /* 2. skinview's pose: importer + Animator. */
    Model model = {0};
    ImportOptions options = {0};
    options.quiet = true;
    char error[512];
    bool ok = import_model(path, &options, &model, error, sizeof error);
    CHECK(ok, "import: %s", error);
    if (!ok) return test_finish();
    CHECK(model.clip_count == 1, "%d clips, expected 1", model.clip_count);
    int joint_of_box[BOX_COUNT];
    for (int b = 0; b < BOX_COUNT; b++) {
        char name[16];
        snprintf(name, sizeof name, "Box%03d", b + 1);
        joint_of_box[b] = -1;
        for (int j = 0; j < model.skeleton.joint_count; j++)
            if (strcmp(model.skeleton.names[j], name) == 0) joint_of_box[b] = j;
        CHECK(joint_of_box[b] >= 0, "no joint named %s", name);
    }
    Animator animator;
    bool animator_ok = !test_failed && animator_init(&animator, &model);
    CHECK(test_failed || animator_ok, "animator_init");
    if (test_failed || !animator_ok) {
        model_free(&model);
        return test_finish();
    }
    const Clip *clip = &model.clips[0];
    const AngleChannel *z0 = &channels[0][2];
    CHECK(fabs(clip->start - z0->times[0]) < 1e-5, "clip start %.6f s, first key at %.6f s", clip->start, z0->times[0]);
    CHECK(fabs(clip->start + clip->duration - z0->times[1]) < 1e-4, "clip end %.6f s, last key at %.6f s",
          clip->start + clip->duration, z0->times[1]);

    /* Scene matrix of the first box's parent: the chain above the boxes is not animated. */
    int above = model.skeleton.parent[joint_of_box[0]];
    double worst_local = 0.0, worst_scene = 0.0, worst_scene_translation = 0.0;
    double fractions[13];
    for (int i = 0; i < 11; i++) fractions[i] = (i + 1) / 12.0;
    fractions[11] = 1.0 / 3.0;
    fractions[12] = 2.0 / 3.0;
    for (int i = 0; i < 13; i++) {
        double file_time = z0->times[0] + fractions[i] * (z0->times[1] - z0->times[0]);
        animator_evaluate(&animator, 0, (float)(file_time - clip->start));
        M4 chain = above >= 0 ? m4_from_mat4(animator.joint_model[above]) : m4_identity();
        for (int b = 0; b < BOX_COUNT; b++) {
            M4 expected = authored_local(b, file_time);
            M4 got = m4_from_mat4(animator.local[joint_of_box[b]]);
            double d = m4_rotation_difference(expected, got);
            worst_local = fmax(worst_local, d);
            CHECK(d < 1e-4, "t = %.4f s (%.3f of the way): Box%03d local rotation off by %.2e (authored rotateZ %.2f deg)",
                  file_time, fractions[i], b + 1, d, authored_degrees(&channels[b][2], file_time));
            /* the pivot children hold the geometry; the boxes themselves are pure rotations */
            chain = m4_mul(chain, expected);
        }
        M4 last = m4_from_mat4(animator.joint_model[joint_of_box[BOX_COUNT - 1]]);
        double d = m4_rotation_difference(chain, last);
        double dt = m4_translation_difference(chain, last);
        worst_scene = fmax(worst_scene, d);
        worst_scene_translation = fmax(worst_scene_translation, dt);
        CHECK(d < 2e-3 && dt < 1e-3, "t = %.4f s: Box%03d scene matrix off the authored chain by %.2e (rotation), %.2e (translation)",
              file_time, BOX_COUNT, d, dt);
    }
    printf("13 times between the keys x %d boxes: local rotation within %.1e of the authored angle, "
           "last box's scene rotation within %.1e (64 turns compounded)\n",
           BOX_COUNT, worst_local, worst_scene);

    /* What turning by quaternion keys would give instead: 1080° and 1440° are the same rotation,
     * so the pose between the keys would equal the keys'. At a third of the way each box must
     * stand 120° away from its key rotation. */
    animator_evaluate(&animator, 0, (float)(clip->duration / 3.0));
    M4 at_key = authored_local(0, z0->times[0]);
    double away = m4_rotation_difference(at_key, m4_from_mat4(animator.local[joint_of_box[0]]));
    CHECK(away > 1.0, "at 1/3 Box001 stands %.3f (matrix entries) from its key rotation: it did not turn", away);

    animator_free(&animator);
    model_free(&model);
    return test_finish();
}
