/* test_demo.c — the bundled demo character (assets/demo.fbx, assets/demo.glb).
 *
 *  - the generator (tools/make_demo_model) reproduces the committed files: same
 *    joints, clip names and durations, bind-pose vertices;
 *  - the FBX and the GLB, read by skinview's importer, give the same skinned
 *    positions at several times of every clip (clips matched by name);
 *  - every clip moves, and loops (first pose = last pose);
 *  - the skin is clean: weights sum to 1, at most 4 influences, blends at joints;
 *    >= 20 joints, the four named clips;
 *  - node transforms as real exporters write them: the `Armature` node (and the FBX's mesh
 *    node) carry A = Rx(-90 deg) * S(0.01), the rest pose (A-pose) is not the bind pose
 *    (T-pose), and the joints land where the design puts them in scene space (metres, Y up)
 *    in the bind pose, the rest pose and every clip: a node transform applied twice, not at
 *    all or in the wrong space moves them by centimetres to metres.
 */
#include "testio.h"
#include "anim/animator.h"
#include "io/import.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const CLIP_NAMES[] = {"Idle", "Walk", "Wave", "Twist"};
enum { CLIP_NAME_COUNT = 4 };

/* Scene-space positions of every mesh (model order) at clip/time. */
static void skin_all(Animator *animator, int clip, float time, vec3 *out)
{
    animator_evaluate(animator, clip, time);
    int offset = 0;
    for (int m = 0; m < animator->model->mesh_count; m++) {
        animator_skin_mesh(animator, m, out + offset, NULL);
        offset += animator->model->meshes[m].vertex_count;
    }
}

static float bbox_diagonal(const vec3 *p, int count)
{
    vec3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < count; i++) {
        glm_vec3_minv(lo, (float *)p[i], lo);
        glm_vec3_maxv(hi, (float *)p[i], hi);
    }
    return glm_vec3_distance(lo, hi);
}

/* max_i |a[i] - b[map[i]]| (map NULL = identity); NaN counts as the worst. */
static float max_distance(const vec3 *a, const vec3 *b, const int *map, int count)
{
    float worst = 0.0f;
    for (int i = 0; i < count; i++) {
        float d = glm_vec3_distance((float *)a[i], (float *)b[map ? map[i] : i]);
        if (!(d <= worst)) worst = d;
    }
    return worst;
}

/* For every vertex of a, the vertex of b at the nearest bind position (importers may
 * reorder vertices). Returns the largest such distance. */
static float match_vertices(const vec3 *a, const vec3 *b, int count, int *map)
{
    float worst = 0.0f;
    for (int i = 0; i < count; i++) {
        int best = -1;
        float best_d = INFINITY;
        if (glm_vec3_distance2((float *)a[i], (float *)b[i]) == 0.0f) {   /* same order: the usual case */
            best = i;
            best_d = 0.0f;
        } else {
            for (int j = 0; j < count; j++) {
                float d = glm_vec3_distance2((float *)a[i], (float *)b[j]);
                if (d < best_d) {
                    best_d = d;
                    best = j;
                }
            }
        }
        map[i] = best;
        if (sqrtf(best_d) > worst) worst = sqrtf(best_d);
    }
    return worst;
}

/* Same joints, clips (by name: names, durations) and, for two files of one format, bind-pose vertices. */
static void check_same_model(const char *what, const Model *a, const Model *b, bool same_vertex_order)
{
    CHECK(a->skeleton.joint_count == b->skeleton.joint_count, "%s: %d vs %d joints", what,
          a->skeleton.joint_count, b->skeleton.joint_count);
    CHECK(a->clip_count == b->clip_count, "%s: %d vs %d clips", what, a->clip_count, b->clip_count);
    for (int c = 0; c < a->clip_count; c++) {
        int other = model_find_clip(b, a->clips[c].name);
        CHECK(other >= 0, "%s: clip '%s' missing", what, a->clips[c].name);
        if (other >= 0)
            CHECK(fabsf(a->clips[c].duration - b->clips[other].duration) < 1e-6f, "%s: clip '%s' lasts %g vs %g s",
                  what, a->clips[c].name, a->clips[c].duration, b->clips[other].duration);
    }
    int total = model_total_vertices(a);
    CHECK(total == model_total_vertices(b), "%s: %d vs %d vertices", what, total, model_total_vertices(b));
    if (!same_vertex_order || total != model_total_vertices(b) || a->mesh_count != b->mesh_count) return;
    vec3 *pa = malloc(sizeof(vec3) * (size_t)total), *pb = malloc(sizeof(vec3) * (size_t)total);
    for (int m = 0, o = 0; m < a->mesh_count; o += a->meshes[m].vertex_count, m++) {
        memcpy(pa + o, a->meshes[m].positions, sizeof(vec3) * (size_t)a->meshes[m].vertex_count);
        memcpy(pb + o, b->meshes[m].positions, sizeof(vec3) * (size_t)b->meshes[m].vertex_count);
    }
    float diagonal = bbox_diagonal(pa, total);
    float d = max_distance(pa, pb, NULL, total);
    CHECK(d <= 1e-6f * diagonal, "%s: bind-pose vertices differ by %g", what, d);
    free(pa);
    free(pb);
}

/* The skin as the file stores it: the importer had nothing to fix. */
static void check_skin(const char *path, const Model *model)
{
    CHECK(model->skeleton.joint_count >= 20, "%s: %d joints", path, model->skeleton.joint_count);
    CHECK(model->mesh_count == 1, "%s: %d meshes, expected one skinned mesh", path, model->mesh_count);
    CHECK(model->stats.vertices_influences_cut == 0, "%s: %d vertices had > 4 influences", path,
          model->stats.vertices_influences_cut);
    CHECK(model->stats.vertices_renormalized == 0, "%s: %d vertices had weights not summing to 1", path,
          model->stats.vertices_renormalized);
    CHECK(model->stats.vertices_unweighted == 0, "%s: %d unweighted vertices", path, model->stats.vertices_unweighted);
    int influence_histogram[SV_MAX_INFLUENCES + 1] = {0};
    int bad_sum = 0;
    for (int m = 0; m < model->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        CHECK(mesh->skinned, "%s: mesh %d is not skinned", path, m);
        if (!mesh->skinned) continue;
        for (int v = 0; v < mesh->vertex_count; v++) {
            float sum = 0.0f;
            int used = 0;
            for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
                sum += mesh->weights[v][k];
                if (mesh->weights[v][k] > 0.0f) used++;
            }
            if (fabsf(sum - 1.0f) > 1e-4f) bad_sum++;
            influence_histogram[used]++;
        }
    }
    CHECK(bad_sum == 0, "%s: %d vertices whose weights do not sum to 1", path, bad_sum);
    CHECK(influence_histogram[0] == 0, "%s: %d vertices without weights", path, influence_histogram[0]);
    CHECK(influence_histogram[2] + influence_histogram[3] + influence_histogram[4] > 0,
          "%s: no vertex blends two or more joints", path);
    printf("%s: influences per vertex: 1: %d, 2: %d, 3: %d, 4: %d\n", path, influence_histogram[1],
           influence_histogram[2], influence_histogram[3], influence_histogram[4]);
    for (int n = 0; n < CLIP_NAME_COUNT; n++)
        CHECK(model_find_clip(model, CLIP_NAMES[n]) >= 0, "%s: no clip '%s'", path, CLIP_NAMES[n]);
    for (int c = 0; c < model->clip_count; c++) {
        float d = model->clips[c].duration;
        CHECK(d >= 1.0f && fabsf(d - roundf(d)) < 1e-6f, "%s: clip '%s' lasts %g s, not whole seconds", path,
              model->clips[c].name, d);
    }
}

/* Every clip moves (midpoint vs bind > 2% of the diagonal) and loops (t=0 vs t=duration). */
static void check_clips_move_and_loop(const char *path, const Model *model)
{
    int total = model_total_vertices(model);
    vec3 *bind = malloc(sizeof(vec3) * (size_t)total), *a = malloc(sizeof(vec3) * (size_t)total),
         *b = malloc(sizeof(vec3) * (size_t)total);
    Animator animator;
    animator_init(&animator, model);
    skin_all(&animator, ANIMATOR_BIND_POSE, 0.0f, bind);
    float diagonal = bbox_diagonal(bind, total);
    for (int c = 0; c < model->clip_count; c++) {
        const Clip *clip = &model->clips[c];
        skin_all(&animator, c, 0.5f * clip->duration, a);
        float moved = max_distance(a, bind, NULL, total);
        CHECK(moved > 0.02f * diagonal, "%s: clip '%s' at its midpoint moves only %g (diagonal %g)", path, clip->name,
              moved, diagonal);
        skin_all(&animator, c, 0.0f, a);
        skin_all(&animator, c, clip->duration, b);
        float loop = max_distance(a, b, NULL, total);
        CHECK(loop <= 1e-5f * diagonal, "%s: clip '%s' first and last poses differ by %g", path, clip->name, loop);
        printf("%s: %-6s %.0f s: midpoint moves %.3f of the diagonal; loop error %.2g\n", path, clip->name,
               clip->duration, moved / diagonal, loop / diagonal);
    }
    animator_free(&animator);
    free(bind);
    free(a);
    free(b);
}

/* Twist turns a forearm 150 degrees or more away from its bind rotation (about its own
 * axis: the rotation axis stays along the bone, +-X in the T-pose). */
static void check_twist(const char *path, const Model *model)
{
    int clip = model_find_clip(model, "Twist");
    int joint = -1;
    for (int j = 0; j < model->skeleton.joint_count; j++)
        if (strcmp(model->skeleton.names[j], "forearm.L") == 0) joint = j;
    CHECK(clip >= 0 && joint >= 0, "%s: no Twist clip or no forearm.L joint", path);
    if (clip < 0 || joint < 0) return;
    const Clip *twist = &model->clips[clip];
    JointTransform *trs = malloc(sizeof(JointTransform) * (size_t)model->skeleton.joint_count);
    TrackCursor *cursors = calloc((size_t)(twist->track_count > 0 ? twist->track_count : 1), sizeof(TrackCursor));
    float widest = 0.0f, axis_off = 0.0f;
    for (int step = 0; step <= 120; step++) {
        float t = twist->duration * (float)step / 120.0f;
        memcpy(trs, model->skeleton.rest_trs, sizeof(JointTransform) * (size_t)model->skeleton.joint_count);
        clip_sample_trs(twist, &model->skeleton, t, cursors, trs);
        versor q;   /* rotation relative to the bind (rest) rotation: q = rest^-1 * now */
        versor rest_inverse;
        glm_quat_inv(model->skeleton.rest_trs[joint].rotation, rest_inverse);
        glm_quat_mul(rest_inverse, trs[joint].rotation, q);
        float angle = 2.0f * acosf(fminf(1.0f, fabsf(q[3]))) * 180.0f / GLM_PIf;
        if (angle > widest) widest = angle;
        if (angle > 10.0f) {   /* the axis: its x part carries all of it */
            float s = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
            float off = 1.0f - fabsf(q[0]) / s;
            if (off > axis_off) axis_off = off;
        }
    }
    CHECK(widest >= 150.0f, "%s: Twist turns forearm.L by at most %g degrees", path, widest);
    CHECK(axis_off < 1e-3f, "%s: Twist turns forearm.L off its own axis (%g)", path, axis_off);
    printf("%s: Twist turns forearm.L up to %.1f degrees about its own axis\n", path, widest);
    free(cursors);
    free(trs);
}

static int joint_named(const Model *model, const char *name)
{
    for (int j = 0; j < model->skeleton.joint_count; j++)
        if (strcmp(model->skeleton.names[j], name) == 0) return j;
    return -1;
}

/* The design of tools/make_demo_model.c (its JOINTS table, scene space: metres, Y up). */
#define UPPER_ARM_L_HEAD 0.18f, 1.42f, 0.0f
#define HAND_L_HEAD 0.72f, 1.42f, 0.0f
#define TOE_L_HEAD 0.10f, 0.03f, 0.13f
#define REST_ARMS_DOWN_DEGREES 45.0f

static void check_joint_at(const char *path, const char *pose, const Animator *animator, int joint, const char *name,
                           float x, float y, float z)
{
    const float *at = animator->joint_model[joint][3];
    float d = glm_vec3_distance((float *)at, (vec3){x, y, z});
    CHECK(d < 1e-4f, "%s: %s: %s at (%g %g %g), the design puts it at (%g %g %g)", path, pose, name, at[0], at[1], at[2],
          x, y, z);
}

static void check_node_transforms(const char *path, const Model *model, bool mesh_node_carries_armature)
{
    int armature = joint_named(model, "Armature"), hand = joint_named(model, "hand.L");
    int upper_arm = joint_named(model, "upper_arm.L"), toe = joint_named(model, "toe.L"), head = joint_named(model, "head");
    int hips = joint_named(model, "hips");
    CHECK(armature >= 0 && hand >= 0 && upper_arm >= 0 && toe >= 0 && head >= 0 && hips >= 0,
          "%s: missing Armature / hand.L / upper_arm.L / toe.L / head / hips", path);
    if (armature < 0 || hand < 0 || upper_arm < 0 || toe < 0 || head < 0 || hips < 0) return;

    /* the file: A = Rx(-90 deg) * S(0.01) on the armature (column-major: A * +Z = 0.01 * +Y) */
    vec4 z_axis = {0, 0, 1, 0}, mapped;
    glm_mat4_mulv(model->skeleton.rest_local[armature], z_axis, mapped);
    CHECK(fabsf(mapped[0]) < 1e-6f && fabsf(mapped[1] - 0.01f) < 1e-6f && fabsf(mapped[2]) < 1e-6f,
          "%s: the Armature node should carry Rx(-90 deg) * S(0.01): it maps +Z to (%g %g %g)", path, mapped[0],
          mapped[1], mapped[2]);
    vec4 mesh_z;
    glm_mat4_mulv((vec4 *)model->meshes[0].bind_matrix, z_axis, mesh_z);
    if (mesh_node_carries_armature)
        CHECK(fabsf(mesh_z[1] - 0.01f) < 1e-6f, "%s: the body node should carry A too (N maps +Z to y = %g)", path,
              mesh_z[1]);
    else
        CHECK(fabsf(mesh_z[2] - 1.0f) < 1e-6f, "%s: glTF: N of a skinned mesh is the identity (+Z -> z = %g)", path,
              mesh_z[2]);

    Animator animator;
    if (!animator_init(&animator, model)) {
        CHECK(false, "%s: animator_init failed", path);
        return;
    }
    /* bind pose: the T-pose of the design, in metres, Y up */
    animator_evaluate(&animator, ANIMATOR_BIND_POSE, 0.0f);
    check_joint_at(path, "bind pose", &animator, hand, "hand.L", HAND_L_HEAD);
    check_joint_at(path, "bind pose", &animator, toe, "toe.L", TOE_L_HEAD);
    int total = model_total_vertices(model);
    vec3 *p = malloc(sizeof(vec3) * (size_t)total);
    skin_all(&animator, ANIMATOR_BIND_POSE, 0.0f, p);
    float lowest = INFINITY, highest = -INFINITY;
    for (int i = 0; i < total; i++) {
        lowest = fminf(lowest, p[i][1]);
        highest = fmaxf(highest, p[i][1]);
    }
    CHECK(lowest > -0.01f && lowest < 0.05f && highest > 1.7f && highest < 1.9f,
          "%s: bind pose: the skin spans y = %g .. %g m, a standing 1.8 m figure spans about 0 .. 1.85", path, lowest,
          highest);
    /* rest pose: the file's node transforms, an A-pose (upper arm 45 degrees down) */
    animator_evaluate(&animator, ANIMATOR_REST_POSE, 0.0f);
    const float arm = 0.72f - 0.18f, down = REST_ARMS_DOWN_DEGREES * GLM_PIf / 180.0f;
    vec3 upper_arm_head = {UPPER_ARM_L_HEAD};
    check_joint_at(path, "rest pose", &animator, hand, "hand.L", upper_arm_head[0] + arm * cosf(down),
                   upper_arm_head[1] - arm * sinf(down), 0.0f);
    check_joint_at(path, "rest pose", &animator, toe, "toe.L", TOE_L_HEAD);
    /* every clip: the head stays above the hips at a standing height, at 9 times */
    float head_low = INFINITY, head_high = -INFINITY, hips_low = INFINITY, hips_high = -INFINITY;
    for (int c = 0; c < model->clip_count; c++)
        for (int step = 0; step <= 8; step++) {
            animator_evaluate(&animator, c, model->clips[c].duration * (float)step / 8.0f);
            head_low = fminf(head_low, animator.joint_model[head][3][1]);
            head_high = fmaxf(head_high, animator.joint_model[head][3][1]);
            hips_low = fminf(hips_low, animator.joint_model[hips][3][1]);
            hips_high = fmaxf(hips_high, animator.joint_model[hips][3][1]);
        }
    CHECK(head_low > 1.45f && head_high < 1.65f && hips_low > 0.85f && hips_high < 1.0f,
          "%s: clips: head at y = %g .. %g, hips at %g .. %g m (standing: head ~1.57, hips ~0.95)", path, head_low,
          head_high, hips_low, hips_high);
    printf("%s: node transforms: bind, rest (A-pose) and clip joints where the design puts them "
           "(head %.3f .. %.3f m, hips %.3f .. %.3f m over every clip)\n", path, head_low, head_high, hips_low, hips_high);
    free(p);
    animator_free(&animator);
}

/* FBX and GLB give the same skinned positions at several times of every clip. */
static void check_fbx_matches_glb(const Model *fbx, const Model *glb)
{
    int total = model_total_vertices(fbx);
    CHECK(total == model_total_vertices(glb), "FBX has %d vertices, GLB %d", total, model_total_vertices(glb));
    if (total != model_total_vertices(glb)) return;
    vec3 *pf = malloc(sizeof(vec3) * (size_t)total), *pg = malloc(sizeof(vec3) * (size_t)total);
    int *map = malloc(sizeof(int) * (size_t)total);
    Animator af, ag;
    animator_init(&af, fbx);
    animator_init(&ag, glb);
    skin_all(&af, ANIMATOR_BIND_POSE, 0.0f, pf);
    skin_all(&ag, ANIMATOR_BIND_POSE, 0.0f, pg);
    float diagonal = bbox_diagonal(pg, total);
    float bind_error = match_vertices(pf, pg, total, map);
    CHECK(bind_error <= 1e-5f * diagonal, "FBX and GLB bind poses differ by %g", bind_error);
    float worst = 0.0f;
    for (int c = 0; c < fbx->clip_count; c++) {
        const Clip *clip = &fbx->clips[c];
        int other = model_find_clip(glb, clip->name);
        CHECK(other >= 0, "GLB has no clip '%s'", clip->name);
        if (other < 0) continue;
        float clip_worst = 0.0f;
        /* key times (multiples of 1/30 s) and times between keys. At the keys both files hold the
         * same pose (1e-4 of the diagonal). Between keys they need not: the FBX's curves
         * interpolate Euler angles (as the FBX SDK and the DCCs evaluate them:
         * src/io/fbx/fbx_curve.c), the GLB quaternions. Walk differs by 4.4e-4 there; in Wave,
         * Assimp's exporter wrote the hand's Euler keys with a 180-degree flip between two keys
         * (0, 88.6, 0) -> (180, 88.6, 180), the same pose, so the FBX turns through it between
         * 0.433 and 0.467 s: 4.8e-3 of the diagonal. Between keys the check is 1e-2. */
        for (int step = 0; step <= 32; step++) {
            bool at_key = step % 2 == 0;
            float t = at_key ? (float)((int)(clip->duration * 30.0f * (float)step / 32.0f + 0.5f)) / 30.0f
                             : clip->duration * (float)step / 32.0f + 0.0123f;
            if (t > clip->duration) t = clip->duration;
            skin_all(&af, c, t, pf);
            skin_all(&ag, other, t, pg);
            float d = max_distance(pf, pg, map, total);
            float tolerance = (at_key ? 1e-4f : 1e-2f) * diagonal;
            CHECK(d <= tolerance, "clip '%s' at %g s (%s): FBX and GLB differ by %g (diagonal %g)", clip->name, t,
                  at_key ? "a key" : "between keys", d, diagonal);
            if (d > clip_worst) clip_worst = d;
        }
        printf("FBX vs GLB, clip %-6s: max difference %.2g of the diagonal over 33 times\n", clip->name,
               clip_worst / diagonal);
        if (clip_worst > worst) worst = clip_worst;
    }
    printf("FBX vs GLB: bind %.2g, clips %.2g of the diagonal (%g m)\n", bind_error / diagonal, worst / diagonal,
           diagonal);
    animator_free(&af);
    animator_free(&ag);
    free(map);
    free(pf);
    free(pg);
}

/* Informational only: the generator is deterministic, but another Assimp build may write other bytes. */
static bool same_bytes(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa && fb;
    while (same) {
        int ca = fgetc(fa), cb = fgetc(fb);
        if (ca != cb) same = false;
        if (ca == EOF || cb == EOF) break;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return same;
}

int main(void)
{
    char fbx_path[1024], glb_path[1024];
    snprintf(fbx_path, sizeof fbx_path, "%s/assets/demo.fbx", SKINVIEW_SOURCE_DIR);
    snprintf(glb_path, sizeof glb_path, "%s/assets/demo.glb", SKINVIEW_SOURCE_DIR);

    Model fbx = {0}, glb = {0};
    bool have_fbx = test_import(fbx_path, NULL, &fbx), have_glb = test_import(glb_path, NULL, &glb);
    if (have_fbx) {
        check_skin(fbx_path, &fbx);
        check_clips_move_and_loop(fbx_path, &fbx);
        check_twist(fbx_path, &fbx);
        check_node_transforms(fbx_path, &fbx, true);
    }
    if (have_glb) {
        check_skin(glb_path, &glb);
        check_clips_move_and_loop(glb_path, &glb);
        check_twist(glb_path, &glb);
        check_node_transforms(glb_path, &glb, false);
    }
    if (have_fbx && have_glb) {
        check_same_model("FBX vs GLB", &fbx, &glb, false);   /* vertices: matched below */
        check_fbx_matches_glb(&fbx, &glb);
    }

    /* regenerate into a temporary folder: the same model as the committed files */
    char dir[] = "/tmp/skinview_test_demo_XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp failed");
    char command[2048];
    snprintf(command, sizeof command, "'%s' '%s' >/dev/null", DEMO_GENERATOR, dir);
    int status = system(command);
    CHECK(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s failed", command);
    const char *files[2] = {"demo.fbx", "demo.glb"};
    const Model *committed[2] = {have_fbx ? &fbx : NULL, have_glb ? &glb : NULL};
    for (int f = 0; f < 2; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        char committed_path[1024];
        snprintf(committed_path, sizeof committed_path, "%s/assets/%s", SKINVIEW_SOURCE_DIR, files[f]);
        printf("regenerated %s: %s bytes as assets/%s\n", files[f],
               same_bytes(path, committed_path) ? "the same" : "NOT the same (another Assimp build?)", files[f]);
        Model fresh = {0};
        if (test_import(path, NULL, &fresh) && committed[f]) {
            char what[64];
            snprintf(what, sizeof what, "regenerated %s vs assets/", files[f]);
            check_same_model(what, committed[f], &fresh, true);
        }
        model_free(&fresh);
        remove(path);
    }
    rmdir(dir);
    model_free(&fbx);
    model_free(&glb);
    return test_finish();
}
