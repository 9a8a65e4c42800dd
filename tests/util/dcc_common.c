/* dcc_common.c — the ufbx-dcc reference check shared by io_fbx_dcc (skinview's pose of each FBX) and
 * io_export_gltf_dcc (the same FBX exported by --export-gltf, the GLB posed): the manifest, the OBJ point sets
 * and the symmetric Hausdorff distance over the reference's diagonal (dcc_common.h; the rule is described in
 * test_fbx_dcc.c). */
#include "dcc_common.h"
#include "testpoints.h"
#include "testutil.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TOLERANCE 1e-3

static const char *open_reason(const DccRun *run, const char *case_name, const char *fbx)
{
    if (run->report_only) return "report only";
    for (int i = 0; run->open_rows && run->open_rows[i].case_prefix; i++)
        if (strncmp(case_name, run->open_rows[i].case_prefix, strlen(run->open_rows[i].case_prefix)) == 0 &&
            (!run->open_rows[i].variant || strcmp(fbx, run->open_rows[i].variant) == 0))
            return run->open_rows[i].reason;
    return NULL;
}

/* True if the OBJ group line's names (after "g ") include `name`. */
static bool group_has_name(const char *line, const char *name)
{
    size_t n = strlen(name);
    const char *c = line + 1;
    while (*c) {
        while (*c == ' ' || *c == '\t') c++;
        const char *start = c;
        while (*c && *c != ' ' && *c != '\t' && *c != '\r' && *c != '\n') c++;
        if ((size_t)(c - start) == n && strncmp(start, name, n) == 0) return true;
        if (*c == '\r' || *c == '\n') break;
    }
    return false;
}

/* The "v x y z" lines of an OBJ, without the vertices that only faces of groups named `exclude`
 * use (NULL: none). Faces decide, not the order of lines: Maya writes an object's "v" lines
 * before its "g" line, skinview after. */
static bool read_obj(const char *path, const char *exclude, TestPoints *out)
{
    FILE *file = fopen(path, "r");
    if (!file) return false;
    char line[4096];
    bool excluded = false;
    TestPoints all = {0};
    unsigned char *use = NULL;   /* per vertex: 1 used by a kept face, 2 by an excluded one */
    int use_capacity = 0;
    while (fgets(line, sizeof line, file)) {
        if ((line[0] == 'g' || line[0] == 'o') && (line[1] == ' ' || line[1] == '\t'))
            excluded = exclude && exclude[0] && group_has_name(line, exclude);
        else if (line[0] == 'v' && (line[1] == ' ' || line[1] == '\t')) {
            double x, y, z;
            if (sscanf(line + 2, "%lf %lf %lf", &x, &y, &z) == 3) test_points_add(&all, x, y, z);
        } else if (line[0] == 'f' && (line[1] == ' ' || line[1] == '\t')) {
            if (use_capacity < all.count) {
                int grown = all.capacity;
                use = realloc(use, (size_t)grown);
                if (!use) abort();
                memset(use + use_capacity, 0, (size_t)(grown - use_capacity));
                use_capacity = grown;
            }
            for (char *c = line + 2; *c;) {   /* "f a/b/c d/e/f ...": the first number of each corner */
                while (*c == ' ' || *c == '\t') c++;
                char *end;
                long index = strtol(c, &end, 10);
                if (end == c) break;
                if (index < 0) index = all.count + 1 + index;
                if (index >= 1 && index <= all.count) use[index - 1] |= excluded ? 2 : 1;
                c = end;
                while (*c && *c != ' ' && *c != '\t') c++;
            }
        }
    }
    fclose(file);
    for (int i = 0; i < all.count; i++) {
        bool only_excluded = i < use_capacity && use[i] == 2;
        if (!only_excluded) test_points_add(out, all.xyz[3 * i], all.xyz[3 * i + 1], all.xyz[3 * i + 2]);
    }
    free(all.xyz);
    free(use);
    return true;
}

/* The points of a pose.mjs ".xyz" file without those of the meshes named `exclude` (NULL: none): the header
 * has a '# mesh "NAME" vertices=N ...' line per mesh, the points follow, meshes concatenated in that order. */
static bool read_xyz(const char *path, const char *exclude, TestPoints *out)
{
    FILE *file = fopen(path, "r");
    if (!file) return false;
    char line[4096];
    int excluded_from[64], excluded_to[64], ranges = 0, at = 0, point = 0;
    while (fgets(line, sizeof line, file)) {
        if (strncmp(line, "# mesh \"", 8) == 0) {
            const char *name = line + 8, *end = strrchr(name, '"'), *count = strstr(name, "vertices=");
            int n = count ? atoi(count + 9) : 0;
            size_t length = end ? (size_t)(end - name) : 0;
            if (exclude && exclude[0] && length == strlen(exclude) && strncmp(name, exclude, length) == 0 && ranges < 64)
                excluded_from[ranges] = at, excluded_to[ranges++] = at + n;
            at += n;
        } else if (line[0] != '#') {
            double x, y, z;
            if (sscanf(line, "%lf %lf %lf", &x, &y, &z) != 3) continue;
            bool excluded = false;
            for (int r = 0; r < ranges; r++) excluded = excluded || (point >= excluded_from[r] && point < excluded_to[r]);
            if (!excluded) test_points_add(out, x, y, z);
            point++;
        }
    }
    fclose(file);
    return true;
}

/* An OBJ, or a pose.mjs ".xyz" */
static bool read_points(const char *path, const char *exclude, TestPoints *out)
{
    size_t n = strlen(path);
    return n > 4 && strcmp(path + n - 4, ".xyz") == 0 ? read_xyz(path, exclude, out) : read_obj(path, exclude, out);
}

/* The distance with unit and axis differences forgiven: the posed points turned by each of the 48 signed axis
 * permutations and scaled by the ratio of the two diagonals (about the bounding boxes' centres), the best. */
static double forgiven_distance(const TestPoints *posed, const TestPoints *reference)
{
    double scale = test_points_diagonal(posed) > 0 ? test_points_diagonal(reference) / test_points_diagonal(posed) : 1.0;
    double best = HUGE_VAL;
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    double centre_p[3] = {0}, centre_r[3] = {0}, lo[3], hi[3];
    for (int pass = 0; pass < 2; pass++) {
        const TestPoints *set = pass ? reference : posed;
        for (int k = 0; k < 3; k++) lo[k] = HUGE_VAL, hi[k] = -HUGE_VAL;
        for (int i = 0; i < set->count; i++)
            for (int k = 0; k < 3; k++) lo[k] = fmin(lo[k], set->xyz[3 * i + k]), hi[k] = fmax(hi[k], set->xyz[3 * i + k]);
        for (int k = 0; k < 3; k++) (pass ? centre_r : centre_p)[k] = 0.5 * (lo[k] + hi[k]);
    }
    TestPoints turned = {0};
    for (int p = 0; p < 6; p++)
        for (int signs = 0; signs < 8; signs++) {
            turned.count = 0;
            for (int i = 0; i < posed->count; i++) {
                double q[3];
                for (int k = 0; k < 3; k++) {
                    double v = posed->xyz[3 * i + perms[p][k]] - centre_p[perms[p][k]];
                    q[k] = centre_r[k] + scale * ((signs >> k) & 1 ? -v : v);
                }
                test_points_add(&turned, q[0], q[1], q[2]);
            }
            double d = test_points_distance(&turned, reference);
            best = fmin(best, d);
        }
    free(turned.xyz);
    return best;
}

/* ---- the manifest ---------------------------------------------------------------------- */

/* The value of `key=` in the notes (up to ';'), or "" */
static void note_value(const char *notes, const char *key, char *out, size_t out_size)
{
    out[0] = '\0';
    const char *at = strstr(notes, key);
    while (at && at != notes && at[-1] != ' ' && at[-1] != ';') at = strstr(at + 1, key);
    if (!at) return;
    at += strlen(key);
    size_t n = strcspn(at, ";");
    if (n >= out_size) n = out_size - 1;
    memcpy(out, at, n);
    out[n] = '\0';
}

static int fbx_version_of(const char *file)
{
    const char *at = strstr(file, "_5000_");
    if (!at) at = strstr(file, "_5800_");
    if (!at) at = strstr(file, "_6100_");
    if (!at) at = strstr(file, "_7");
    return at ? atoi(at + 1) : 0;
}

/* --info --json of the file: clip index and start for the stack `stack` ("" = the first).
 * Returns the clip index, -1 if none matches, -2 if the file does not load (its error in error[]). */
static int find_clip(const char *path, const char *extra, const char *stack, double *start, char *error, size_t error_size)
{
    static char output[1 << 20];
    char command[4096];
    snprintf(command, sizeof command, "'%s' '%s' %s --info --json 2>&1", SKINVIEW_BINARY, path, extra);
    int rc = test_run_capture(command, output, sizeof output);
    if (rc != 0) {
        snprintf(error, error_size, "%.300s", output);
        size_t n = strlen(error);
        while (n > 0 && (error[n - 1] == '\n' || error[n - 1] == '\r')) error[--n] = '\0';
        return -2;
    }
    const char *json = strchr(output, '{');
    cJSON *root = json ? cJSON_Parse(json) : NULL;
    int found = -1;
    const cJSON *clips = cJSON_GetObjectItemCaseSensitive(root, "clips");
    int index = 0;
    const cJSON *clip;
    cJSON_ArrayForEach(clip, clips) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(clip, "name");
        const char *n = cJSON_IsString(name) ? name->valuestring : "";
        size_t ln = strlen(n), ls = strlen(stack);
        /* Blender writes stacks as ARMATURE|ACTION; the manifest names the action */
        bool match = !stack[0] || strcmp(n, stack) == 0 ||
                     (ln > ls && strcmp(n + ln - ls, stack) == 0 && n[ln - ls - 1] == '|');
        if (match) {
            const cJSON *s = cJSON_GetObjectItemCaseSensitive(clip, "start");
            *start = cJSON_IsNumber(s) ? s->valuedouble : 0.0;
            found = index;
            break;
        }
        index++;
    }
    if (!root) snprintf(error, error_size, "--info --json printed no JSON");
    cJSON_Delete(root);
    return root ? found : -2;
}

typedef struct Tally {
    int matched, open_matched, failed, open_failed, skipped;
} Tally;

static void run_variant(const DccRun *run, const char *dir, const char *case_name, const char *fbx, const char *obj,
                        const char *time_s, const char *stack, const char *notes, Tally *tally)
{
    char path[2048], ref_path[2048], out_path[256], error[512] = "";
    snprintf(path, sizeof path, "%s/%s", dir, fbx);
    snprintf(ref_path, sizeof ref_path, "%s/%s", dir, obj);
    snprintf(out_path, sizeof out_path, "/tmp/skinview_fbx_dcc_%d.%s", (int)getpid(), run->pose ? "xyz" : "obj");
    const char *reason = open_reason(run, case_name, fbx);
    bool rest = strcmp(stack, "rest") == 0;
    char evaluation[128];
    note_value(notes, "ufbx_eval=", evaluation, sizeof evaluation);
    const char *extra = strncmp(evaluation, "no_extrapolation", 16) == 0 ? "--no-extrapolation" : "";
    double start = 0.0;
    int clip = rest ? 0 : find_clip(path, extra, stack, &start, error, sizeof error);
    if (rest) {   /* still check that the file loads */
        double unused;
        if (find_clip(path, extra, "", &unused, error, sizeof error) == -2) clip = -2;
    }
    if (clip == -2) {
        if (fbx_version_of(fbx) < 7100) {
            printf("  %-58s %-40s skipped: legacy FBX does not load (%s)\n", case_name, fbx, error);
            tally->skipped++;
        } else {
            printf("  %-58s %-40s FAILED: does not load (%s)\n", case_name, fbx, error);
            CHECK(false, "%s: %s does not load: %s", case_name, fbx, error);
            tally->failed++;
        }
        return;
    }
    if (clip < 0) {
        printf("  %-58s %-40s FAILED: no clip named '%s'\n", case_name, fbx, stack);
        CHECK(reason != NULL, "%s: %s has no clip '%s'", case_name, fbx, stack);
        if (reason) tally->open_failed++;
        else tally->failed++;
        return;
    }
    /* a converter (--export-gltf): the converted file is posed instead, its clip found by the same name */
    char converted[2048];
    const char *posed_path = path, *posed_extra = extra;
    double to_fbx[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    if (run->convert) {
        if (!run->convert(path, extra, converted, sizeof converted, to_fbx, error, sizeof error)) {
            printf("  %-58s %-40s FAILED: %s\n", case_name, fbx, error);
            CHECK(reason != NULL, "%s: %s: %s", case_name, fbx, error);
            if (reason) tally->open_failed++;
            else tally->failed++;
            return;
        }
        posed_path = converted;
        posed_extra = "";
        double converted_start = 0.0;
        if (!rest) clip = find_clip(converted, "", stack, &converted_start, error, sizeof error);
        if (clip < 0) {
            printf("  %-58s %-40s FAILED: the converted file has no clip '%s' (%s)\n", case_name, fbx, stack, error);
            CHECK(reason != NULL, "%s: %s: converted, no clip '%s'", case_name, fbx, stack);
            if (reason) tally->open_failed++;
            else tally->failed++;
            unlink(converted);
            return;
        }
    }
    char clip_arg[64], time_arg[64] = "";
    double t = rest ? 0 : atof(time_s) - start;
    if (t < 0) t = 0;   /* float seconds of the start may lie a rounding above it */
    if (rest) snprintf(clip_arg, sizeof clip_arg, "rest");
    else {
        snprintf(clip_arg, sizeof clip_arg, "%d", clip);
        snprintf(time_arg, sizeof time_arg, "--time %.9g", t);
    }
    char command[4096], output[4096];
    int rc = 0;
    if (run->pose) {
        rc = run->pose(posed_path, rest ? -1 : clip, t, out_path, output, sizeof output) ? 0 : 1;
    } else {
        snprintf(command, sizeof command, "'%s' '%s' %s --clip %s %s --export-pose '%s' 2>&1", SKINVIEW_BINARY, posed_path,
                 posed_extra, clip_arg, time_arg, out_path);
        rc = test_run_capture(command, output, sizeof output);
    }
    if (run->convert) unlink(converted);
    if (rc != 0) {
        printf("  %-58s %-40s FAILED: posing exit %d: %.200s\n", case_name, fbx, rc, output);
        CHECK(false, "%s: %s: posing failed", case_name, fbx);
        tally->failed++;
        return;
    }
    char exclude[128];
    note_value(notes, "exclude_objects=", exclude, sizeof exclude);
    TestPoints posed = {0}, reference = {0};
    bool read = read_points(out_path, exclude, &posed) && read_obj(ref_path, exclude, &reference);
    unlink(out_path);
    for (int i = 0; i < posed.count; i++) {   /* a converter's space back to the FBX's */
        double *p = &posed.xyz[3 * i], q[3];
        for (int k = 0; k < 3; k++) q[k] = to_fbx[k] * p[0] + to_fbx[4 + k] * p[1] + to_fbx[8 + k] * p[2] + to_fbx[12 + k];
        memcpy(p, q, sizeof q);
    }
    CHECK(read && posed.count > 0 && reference.count > 0, "%s: %s: no vertices to compare", case_name, fbx);
    if (read && posed.count > 0 && reference.count > 0) {
        double diagonal = test_points_diagonal(&reference);
        double distance = test_points_distance(&posed, &reference);
        if (run->forgive_axes) distance = fmin(distance, forgiven_distance(&posed, &reference));
        double error_rel = diagonal > 0 ? distance / diagonal : distance;
        bool ok = error_rel <= TOLERANCE;
        printf("  %-58s %-40s %.3e %s%s%s%s\n", case_name, fbx, error_rel, ok ? "ok" : "FAILED",
               reason ? " (open: " : "", reason ? reason : "", reason ? ")" : "");
        if (ok) {
            if (reason) tally->open_matched++;
            else tally->matched++;
        } else {
            CHECK(reason != NULL, "%s: %s: error %.3e > %.0e", case_name, fbx, error_rel, TOLERANCE);
            if (reason) tally->open_failed++;
            else tally->failed++;
        }
    } else
        tally->failed++;
    free(posed.xyz);
    free(reference.xyz);
}

int dcc_run_manifest(const DccRun *run)
{
    char dir[1024], manifest[1200];
    snprintf(dir, sizeof dir, "%s/ufbx-dcc", SKINVIEW_SHARED_MODELS_DIR);
    snprintf(manifest, sizeof manifest, "%s/manifest.tsv", dir);
    FILE *file = fopen(manifest, "r");
    if (!file) {
        printf("skipped: %s not found (../shared is absent)\n", manifest);
        return TEST_SKIP_CODE;
    }
    static char line[16384];
    Tally tally = {0};
    printf("  %-58s %-40s %s\n", "row", "variant", "Hausdorff / diagonal");
    bool header = true;
    while (fgets(line, sizeof line, file)) {
        if (header) {
            header = false;
            continue;
        }
        line[strcspn(line, "\r\n")] = '\0';
        char *fields[6] = {0};
        char *cursor = line;
        for (int f = 0; f < 6; f++) {
            fields[f] = cursor;
            char *tab = cursor ? strchr(cursor, '\t') : NULL;
            if (tab) {
                *tab = '\0';
                cursor = tab + 1;
            } else
                cursor = NULL;
            if (!cursor && f < 5) {
                for (int g = f + 1; g < 6; g++) fields[g] = "";
                break;
            }
        }
        if (!fields[0][0]) continue;
        char variants[4096];
        snprintf(variants, sizeof variants, "%s", fields[1]);
        for (char *fbx = strtok(variants, ","); fbx; fbx = strtok(NULL, ","))
            run_variant(run, dir, fields[0], fbx, fields[2], fields[3], fields[4], fields[5], &tally);
    }
    fclose(file);
    printf("matched %d, failed %d, open rows: %d matched / %d not yet, skipped %d (legacy, not loadable)\n",
           tally.matched, tally.failed, tally.open_matched, tally.open_failed, tally.skipped);
    CHECK(tally.matched + tally.open_matched > 0, "no row matched");
    return test_finish();
}
