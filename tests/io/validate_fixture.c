/* validate_fixture.c — the base model and the validator runs of test_validate (validate_fixture.h). */
#include "validate_fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void base_model(Model *model)
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
    model->materials = test_calloc(1, sizeof(Material));
    glm_vec4_one(model->materials[0].diffuse_color);
    model->materials[0].diffuse_texture = -1;

    model->mesh_count = 1;
    model->meshes = test_calloc(1, sizeof(Mesh));
    Mesh *mesh = &model->meshes[0];
    snprintf(mesh->name, sizeof mesh->name, "leg");
    mesh->vertex_count = 3;
    mesh->index_count = 3;
    mesh->positions = test_calloc(3, sizeof(vec3));
    mesh->normals = test_calloc(3, sizeof(vec3));
    mesh->uvs = test_calloc(3, sizeof(vec2));
    mesh->indices = test_calloc(3, sizeof(uint32_t));
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
    mesh->bone_joint = test_calloc(2, sizeof(int));
    mesh->inverse_bind = test_calloc(2, sizeof(mat4));
    mesh->bone_joint[0] = 1;
    mesh->bone_joint[1] = 2;
    glm_mat4_identity(mesh->inverse_bind[0]);
    glm_mat4_identity(mesh->inverse_bind[1]);
    mesh->inverse_bind[0][3][1] = -1.0f;
    mesh->inverse_bind[1][3][1] = -2.0f;
    mesh->joint_indices = test_calloc(3, sizeof *mesh->joint_indices);
    mesh->weights = test_calloc(3, sizeof *mesh->weights);
    for (int v = 0; v < 3; v++) {
        mesh->joint_indices[v][0] = 0;
        mesh->joint_indices[v][1] = 1;
        mesh->weights[v][0] = 0.75f;
        mesh->weights[v][1] = 0.25f;
    }
    sk->is_bone[1] = sk->is_bone[2] = true;

    Clip *clip = test_clip_init(test_add_clips(model, 1), "bend", 2.0f, 1);
    JointTrack *track = &clip->tracks[0];
    track->joint = 2;
    track->rotation_count = 3;
    track->rotation_times = test_calloc(3, sizeof(float));
    track->rotation_values = test_calloc(3, sizeof(versor));
    track->translation_count = 3;
    track->translation_times = test_calloc(3, sizeof(float));
    track->translation_values = test_calloc(3, sizeof(vec3));
    for (int k = 0; k < 3; k++) {
        track->rotation_times[k] = track->translation_times[k] = (float)k;
        glm_quatv(track->rotation_values[k], 0.5f * (float)k, (vec3){1.0f, 0.0f, 0.0f});
        track->translation_values[k][1] = 1.0f + (float)k;
    }
}

Verdict validate(Model *model)
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

void expect_repair(const char *what, const Verdict *v, const char *word)
{
    CHECK(v->ok, "%s: rejected (%s)", what, v->error);
    CHECK(v->repairs >= 1 && v->warning_lines == v->repairs && v->lines_well_formed,
          "%s: %d repairs, %d warning lines:\n%s", what, v->repairs, v->warning_lines, v->warnings);
    CHECK(strstr(v->warnings, word) != NULL, "%s: warning does not say '%s':\n%s", what, word, v->warnings);
}

void expect_reject(const char *what, const Verdict *v, const char *word)
{
    CHECK(!v->ok, "%s: accepted", what);
    CHECK(v->lines_well_formed && v->error[0], "%s: error not one line: '%s'", what, v->error);
    CHECK(strstr(v->error, word) != NULL, "%s: error '%s' does not say '%s'", what, v->error, word);
}
