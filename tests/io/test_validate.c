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
#include "validate_fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
        model.meshes[1].positions = test_calloc(3, sizeof(vec3));
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
