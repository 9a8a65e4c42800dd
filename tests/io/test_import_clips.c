/* test_import_clips — clip conversion on small files written by the test:
 *   - a glTF with repeated key times (the later key wins), a one-key clip (a pose whose
 *     duration reaches its key), an unnamed clip (stays ""), and three clips named "Walk"
 *     (-> "Walk", "Walk (2)", "Walk (3)"; stats.clips_renamed = 2), an unnormalised quaternion;
 *   - X/anim_test.x with its AnimTicksPerSecond removed: Assimp reports 0 ticks/s and the
 *     importer assumes 25 (Assimp viewer's default), so the clip keeps its tick count;
 *   - the same glTF with a NaN translation key: rejected, model zeroed. */
#include "anim/anim.h"
#include "io/import.h"
#include "testio.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char temp_dir[256];

/* Writes the test glTF; poison = a NaN translation key. */
static bool write_gltf(const char *path, bool poison)
{
    float buffer[30];
    float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};                 /* offset 0, 36 bytes */
    float times_a[4] = {0.0f, 0.5f, 0.5f, 1.0f};                       /* offset 36, 16 bytes */
    float moves_a[12] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0};          /* offset 52, 48 bytes */
    float times_b[1] = {0.25f};                                        /* offset 100, 4 bytes */
    float rotation_b[4] = {0, 0, 0, 2};                                /* offset 104, 16 bytes: not unit */
    memcpy(buffer, positions, 36);
    memcpy(buffer + 9, times_a, 16);
    memcpy(buffer + 13, moves_a, 48);
    memcpy(buffer + 25, times_b, 4);
    memcpy(buffer + 26, rotation_b, 16);
    if (poison) buffer[13 + 4] = NAN;
    char encoded[256];
    test_base64((const unsigned char *)buffer, 120, encoded);

    char json[4096];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
             "\"nodes\":[{\"name\":\"mover\",\"mesh\":0}],"
             "\"meshes\":[{\"name\":\"tri\",\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],"
             "\"buffers\":[{\"byteLength\":120,\"uri\":\"data:application/octet-stream;base64,%s\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36},"
             "{\"buffer\":0,\"byteOffset\":36,\"byteLength\":16},{\"buffer\":0,\"byteOffset\":52,\"byteLength\":48},"
             "{\"buffer\":0,\"byteOffset\":100,\"byteLength\":4},{\"buffer\":0,\"byteOffset\":104,\"byteLength\":16}],"
             "\"accessors\":["
             "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]},"
             "{\"bufferView\":1,\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
             "{\"bufferView\":2,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":3,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\",\"min\":[0.25],\"max\":[0.25]},"
             "{\"bufferView\":4,\"componentType\":5126,\"count\":1,\"type\":\"VEC4\"}],"
             "\"animations\":["
             "{\"name\":\"Walk\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}],"
             "\"samplers\":[{\"input\":1,\"output\":2}]},"
             "{\"name\":\"Walk\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}],"
             "\"samplers\":[{\"input\":3,\"output\":4}]},"
             "{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}],"
             "\"samplers\":[{\"input\":3,\"output\":4}]},"
             "{\"name\":\"Walk\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}],"
             "\"samplers\":[{\"input\":1,\"output\":2}]}]}",
             encoded);
    return test_write_text(path, json);
}

static void check_gltf(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/clips.gltf", temp_dir);
    CHECK(write_gltf(path, false), "write %s", path);

    Model model;
    if (!test_import(path, NULL, &model)) return;
    CHECK(model.clip_count == 4, "clip count %d", model.clip_count);
    if (model.clip_count == 4) {
        CHECK(strcmp(model.clips[0].name, "Walk") == 0, "clip 0 '%s'", model.clips[0].name);
        CHECK(strcmp(model.clips[1].name, "Walk (2)") == 0, "clip 1 '%s'", model.clips[1].name);
        CHECK(strcmp(model.clips[2].name, "") == 0, "clip 2 '%s' (unnamed stays empty)", model.clips[2].name);
        CHECK(strcmp(model.clips[3].name, "Walk (3)") == 0, "clip 3 '%s'", model.clips[3].name);
        CHECK(model.stats.clips_renamed == 2, "clips_renamed %d", model.stats.clips_renamed);
        CHECK(model_find_clip(&model, "Walk (2)") == 1, "find 'Walk (2)'");

        const Clip *walk = &model.clips[0];
        CHECK(walk->track_count == 1 && fabsf(walk->duration - 1.0f) < 1e-5f, "Walk: %d tracks, %g s",
              walk->track_count, (double)walk->duration);
        if (walk->track_count == 1) {
            const JointTrack *t = &walk->tracks[0];
            CHECK(t->translation_count == 3, "repeated key time not dropped: %d keys", t->translation_count);
            if (t->translation_count == 3) {
                CHECK(t->translation_times[0] == 0.0f && fabsf(t->translation_times[1] - 0.5f) < 1e-6f &&
                          fabsf(t->translation_times[2] - 1.0f) < 1e-6f,
                      "key times %g %g %g", (double)t->translation_times[0], (double)t->translation_times[1],
                      (double)t->translation_times[2]);
                CHECK(t->translation_values[1][0] == 2.0f, "repeated time kept %g, expected the later key (2)",
                      (double)t->translation_values[1][0]);
            }
            CHECK(strcmp(model.skeleton.names[t->joint], "mover") == 0, "track joint '%s'", model.skeleton.names[t->joint]);
        }

        const Clip *pose = &model.clips[1];   /* one key (at 0.25 s): a pose, the clip [0.25 s, 0.25 s] */
        CHECK(pose->track_count == 1 && pose->duration == 0.0f && fabsf(pose->start - 0.25f) < 1e-5f,
              "one-key clip: %d tracks, starts at %g s, lasts %g s", pose->track_count, (double)pose->start,
              (double)pose->duration);
        if (pose->track_count == 1) {
            const JointTrack *t = &pose->tracks[0];
            /* Assimp's glTF importer gives the missing channels one key each (the node's rest value) */
            CHECK(t->rotation_count == 1 && t->translation_count <= 1 && t->scale_count <= 1,   /* fill-ins dropped */
                  "one-key clip channels: %d/%d/%d keys", t->translation_count, t->rotation_count, t->scale_count);
            if (t->rotation_count == 1)
                CHECK(fabsf(glm_vec4_norm(t->rotation_values[0]) - 1.0f) < 1e-6f && fabsf(t->rotation_values[0][3] - 1.0f) < 1e-6f,
                      "rotation key not normalised (w = %g)", (double)t->rotation_values[0][3]);
            /* the core samples it at any time */
            mat4 *local = malloc(sizeof(mat4) * (size_t)model.skeleton.joint_count);
            TrackCursor cursor = {0};
            pose_set_rest(&model.skeleton, local);
            clip_sample(pose, &model.skeleton, 0.0f, &cursor, local);
            CHECK(isfinite(local[t->joint][0][0]), "one-key clip sampled to NaN");
            free(local);
        }
    }
    CHECK(model.mesh_count == 1 && !model.meshes[0].skinned && model.meshes[0].vertex_count == 3, "the triangle");
    model_free(&model);
}

static void check_nan_key(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/nan_key.gltf", temp_dir);
    CHECK(write_gltf(path, true), "write %s", path);
    Model model;
    char error[512] = "";
    ImportOptions options = {0};
    bool ok = import_model(path, &options, &model, error, sizeof error);
    CHECK(!ok && strstr(error, "non-finite") != NULL, "a NaN key was accepted (error '%s')", error);
    Model zero;
    memset(&zero, 0, sizeof zero);
    CHECK(memcmp(&model, &zero, sizeof zero) == 0, "model not zeroed after a NaN key");
    if (ok) model_free(&model);
    else printf("NaN key: %s\n", error);
}

static void check_zero_ticks_per_second(void)
{
    const char *source = SKINVIEW_TESTMODELS_DIR "/X/anim_test.x";
    FILE *in = fopen(source, "r");
    CHECK(in != NULL, "open %s", source);
    if (!in) return;
    char path[512];
    snprintf(path, sizeof path, "%s/anim_test_no_tps.x", temp_dir);
    FILE *out = fopen(path, "w");
    char line[4096];
    int skip = 0, removed = 0;
    while (fgets(line, sizeof line, in)) {
        if (strncmp(line, "AnimTicksPerSecond", 18) == 0) skip = 3, removed = 1;   /* the block is 3 lines */
        if (skip > 0) {
            skip--;
            continue;
        }
        fputs(line, out);
    }
    fclose(in);
    fclose(out);
    CHECK(removed, "anim_test.x has no AnimTicksPerSecond block");

    Model with, without;
    char error[512];
    ImportOptions options = {0};
    bool ok1 = import_model(source, &options, &with, error, sizeof error);
    CHECK(ok1, "%s: %s", source, error);
    bool ok2 = import_model(path, &options, &without, error, sizeof error);
    CHECK(ok2, "%s: %s", path, error);
    if (ok1 && ok2 && with.clip_count == 1 && without.clip_count == 1) {
        float tps = with.clips[0].source_ticks_per_second;
        CHECK(tps == 24.0f, "anim_test.x: %g ticks/s, expected 24", (double)tps);
        CHECK(without.clips[0].source_ticks_per_second == 0.0f, "no AnimTicksPerSecond: Assimp gave %g ticks/s",
              (double)without.clips[0].source_ticks_per_second);
        double ticks_with = with.clips[0].duration * 24.0, ticks_without = without.clips[0].duration * 25.0;
        CHECK(fabs(ticks_with - ticks_without) < 1e-3 * (1.0 + ticks_with),
              "0 ticks/s must mean 25: %g ticks vs %g ticks", ticks_with, ticks_without);
        printf("anim_test.x: %.4f s at 24 ticks/s; without AnimTicksPerSecond %.4f s (25 ticks/s)\n",
               (double)with.clips[0].duration, (double)without.clips[0].duration);
    } else {
        CHECK(false, "anim_test.x clips: %d / %d", ok1 ? with.clip_count : -1, ok2 ? without.clip_count : -1);
    }
    if (ok1) model_free(&with);
    if (ok2) model_free(&without);
}

int main(void)
{
    if (!test_make_folder(temp_dir, sizeof temp_dir, "skinview-clips")) return 1;
    check_gltf();
    check_nan_key();
    check_zero_ticks_per_second();
    test_remove_folder(temp_dir);
    return test_finish();
}
