/* test_validate_clips.c — the validator's rules on clips (non-finite, repeated and unsorted keys,
 * interpolations), textures, morph targets and magnitudes. Part of the program
 * test_validate (validate_fixture.h). */
#include "validate_fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void test_clip_rules(void)
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
    track->translation_tangents = test_calloc(6, sizeof(vec3));
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

void test_textures(void)
{
    Model model;
    base_model(&model);
    model.texture_count = 3;
    model.textures = test_calloc(3, sizeof(Texture));
    int sizes[3][2] = {{2, 2}, {20000, 4}, {0, 0}};   /* fine, huge, not an image (nothing decoded) */
    for (int t = 0; t < 3; t++) {
        snprintf(model.textures[t].source, SV_NAME_MAX, "t%d.png", t);
        model.textures[t].width = sizes[t][0];
        model.textures[t].height = sizes[t][1];
        model.textures[t].rgba = t == 2 ? NULL : test_calloc(4, 4);   /* the huge one's pixels are never read */
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
    mesh->morph_target_names = test_calloc(2, SV_NAME_MAX);
    mesh->morph_position_deltas = test_calloc(6, sizeof(vec3));
    mesh->morph_normal_deltas = test_calloc(6, sizeof(vec3));
    mesh->morph_default_weights = test_calloc(2, sizeof(float));
    mesh->morph_position_deltas[4][1] = 1.0f;
    Clip *clip = &model->clips[0];
    clip->morph_track_count = 2;
    clip->morph_tracks = test_calloc(2, sizeof(MorphTrack));
    for (int t = 0; t < 2; t++) {
        MorphTrack *track = &clip->morph_tracks[t];
        track->mesh = 0;
        track->target = t;
        track->key_count = 2;
        track->times = test_calloc(2, sizeof(float));
        track->weights = test_calloc(2, sizeof(float));
        track->times[1] = 1.0f;
        track->weights[1] = 1.0f;
    }
}

void test_morph_rules(void)
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

void test_magnitude_rules(void)
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
    track->scale_times = test_calloc(2, sizeof(float));
    track->scale_values = test_calloc(2, sizeof(vec3));
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
