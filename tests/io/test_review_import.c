/* test_review_import — importer bugs found in review, each with the file shape that
 * showed it (generated here from assimp-testmodels files, written to a temp folder):
 *
 *  utf8      names are stored as valid UTF-8 (Latin-1 bytes -> U+FFFD, long names cut
 *            between characters), so `--info --json` is valid JSON for any file.
 *  dup_bones two characters with the same rig in one glTF: each mesh's bones bind to
 *            its own character's joints, not to the first node of that name.
 *  dup_chan  a channel whose name several nodes share drives the node it was made for
 *            (Assimp fills a glTF channel's missing components with that node's rest).
 *  uri       glTF buffer and image URIs are percent-encoded ("My%20Character.bin", as
 *            Blender writes them for names with spaces): Assimp 5.2 failed the whole
 *            import on the buffer, and the texture was reported missing.
 *  md5       a .md5mesh with out-of-range indices, or cut inside a mesh block, is
 *            rejected before Assimp 5.2's MD5 loader corrupts its heap (abort / SIGSEGV
 *            in-process).
 */
#include "anim/animator.h"
#include "io/import.h"
#include "testio.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char temp_dir[256];

/* RFC 3629 well-formedness (independent of the code under test). */
static bool valid_utf8(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t len = c < 0x80 ? 1 : (c >= 0xc2 && c <= 0xdf) ? 2 : (c >= 0xe0 && c <= 0xef) ? 3
                                                              : (c >= 0xf0 && c <= 0xf4) ? 4 : 0;
        if (!len || i + len > n) return false;
        unsigned cp = len == 1 ? c : len == 2 ? (c & 0x1f) : len == 3 ? (c & 0x0f) : (c & 0x07);
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80) return false;
            cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        i += len;
    }
    return true;
}

static void test_utf8_copy(void)
{
    char out[16];
    utf8_copy_valid(out, sizeof out, "ab\xe9z", 4);   /* Latin-1 e-acute */
    CHECK(strcmp(out, "ab\xef\xbf\xbdz") == 0, "Latin-1 byte not replaced: '%s'", out);
    utf8_copy_valid(out, sizeof out, "\xc0\xaf\xed\xa0\x80", 5);   /* overlong '/', surrogate */
    CHECK(valid_utf8((unsigned char *)out, strlen(out)), "overlong/surrogate kept");
    /* 6 x U+6F22 (3 bytes) = 18 bytes into 16: cut to 5 whole characters */
    const char *kanji = "\xe6\xbc\xa2\xe6\xbc\xa2\xe6\xbc\xa2\xe6\xbc\xa2\xe6\xbc\xa2\xe6\xbc\xa2";
    size_t n = utf8_copy_valid(out, sizeof out, kanji, strlen(kanji));
    CHECK(n == 15 && strncmp(out, kanji, 15) == 0, "cut mid-character: %zu bytes", n);
    utf8_copy_valid(out, sizeof out, "\xf0\x9f\x98\x80 ok", 7);   /* 4-byte emoji is valid */
    CHECK(strcmp(out, "\xf0\x9f\x98\x80 ok") == 0, "valid 4-byte sequence altered");
    utf8_copy_valid(out, sizeof out, "a\0b", 3);
    CHECK(strcmp(out, "a") == 0, "embedded NUL not a terminator");
}

/* simple_skin.gltf (one 2-joint character, unnamed nodes) -> cJSON document */
static cJSON *load_simple_skin(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/glTF2/simple_skin/simple_skin.gltf", SKINVIEW_TESTMODELS_DIR);
    char *text = test_read_file(path, NULL);
    CHECK(text != NULL, "cannot read %s", path);
    if (!text) return NULL;
    cJSON *doc = cJSON_Parse(text);
    free(text);
    CHECK(doc != NULL, "cannot parse %s", path);
    return doc;
}

static void set_name(cJSON *object, const char *name)
{
    cJSON_DeleteItemFromObjectCaseSensitive(object, "name");
    cJSON_AddStringToObject(object, "name", name);
}

/* text written as TEMP/name (its path into path), then imported; a failure is a failed CHECK. */
static bool write_and_import(const char *name, const char *text, char path[512], Model *model)
{
    snprintf(path, 512, "%s/%s", temp_dir, name);
    CHECK(test_write_text(path, text), "cannot write %s", path);
    return test_import(path, NULL, model);
}

static bool save(cJSON *doc, const char *path)
{
    char *text = cJSON_PrintUnformatted(doc);
    bool ok = text && test_write_text(path, text);
    cJSON_free(text);
    return ok;
}

/* Two copies of simple_skin's character: nodes 0 Body(mesh 0, skin 0) > 1 Bone > 2 Tip and
 * 3 Body(mesh 1, skin 1) > 4 Bone (at x = 3) > 5 Tip, same names. The clip rotates node 2
 * (first character's Tip) and node 4 (second character's Bone). */
static bool write_two_characters(const char *path)
{
    cJSON *doc = load_simple_skin();
    if (!doc) return false;
    cJSON *nodes = cJSON_GetObjectItemCaseSensitive(doc, "nodes");
    const char *names[3] = {"Body", "Bone", "Tip"};
    for (int i = 0; i < 3; i++) set_name(cJSON_GetArrayItem(nodes, i), names[i]);
    for (int i = 0; i < 3; i++) cJSON_AddItemToArray(nodes, cJSON_Duplicate(cJSON_GetArrayItem(nodes, i), true));
    cJSON *body2 = cJSON_GetArrayItem(nodes, 3), *bone2 = cJSON_GetArrayItem(nodes, 4);
    cJSON_ReplaceItemInObjectCaseSensitive(body2, "children", cJSON_CreateIntArray((const int[]){4}, 1));
    cJSON_ReplaceItemInObjectCaseSensitive(body2, "skin", cJSON_CreateNumber(1));
    /* its own copy of the mesh: Assimp 5.2 leaks the bones of a glTF mesh that two skinned
     * nodes share (the second skin's bones replace the first's on the one aiMesh) */
    cJSON *meshes = cJSON_GetObjectItemCaseSensitive(doc, "meshes");
    cJSON_AddItemToArray(meshes, cJSON_Duplicate(cJSON_GetArrayItem(meshes, 0), true));
    cJSON_ReplaceItemInObjectCaseSensitive(body2, "mesh", cJSON_CreateNumber(1));
    cJSON_ReplaceItemInObjectCaseSensitive(bone2, "children", cJSON_CreateIntArray((const int[]){5}, 1));
    cJSON_ReplaceItemInObjectCaseSensitive(bone2, "translation", cJSON_CreateFloatArray((const float[]){3, 1, 0}, 3));
    cJSON *skins = cJSON_GetObjectItemCaseSensitive(doc, "skins");
    cJSON *skin2 = cJSON_Duplicate(cJSON_GetArrayItem(skins, 0), true);
    cJSON_ReplaceItemInObjectCaseSensitive(skin2, "joints", cJSON_CreateIntArray((const int[]){4, 5}, 2));
    cJSON_AddItemToArray(skins, skin2);
    cJSON *scene = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "scenes"), 0);
    cJSON_ReplaceItemInObjectCaseSensitive(scene, "nodes", cJSON_CreateIntArray((const int[]){0, 3}, 2));
    cJSON *anim = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "animations"), 0);
    cJSON *channels = cJSON_GetObjectItemCaseSensitive(anim, "channels");
    cJSON *channel2 = cJSON_Duplicate(cJSON_GetArrayItem(channels, 0), true);
    cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(channel2, "target"), "node",
                                           cJSON_CreateNumber(4));
    cJSON_AddItemToArray(channels, channel2);
    bool ok = save(doc, path);
    cJSON_Delete(doc);
    return ok;
}

/* The top-level subtree (child of the root) that joint j belongs to. */
static int character_of(const Skeleton *sk, int j)
{
    while (j >= 0 && sk->parent[j] >= 0 && sk->parent[sk->parent[j]] >= 0) j = sk->parent[j];
    return j;
}

static void test_duplicate_names(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/two_characters.gltf", temp_dir);
    CHECK(write_two_characters(path), "cannot write %s", path);
    Model model;
    if (!test_import(path, NULL, &model)) return;
    const Skeleton *sk = &model.skeleton;
    CHECK(model.mesh_count == 2, "%d meshes, expected 2", model.mesh_count);
    for (int m = 0; m < model.mesh_count; m++) {
        const Mesh *mesh = &model.meshes[m];
        int own = character_of(sk, mesh->node_joint);
        for (int b = 0; b < mesh->bone_count; b++)
            CHECK(character_of(sk, mesh->bone_joint[b]) == own,
                  "dup_bones: mesh %d bone %d ('%s') binds to joint %d of another character", m, b,
                  sk->names[mesh->bone_joint[b]], mesh->bone_joint[b]);
    }
    /* at rest, the second character's skin sits 3 units along x from the first one's */
    if (model.mesh_count == 2) {
        Animator animator;
        CHECK(animator_init(&animator, &model), "animator_init");
        vec3 *p0 = calloc((size_t)model.meshes[0].vertex_count, sizeof(vec3));
        vec3 *p1 = calloc((size_t)model.meshes[1].vertex_count, sizeof(vec3));
        animator_evaluate(&animator, ANIMATOR_REST_POSE, 0.0f);
        animator_skin_mesh(&animator, 0, p0, NULL);
        animator_skin_mesh(&animator, 1, p1, NULL);
        float worst = 0.0f;
        for (int v = 0; v < model.meshes[0].vertex_count; v++) {
            vec3 expected = {p0[v][0] + 3.0f, p0[v][1], p0[v][2]};
            float d = glm_vec3_distance(expected, p1[v]);
            if (d > worst) worst = d;
        }
        CHECK(worst < 1e-5f, "dup_bones: second character off by %g at rest", (double)worst);
        free(p0);
        free(p1);
        animator_free(&animator);
    }
    /* the clip drives the first Tip and the second Bone: one track on each character */
    CHECK(model.clip_count == 1 && model.clips[0].track_count == 2, "expected 1 clip with 2 tracks");
    if (model.clip_count == 1 && model.clips[0].track_count == 2) {
        const Clip *clip = &model.clips[0];
        int seen_tip = 0, seen_bone = 0;
        for (int t = 0; t < clip->track_count; t++) {
            int j = clip->tracks[t].joint;
            if (strcmp(sk->names[j], "Tip") == 0) {
                seen_tip++;
                CHECK(sk->rest_trs[sk->parent[j]].translation[0] == 0.0f, "dup_chan: Tip track on the second character");
            } else if (strcmp(sk->names[j], "Bone") == 0) {
                seen_bone++;
                CHECK(sk->rest_trs[j].translation[0] == 3.0f,
                      "dup_chan: the second character's Bone channel drives the first character's Bone");
            }
        }
        CHECK(seen_tip == 1 && seen_bone == 1, "dup_chan: tracks on Tip %d, Bone %d", seen_tip, seen_bone);
    }
    model_free(&model);
}

/* Names with Latin-1 bytes and a long multi-byte clip name, through import and --info --json. */
static void test_names_utf8(void)
{
    cJSON *doc = load_simple_skin();
    if (!doc) return;
    set_name(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "meshes"), 0), "MESHNAME");
    char long_name[64 * 3 + 1] = "";
    for (int i = 0; i < 64; i++) strcat(long_name, "\xe6\xbc\xa2");   /* 192 bytes > SV_NAME_MAX */
    set_name(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "animations"), 0), long_name);
    char *text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    char *at = text ? strstr(text, "MESHNAME") : NULL;
    CHECK(at != NULL, "no mesh name placeholder");
    if (!at) {
        cJSON_free(text);
        return;
    }
    memcpy(at, "Kn\xf6pfe\xa0X", 8);   /* Latin-1 "Knoepfe" + NBSP: 8 bytes over the 8 of MESHNAME */
    char path[512];
    Model model;
    bool imported = write_and_import("latin1.gltf", text, path, &model);
    cJSON_free(text);
    if (!imported) return;
    for (int m = 0; m < model.mesh_count; m++)
        CHECK(valid_utf8((unsigned char *)model.meshes[m].name, strlen(model.meshes[m].name)),
              "utf8: mesh name '%s' is not UTF-8", model.meshes[m].name);
    for (int j = 0; j < model.skeleton.joint_count; j++)
        CHECK(valid_utf8((unsigned char *)model.skeleton.names[j], strlen(model.skeleton.names[j])),
              "utf8: joint %d name is not UTF-8", j);
    CHECK(model.clip_count == 1, "expected one clip");
    if (model.clip_count == 1) {
        const char *name = model.clips[0].name;
        CHECK(valid_utf8((const unsigned char *)name, strlen(name)), "utf8: long clip name cut mid-character (%zu bytes)",
              strlen(name));
        CHECK(strlen(name) == 126, "utf8: long clip name kept %zu bytes, expected 42 characters = 126", strlen(name));
    }
    model_free(&model);

    char command[2048], out_path[512];
    snprintf(out_path, sizeof out_path, "%s/info.json", temp_dir);
    snprintf(command, sizeof command, "'%s' '%s' --info --json >'%s' 2>/dev/null", SKINVIEW_BINARY, path, out_path);
    int status = system(command);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "utf8: skinview --info --json failed");
    size_t size = 0;
    char *json = test_read_file(out_path, &size);
    CHECK(json && valid_utf8((unsigned char *)json, size), "utf8: --info --json output is not valid UTF-8 (JSON)");
    cJSON *parsed = json ? cJSON_Parse(json) : NULL;
    CHECK(parsed != NULL, "utf8: --info --json output does not parse");
    cJSON_Delete(parsed);
    free(json);
}

static void test_percent_encoded_uris(void)
{
    char dir[1024], from[1200], to[1200];
    snprintf(dir, sizeof dir, "%s/glTF2/BoxTextured-glTF", SKINVIEW_TESTMODELS_DIR);
    snprintf(from, sizeof from, "%s/BoxTextured0.bin", dir);
    snprintf(to, sizeof to, "%s/Box data.bin", temp_dir);
    CHECK(test_copy_file(from, to), "cannot copy %s", from);
    snprintf(from, sizeof from, "%s/CesiumLogoFlat.png", dir);
    snprintf(to, sizeof to, "%s/Cesium logo \xc3\xa9.png", temp_dir);   /* space and U+00E9 */
    CHECK(test_copy_file(from, to), "cannot copy %s", from);
    snprintf(from, sizeof from, "%s/BoxTextured.gltf", dir);
    char *text = test_read_file(from, NULL);
    cJSON *doc = text ? cJSON_Parse(text) : NULL;
    free(text);
    CHECK(doc != NULL, "cannot read %s", from);
    if (!doc) return;
    cJSON *buffer = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "buffers"), 0);
    cJSON_ReplaceItemInObjectCaseSensitive(buffer, "uri", cJSON_CreateString("Box%20data.bin"));
    cJSON *image = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "images"), 0);
    cJSON_ReplaceItemInObjectCaseSensitive(image, "uri", cJSON_CreateString("Cesium%20logo%20%C3%A9.png"));
    char path[512], *json = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    Model model;
    bool imported = json && write_and_import("percent.gltf", json, path, &model);
    cJSON_free(json);
    if (!imported) return;
    CHECK(model.mesh_count == 1 && model.meshes[0].vertex_count == 24, "uri: wrong mesh");
    CHECK(model.texture_count == 1 && model.stats.textures_missing == 0,
          "uri: texture not loaded from its percent-encoded URI (%d textures, %d missing)", model.texture_count,
          model.stats.textures_missing);
    model_free(&model);
}

/* Each edit alone made Assimp 5.2's MD5 loader abort or crash inside aiImportFile. */
static void test_md5_guard(void)
{
    char source[1024];
    snprintf(source, sizeof source, "%s/MD5/SimpleCube.md5mesh", SKINVIEW_TESTMODELS_DIR);
    char *text = test_read_file(source, NULL);
    CHECK(text != NULL, "cannot read %s", source);
    if (!text) return;
    const char *edits[][2] = {
        {"vert 22 ( 0.3125 0 )", "vert 220( 0.3125 0 )"},           /* vertex number past numverts */
        {"weight 6 1 0.7387529016", "weight 6 100.7387529016"},       /* weight joint past numJoints */
        {"vert 10 ( 0.25 0 ) 2 2", "vert 10 ( 0.25 0 ) 90 2"},        /* weight range past numweights */
    };
    for (size_t e = 0; e < sizeof edits / sizeof edits[0]; e++) {
        char *at = strstr(text, edits[e][0]);
        CHECK(at != NULL, "md5: '%s' not in %s", edits[e][0], source);
        if (!at) continue;
        size_t before = (size_t)(at - text), old_len = strlen(edits[e][0]), new_len = strlen(edits[e][1]);
        char *edited = malloc(strlen(text) - old_len + new_len + 1);
        memcpy(edited, text, before);
        memcpy(edited + before, edits[e][1], new_len);
        strcpy(edited + before + new_len, at + old_len);
        char path[512];
        snprintf(path, sizeof path, "%s/corrupt%zu.md5mesh", temp_dir, e);
        CHECK(test_write_text(path, edited), "cannot write %s", path);
        free(edited);
        Model model;
        char error[512] = "";
        bool ok = import_model(path, &(ImportOptions){0}, &model, error, sizeof error);   /* crashed here before */
        CHECK(!ok && strstr(error, "MD5") != NULL, "md5 edit %zu: imported=%d error='%s'", e, ok, error);
        if (ok) model_free(&model);
    }
    /* cut inside the triangle list (a truncated download): SIGSEGV in Assimp before */
    char *cut = strstr(text, "tri 3 ");
    CHECK(cut != NULL, "md5: no 'tri 3' in %s", source);
    if (cut) {
        cut[5] = '\0';
        char path[512];
        snprintf(path, sizeof path, "%s/truncated.md5mesh", temp_dir);
        CHECK(test_write_text(path, text), "cannot write %s", path);
        Model model;
        char error[512] = "";
        bool ok = import_model(path, &(ImportOptions){0}, &model, error, sizeof error);
        CHECK(!ok && strstr(error, "MD5") != NULL, "md5 truncated: imported=%d error='%s'", ok, error);
        if (ok) model_free(&model);
    }
    free(text);
    Model model;
    char error[512];
    bool ok = import_model(source, &(ImportOptions){0}, &model, error, sizeof error);
    CHECK(ok, "md5: the intact %s no longer imports: %s", source, error);
    if (ok) model_free(&model);
}

static void remove_temp(void)
{
    test_remove_folder(temp_dir);
}

int main(void)
{
    char testmodel[1024];
    snprintf(testmodel, sizeof testmodel, "%s/glTF2/simple_skin/simple_skin.gltf", SKINVIEW_TESTMODELS_DIR);
    if (!test_file_exists(testmodel)) {
        fprintf(stderr, "assimp-testmodels missing (%s)\n", testmodel);
        return 1;
    }
    snprintf(temp_dir, sizeof temp_dir, "/tmp/skinview_review.XXXXXX");
    if (!mkdtemp(temp_dir)) return 1;
    test_utf8_copy();
    test_names_utf8();
    test_duplicate_names();
    test_percent_encoded_uris();
    test_md5_guard();
    remove_temp();
    return test_finish();
}
