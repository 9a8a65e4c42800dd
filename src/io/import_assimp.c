/* import_assimp.c — stage 1: the Assimp call, on the file's bytes.
 *
 * Rules of this stage:
 *   - Files that would take Assimp 5.2 out of bounds or into an endless loop are refused
 *     here, before Assimp sees them (checks below; found with assimp-testmodels and
 *     bit-flipped copies). What can still kill the process is caught by the crash guard
 *     (import_guard.c: memory budget, big stack, signal handler + watchdog).
 *   - Assimp reads the bytes import.c read once (model_io below serves them under the file's
 *     name; the files the model names are opened next to it, as Assimp's own file system does).
 *   - Assimp reads with skinview's flags: triangulate, weld, smooth normals where missing,
 *     keep points and lines (not in FBX), validate; FBX pivot helpers off (trap 3 in docs/skinning.md).
 *   - Weights beyond SV_MAX_INFLUENCES are counted, the vertices that have them listed (stage 3
 *     marks them in Mesh.influences_in_file), then cut by LimitBoneWeights (trap 5).
 *   - With a bone limit, meshes are split by SplitByBoneCount (one slot kept for the
 *     unweighted-vertices bone), unless a triangle needs more bones than the limit: Assimp
 *     would loop forever, so that is an error.
 *   - glTF files never come here (src/io/gltf/ reads them), but for the fuzzer's probe and glTF 1.0.
 *   - Binary FBX files: a take's first or last key that lies a float rounding outside the take's
 *     LocalStart..LocalStop, which Assimp would drop, is kept (import_fbx.c).
 *   - Every error is one line, without the file name.
 */
#include "import_internal.h"
#include "import_guard.h"

#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Position and normal of vertex v, the key that finds it again after the split (InfluenceCut). */
static void influence_key(const struct aiVector3D *position, const struct aiVector3D *normal, float key[6])
{
    key[0] = position->x, key[1] = position->y, key[2] = position->z;
    key[3] = normal ? normal->x : 0.0f, key[4] = normal ? normal->y : 0.0f, key[5] = normal ? normal->z : 0.0f;
}

static int compare_influence_cut(const void *a, const void *b)
{
    return memcmp(((const InfluenceCut *)a)->key, ((const InfluenceCut *)b)->key, sizeof(float[6]));
}

/* Counts vertices with more than SV_MAX_INFLUENCES non-zero weights (before LimitBoneWeights)
 * and lists them in `cuts` (when not NULL) with their weight count. */
static int collect_influence_cuts(const struct aiScene *scene, InfluenceCuts *cuts)
{
    int over = 0, listed = 0, capacity = 0;
    InfluenceCut *list = NULL;
    for (unsigned m = 0; m < scene->mNumMeshes; m++) {
        const struct aiMesh *mesh = scene->mMeshes[m];
        if (!mesh || mesh->mNumBones == 0 || mesh->mNumVertices == 0 || !mesh->mBones || !mesh->mVertices) continue;
        unsigned char *counts = calloc(mesh->mNumVertices, 1);
        if (!counts) continue;
        for (unsigned b = 0; b < mesh->mNumBones; b++) {
            const struct aiBone *bone = mesh->mBones[b];
            if (!bone || !bone->mWeights) continue;
            for (unsigned w = 0; w < bone->mNumWeights; w++) {
                unsigned v = bone->mWeights[w].mVertexId;
                if (v < mesh->mNumVertices && bone->mWeights[w].mWeight > 0.0f && counts[v] < 255) counts[v]++;
            }
        }
        for (unsigned v = 0; v < mesh->mNumVertices; v++) {
            if (counts[v] <= SV_MAX_INFLUENCES) continue;
            over++;
            if (!cuts) continue;
            if (listed == capacity) {
                int grown = capacity ? 2 * capacity : 64;
                InfluenceCut *bigger = realloc(list, sizeof *list * (size_t)grown);
                if (!bigger) continue;   /* out of memory: the vertex is counted, not marked */
                list = bigger, capacity = grown;
            }
            influence_key(&mesh->mVertices[v], mesh->mNormals ? &mesh->mNormals[v] : NULL, list[listed].key);
            list[listed++].influences = counts[v];
        }
        free(counts);
    }
    if (cuts) {
        if (listed > 1) qsort(list, (size_t)listed, sizeof *list, compare_influence_cut);
        cuts->cuts = list;
        cuts->count = listed;
    }
    return over;
}

void import_influence_cuts_free(InfluenceCuts *cuts)
{
    free(cuts->cuts);
    cuts->cuts = NULL;
    cuts->count = 0;
}

int import_influences_before_cut(const InfluenceCuts *cuts, const struct aiVector3D *position,
                                 const struct aiVector3D *normal)
{
    if (!cuts || cuts->count == 0) return 0;
    InfluenceCut probe;
    influence_key(position, normal, probe.key);
    /* the first entry with this key (several vertices may share one: keep the largest count) */
    int low = 0, high = cuts->count;
    while (low < high) {
        int middle = low + (high - low) / 2;
        if (compare_influence_cut(&cuts->cuts[middle], &probe) < 0) low = middle + 1;
        else high = middle;
    }
    int influences = 0;
    for (int i = low; i < cuts->count && compare_influence_cut(&cuts->cuts[i], &probe) == 0; i++)
        if (cuts->cuts[i].influences > influences) influences = cuts->cuts[i].influences;
    return influences;
}

/* Before SplitByBoneCount (trap 5 in docs/skinning.md): the split cannot put a triangle whose
 * vertices use more distinct bones than the limit into any sub-mesh, and Assimp 5.2
 * then loops forever. So: the largest number of distinct bones one face uses
 * (counting every weight Assimp stores for it). */
static int max_bones_per_face(const struct aiScene *scene)
{
    int max_face_bones = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; m++) {
        const struct aiMesh *mesh = scene->mMeshes[m];
        if (!mesh || mesh->mNumBones == 0 || mesh->mNumVertices == 0 || !mesh->mBones) continue;
        /* after LimitBoneWeights a vertex has at most 4 weights; keep up to 8 to be safe */
        enum { SLOTS = 8 };
        unsigned (*bones)[SLOTS] = calloc(mesh->mNumVertices, sizeof *bones);
        unsigned char *counts = calloc(mesh->mNumVertices, 1);
        if (!bones || !counts) {
            free(bones);
            free(counts);
            continue;
        }
        for (unsigned b = 0; b < mesh->mNumBones; b++) {
            const struct aiBone *bone = mesh->mBones[b];
            if (!bone || !bone->mWeights) continue;
            for (unsigned w = 0; w < bone->mNumWeights; w++) {
                unsigned v = bone->mWeights[w].mVertexId;
                if (v < mesh->mNumVertices && counts[v] < SLOTS) bones[v][counts[v]++] = b;
            }
        }
        for (unsigned f = 0; f < mesh->mNumFaces; f++) {
            const struct aiFace *face = &mesh->mFaces[f];
            unsigned distinct[3 * SLOTS];
            int n = 0;
            for (unsigned i = 0; i < face->mNumIndices && i < 3; i++) {
                unsigned v = face->mIndices[i];
                if (v >= mesh->mNumVertices) continue;
                for (int k = 0; k < counts[v]; k++) {
                    int seen = 0;
                    for (int j = 0; j < n && !seen; j++) seen = distinct[j] == bones[v][k];
                    if (!seen) distinct[n++] = bones[v][k];
                }
            }
            if (n > max_face_bones) max_face_bones = n;
        }
        free(bones);
        free(counts);
    }
    return max_face_bones;
}

/* Assimp's OFF reader trusts the header's element counts: a file that declares billions
 * of vertices makes it reserve gigabytes and loop for minutes (assimp-testmodels
 * invalid/OutOfMemory.off). Every OFF vertex or face takes at least 4 bytes of text,
 * so counts beyond size/4 cannot be real. Returns false with a cause for such a header. */
static bool off_header_is_plausible(FILE *f, long long size, char *error, size_t error_size)
{
    char head[4096];
    size_t n = fread(head, 1, sizeof head - 1, f);
    head[n] = '\0';
    const char *c = head;
    while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n') c++;
    const char *token = c;
    while (*c && *c != ' ' && *c != '\t' && *c != '\r' && *c != '\n') c++;
    size_t length = (size_t)(c - token);
    if (length < 3 || length > 8 || strncmp(c - 3, "OFF", 3) != 0) return true;   /* not an OFF file */
    unsigned long long counts[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        for (;;) {   /* skip blanks and # comment lines */
            while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n') c++;
            if (*c != '#') break;
            while (*c && *c != '\n') c++;
        }
        char *end;
        counts[i] = strtoull(c, &end, 10);
        if (end == c) return true;   /* let Assimp report it */
        c = end;
    }
    unsigned long long limit = (unsigned long long)(size / 4) + 1;
    if (counts[0] > limit || counts[1] > limit) {
        snprintf(error, error_size, "the OFF header declares %llu vertices and %llu faces, more than a %lld-byte file can hold",
                 counts[0], counts[1], size);
        return false;
    }
    return true;
}

/* Assimp 5.2's MD5 loader trusts every index in a .md5mesh: a vertex number past
 * numverts, a weight range past numweights, a weight's joint past numJoints or a
 * triangle corner past numverts corrupts its heap (abort or SIGSEGV inside
 * aiImportFile; found by bit-flipping assimp-testmodels MD5/SimpleCube.md5mesh).
 * The format is plain text, so the indices are checked here first. Returns false with
 * a cause for a file that would take Assimp out of bounds; other files pass. */
typedef struct Md5MeshBlock {
    long verts, tris, weights;              /* declared counts (-1 until seen) */
    long max_vert, max_weight_end, max_tri, max_tri_corner, max_weight, max_weight_joint;
} Md5MeshBlock;

static bool md5_block_is_safe(const Md5MeshBlock *b, long joints, char *error, size_t error_size)
{
    const char *what = NULL;
    long value = 0, limit = 0;
    /* a maximum of -1 means no such line was seen */
    if (b->max_vert >= 0 && b->max_vert >= b->verts) what = "vertex", value = b->max_vert, limit = b->verts;
    else if (b->max_tri >= 0 && b->max_tri >= b->tris) what = "triangle", value = b->max_tri, limit = b->tris;
    else if (b->max_tri_corner >= 0 && b->max_tri_corner >= b->verts)
        what = "triangle corner vertex", value = b->max_tri_corner, limit = b->verts;
    else if (b->max_weight >= 0 && b->max_weight >= b->weights) what = "weight", value = b->max_weight, limit = b->weights;
    else if (b->max_weight_end > 0 && b->max_weight_end > b->weights)
        what = "weight", value = b->max_weight_end - 1, limit = b->weights;
    else if (b->max_weight_joint >= 0 && b->max_weight_joint >= joints)
        what = "weight joint", value = b->max_weight_joint, limit = joints;
    if (!what) return true;
    snprintf(error, error_size, "corrupt MD5 mesh: %s index %ld out of range (%ld declared)", what, value,
             limit < 0 ? 0 : limit);
    return false;
}

static bool md5mesh_is_safe(FILE *f, char *error, size_t error_size)
{
    char line[4096];
    if (!fgets(line, sizeof line, f)) return true;
    const char *c = line;
    while (*c == ' ' || *c == '\t') c++;
    if (strncmp(c, "MD5Version", 10) != 0) return true;   /* not an MD5 file */
    rewind(f);

    long joints = -1;
    bool in_joints = false, in_mesh = false;
    Md5MeshBlock b = {-1, -1, -1, -1, -1, -1, -1, -1, -1};
    while (fgets(line, sizeof line, f)) {
        c = line;
        while (*c == ' ' || *c == '\t') c++;
        char *end;
        if (strncmp(c, "numJoints", 9) == 0) {
            joints = strtol(c + 9, &end, 10);
        } else if (strncmp(c, "joints", 6) == 0 && strchr(c, '{')) {
            in_joints = true;
        } else if (strncmp(c, "mesh", 4) == 0 && strchr(c, '{')) {
            in_mesh = true;
            b = (Md5MeshBlock){-1, -1, -1, -1, -1, -1, -1, -1, -1};
        } else if (*c == '}') {
            if (in_mesh && !md5_block_is_safe(&b, joints, error, error_size)) return false;
            in_joints = in_mesh = false;
        } else if (in_joints && *c == '"') {   /* "name" parent ( x y z ) ( qx qy qz ) */
            const char *quote = strchr(c + 1, '"');
            if (!quote) continue;
            long parent = strtol(quote + 1, &end, 10);
            if (end != quote + 1 && (parent < -1 || parent >= joints)) {
                snprintf(error, error_size, "corrupt MD5 mesh: joint parent %ld out of range (%ld joints)", parent,
                         joints < 0 ? 0 : joints);
                return false;
            }
        } else if (in_mesh) {
            long v[4] = {0, 0, 0, 0};
            int n = 0;
            const char *p = c;
            if (strncmp(c, "numverts", 8) == 0) b.verts = strtol(c + 8, &end, 10);
            else if (strncmp(c, "numtris", 7) == 0) b.tris = strtol(c + 7, &end, 10);
            else if (strncmp(c, "numweights", 10) == 0) b.weights = strtol(c + 10, &end, 10);
            else if (strncmp(c, "vert", 4) == 0 || strncmp(c, "tri", 3) == 0 || strncmp(c, "weight", 6) == 0) {
                char kind = c[0] == 'v' ? 'v' : (c[0] == 't' ? 't' : 'w');
                p = c + (kind == 'v' ? 4 : (kind == 't' ? 3 : 6));
                /* vert i ( u v ) start count | tri i a b c | weight i joint bias ( x y z ) */
                for (; n < 4 && *p && *p != '\n'; p++) {
                    if (*p == '(') {   /* skip the parenthesised floats */
                        const char *close = strchr(p, ')');
                        if (!close) break;
                        p = close;
                        continue;
                    }
                    if (*p == '-' || (*p >= '0' && *p <= '9')) {
                        long number = strtol(p, &end, 10);
                        if (end == p) continue;   /* a lone '-' */
                        v[n++] = number;
                        p = end - 1;
                        if (*end == '.') break;   /* a float (the weight bias): the indices are done */
                    }
                }
                if (kind == 'v' && n >= 3) {
                    if (v[0] < 0 || v[1] < 0 || v[2] < 0) v[0] = LONG_MAX;
                    if (v[0] > b.max_vert) b.max_vert = v[0];
                    if (v[1] + v[2] > b.max_weight_end) b.max_weight_end = v[1] + v[2];
                } else if (kind == 't' && n >= 4) {
                    for (int k = 1; k < 4; k++) {
                        if (v[k] < 0) v[k] = LONG_MAX;
                        if (v[k] > b.max_tri_corner) b.max_tri_corner = v[k];
                    }
                    if (v[0] < 0) v[0] = LONG_MAX;
                    if (v[0] > b.max_tri) b.max_tri = v[0];
                } else if (kind == 'w' && n >= 2) {
                    if (v[0] < 0) v[0] = LONG_MAX;
                    if (v[1] < 0) v[1] = LONG_MAX;
                    if (v[0] > b.max_weight) b.max_weight = v[0];
                    if (v[1] > b.max_weight_joint) b.max_weight_joint = v[1];
                }
            }
        }
    }
    if (in_mesh) {   /* a file cut inside a mesh block: Assimp reads past what it got */
        snprintf(error, error_size, "corrupt MD5 mesh: the file ends inside a mesh block (truncated?)");
        return false;
    }
    return true;
}

/* The pre-Assimp checks on the bytes (OFF header, MD5 mesh blocks); f at its start. */
static bool bytes_are_plausible(FILE *f, long long size, char *error, size_t error_size)
{
    bool plausible = off_header_is_plausible(f, size, error, error_size);
    if (plausible) {
        rewind(f);
        plausible = md5mesh_is_safe(f, error, error_size);
    }
    return plausible;
}

/* ---- the model's bytes, handed to Assimp as its file -------------------------------------
 * The file is read once (import.c); Assimp gets those bytes through this file system: opening
 * `path` (which it does several times: to pick a reader, then to read) gives a stream over the
 * bytes in memory, any other name is the file on disk, as Assimp's default file system does. */
typedef struct ModelBytes {
    const char *path;
    const void *data;
    size_t      size;
} ModelBytes;

typedef struct ModelStream {
    const uint8_t *data;   /* the model's bytes; NULL: `file` is a file on disk */
    size_t         size, at;
    FILE          *file;
} ModelStream;

static size_t model_io_read(struct aiFile *handle, char *buffer, size_t size, size_t count)
{
    ModelStream *s = (ModelStream *)handle->UserData;
    if (s->file) return fread(buffer, size, count, s->file);
    if (size == 0) return 0;
    size_t whole = (s->size - s->at) / size;   /* Assimp's streams count whole items */
    if (count > whole) count = whole;
    memcpy(buffer, s->data + s->at, count * size);
    s->at += count * size;
    return count;
}

static size_t model_io_write(struct aiFile *handle, const char *buffer, size_t size, size_t count)
{
    (void)handle, (void)buffer, (void)size, (void)count;
    return 0;   /* an import writes nothing */
}

static size_t model_io_tell(struct aiFile *handle)
{
    ModelStream *s = (ModelStream *)handle->UserData;
    if (!s->file) return s->at;
    long at = ftell(s->file);
    return at < 0 ? 0 : (size_t)at;
}

static size_t model_io_size(struct aiFile *handle)
{
    ModelStream *s = (ModelStream *)handle->UserData;
    return s->size;
}

static void model_io_flush(struct aiFile *handle) { (void)handle; }

static enum aiReturn model_io_seek(struct aiFile *handle, size_t offset, enum aiOrigin origin)
{
    ModelStream *s = (ModelStream *)handle->UserData;
    size_t base = origin == aiOrigin_SET ? 0 : origin == aiOrigin_CUR ? model_io_tell(handle) : s->size;
    if (origin != aiOrigin_SET && origin != aiOrigin_CUR && origin != aiOrigin_END) return aiReturn_FAILURE;
    size_t target = base + offset;   /* Assimp passes a negative offset as its size_t wrap: the sum wraps back */
    if (target > s->size) return aiReturn_FAILURE;
    if (s->file) return fseek(s->file, (long)target, SEEK_SET) == 0 ? aiReturn_SUCCESS : aiReturn_FAILURE;
    s->at = target;
    return aiReturn_SUCCESS;
}

static struct aiFile *model_io_open(struct aiFileIO *io, const char *name, const char *mode)
{
    const ModelBytes *model = (const ModelBytes *)io->UserData;
    if (!name || !mode || strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+')) return NULL;
    ModelStream *s = calloc(1, sizeof *s);
    struct aiFile *handle = calloc(1, sizeof *handle);
    if (!s || !handle) {
        free(s);
        free(handle);
        return NULL;
    }
    if (strcmp(name, model->path) == 0) {
        s->data = model->data, s->size = model->size;
    } else {
        s->file = fopen(name, "rb");
        long length = s->file && fseek(s->file, 0, SEEK_END) == 0 ? ftell(s->file) : -1;
        if (length < 0 || fseek(s->file, 0, SEEK_SET) != 0) {
            if (s->file) fclose(s->file);
            free(s);
            free(handle);
            return NULL;
        }
        s->size = (size_t)length;
    }
    *handle = (struct aiFile){model_io_read, model_io_write, model_io_tell, model_io_size, model_io_seek,
                              model_io_flush, (aiUserData)s};
    return handle;
}

static void model_io_close(struct aiFileIO *io, struct aiFile *handle)
{
    (void)io;
    if (!handle) return;
    ModelStream *s = (ModelStream *)handle->UserData;
    if (s->file) fclose(s->file);
    free(s);
    free(handle);
}

/* Reads the `size` bytes at `data` (the file at `path`, or with the format hint `hint` when path is
 * NULL), then post-processes. */
static const struct aiScene *read_scene_unbounded(const char *path, const void *data, size_t size, const char *hint,
                                                  int max_bones, int max_influences, ImportStats *stats, InfluenceCuts *cuts,
                                                  char *error, size_t error_size)
{
    struct aiPropertyStore *props = aiCreatePropertyStore();
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0);
    aiSetImportPropertyInteger(props, AI_CONFIG_PP_LBW_MAX_WEIGHTS,
                               max_influences == SV_MAX_INFLUENCES_KEPT ? SV_MAX_INFLUENCES_KEPT : SV_MAX_INFLUENCES);
    /* aiApplyPostProcessing() takes no property store, but the Importer that
     * aiImportFileExWithProperties() creates keeps a copy of these properties and
     * the later post-processing call runs on that same Importer: so the bone limit
     * set here is what SplitByBoneCount reads below (checked by test_import_split).
     * One slot is kept free: a split mesh with unweighted vertices gets one extra
     * bone (its node, see model.h), and it must still fit the limit. */
    int split_limit = max_bones > 1 ? max_bones - 1 : 1;
    if (max_bones > 0) aiSetImportPropertyInteger(props, AI_CONFIG_PP_SBBC_MAX_BONES, split_limit);
    const char *extension = path ? strrchr(path, '.') : NULL;
    unsigned flags = aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_GenSmoothNormals |
                     aiProcess_SortByPType | aiProcess_ValidateDataStructure;
    /* binary FBX: a take's edge keys that Assimp would drop are brought inside its window (import_fbx.c);
     * Assimp then reads that copy of the bytes */
    bool fbx = path ? extension && strcasecmp(extension, ".fbx") == 0 : hint && strcasecmp(hint, "fbx") == 0;
    /* SortByPType gives every mesh one primitive kind. Points and lines are kept (an OBJ's `l` and
     * `p` elements, a point cloud: drawn as Mesh.primitive lines / points), except in FBX, where
     * they are NURBS curves and rig controls, not the model. */
    aiSetImportPropertyInteger(props, AI_CONFIG_PP_SBP_REMOVE, fbx ? aiPrimitiveType_POINT | aiPrimitiveType_LINE : 0);
    int takes_widened = 0;
    uint8_t *fbx_widened = fbx ? import_fbx_widen_takes(data, size, &takes_widened) : NULL;
    const void *bytes = fbx_widened ? fbx_widened : data;
    /* a file on disk: Assimp opens `path` through model_io, which hands it these bytes; the files
     * the model names (an OBJ's .mtl, an MD5's .md5anim, a glTF 1 .bin) it opens next to `path` */
    ModelBytes model_bytes = {path, bytes, size};
    struct aiFileIO io = {model_io_open, model_io_close, (aiUserData)&model_bytes};
    const struct aiScene *scene =
        path ? aiImportFileExWithProperties(path, flags, &io, props)
             : aiImportFileFromMemoryWithProperties(bytes, (unsigned)size, flags, fbx_widened ? "fbx" : hint ? hint : "",
                                                    props);
    free(fbx_widened);
    aiReleasePropertyStore(props);
    if (!scene) {
        const char *why = aiGetErrorString();
        char named[64];   /* a file in memory: its hint stands for the extension */
        snprintf(named, sizeof named, "memory.%.40s", hint ? hint : "");
        import_explain_error(path ? path : named, why, error, error_size);
        import_one_line(error, error_size);
        return NULL;
    }

    /* influences are counted (and the vertices listed) before LimitBoneWeights throws the extra ones away */
    stats->vertices_influences_cut = collect_influence_cuts(scene, cuts);
    scene = aiApplyPostProcessing(scene, aiProcess_LimitBoneWeights);   /* on failure it releases the scene */
    if (scene && max_bones > 0) {
        int max_face_bones = max_bones_per_face(scene);
        if (max_face_bones > split_limit) {
            snprintf(error, error_size,
                     "a triangle uses %d bones, more than the bones-per-mesh limit of %d (one slot kept for "
                     "unweighted vertices) allows: the mesh cannot be split (raise --max-bones)",
                     max_face_bones, max_bones);
            aiReleaseImport(scene);
            return NULL;
        }
        unsigned before = scene->mNumMeshes;
        /* Assimp 5.2.5's split does not copy aiMesh::mAnimMeshes: a split mesh loses its morph
         * targets. Said, not hidden (a larger --max-bones keeps the mesh whole). */
        for (unsigned m = 0; m < scene->mNumMeshes; m++) {
            const struct aiMesh *mesh = scene->mMeshes[m];
            if (mesh && mesh->mNumAnimMeshes > 0 && mesh->mNumBones > (unsigned)split_limit)
                io_warning_line(stderr, path,
                                "mesh '%s' has %u bones, more than %d: it is split and its %u morph targets are lost "
                                "(Assimp's SplitByBoneCount drops them)",
                                QUOTED(mesh->mName.data), mesh->mNumBones, split_limit, mesh->mNumAnimMeshes);
        }
        scene = aiApplyPostProcessing(scene, aiProcess_SplitByBoneCount);
        /* the split copies every corner of every triangle: weld identical vertices again */
        if (scene) scene = aiApplyPostProcessing(scene, aiProcess_JoinIdenticalVertices);
        if (scene) stats->meshes_split_by_bones = (int)(scene->mNumMeshes - before);
    }
    if (!scene) {
        const char *why = aiGetErrorString();
        char quoted[QUOTE_SENTENCE_LIMIT + 1];
        quote_bytes(quoted, sizeof quoted, why ? why : "", why ? strlen(why) : 0, QUOTE_SENTENCE_LIMIT);
        snprintf(error, error_size, "Assimp post-processing failed: %s", quoted[0] ? quoted : "unknown error");
        import_one_line(error, error_size);
        return NULL;
    }
    return scene;
}

/* read_scene_unbounded() within the memory budget (import_guard.c). */
const struct aiScene *import_read_scene(const char *path, const void *data, size_t size, const char *hint,
                                        int max_bones, int max_influences, ImportStats *stats, InfluenceCuts *cuts,
                                        char *error, size_t error_size)
{
    if (size == 0) {
        snprintf(error, error_size, "the file is empty");
        return NULL;
    }
    if (!path && size > 0x7fffffffu) {   /* aiImportFileFromMemory takes an unsigned length */
        snprintf(error, error_size, "the file is larger than 2 GiB");
        return NULL;
    }
    FILE *f = fmemopen((void *)data, size, "rb");
    if (!f) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    bool plausible = bytes_are_plausible(f, (long long)size, error, error_size);
    fclose(f);
    if (!plausible) return NULL;
    ImportMemoryLimit limit = import_memory_limit_begin(size);
    const struct aiScene *scene = read_scene_unbounded(path, data, size, hint, max_bones, max_influences, stats, cuts, error,
                                                              error_size);
    import_memory_limit_end(&limit);
    if (!scene && cuts) import_influence_cuts_free(cuts);
    if (!scene && limit.set && strstr(error, "bad_alloc"))
        snprintf(error, error_size,
                 "reading it needs more than the import's memory budget of %llu MiB (a corrupt count in the file? "
                 "SKINVIEW_IMPORT_MEMORY_MB raises the budget, 0 lifts it)", limit.budget >> 20);
    return scene;
}

typedef struct Probe {
    const void *data;
    size_t      size;
    const char *hint;
    bool        read;
} Probe;

static void probe_run(void *argument)
{
    Probe *probe = argument;
    ImportStats stats = {0};
    char error[256];
    const struct aiScene *scene =
        import_read_scene(NULL, probe->data, probe->size, probe->hint, 0, 0, &stats, NULL, error, sizeof error);
    if (scene) aiReleaseImport(scene);
    probe->read = scene != NULL;
}

bool import_probe_assimp_from_memory(const void *data, size_t size, const char *hint)
{
    if (size == 0 || size > 0x7fffffffu) return false;
    Probe probe = {data, size, hint, false};
    import_run_on_big_stack(probe_run, &probe);   /* the same stack an import gets */
    return probe.read;
}
