/* vat_mesh.c — mesh.glb through Assimp's glTF 2 exporter (vat_mesh.h).
 *
 * The scene is built here by hand as plain C structs (Assimp's export API takes a scene the
 * caller allocated and never frees or changes it), then handed to aiExportScene("glb2").
 */
#include "vat_mesh.h"
#include "report.h"

#include <assimp/cexport.h>
#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/scene.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_ai_string(struct aiString *s, const char *text)
{
    size_t n = strlen(text);
    if (n >= sizeof s->data) n = sizeof s->data - 1;
    memcpy(s->data, text, n);
    s->data[n] = '\0';
    s->length = (ai_uint32)n;
}

/* Adds one property to a material whose property array has room (mNumAllocated). */
static bool add_property(struct aiMaterial *material, const char *key, unsigned semantic, unsigned index,
                         enum aiPropertyTypeInfo type, const void *data, unsigned length)
{
    struct aiMaterialProperty *property = calloc(1, sizeof *property);
    char *copy = malloc(length);
    if (!property || !copy) {
        free(property);
        free(copy);
        return false;
    }
    memcpy(copy, data, length);
    set_ai_string(&property->mKey, key);
    property->mSemantic = semantic;
    property->mIndex = index;
    property->mType = type;
    property->mDataLength = length;
    property->mData = copy;
    material->mProperties[material->mNumProperties++] = property;
    return true;
}

/* A string property is stored as: uint32 length, the characters, a NUL. */
static bool add_string_property(struct aiMaterial *material, const char *key, unsigned semantic, const char *text)
{
    size_t n = strlen(text);
    if (n > 1000) n = 1000;
    char data[4 + 1001];
    uint32_t length = (uint32_t)n;
    memcpy(data, &length, 4);
    memcpy(data + 4, text, n);
    data[4 + n] = '\0';
    return add_property(material, key, semantic, 0, aiPTI_String, data, (unsigned)(4 + n + 1));
}

static void free_material(struct aiMaterial *material)
{
    if (!material) return;
    for (unsigned p = 0; p < material->mNumProperties; p++) {
        free(material->mProperties[p]->mData);
        free(material->mProperties[p]);
    }
    free(material->mProperties);
    free(material);
}

/* PNG bytes of an RGBA8 image (libpng's simplified API, into memory). */
static unsigned char *encode_png(const Texture *texture, size_t *size)
{
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = (png_uint_32)texture->width;
    image.height = (png_uint_32)texture->height;
    image.format = PNG_FORMAT_RGBA;
    png_alloc_size_t bytes = 0;
    if (!png_image_write_to_memory(&image, NULL, &bytes, 0, texture->rgba, 0, NULL) || bytes == 0) return NULL;
    unsigned char *memory = malloc(bytes);
    if (!memory || !png_image_write_to_memory(&image, memory, &bytes, 0, texture->rgba, 0, NULL)) {
        free(memory);
        png_image_free(&image);
        return NULL;
    }
    *size = bytes;
    return memory;
}

/* Everything the hand-built scene owns, freed in one place. */
static void free_scene(struct aiScene *scene)
{
    if (!scene) return;
    for (unsigned m = 0; scene->mMeshes && m < scene->mNumMeshes; m++) {
        struct aiMesh *mesh = scene->mMeshes[m];
        if (!mesh) continue;
        free(mesh->mVertices);
        free(mesh->mNormals);
        free(mesh->mTextureCoords[0]);
        free(mesh->mTextureCoords[1]);
        free(mesh->mTextureCoords[2]);
        free(mesh->mColors[0]);
        for (unsigned f = 0; mesh->mFaces && f < mesh->mNumFaces; f++) free(mesh->mFaces[f].mIndices);
        free(mesh->mFaces);
        free(mesh);
    }
    free(scene->mMeshes);
    for (unsigned m = 0; scene->mMaterials && m < scene->mNumMaterials; m++) free_material(scene->mMaterials[m]);
    free(scene->mMaterials);
    for (unsigned t = 0; scene->mTextures && t < scene->mNumTextures; t++) {
        if (!scene->mTextures[t]) continue;
        free(scene->mTextures[t]->pcData);
        free(scene->mTextures[t]);
    }
    free(scene->mTextures);
    if (scene->mRootNode) {
        free(scene->mRootNode->mMeshes);
        free(scene->mRootNode);
    }
    free(scene);
}

static bool build_mesh(const Mesh *src, int first_vertex, const vec3 *positions, const vec3 *normals,
                       unsigned material_index, struct aiMesh *mesh)
{
    unsigned count = (unsigned)src->vertex_count;
    set_ai_string(&mesh->mName, src->name[0] ? src->name : "mesh");
    int corners = mesh_primitive_corners(src->primitive);   /* lines and points keep their kind */
    mesh->mPrimitiveTypes = src->primitive == MESH_LINES    ? aiPrimitiveType_LINE
                            : src->primitive == MESH_POINTS ? aiPrimitiveType_POINT
                                                            : aiPrimitiveType_TRIANGLE;
    mesh->mNumVertices = count;
    mesh->mVertices = calloc(count ? count : 1, sizeof(struct aiVector3D));
    mesh->mNormals = calloc(count ? count : 1, sizeof(struct aiVector3D));
    mesh->mTextureCoords[0] = calloc(count ? count : 1, sizeof(struct aiVector3D));
    mesh->mTextureCoords[1] = calloc(count ? count : 1, sizeof(struct aiVector3D));
    mesh->mNumUVComponents[0] = 2;
    mesh->mNumUVComponents[1] = 2;
    /* a vertex no element uses would be dropped by the exporter (JoinIdenticalVertices rebuilds
     * the vertex list from the faces) and the bake refused at load: each gets one element of its
     * own, all corners on it (a degenerate triangle or segment: nothing drawn; a point: one dot) */
    unsigned elements = (unsigned)(src->index_count / corners), unused = 0;
    unsigned char *used = calloc(count ? count : 1, 1);
    if (!used) return false;
    for (unsigned i = 0; i < elements * (unsigned)corners; i++)
        if (src->indices[i] < count) used[src->indices[i]] = 1;
    for (unsigned v = 0; v < count; v++) unused += !used[v];
    mesh->mNumFaces = elements + unused;
    mesh->mFaces = calloc(mesh->mNumFaces ? mesh->mNumFaces : 1, sizeof(struct aiFace));
    mesh->mMaterialIndex = material_index;
    if (!mesh->mVertices || !mesh->mNormals || !mesh->mTextureCoords[0] || !mesh->mTextureCoords[1] || !mesh->mFaces) {
        free(used);
        return false;
    }
    if (src->uvs2) {   /* the model's own second UV set: TEXCOORD_2 (TEXCOORD_1 holds the vertex ids) */
        mesh->mTextureCoords[2] = calloc(count ? count : 1, sizeof(struct aiVector3D));
        mesh->mNumUVComponents[2] = 2;
        if (!mesh->mTextureCoords[2]) return false;
        for (unsigned v = 0; v < count; v++)
            mesh->mTextureCoords[2][v] = (struct aiVector3D){src->uvs2[v][0], src->uvs2[v][1], 0.0f};
    }
    if (src->colors) {   /* COLOR_0, linear, as the renderer multiplies the base colour by it */
        mesh->mColors[0] = calloc(count ? count : 1, sizeof(struct aiColor4D));
        if (!mesh->mColors[0]) return false;
        for (unsigned v = 0; v < count; v++)
            mesh->mColors[0][v] = (struct aiColor4D){src->colors[v][0], src->colors[v][1], src->colors[v][2], src->colors[v][3]};
    }
    for (unsigned v = 0; v < count; v++) {
        const float *p = positions[first_vertex + (int)v], *n = normals[first_vertex + (int)v];
        mesh->mVertices[v] = (struct aiVector3D){p[0], p[1], p[2]};
        mesh->mNormals[v] = (struct aiVector3D){n[0], n[1], n[2]};
        /* z (not written: the sets are 2D) = the vertex id too: the exporter's JoinIdenticalVertices
         * (always on for glb2) compares UV set 0 in full but, in Assimp 5.2, not the other sets, and
         * would weld corners that differ only by their id (the Fox: 1728 baked, 1504 written) */
        float id = (float)(first_vertex + (int)v);
        mesh->mTextureCoords[0][v] = (struct aiVector3D){src->uvs ? src->uvs[v][0] : 0.0f, src->uvs ? src->uvs[v][1] : 0.0f, id};
        /* the second UV set addresses the textures: x = vertex id (exact in a float below 2^24) */
        mesh->mTextureCoords[1][v] = (struct aiVector3D){id, 0.0f, 0.0f};
    }
    unsigned next_unused = 0;
    for (unsigned f = 0; f < mesh->mNumFaces; f++) {
        struct aiFace *face = &mesh->mFaces[f];
        face->mNumIndices = (unsigned)corners;
        face->mIndices = malloc((size_t)corners * sizeof(unsigned));
        if (!face->mIndices) break;
        while (f >= elements && used[next_unused]) next_unused++;
        for (int k = 0; k < corners; k++)
            face->mIndices[k] = f < elements ? src->indices[(unsigned)corners * f + (unsigned)k] : next_unused;
        if (f >= elements) next_unused++;
    }
    bool complete = mesh->mNumFaces == 0 || mesh->mFaces[mesh->mNumFaces - 1].mIndices != NULL;
    free(used);
    return complete;
}

/* The maps and settings beyond the base colour, as Assimp's glTF 2 exporter reads them: the
 * metallic-roughness (its UNKNOWN slot), normal (+ scale), occlusion (LIGHTMAP, + strength: the
 * exporter reads them as "$tex.file.scale" / ".strength") and
 * emissive textures, the emissive colour (x strength), double-sided, the alpha mode and cutoff.
 * Texture coordinates and KHR_texture_transform are added after the export (add_texture_infos). */
static bool add_material_maps(struct aiMaterial *material, const Material *src, int texture_count)
{
    const struct {
        int              texture;
        enum aiTextureType type;
    } maps[] = {
        {src->metallic_roughness_map.texture, aiTextureType_UNKNOWN},
        {src->normal_map.texture, aiTextureType_NORMALS},
        {src->occlusion_map.texture, aiTextureType_LIGHTMAP},
        {src->emissive_map.texture, aiTextureType_EMISSIVE},
    };
    bool ok = true;
    for (size_t k = 0; k < sizeof maps / sizeof maps[0] && ok; k++) {
        if (maps[k].texture < 0 || maps[k].texture >= texture_count) continue;
        char reference[32];
        snprintf(reference, sizeof reference, "*%d", maps[k].texture);   /* Assimp: embedded texture N */
        ok = add_string_property(material, "$tex.file", (unsigned)maps[k].type, reference);
        if (ok && maps[k].type == aiTextureType_NORMALS)
            ok = add_property(material, "$tex.file.scale", aiTextureType_NORMALS, 0, aiPTI_Float, &src->normal_scale,
                              sizeof src->normal_scale);
        if (ok && maps[k].type == aiTextureType_LIGHTMAP)
            ok = add_property(material, "$tex.file.strength", aiTextureType_LIGHTMAP, 0, aiPTI_Float,
                              &src->occlusion_strength, sizeof src->occlusion_strength);
    }
    float emissive[4] = {src->emissive_factor[0] * src->emissive_strength, src->emissive_factor[1] * src->emissive_strength,
                         src->emissive_factor[2] * src->emissive_strength, 1.0f};
    int double_sided = src->double_sided ? 1 : 0;
    static const char *const alpha_modes[] = {"OPAQUE", "MASK", "BLEND"};
    int mode = src->alpha_mode >= 0 && src->alpha_mode <= 2 ? (int)src->alpha_mode : 0;
    return ok && add_property(material, "$clr.emissive", 0, 0, aiPTI_Float, emissive, sizeof emissive) &&
           add_property(material, "$mat.twosided", 0, 0, aiPTI_Integer, &double_sided, sizeof double_sided) &&
           add_string_property(material, "$mat.gltf.alphaMode", 0, alpha_modes[mode]) &&
           add_property(material, "$mat.gltf.alphaCutoff", 0, 0, aiPTI_Float, &src->alpha_cutoff,
                        sizeof src->alpha_cutoff);
}

bool vat_export_mesh(const char *path, const Model *model, const vec3 *positions, const vec3 *normals, char *error,
                     size_t error_size)
{
    if (model_total_vertices(model) >= (1 << 24)) {
        snprintf(error, error_size, "%d vertices: ids above 2^24 do not survive a float UV set",
                 model_total_vertices(model));
        return false;
    }
    struct aiScene *scene = calloc(1, sizeof *scene);
    bool ok = scene != NULL;
    /* one material per model material (plus a default grey one), textures embedded as PNG */
    unsigned material_count = (unsigned)model->material_count + 1;
    if (ok) {
        scene->mMaterials = calloc(material_count, sizeof(struct aiMaterial *));
        scene->mTextures = calloc((size_t)(model->texture_count > 0 ? model->texture_count : 1),
                                  sizeof(struct aiTexture *));
        scene->mMeshes = calloc((size_t)(model->mesh_count > 0 ? model->mesh_count : 1), sizeof(struct aiMesh *));
        scene->mRootNode = calloc(1, sizeof(struct aiNode));
        ok = scene->mMaterials && scene->mTextures && scene->mMeshes && scene->mRootNode;
    }
    for (int t = 0; ok && t < model->texture_count; t++) {
        const Texture *texture = &model->textures[t];
        struct aiTexture *out = calloc(1, sizeof *out);
        scene->mTextures[t] = out;
        scene->mNumTextures = (unsigned)t + 1;
        size_t bytes = 0;
        unsigned char *png = out && texture->rgba ? encode_png(texture, &bytes) : NULL;
        if (!out) {
            ok = false;
            break;
        }
        if (!png) {   /* undecodable source texture: a 1x1 white PNG keeps the indices valid */
            static unsigned char white_pixel[4] = {255, 255, 255, 255};
            Texture white = {.width = 1, .height = 1, .rgba = white_pixel};
            png = encode_png(&white, &bytes);
            if (!png) {
                ok = false;
                break;
            }
        }
        out->mWidth = (unsigned)bytes;   /* compressed: mHeight 0, mWidth = byte count */
        out->mHeight = 0;
        memcpy(out->achFormatHint, "png", 4);
        out->pcData = (struct aiTexel *)png;
        char name[64];
        snprintf(name, sizeof name, "texture_%d.png", t);
        set_ai_string(&out->mFilename, name);
    }
    for (unsigned m = 0; ok && m < material_count; m++) {
        struct aiMaterial *material = calloc(1, sizeof *material);
        scene->mMaterials[m] = material;
        scene->mNumMaterials = m + 1;
        if (!material || !(material->mProperties = calloc(24, sizeof(struct aiMaterialProperty *)))) {
            ok = false;
            break;
        }
        material->mNumAllocated = 24;
        const Material *src = m < (unsigned)model->material_count ? &model->materials[m] : NULL;
        float color[4] = {0.8f, 0.8f, 0.8f, 1.0f};
        if (src) memcpy(color, src->diffuse_color, sizeof color);
        ok = add_string_property(material, "?mat.name", 0, src && src->name[0] ? src->name : "default") &&
             add_property(material, "$clr.diffuse", 0, 0, aiPTI_Float, color, sizeof color) &&
             add_property(material, "$clr.base", 0, 0, aiPTI_Float, color, sizeof color);
        /* the PBR factors (glTF metallicFactor / roughnessFactor): without them a reader takes glTF's
         * default, a rough metal; the bake's model keeps the source's (Assimp materials: dielectric) */
        float metallic = src ? src->metallic_factor : 0.0f, roughness = src ? src->roughness_factor : 1.0f;
        ok = ok && add_property(material, "$mat.metallicFactor", 0, 0, aiPTI_Float, &metallic, sizeof metallic) &&
             add_property(material, "$mat.roughnessFactor", 0, 0, aiPTI_Float, &roughness, sizeof roughness);
        if (ok && src && src->diffuse_texture >= 0 && src->diffuse_texture < model->texture_count) {
            char reference[32];
            snprintf(reference, sizeof reference, "*%d", src->diffuse_texture);   /* Assimp: embedded texture N */
            ok = add_string_property(material, "$tex.file", aiTextureType_DIFFUSE, reference) &&
                 add_string_property(material, "$tex.file", aiTextureType_BASE_COLOR, reference);
        }
        if (ok && src) ok = add_material_maps(material, src, model->texture_count);
    }
    int first_vertex = 0;
    for (int m = 0; ok && m < model->mesh_count; m++) {
        const Mesh *src = &model->meshes[m];
        struct aiMesh *mesh = calloc(1, sizeof *mesh);
        scene->mMeshes[m] = mesh;
        scene->mNumMeshes = (unsigned)m + 1;
        unsigned material_index = src->material >= 0 && src->material < model->material_count
                                      ? (unsigned)src->material
                                      : material_count - 1;
        ok = mesh && build_mesh(src, first_vertex, positions, normals, material_index, mesh);
        first_vertex += src->vertex_count;
    }
    if (ok) {
        struct aiNode *root = scene->mRootNode;
        set_ai_string(&root->mName, "vat");
        root->mTransformation = (struct aiMatrix4x4){1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        root->mNumMeshes = scene->mNumMeshes;
        root->mMeshes = calloc(scene->mNumMeshes ? scene->mNumMeshes : 1, sizeof(unsigned));
        ok = root->mMeshes != NULL;
        for (unsigned m = 0; ok && m < scene->mNumMeshes; m++) root->mMeshes[m] = m;
    }
    if (!ok) {
        snprintf(error, error_size, "out of memory building %s", path);
        free_scene(scene);
        return false;
    }
    if (aiExportScene(scene, "glb2", path, 0) != aiReturn_SUCCESS) {
        const char *why = aiGetErrorString();
        io_fail(error, error_size, "cannot write %s: Assimp's glTF exporter failed: %s", path,
                why && why[0] ? why : "unknown error");   /* io_fail: one line whatever Assimp says */
        free_scene(scene);
        return false;
    }
    free_scene(scene);
    return vat_mesh_add_texture_infos(path, model, error, error_size);
}
