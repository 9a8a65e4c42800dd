/* test_validate.c — every rule of src/io/validate.c on a model built in memory.
 *
 * The base model: 3 joints (root -> hip -> knee), one skinned triangle bound to hip and knee,
 * one material, one clip with a track on the knee. Each case breaks one thing, validates, and
 * checks the verdict (repaired with N warning lines / rejected with a message naming the cause)
 * and the repaired data. The deep-hierarchy cases also run the animator over the result, so
 * nothing on the way (validation, pose, palette) may recurse.
 */
#include "anim/animator.h"
#include "io/validate.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

static void base_model(Model *model)
{
    memset(model, 0, sizeof *model);
    snprintf(model->source_path, sizeof model->source_path, "memory.model");
    Skeleton *sk = &model->skeleton;
    if (!skeleton_alloc(sk, 3)) exit(1);
    const char *names[3] = {"root", "hip", "knee"};
    for (int j = 0; j < 3; j++) {
        snprintf(sk->names[j], SV_NAME_MAX, "%s", names[j]);
        sk->parent[j] = j - 1;
        glm_mat4_identity(sk->rest_local[j]);
        sk->rest_local[j][3][1] = j > 0 ? 1.0f : 0.0f;
        glm_vec3_zero(sk->rest_trs[j].translation);
        sk->rest_trs[j].translation[1] = j > 0 ? 1.0f : 0.0f;
        glm_quat_identity(sk->rest_trs[j].rotation);
        glm_vec3_one(sk->rest_trs[j].scale);
    }

    model->material_count = 1;
    model->materials = xcalloc(1, sizeof(Material));
    glm_vec4_one(model->materials[0].diffuse_color);
    model->materials[0].diffuse_texture = -1;

    model->mesh_count = 1;
    model->meshes = xcalloc(1, sizeof(Mesh));
    Mesh *mesh = &model->meshes[0];
    snprintf(mesh->name, sizeof mesh->name, "leg");
    mesh->vertex_count = 3;
    mesh->index_count = 3;
    mesh->positions = xcalloc(3, sizeof(vec3));
    mesh->normals = xcalloc(3, sizeof(vec3));
    mesh->uvs = xcalloc(3, sizeof(vec2));
    mesh->indices = xcalloc(3, sizeof(uint32_t));
    for (int v = 0; v < 3; v++) {
        mesh->positions[v][0] = (float)v;
        mesh->positions[v][1] = (float)(v * v);
        mesh->normals[v][2] = 1.0f;
        mesh->indices[v] = (uint32_t)v;
    }
    mesh->node_joint = 0;
    mesh->material = 0;
    mesh->skinned = true;
    mesh->bone_count = 2;
    mesh->bone_joint = xcalloc(2, sizeof(int));
    mesh->inverse_bind = xcalloc(2, sizeof(mat4));
    mesh->bone_joint[0] = 1;
    mesh->bone_joint[1] = 2;
    glm_mat4_identity(mesh->inverse_bind[0]);
    glm_mat4_identity(mesh->inverse_bind[1]);
    mesh->inverse_bind[0][3][1] = -1.0f;
    mesh->inverse_bind[1][3][1] = -2.0f;
    mesh->joint_indices = xcalloc(3, sizeof *mesh->joint_indices);
    mesh->weights = xcalloc(3, sizeof *mesh->weights);
    for (int v = 0; v < 3; v++) {
        mesh->joint_indices[v][0] = 0;
        mesh->joint_indices[v][1] = 1;
        mesh->weights[v][0] = 0.75f;
        mesh->weights[v][1] = 0.25f;
    }
    sk->is_bone[1] = sk->is_bone[2] = true;

    model->clip_count = 1;
    model->clips = xcalloc(1, sizeof(Clip));
    Clip *clip = &model->clips[0];
    snprintf(clip->name, sizeof clip->name, "bend");
    clip->duration = 2.0f;
    clip->track_count = 1;
    clip->tracks = xcalloc(1, sizeof(JointTrack));
    JointTrack *track = &clip->tracks[0];
    track->joint = 2;
    track->rotation_count = 3;
    track->rotation_times = xcalloc(3, sizeof(float));
    track->rotation_values = xcalloc(3, sizeof(versor));
    track->translation_count = 3;
    track->translation_times = xcalloc(3, sizeof(float));
    track->translation_values = xcalloc(3, sizeof(vec3));
    for (int k = 0; k < 3; k++) {
        track->rotation_times[k] = track->translation_times[k] = (float)k;
        glm_quatv(track->rotation_values[k], 0.5f * (float)k, (vec3){1.0f, 0.0f, 0.0f});
        track->translation_values[k][1] = 1.0f + (float)k;
    }
}

typedef struct Verdict {
    bool ok;
    int  repairs;
    int  warning_lines;       /* lines written, each must start "skinview: warning: memory.model: " */
    bool lines_well_formed;
    char error[512];
    char warnings[4096];
} Verdict;

static Verdict validate(Model *model)
{
    Verdict verdict = {0};
    FILE *out = tmpfile();
    verdict.ok = model_validate(model, out, &verdict.repairs, verdict.error, sizeof verdict.error);
    rewind(out);
    size_t n = fread(verdict.warnings, 1, sizeof verdict.warnings - 1, out);
    verdict.warnings[n] = '\0';
    fclose(out);
    verdict.lines_well_formed = true;
    for (char *line = verdict.warnings; *line;) {
        char *end = strchr(line, '\n');
        if (!end) { verdict.lines_well_formed = false; break; }
        if (strncmp(line, "skinview: warning: memory.model: ", 33) != 0) verdict.lines_well_formed = false;
        verdict.warning_lines++;
        line = end + 1;
    }
    if (strchr(verdict.error, '\n')) verdict.lines_well_formed = false;
    return verdict;
}

/* A repair: accepted, at least one warning, one line per repair, the line mentions `word`. */
static void expect_repair(const char *what, const Verdict *v, const char *word)
{
    CHECK(v->ok, "%s: rejected (%s)", what, v->error);
    CHECK(v->repairs >= 1 && v->warning_lines == v->repairs && v->lines_well_formed,
          "%s: %d repairs, %d warning lines:\n%s", what, v->repairs, v->warning_lines, v->warnings);
    CHECK(strstr(v->warnings, word) != NULL, "%s: warning does not say '%s':\n%s", what, word, v->warnings);
}

/* A rejection: refused with a one-line message mentioning `word`. */
static void expect_reject(const char *what, const Verdict *v, const char *word)
{
    CHECK(!v->ok, "%s: accepted", what);
    CHECK(v->lines_well_formed && v->error[0], "%s: error not one line: '%s'", what, v->error);
    CHECK(strstr(v->error, word) != NULL, "%s: error '%s' does not say '%s'", what, v->error, word);
}

static void test_clean_model(void)
{
    Model model;
    base_model(&model);
    Verdict v = validate(&model);
    CHECK(v.ok && v.repairs == 0 && v.warning_lines == 0, "clean model: ok %d, %d repairs: %s%s", v.ok, v.repairs,
          v.error, v.warnings);
    model_free(&model);
}

static void test_vertex_data(void)
{
    Model model;
    base_model(&model);
    model.meshes[0].positions[1][2] = NAN;
    Verdict v = validate(&model);
    expect_reject("NaN position", &v, "position");
    model_free(&model);

    base_model(&model);
    model.meshes[0].positions[2][0] = INFINITY;
    v = validate(&model);
    expect_reject("Inf position", &v, "position");
    model_free(&model);

    base_model(&model);
    model.meshes[0].normals[0][1] = NAN;
    model.meshes[0].normals[2][0] = -INFINITY;
    v = validate(&model);
    expect_repair("NaN normals", &v, "2 NaN, infinite or zero normals");
    CHECK(model.meshes[0].normals[0][1] == 1.0f && model.meshes[0].normals[0][0] == 0.0f, "normal not +Y");
    CHECK(model.meshes[0].normals[1][2] == 1.0f, "a good normal was changed");
    model_free(&model);

    base_model(&model);
    glm_vec3_scale(model.meshes[0].normals[2], 1e30f, model.meshes[0].normals[2]);   /* the fuzzer's NaN normals */
    v = validate(&model);
    expect_repair("normal of length 1e30", &v, "longer than 1e6");
    CHECK(fabsf(glm_vec3_norm(model.meshes[0].normals[2]) - 1.0f) < 1e-5f, "normal not normalised");
    model_free(&model);

    base_model(&model);
    glm_vec3_scale(model.meshes[0].normals[1], 1e-40f, model.meshes[0].normals[1]);   /* denormal: found in the corpus */
    v = validate(&model);
    expect_repair("normal of length 1e-40", &v, "shorter than 1e-6");
    CHECK(fabsf(glm_vec3_norm(model.meshes[0].normals[1]) - 1.0f) < 1e-5f, "tiny normal not normalised: %g %g %g",
          model.meshes[0].normals[1][0], model.meshes[0].normals[1][1], model.meshes[0].normals[1][2]);
    model_free(&model);

    base_model(&model);
    model.meshes[0].uvs[1][0] = INFINITY;
    model.meshes[0].uvs[1][1] = 0.5f;
    v = validate(&model);
    expect_repair("Inf UV", &v, "texture coordinates");
    CHECK(model.meshes[0].uvs[1][0] == 0.0f && model.meshes[0].uvs[1][1] == 0.0f, "UV not zeroed");
    model_free(&model);

    base_model(&model);
    model.meshes[0].indices[2] = 3;   /* past the 3 vertices: the only triangle goes, so the mesh */
    v = validate(&model);
    expect_reject("triangle index out of range (only mesh)", &v, "no mesh");
    CHECK(strstr(v.warnings, "triangles used vertex indices past") != NULL, "no warning for the bad triangle: %s",
          v.warnings);
    model_free(&model);

    base_model(&model);
    model.meshes[0].material = 7;
    v = validate(&model);
    expect_repair("material out of range", &v, "material 7");
    CHECK(model.meshes[0].material == -1, "material not reset");
    model_free(&model);
}

static void test_empty_meshes(void)
{
    /* two meshes: the second has 0 vertices, then 0 faces: dropped, the first stays */
    for (int which = 0; which < 2; which++) {
        Model model;
        base_model(&model);
        Mesh *grown = realloc(model.meshes, 2 * sizeof(Mesh));
        if (!grown) exit(1);
        model.meshes = grown;
        memset(&model.meshes[1], 0, sizeof(Mesh));
        snprintf(model.meshes[1].name, SV_NAME_MAX, "hollow");
        model.meshes[1].vertex_count = which == 0 ? 0 : 3;
        model.meshes[1].positions = xcalloc(3, sizeof(vec3));
        model.mesh_count = 2;
        Verdict v = validate(&model);
        expect_repair(which == 0 ? "mesh with 0 vertices" : "mesh with 0 faces", &v, "'hollow'");
        CHECK(model.mesh_count == 1 && strcmp(model.meshes[0].name, "leg") == 0, "empty mesh not dropped");
        model_free(&model);
    }
    Model model;
    base_model(&model);
    model.meshes[0].index_count = 0;
    Verdict v = validate(&model);
    expect_reject("only mesh has 0 faces", &v, "no mesh");
    model_free(&model);
}

static void test_skin_rules(void)
{
    Model model;
    base_model(&model);
    model.meshes[0].joint_indices[1][1] = 9;   /* bone 9 of 2 */
    Verdict v = validate(&model);
    expect_repair("joint index out of range", &v, "past the mesh's 2 bones");
    CHECK(model.meshes[0].weights[1][1] == 0.0f && fabsf(model.meshes[0].weights[1][0] - 1.0f) < 1e-6f,
          "vertex 1 weights %g %g", model.meshes[0].weights[1][0], model.meshes[0].weights[1][1]);
    model_free(&model);

    base_model(&model);
    model.meshes[0].weights[0][1] = -0.5f;
    model.meshes[0].weights[2][0] = NAN;
    v = validate(&model);
    expect_repair("negative and NaN weights", &v, "negative or NaN weights");
    CHECK(model.meshes[0].weights[0][0] == 1.0f && model.meshes[0].weights[0][1] == 0.0f, "vertex 0 not repaired");
    CHECK(model.meshes[0].weights[2][1] == 1.0f && model.meshes[0].weights[2][0] == 0.0f, "vertex 2 not repaired");
    model_free(&model);

    base_model(&model);
    model.meshes[0].weights[2][0] = 0.0f;
    model.meshes[0].weights[2][1] = 0.0f;
    v = validate(&model);
    expect_repair("weights summing to 0", &v, "summing to 0");
    Mesh *mesh = &model.meshes[0];
    int rigid = mesh->joint_indices[2][0];
    CHECK(mesh->bone_count == 3 && rigid == 2 && mesh->bone_joint[2] == mesh->node_joint &&
              mesh->weights[2][0] == 1.0f,
          "zero-sum vertex not bound to the mesh node (bones %d, index %d)", mesh->bone_count, rigid);
    mat4 identity = GLM_MAT4_IDENTITY_INIT;
    CHECK(mesh->bone_count == 3 && memcmp(mesh->inverse_bind[2], identity, sizeof identity) == 0,
          "rigid bone's inverse bind is not the identity");
    model_free(&model);

    base_model(&model);
    model.meshes[0].weights[0][0] = 3.0f;
    model.meshes[0].weights[0][1] = 1.0f;
    v = validate(&model);
    expect_repair("weights summing to 4", &v, "renormalised");
    CHECK(fabsf(model.meshes[0].weights[0][0] - 0.75f) < 1e-6f, "not renormalised: %g", model.meshes[0].weights[0][0]);
    model_free(&model);

    base_model(&model);
    model.meshes[0].inverse_bind[1][1][1] = 0.0f;   /* y axis squashed to nothing */
    v = validate(&model);
    expect_reject("singular inverse bind", &v, "singular");
    model_free(&model);

    base_model(&model);
    model.meshes[0].inverse_bind[0][0][0] = 1.0f;
    model.meshes[0].inverse_bind[0][1][0] = 1.0f;   /* x and y columns equal: flat */
    model.meshes[0].inverse_bind[0][0][1] = 1.0f;
    model.meshes[0].inverse_bind[0][1][1] = 1.0f;
    v = validate(&model);
    expect_reject("coplanar inverse bind", &v, "singular");
    model_free(&model);

    base_model(&model);
    model.meshes[0].inverse_bind[0][2][2] = NAN;
    v = validate(&model);
    expect_reject("NaN inverse bind", &v, "NaN or infinite inverse bind");
    model_free(&model);

    base_model(&model);
    model.meshes[0].inverse_bind[1][0][3] = 0.5f;   /* last row (0.5, 0, 0, 1) */
    v = validate(&model);
    expect_repair("non-affine inverse bind", &v, "not affine");
    CHECK(model.meshes[0].inverse_bind[1][0][3] == 0.0f && model.meshes[0].inverse_bind[1][3][3] == 1.0f,
          "not made affine");
    model_free(&model);

    base_model(&model);
    glm_mat4_scale(model.meshes[0].inverse_bind[0], 2.0f);   /* a homogeneous w of 2: divided out exactly */
    v = validate(&model);
    expect_repair("homogeneous inverse bind", &v, "not affine");
    CHECK(model.meshes[0].inverse_bind[0][3][1] == -1.0f && model.meshes[0].inverse_bind[0][0][0] == 1.0f,
          "w not divided out");
    model_free(&model);

    base_model(&model);
    model.meshes[0].bone_joint[1] = 3;
    v = validate(&model);
    expect_reject("bone on a missing joint", &v, "outside the 3 nodes");
    model_free(&model);

    base_model(&model);
    free(model.meshes[0].weights);
    model.meshes[0].weights = NULL;
    v = validate(&model);
    expect_reject("skinned mesh without weights", &v, "weight arrays");
    model_free(&model);
}

static void test_hierarchy_rules(void)
{
    Model model;
    base_model(&model);
    model.skeleton.parent[1] = 1;
    Verdict v = validate(&model);
    expect_reject("self-parent", &v, "its own parent");
    model_free(&model);

    base_model(&model);
    model.skeleton.parent[0] = 2;   /* root -> knee -> hip -> root */
    v = validate(&model);
    expect_reject("cycle", &v, "cycle");
    model_free(&model);

    base_model(&model);
    model.skeleton.parent[1] = 2;   /* hip under knee, knee a root: acyclic but children first */
    model.skeleton.parent[2] = -1;
    v = validate(&model);
    expect_reject("children before parents", &v, "parents before children");
    model_free(&model);

    base_model(&model);
    model.skeleton.parent[2] = 5;
    v = validate(&model);
    expect_reject("parent out of range", &v, "outside");
    model_free(&model);

    base_model(&model);
    model.skeleton.rest_local[1][3][0] = INFINITY;
    v = validate(&model);
    expect_reject("Inf node matrix", &v, "transform");
    model_free(&model);

    base_model(&model);
    model.skeleton.rest_trs[2].rotation[3] = NAN;
    v = validate(&model);
    expect_repair("NaN rest rotation", &v, "rest transforms");
    CHECK(model.skeleton.rest_trs[2].rotation[3] == 1.0f, "rest rotation not the identity");
    model_free(&model);
}

/* A chain of `depth` joints, each one unit above its parent, with the mesh skinned to the tip. */
static void chain_model(Model *model, int depth)
{
    base_model(model);
    Skeleton *sk = &model->skeleton;
    free(sk->names);
    free(sk->parent);
    free(sk->rest_local);
    free(sk->rest_trs);
    free(sk->is_bone);
    if (!skeleton_alloc(sk, depth)) exit(1);
    for (int j = 0; j < depth; j++) {
        snprintf(sk->names[j], SV_NAME_MAX, "j%d", j);
        sk->parent[j] = j - 1;
        glm_mat4_identity(sk->rest_local[j]);
        sk->rest_local[j][3][1] = 1.0f;
        glm_vec3_zero(sk->rest_trs[j].translation);
        sk->rest_trs[j].translation[1] = 1.0f;
        glm_quat_identity(sk->rest_trs[j].rotation);
        glm_vec3_one(sk->rest_trs[j].scale);
    }
    model->meshes[0].bone_joint[0] = depth - 2;
    model->meshes[0].bone_joint[1] = depth - 1;
    model->clips[0].tracks[0].joint = depth / 2;
}

static void test_size_rules(void)
{
    Model model;
    chain_model(&model, 100000);
    Verdict v = validate(&model);
    expect_reject("100 000 joints, 100 000 deep", &v, "more than the 65536");
    model_free(&model);

    /* 60 000 deep is accepted, and the whole per-frame pipeline walks it without recursion */
    chain_model(&model, 60000);
    v = validate(&model);
    CHECK(v.ok && v.repairs == 0, "60 000-deep chain: %s %s", v.error, v.warnings);
    Animator animator;
    CHECK(animator_init(&animator, &model), "animator_init");
    animator_evaluate(&animator, ANIMATOR_REST_POSE, 0.0f);
    CHECK(fabsf(animator.joint_model[59999][3][1] - 60000.0f) < 1.0f, "tip of the chain at %g, not 60000",
          animator.joint_model[59999][3][1]);
    animator_evaluate(&animator, 0, 1.0f);
    vec3 posed[3], normals[3];
    animator_skin_mesh(&animator, 0, posed, normals);
    CHECK(isfinite(posed[2][0]) && isfinite(posed[2][1]), "skinned vertex not finite");
    animator_free(&animator);
    model_free(&model);
}

static void test_clip_rules(void)
{
    Model model;
    base_model(&model);
    JointTrack *track = &model.clips[0].tracks[0];
    track->rotation_times[1] = NAN;
    track->translation_values[2][0] = INFINITY;
    Verdict v = validate(&model);
    expect_repair("NaN key time, Inf key value", &v, "2 keys with a NaN");
    CHECK(track->rotation_count == 2 && track->translation_count == 2, "keys not dropped: %d %d",
          track->rotation_count, track->translation_count);
    CHECK(model.clips[0].duration == 2.0f, "duration changed to %g", model.clips[0].duration);
    model_free(&model);

    base_model(&model);
    track = &model.clips[0].tracks[0];
    track->translation_times[0] = 2.0f;   /* 2, 1, 2: out of order and repeated */
    track->translation_values[0][1] = 42.0f;
    v = validate(&model);
    expect_repair("keys out of order", &v, "out of order");
    CHECK(strstr(v.warnings, "repeated an earlier key's time") != NULL, "no duplicate warning: %s", v.warnings);
    CHECK(track->translation_count == 2 && track->translation_times[0] == 1.0f && track->translation_times[1] == 2.0f,
          "not sorted: %d keys, %g %g", track->translation_count, track->translation_times[0], track->translation_times[1]);
    CHECK(track->translation_values[1][1] == 3.0f, "the later key at t=2 should win (got %g)", track->translation_values[1][1]);
    model_free(&model);

    base_model(&model);
    track = &model.clips[0].tracks[0];
    track->rotation_times[0] = -1.0f;   /* keys -1, 1, 2 (rotation) and 0, 1, 2 (translation) */
    v = validate(&model);
    expect_repair("negative key time", &v, "negative time");
    CHECK(track->rotation_count == 3 && track->rotation_times[0] == 0.0f && track->rotation_times[2] == 3.0f &&
              track->translation_times[0] == 1.0f,
          "clip not shifted by 1 s: %g %g", track->rotation_times[0], track->translation_times[0]);
    CHECK(model.clips[0].start == 0.0f && model.clips[0].duration == 3.0f, "start %g duration %g, not 0 and 3",
          model.clips[0].start, model.clips[0].duration);
    model_free(&model);

    base_model(&model);
    model.clips[0].start = 1.5f;   /* after the first key (0): those keys could never play */
    v = validate(&model);
    expect_repair("start after the first key", &v, "after the first key");
    CHECK(model.clips[0].start == 0.0f && model.clips[0].duration == 2.0f, "start %g duration %g",
          model.clips[0].start, model.clips[0].duration);
    model_free(&model);

    /* spline channels: tangents travel with their keys, NaN tangents become 0, a spline without
     * tangents or an unknown interpolation becomes linear */
    base_model(&model);
    track = &model.clips[0].tracks[0];
    track->translation_interpolation = INTERPOLATION_CUBICSPLINE;
    track->translation_tangents = xcalloc(6, sizeof(vec3));
    for (int k = 0; k < 3; k++) track->translation_tangents[2 * k + 1][0] = 10.0f + (float)k;   /* out-tangents */
    track->translation_tangents[0][2] = NAN;
    track->translation_times[0] = 5.0f;   /* 5, 1, 2: key 0 moves to the end */
    track->rotation_interpolation = (Interpolation)7;
    v = validate(&model);
    expect_repair("spline channel", &v, "tangent components set to 0");
    CHECK(strstr(v.warnings, "made linear") != NULL, "unknown interpolation not reported: %s", v.warnings);
    CHECK(track->rotation_interpolation == INTERPOLATION_LINEAR, "interpolation %d", track->rotation_interpolation);
    CHECK(track->translation_times[2] == 5.0f && track->translation_tangents[5][0] == 10.0f &&
              track->translation_tangents[1][0] == 11.0f && track->translation_tangents[4][2] == 0.0f,
          "tangents did not follow their keys: %g %g %g", track->translation_tangents[5][0],
          track->translation_tangents[1][0], track->translation_tangents[4][2]);
    model_free(&model);

    base_model(&model);
    model.clips[0].tracks[0].rotation_interpolation = INTERPOLATION_CUBICSPLINE;   /* no tangents */
    v = validate(&model);
    expect_repair("spline without tangents", &v, "made linear");
    model_free(&model);

    base_model(&model);
    glm_vec4_scale(model.clips[0].tracks[0].rotation_values[1], 3.0f, model.clips[0].tracks[0].rotation_values[1]);
    v = validate(&model);
    expect_repair("non-unit rotation key", &v, "normalised");
    CHECK(fabsf(glm_vec4_norm(model.clips[0].tracks[0].rotation_values[1]) - 1.0f) < 1e-5f, "not unit");
    model_free(&model);

    float bad_durations[3] = {-1.0f, NAN, 1e9f};
    for (int i = 0; i < 3; i++) {
        base_model(&model);
        model.clips[0].duration = bad_durations[i];
        v = validate(&model);
        expect_repair("bad duration", &v, "set to the last key");
        CHECK(model.clips[0].duration == 2.0f, "duration %g -> %g, not 2", bad_durations[i], model.clips[0].duration);
        model_free(&model);
    }

    base_model(&model);
    model.clips[0].duration = 0.5f;   /* before the last key (2 s): the last key must stay reachable */
    v = validate(&model);
    expect_repair("duration before the last key", &v, "extended");
    CHECK(model.clips[0].duration == 2.0f, "duration not extended");
    model_free(&model);

    base_model(&model);
    model.clips[0].tracks[0].translation_times[2] = 1e7f;   /* ~4 months: a unit error */
    v = validate(&model);
    expect_repair("keys past a day", &v, "more than a day");
    CHECK(model.clip_count == 0, "absurd clip kept");
    model_free(&model);

    base_model(&model);
    track = &model.clips[0].tracks[0];
    track->rotation_count = 0;
    track->translation_count = 0;
    v = validate(&model);
    expect_repair("0-key track", &v, "no usable keys");
    CHECK(model.clips[0].track_count == 0, "0-key track kept");
    model_free(&model);

    base_model(&model);
    model.clips[0].tracks[0].joint = 3;
    v = validate(&model);
    expect_repair("track on a missing joint", &v, "do not exist");
    CHECK(model.clips[0].track_count == 0, "track kept");
    model_free(&model);

    base_model(&model);
    model.clips[0].tracks[0].rotation_count = 5;   /* more keys than arrays would be a lie; here arrays are NULL */
    free(model.clips[0].tracks[0].rotation_times);
    model.clips[0].tracks[0].rotation_times = NULL;
    v = validate(&model);
    expect_reject("keys without arrays", &v, "no key arrays");
    model_free(&model);

    /* the repaired clip still samples: the pose at every time is finite */
    base_model(&model);
    track = &model.clips[0].tracks[0];
    track->rotation_times[0] = 5.0f;
    track->translation_values[1][2] = NAN;
    model.clips[0].duration = -3.0f;
    v = validate(&model);
    CHECK(v.ok, "repaired clip rejected: %s", v.error);
    Animator animator;
    CHECK(animator_init(&animator, &model), "animator_init");
    bool finite = true;
    for (float t = 0.0f; t <= 6.0f; t += 0.25f) {
        animator_evaluate(&animator, 0, t);
        for (int j = 0; j < 3; j++)
            for (int c = 0; c < 4; c++)
                for (int r = 0; r < 4; r++) finite = finite && isfinite(animator.joint_model[j][c][r]);
    }
    CHECK(finite, "repaired clip samples to non-finite joint matrices");
    animator_free(&animator);
    model_free(&model);
}

static void test_textures(void)
{
    Model model;
    base_model(&model);
    model.texture_count = 3;
    model.textures = xcalloc(3, sizeof(Texture));
    int sizes[3][2] = {{2, 2}, {20000, 4}, {0, 0}};   /* fine, huge, not an image (nothing decoded) */
    for (int t = 0; t < 3; t++) {
        snprintf(model.textures[t].source, SV_NAME_MAX, "t%d.png", t);
        model.textures[t].width = sizes[t][0];
        model.textures[t].height = sizes[t][1];
        model.textures[t].rgba = t == 2 ? NULL : xcalloc(4, 4);   /* the huge one's pixels are never read */
    }
    Material *grown = realloc(model.materials, 3 * sizeof(Material));
    if (!grown) exit(1);
    model.materials = grown;
    model.material_count = 3;
    for (int m = 0; m < 3; m++) {
        glm_vec4_one(model.materials[m].diffuse_color);
        model.materials[m].diffuse_texture = m;
        model.materials[m].name[0] = '\0';
    }
    model.materials[2].diffuse_color[1] = NAN;
    Verdict v = validate(&model);
    expect_repair("huge and empty textures", &v, "t1.png' (20000 x 4)");
    CHECK(strstr(v.warnings, "t2.png") != NULL, "empty texture not reported");
    CHECK(strstr(v.warnings, "NaN/infinite colour") != NULL, "NaN colour not reported");
    CHECK(model.texture_count == 1 && strcmp(model.textures[0].source, "t0.png") == 0, "textures not dropped");
    CHECK(model.materials[0].diffuse_texture == 0 && model.materials[1].diffuse_texture == -1 &&
              model.materials[2].diffuse_texture == -1,
          "material texture indices not remapped: %d %d %d", model.materials[0].diffuse_texture,
          model.materials[1].diffuse_texture, model.materials[2].diffuse_texture);
    CHECK(model.materials[2].diffuse_color[1] == 1.0f, "NaN colour kept");
    model_free(&model);
}

/* Morph targets: two targets on the leg, a clip with weight tracks. */
static void add_morphs(Model *model)
{
    Mesh *mesh = &model->meshes[0];
    mesh->morph_target_count = 2;
    mesh->morph_target_names = xcalloc(2, SV_NAME_MAX);
    mesh->morph_position_deltas = xcalloc(6, sizeof(vec3));
    mesh->morph_normal_deltas = xcalloc(6, sizeof(vec3));
    mesh->morph_default_weights = xcalloc(2, sizeof(float));
    mesh->morph_position_deltas[4][1] = 1.0f;
    Clip *clip = &model->clips[0];
    clip->morph_track_count = 2;
    clip->morph_tracks = xcalloc(2, sizeof(MorphTrack));
    for (int t = 0; t < 2; t++) {
        MorphTrack *track = &clip->morph_tracks[t];
        track->mesh = 0;
        track->target = t;
        track->key_count = 2;
        track->times = xcalloc(2, sizeof(float));
        track->weights = xcalloc(2, sizeof(float));
        track->times[1] = 1.0f;
        track->weights[1] = 1.0f;
    }
}

static void test_morph_rules(void)
{
    Model model;
    base_model(&model);
    add_morphs(&model);
    Verdict v = validate(&model);
    CHECK(v.ok && v.repairs == 0, "clean morph model: %s %s", v.error, v.warnings);
    model_free(&model);

    base_model(&model);
    add_morphs(&model);
    model.meshes[0].morph_position_deltas[1][0] = NAN;
    model.meshes[0].morph_default_weights[1] = INFINITY;
    model.clips[0].morph_tracks[1].target = 5;   /* the mesh has 2 targets */
    model.clips[0].morph_tracks[0].times[0] = -0.5f;
    model.clips[0].morph_tracks[0].weights[1] = NAN;
    v = validate(&model);
    expect_repair("morph data", &v, "morph target deltas set to 0");
    CHECK(strstr(v.warnings, "default morph weights") && strstr(v.warnings, "name a mesh or target"),
          "morph repairs not all reported: %s", v.warnings);
    CHECK(model.meshes[0].morph_position_deltas[1][0] == 0.0f && model.meshes[0].morph_default_weights[1] == 0.0f,
          "morph values not zeroed");
    CHECK(model.clips[0].morph_track_count == 1 && model.clips[0].morph_tracks[0].key_count == 1 &&
              model.clips[0].morph_tracks[0].times[0] == 0.0f,
          "morph tracks: %d, first has %d keys at %g", model.clips[0].morph_track_count,
          model.clips[0].morph_tracks[0].key_count, model.clips[0].morph_tracks[0].times[0]);
    CHECK(model.clips[0].tracks[0].rotation_times[0] == 0.5f, "joint keys not shifted with the morph keys");
    model_free(&model);

    /* a finite but absurd normal delta (the fuzzer: 3e38 times a weight overflowed to Inf, then NaN
     * once normalised): zeroed; a plausible one (two unit normals differ by at most 2) is kept */
    base_model(&model);
    add_morphs(&model);
    if (model.meshes[0].morph_normal_deltas) {
        glm_vec3_copy((vec3){0.0f, 3e38f, 0.0f}, model.meshes[0].morph_normal_deltas[0]);
        glm_vec3_copy((vec3){0.0f, -1.5f, 0.0f}, model.meshes[0].morph_normal_deltas[1]);
        v = validate(&model);
        expect_repair("absurd normal delta", &v, "morph target deltas set to 0");
        CHECK(model.meshes[0].morph_normal_deltas[0][1] == 0.0f && model.meshes[0].morph_normal_deltas[1][1] == -1.5f,
              "normal deltas: the absurd one zeroed (%g), the plausible one kept (%g)",
              (double)model.meshes[0].morph_normal_deltas[0][1], (double)model.meshes[0].morph_normal_deltas[1][1]);
    } else {
        CHECK(false, "add_morphs gives no normal deltas to test");
    }
    model_free(&model);

    /* a dropped mesh before the morphing one: its tracks follow it to its new index */
    base_model(&model);
    add_morphs(&model);
    Mesh *grown = realloc(model.meshes, 2 * sizeof(Mesh));
    if (!grown) exit(1);
    model.meshes = grown;
    model.meshes[1] = model.meshes[0];
    memset(&model.meshes[0], 0, sizeof(Mesh));
    snprintf(model.meshes[0].name, SV_NAME_MAX, "hollow");
    model.mesh_count = 2;
    model.clips[0].morph_tracks[0].mesh = 1;
    model.clips[0].morph_tracks[1].mesh = 0;   /* the hollow mesh: dropped with it */
    v = validate(&model);
    expect_repair("morph tracks after a dropped mesh", &v, "'hollow'");
    CHECK(model.mesh_count == 1 && model.clips[0].morph_track_count == 1 && model.clips[0].morph_tracks[0].mesh == 0,
          "morph track not remapped: %d meshes, %d tracks, mesh %d", model.mesh_count,
          model.clips[0].morph_track_count, model.clips[0].morph_tracks[0].mesh);
    model_free(&model);
}

/* Finite but absurd magnitudes: their products would overflow on the way to the vertices. */
static void test_magnitude_rules(void)
{
    Model model;
    base_model(&model);
    model.meshes[0].positions[1][0] = 3e30f;
    Verdict v = validate(&model);
    expect_reject("absurd vertex position", &v, "absurd vertex position");
    model_free(&model);

    base_model(&model);
    model.meshes[0].inverse_bind[0][3][2] = 1e20f;
    v = validate(&model);
    expect_reject("absurd inverse bind entry", &v, "absurd inverse bind");
    model_free(&model);

    base_model(&model);
    glm_mat4_scale(model.meshes[0].inverse_bind[0], 1e-9f);
    model.meshes[0].inverse_bind[0][3][3] = 1.0f;
    v = validate(&model);
    expect_reject("inverse bind squashing by 1e-9", &v, "absurd scale");
    model_free(&model);

    /* node scales that multiply past the bound: 3 joints of 1e4 each = 1e12 > 1e8 */
    base_model(&model);
    for (int j = 0; j < 3; j++) {
        glm_mat4_scale(model.skeleton.rest_local[j], 1e4f);
        model.skeleton.rest_local[j][3][3] = 1.0f;
    }
    v = validate(&model);
    expect_reject("rest scales multiplying to 1e12", &v, "absurd sizes");
    model_free(&model);

    /* keys (what the fuzzer found: translations of 1e35, scales of 1e31): the clip goes, the
     * model stays */
    base_model(&model);
    model.clips[0].tracks[0].translation_values[1][2] = 8.9e35f;
    v = validate(&model);
    expect_repair("absurd translation key", &v, "clip dropped");
    CHECK(model.clip_count == 0, "clip with a 1e35 key kept");
    model_free(&model);

    base_model(&model);
    JointTrack *track = &model.clips[0].tracks[0];
    track->scale_count = 2;
    track->scale_times = xcalloc(2, sizeof(float));
    track->scale_values = xcalloc(2, sizeof(vec3));
    track->scale_times[1] = 1.0f;
    glm_vec3_one(track->scale_values[0]);
    glm_vec3_fill(track->scale_values[1], 1e9f);
    v = validate(&model);
    expect_repair("absurd scale key", &v, "clip dropped");
    model_free(&model);

    base_model(&model);
    add_morphs(&model);
    model.clips[0].morph_tracks[0].weights[1] = 1e30f;
    model.meshes[0].morph_position_deltas[3][0] = 1e20f;
    v = validate(&model);
    expect_repair("absurd morph weight and delta", &v, "clamped");
    CHECK(model.clips[0].morph_tracks[0].weights[1] == VALIDATE_MAX_MORPH_WEIGHT &&
              model.meshes[0].morph_position_deltas[3][0] == 0.0f,
          "morph weight %g, delta %g", model.clips[0].morph_tracks[0].weights[1], model.meshes[0].morph_position_deltas[3][0]);
    model_free(&model);
}

int main(void)
{
    test_clean_model();
    test_vertex_data();
    test_empty_meshes();
    test_skin_rules();
    test_hierarchy_rules();
    test_size_rules();
    test_clip_rules();
    test_textures();
    test_morph_rules();
    test_magnitude_rules();
    return test_finish();
}
