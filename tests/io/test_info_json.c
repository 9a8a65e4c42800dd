/* test_info_json — `skinview MODEL --info --json` (the real binary, via popen) on every
 * test model: parsed with cJSON, then compared with the same file opened straight
 * through Assimp: clip count and durations (seconds, extended to the last key; 25
 * ticks/s when the file gives 0), joint count (= node count), and per mesh (one per
 * node reference, depth-first pre-order) vertex count and bone count (bones whose node
 * exists, + 1 when some vertex has no weight). Also the plain --info text runs. */
#include "assimp_reference.h"
#include "testutil.h"

#include <assimp/cimport.h>
#include <assimp/scene.h>
#include <cjson/cJSON.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static char *run_capture(const char *command, int *status)
{
    FILE *pipe = popen(command, "r");
    if (!pipe) return NULL;
    size_t size = 0, capacity = 1 << 16;
    char *text = malloc(capacity);
    size_t n;
    while (text && (n = fread(text + size, 1, capacity - size - 1, pipe)) > 0) {
        size += n;
        if (capacity - size < 4096) {
            char *grown = realloc(text, capacity * 2);
            if (!grown) break;
            text = grown;
            capacity *= 2;
        }
    }
    if (text) text[size] = '\0';
    *status = pclose(pipe);
    return text;
}

static bool node_exists(const struct aiNode *node, const char *name)
{
    if (strcmp(node->mName.data, name) == 0) return true;
    for (unsigned c = 0; c < node->mNumChildren; c++)
        if (node_exists(node->mChildren[c], name)) return true;
    return false;
}

static int count_nodes(const struct aiNode *node)
{
    int n = 1;
    for (unsigned c = 0; c < node->mNumChildren; c++) n += count_nodes(node->mChildren[c]);
    return n;
}

/* expected per-mesh (vertices, bones, morph targets), in pre-order of node references */
typedef struct { int vertices, bones; bool skinned; int morph_targets; } ExpectedMesh;

static void expect_meshes(const struct aiScene *scene, const struct aiNode *node, ExpectedMesh *out, int *count,
                          int capacity)
{
    for (unsigned k = 0; k < node->mNumMeshes; k++) {
        const struct aiMesh *mesh = scene->mMeshes[node->mMeshes[k]];
        if (!assimp_reference_has_triangles(mesh) || *count >= capacity) continue;
        ExpectedMesh *e = &out[(*count)++];
        e->vertices = (int)mesh->mNumVertices;
        e->bones = 0;
        e->morph_targets = mesh->mAnimMeshes ? (int)mesh->mNumAnimMeshes : 0;
        char *weighted = calloc(mesh->mNumVertices, 1);
        for (unsigned b = 0; b < mesh->mNumBones; b++) {
            const struct aiBone *bone = mesh->mBones[b];
            if (!node_exists(scene->mRootNode, bone->mName.data)) continue;
            e->bones++;
            for (unsigned w = 0; w < bone->mNumWeights; w++)
                if (bone->mWeights[w].mWeight > 0.0f) weighted[bone->mWeights[w].mVertexId] = 1;
        }
        e->skinned = e->bones > 0;
        if (e->skinned)
            for (unsigned v = 0; v < mesh->mNumVertices; v++)
                if (!weighted[v]) {
                    e->bones++;   /* the extra bone for unweighted vertices */
                    break;
                }
        free(weighted);
    }
    for (unsigned c = 0; c < node->mNumChildren; c++) expect_meshes(scene, node->mChildren[c], out, count, capacity);
}

/* The clip's span in seconds as Assimp's keys give it: [first key, max(last key, mDuration)]
 * (a clip keeps its authored start). */
static void expected_span(const struct aiScene *scene, const struct aiAnimation *anim, double *start, double *end)
{
    double tps = anim->mTicksPerSecond > 0.0 ? anim->mTicksPerSecond : 25.0;
    double first = HUGE_VAL, last = anim->mDuration;
    for (unsigned c = 0; c < anim->mNumChannels; c++) {
        const struct aiNodeAnim *ch = anim->mChannels[c];
        if (!node_exists(scene->mRootNode, ch->mNodeName.data)) continue;   /* ignored channels */
        const struct aiVectorKey *lists[2] = {ch->mPositionKeys, ch->mScalingKeys};
        unsigned counts[2] = {ch->mNumPositionKeys, ch->mNumScalingKeys};
        for (int l = 0; l < 2; l++)
            for (unsigned k = 0; k < counts[l]; k++) {
                if (lists[l][k].mTime > last) last = lists[l][k].mTime;
                if (lists[l][k].mTime < first) first = lists[l][k].mTime;
            }
        for (unsigned k = 0; k < ch->mNumRotationKeys; k++) {
            if (ch->mRotationKeys[k].mTime > last) last = ch->mRotationKeys[k].mTime;
            if (ch->mRotationKeys[k].mTime < first) first = ch->mRotationKeys[k].mTime;
        }
    }
    if (first == HUGE_VAL) first = 0.0;
    if (last < first) last = first;
    *start = first / tps;
    *end = last / tps;
}

static double number(const cJSON *object, const char *key)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    return cJSON_IsNumber(item) ? item->valuedouble : NAN;
}

static void check_model(const char *path)
{
    char command[2300];
    int status;
    snprintf(command, sizeof command, "'%s' --info --json '%.1024s' 2>/dev/null", SKINVIEW_BINARY, path);
    char *text = run_capture(command, &status);
    CHECK(text && WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: --info --json exit status %d", path, status);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    CHECK(root && cJSON_IsObject(root), "%s: --info --json output is not one JSON object", path);
    free(text);
    const struct aiScene *scene = assimp_reference_import(path, true, 0);
    CHECK(scene != NULL, "%s: Assimp reference import failed", path);
    if (!root || !scene) {
        cJSON_Delete(root);
        if (scene) aiReleaseImport(scene);
        return;
    }

    const cJSON *file = cJSON_GetObjectItemCaseSensitive(root, "file");
    CHECK(cJSON_IsString(file) && strcmp(file->valuestring, path) == 0, "%s: \"file\" wrong", path);
    /* FBX: skinview adds a joint for the unscaled frame of a parent whose RrSs / Rrs children a
     * non-uniform scale would shear (src/io/fbx/fbx_apply.c), counted in import.scale_helpers */
    const cJSON *import_stats = cJSON_GetObjectItemCaseSensitive(root, "import");
    double helpers = number(import_stats, "scale_helpers"), rebuilt = number(import_stats, "skins_rebuilt");
    CHECK(number(root, "joint_count") == count_nodes(scene->mRootNode) + helpers, "%s: joint_count %g, Assimp nodes %d + %g helpers",
          path, number(root, "joint_count"), count_nodes(scene->mRootNode), helpers);
    /* a morph-only model (AnimatedMorphCube, SimpleMorph) has no bone at all */
    bool file_has_bones = false;
    for (unsigned m = 0; m < scene->mNumMeshes; m++)
        if (scene->mMeshes[m]->mNumBones > 0) file_has_bones = true;
    if (file_has_bones)
        CHECK(number(root, "bone_count") >= 1 && number(root, "bone_count") <= number(root, "joint_count"),
              "%s: bone_count %g", path, number(root, "bone_count"));
    else   /* (FBX: unless skinview rebuilt a skin Assimp dropped, import.skins_rebuilt) */
        CHECK(number(root, "bone_count") == 0 || rebuilt > 0, "%s: bone_count %g, the file has no bones", path,
              number(root, "bone_count"));
    const cJSON *import = cJSON_GetObjectItemCaseSensitive(root, "import");
    CHECK(cJSON_IsObject(import) && cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(import, "vertices_influences_cut")),
          "%s: \"import\" stats missing", path);

    /* meshes */
    ExpectedMesh expected[512];
    int expected_count = 0;
    expect_meshes(scene, scene->mRootNode, expected, &expected_count, 512);
    const cJSON *meshes = cJSON_GetObjectItemCaseSensitive(root, "meshes");
    CHECK(cJSON_IsArray(meshes) && cJSON_GetArraySize(meshes) == expected_count, "%s: %d meshes, Assimp %d", path,
          cJSON_GetArraySize(meshes), expected_count);
    for (int m = 0; m < expected_count && m < cJSON_GetArraySize(meshes); m++) {
        const cJSON *mesh = cJSON_GetArrayItem(meshes, m);
        /* glTF: Assimp welds vertices and keeps bones that weight nothing; skinview's reader does
         * neither (testutil.h), so only the rest of the structure is compared */
        bool skin_rebuilt = rebuilt > 0 && expected[m].bones == 0;   /* FBX: a skin Assimp dropped */
        if (!test_is_gltf(path)) {
            CHECK(number(mesh, "vertices") == expected[m].vertices, "%s mesh %d: %g vertices, Assimp %d", path, m,
                  number(mesh, "vertices"), expected[m].vertices);
            CHECK(skin_rebuilt || number(mesh, "bones") == expected[m].bones, "%s mesh %d: %g bones, expected %d",
                  path, m, number(mesh, "bones"), expected[m].bones);
        }
        CHECK(cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(mesh, "skinned")) &&
                  (skin_rebuilt || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(mesh, "skinned")) == expected[m].skinned),
              "%s mesh %d: skinned flag", path, m);
        CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(mesh, "name")) && number(mesh, "triangles") > 0,
              "%s mesh %d: name/triangles", path, m);
        const cJSON *targets = cJSON_GetObjectItemCaseSensitive(mesh, "morph_targets");
        CHECK(cJSON_IsArray(targets) && cJSON_GetArraySize(targets) == expected[m].morph_targets,
              "%s mesh %d: %d morph targets, Assimp %d anim meshes", path, m, cJSON_GetArraySize(targets),
              expected[m].morph_targets);
    }

    /* clips. An FBX file's clips are its own AnimationStacks, read by skinview's FBX stage
     * (src/io/fbx/fbx_apply.c: from LocalStart in absolute file time, curves resampled), which
     * tests/io/test_fbx_dcc.c checks against the authoring tool; Assimp's differ by design (its
     * clip of a Maya take starts at 0, not at the take's first frame). They are compared here
     * only as skinview's own list: indices, names, interpolation kinds, keys. */
    const cJSON *clips = cJSON_GetObjectItemCaseSensitive(root, "clips");
    const char *extension = strrchr(path, '.');
    bool fbx = extension && (strcmp(extension, ".fbx") == 0 || strcmp(extension, ".FBX") == 0);
    if (fbx) {
        for (int a = 0; a < cJSON_GetArraySize(clips); a++) {
            const cJSON *clip = cJSON_GetArrayItem(clips, a);
            CHECK(number(clip, "index") == a && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(clip, "name")),
                  "%s clip %d: index / name", path, a);
            CHECK(number(clip, "duration") >= 0 && number(clip, "keys") >= number(clip, "tracks"), "%s clip %d: duration, keys",
                  path, a);
        }
    }
    CHECK(fbx || (cJSON_IsArray(clips) && cJSON_GetArraySize(clips) == (int)scene->mNumAnimations), "%s: %d clips, Assimp %u",
          path, cJSON_GetArraySize(clips), scene->mNumAnimations);
    for (unsigned a = 0; !fbx && a < scene->mNumAnimations && (int)a < cJSON_GetArraySize(clips); a++) {
        const cJSON *clip = cJSON_GetArrayItem(clips, (int)a);
        double start, end;
        expected_span(scene, scene->mAnimations[a], &start, &end);
        double want = end - start, got = number(clip, "duration");
        CHECK(fabs(got - want) <= 1e-4 * (1.0 + want), "%s clip %u: duration %g s, Assimp %g s", path, a, got, want);
        CHECK(fabs(number(clip, "start") - start) <= 1e-4 * (1.0 + fabs(start)), "%s clip %u: start %g s, Assimp %g s",
              path, a, number(clip, "start"), start);
        const cJSON *kinds = cJSON_GetObjectItemCaseSensitive(clip, "interpolation");
        CHECK(cJSON_IsArray(kinds) && cJSON_GetArraySize(kinds) >= (number(clip, "keys") > 0 ? 1 : 0),
              "%s clip %u: interpolation kinds listed", path, a);
        CHECK(number(clip, "index") == a, "%s clip %u: index %g", path, a, number(clip, "index"));
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(clip, "name");
        CHECK(cJSON_IsString(name), "%s clip %u: no name", path, a);
        if (cJSON_IsString(name) && scene->mAnimations[a]->mName.length < 100)
            CHECK(strncmp(name->valuestring, scene->mAnimations[a]->mName.data, scene->mAnimations[a]->mName.length) == 0,
                  "%s clip %u: name '%s', Assimp '%s'", path, a, name->valuestring, scene->mAnimations[a]->mName.data);
        CHECK(number(clip, "tracks") >= 0 && number(clip, "keys") >= number(clip, "tracks"), "%s clip %u: tracks/keys",
              path, a);
        /* morph channels: one per (mesh, target) keyed; Assimp's channels key every target here */
        const struct aiAnimation *anim = scene->mAnimations[a];
        int want_channels = 0;
        for (unsigned c = 0; c < anim->mNumMorphMeshChannels; c++) {
            const struct aiMeshMorphAnim *channel = anim->mMorphMeshChannels[c];
            if (channel->mNumKeys > 0) want_channels += (int)channel->mKeys[0].mNumValuesAndWeights;
        }
        const cJSON *channels = cJSON_GetObjectItemCaseSensitive(clip, "morph_channels");
        CHECK(cJSON_IsArray(channels) && cJSON_GetArraySize(channels) == want_channels,
              "%s clip %u: %d morph channels, Assimp keys %d targets", path, a, cJSON_GetArraySize(channels),
              want_channels);
    }
    printf("%-70s meshes %d, clips %u\n", path, expected_count, scene->mNumAnimations);
    cJSON_Delete(root);
    aiReleaseImport(scene);

    /* plain text: exit 0, lists the clips and joints */
    snprintf(command, sizeof command, "'%s' --info '%.1024s' 2>/dev/null", SKINVIEW_BINARY, path);
    text = run_capture(command, &status);
    CHECK(text && WIFEXITED(status) && WEXITSTATUS(status) == 0 && strstr(text, "joints: ") && strstr(text, "clips: "),
          "%s: --info text (status %d)", path, status);
    free(text);
}

/* Issue 29: a Blender FBX (Quaternius' Male_Casual: 45 joints, 44 with "rotation-inactive") prints
 * its node features one line per feature, not one per joint, so the clip list stays on a screen:
 * under 40 lines; --verbose lists every joint's at the end (after the clips); --json names them all. */
static void check_feature_summary(void)
{
    char path[1024], command[2048];
    snprintf(path, sizeof path, "%s/quaternius-male-casual/Male_Casual.fbx", SKINVIEW_SHARED_MODELS_DIR);
    if (!test_file_exists(path)) {
        printf("skipped the FBX feature summary: %s is absent\n", path);
        return;
    }
    static char out[262144];
    snprintf(command, sizeof command, "'%s' '%s' --info 2>&1", SKINVIEW_BINARY, path);
    CHECK(test_run_capture(command, out, sizeof out) == 0, "--info %s", path);
    int lines = 0, per_joint = 0;
    for (const char *p = out; *p; p++) lines += *p == '\n';
    for (const char *p = out; (p = strstr(p, ": rotation-inactive")); p++) per_joint++;
    const char *summary = strstr(out, "rotation-inactive: 44 joints (");
    const char *clips = strstr(out, "clips: 11");
    printf("--info %s: %d lines, %d per-joint feature lines\n", path, lines, per_joint);
    CHECK(lines < 40, "--info on a 45-joint Blender FBX: %d lines (< 40 wanted)", lines);
    CHECK(summary && clips && summary < clips && per_joint == 0,
          "one line per feature with its count before the clips (%d per-joint lines)", per_joint);
    snprintf(command, sizeof command, "'%s' '%s' --info --verbose 2>&1", SKINVIEW_BINARY, path);
    CHECK(test_run_capture(command, out, sizeof out) == 0, "--info --verbose %s", path);
    per_joint = 0;
    for (const char *p = out; (p = strstr(p, ": rotation-inactive")); p++) per_joint++;
    const char *listing = strstr(out, "FBX node features per joint:");
    clips = strstr(out, "clips: 11");
    CHECK(per_joint == 44 && listing && clips && listing > clips, "--verbose: every joint's line after the clips (%d)",
          per_joint);
    snprintf(command, sizeof command, "'%s' '%s' --info --json 2>&1", SKINVIEW_BINARY, path);
    CHECK(test_run_capture(command, out, sizeof out) == 0, "--info --json %s", path);
    int named = 0;
    for (const char *p = out; (p = strstr(p, "\"rotation-inactive\"")); p++) named++;
    CHECK(named == 44, "--json names every joint's features (%d)", named);
}

int main(void)
{
    if (!test_file_exists(SKINVIEW_BINARY)) {
        printf("skinview binary not built: %s\n", SKINVIEW_BINARY);
        return TEST_SKIP_CODE;
    }
    check_feature_summary();
    TestModel models[64];
    int count = test_present_skinned_models(models, 64);
    for (int i = 0; i < count; i++)
        if (!test_fbx_is_legacy(models[i].path)) check_model(models[i].path);   /* legacy FBX: no Assimp reference */
    return test_finish();
}
