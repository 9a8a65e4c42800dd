/* gltf_write_material.c — materials as the renderer draws them (docs/materials.md) and their textures
 * (gltf_writer_materials): the file's own PNG / JPEG bytes when the import kept them (Texture.encoded), else
 * PNG encoded from the decoded RGBA with libpng; in the GLB's buffer or as files beside a .gltf. */
#include "gltf_write_internal.h"
#include "atomic_file.h"

#include <png.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct PngBytes {
    uint8_t *data;
    size_t   size, capacity;
    bool     failed;
} PngBytes;

static void png_bytes_write(png_structp png, png_bytep data, png_size_t length)
{
    PngBytes *out = png_get_io_ptr(png);
    if (out->failed) return;
    if (out->size + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 1 << 16;
        while (capacity < out->size + length) capacity *= 2;
        uint8_t *grown = realloc(out->data, capacity);
        if (!grown) {
            out->failed = true;
            return;
        }
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->size, data, length);
    out->size += length;
}

static void png_bytes_flush(png_structp png) { (void)png; }

/* RGBA8 rows top to bottom -> PNG bytes (libpng); false on failure */
static bool encode_png(const Texture *texture, PngBytes *out)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    png_bytep *rows = malloc(sizeof(png_bytep) * (size_t)texture->height);
    if (!png || !info || !rows || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(rows);
        return false;
    }
    png_set_write_fn(png, out, png_bytes_write, png_bytes_flush);
    png_set_IHDR(png, info, (png_uint_32)texture->width, (png_uint_32)texture->height, 8, PNG_COLOR_TYPE_RGBA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    for (int y = 0; y < texture->height; y++) rows[y] = texture->rgba + (size_t)y * (size_t)texture->width * 4;
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(rows);
    return !out->failed;
}


static bool texture_usable(const Model *model, int texture)
{
    return texture >= 0 && texture < model->texture_count && model->textures[texture].rgba &&
           model->textures[texture].width > 0 && model->textures[texture].height > 0;
}

/* A textureInfo (index, texCoord, KHR_texture_transform) for map `map` of texture `texture` */
static cJSON *texture_info(GltfWriter *w, const MaterialMap *map, int texture, const int *texture_index, bool *transform_used)
{
    if (!texture_usable(w->model, texture) || texture_index[texture] < 0) return NULL;
    cJSON *info = cJSON_CreateObject();
    cJSON_AddNumberToObject(info, "index", texture_index[texture]);
    if (map->texcoord > 0) cJSON_AddNumberToObject(info, "texCoord", map->texcoord);
    if (map->has_transform) {
        cJSON *extensions = cJSON_AddObjectToObject(info, "extensions");
        cJSON *transform = cJSON_AddObjectToObject(extensions, "KHR_texture_transform");
        cJSON_AddItemToObject(transform, "offset", cJSON_CreateFloatArray(map->offset, 2));
        cJSON_AddNumberToObject(transform, "rotation", map->rotation);
        cJSON_AddItemToObject(transform, "scale", cJSON_CreateFloatArray(map->scale, 2));
        *transform_used = true;
    }
    return info;
}

static float clamp01(float x) { return x > 0 ? (x < 1 ? x : 1) : 0; }

bool gltf_writer_materials(GltfWriter *w, bool glb, const char *path, ImageFiles *files, cJSON *extensions_used)
{
    const Model *model = w->model;
    if (model->material_count == 0) return true;
    int *texture_index = malloc(sizeof(int) * (size_t)(model->texture_count + 1));
    if (!texture_index) return gltf_writer_fail(w, "out of memory");
    for (int t = 0; t < model->texture_count; t++) texture_index[t] = -1;
    /* the textures some material samples, in first-use order */
    cJSON *textures = NULL, *images = NULL;
    for (int m = 0; m < model->material_count && !w->failed; m++) {
        const Material *mat = &model->materials[m];
        int used[5] = {mat->diffuse_texture, mat->metallic_roughness_map.texture, mat->normal_map.texture,
                       mat->occlusion_map.texture, mat->emissive_map.texture};
        for (int u = 0; u < 5; u++) {
            int t = used[u];
            if (!texture_usable(model, t) || texture_index[t] >= 0) continue;
            /* the file's own PNG / JPEG bytes when the import kept them (Texture.encoded): copied byte for byte;
             * else (another format, a texture the import made) the decoded RGBA encoded as PNG */
            const Texture *source = &model->textures[t];
            const char *mime = source->encoded ? image_bytes_mime(source->encoded, source->encoded_size) : NULL;
            PngBytes png = {0};
            if (mime && (png.data = malloc(source->encoded_size)) != NULL) {
                memcpy(png.data, source->encoded, source->encoded_size);
                png.size = source->encoded_size;
                w->report->images_copied++;
            } else {
                mime = "image/png";
                w->report->images_encoded++;
            }
            if (png.size == 0 && !encode_png(source, &png)) {
                free(png.data);
                free(texture_index);
                return gltf_writer_fail(w, "texture %d (%s) cannot be encoded as PNG", t, model->textures[t].source);
            }
            if (!textures) {
                textures = cJSON_AddArrayToObject(w->root, "textures");
                images = cJSON_AddArrayToObject(w->root, "images");
                cJSON *samplers = cJSON_AddArrayToObject(w->root, "samplers"), *sampler = cJSON_CreateObject();
                cJSON_AddNumberToObject(sampler, "magFilter", 9729);    /* LINEAR */
                cJSON_AddNumberToObject(sampler, "minFilter", 9987);    /* LINEAR_MIPMAP_LINEAR */
                cJSON_AddItemToArray(samplers, sampler);
            }
            cJSON *image = cJSON_CreateObject();
            cJSON_AddItemToArray(images, image);
            int index = cJSON_GetArraySize(images) - 1;
            if (glb) {
                /* embedded: a bufferView of the one buffer (never meshopt-encoded: images are compressed already) */
                w->plain_views = true;
                int view = gltf_writer_view(w, png.data, png.size, 1, GW_VIEW_DATA, NULL);
                w->plain_views = false;
                cJSON_AddNumberToObject(image, "bufferView", view);
                cJSON_AddStringToObject(image, "mimeType", mime);
            } else {
                /* beside the .gltf: NAME_imageN.png (or .jpg) */
                char image_path[4096], error[512];
                size_t stem = strlen(path) - 5;   /* ".gltf" */
                snprintf(image_path, sizeof image_path, "%.*s_image%d.%s", (int)stem, path, index,
                         strcmp(mime, "image/jpeg") == 0 ? "jpg" : "png");
                AtomicFile out;
                bool ok = atomic_file_open(&out, image_path, error, sizeof error);
                if (ok) {
                    if (fwrite(png.data, 1, png.size, out.file) != png.size) {
                        atomic_file_abort(&out);
                        ok = false;
                        snprintf(error, sizeof error, "cannot write %.400s", image_path);
                    } else
                        ok = atomic_file_commit(&out, error, sizeof error);
                }
                if (!ok) {
                    free(png.data);
                    free(texture_index);
                    return gltf_writer_fail(w, "%s", error);
                }
                snprintf(files->paths[files->count++], 4096, "%s", image_path);
                const char *slash = strrchr(image_path, '/');
                cJSON_AddStringToObject(image, "uri", slash ? slash + 1 : image_path);
                w->report->bytes += png.size;
            }
            gltf_writer_name(image, model->textures[t].source);
            free(png.data);
            cJSON *texture = cJSON_CreateObject();
            cJSON_AddNumberToObject(texture, "sampler", 0);
            cJSON_AddNumberToObject(texture, "source", index);
            cJSON_AddItemToArray(textures, texture);
            texture_index[t] = index;
            w->report->textures++;
        }
    }
    bool transform = false, unlit = false, strength = false;
    cJSON *materials = cJSON_AddArrayToObject(w->root, "materials");
    for (int m = 0; m < model->material_count && !w->failed; m++) {
        const Material *mat = &model->materials[m];
        cJSON *json = cJSON_CreateObject();
        cJSON_AddItemToArray(materials, json);
        gltf_writer_name(json, mat->name);
        cJSON *pbr = cJSON_AddObjectToObject(json, "pbrMetallicRoughness");
        float base[4];
        for (int k = 0; k < 4; k++) base[k] = clamp01(mat->diffuse_color[k]);
        cJSON_AddItemToObject(pbr, "baseColorFactor", cJSON_CreateFloatArray(base, 4));
        cJSON *info = texture_info(w, &mat->diffuse_map, mat->diffuse_texture, texture_index, &transform);
        if (info) cJSON_AddItemToObject(pbr, "baseColorTexture", info);
        cJSON_AddNumberToObject(pbr, "metallicFactor", clamp01(mat->metallic_factor));
        cJSON_AddNumberToObject(pbr, "roughnessFactor", clamp01(mat->roughness_factor));
        info = texture_info(w, &mat->metallic_roughness_map, mat->metallic_roughness_map.texture, texture_index, &transform);
        if (info) cJSON_AddItemToObject(pbr, "metallicRoughnessTexture", info);
        info = texture_info(w, &mat->normal_map, mat->normal_map.texture, texture_index, &transform);
        if (info) {
            if (mat->normal_scale != 1.0f) cJSON_AddNumberToObject(info, "scale", mat->normal_scale);
            cJSON_AddItemToObject(json, "normalTexture", info);
        }
        info = texture_info(w, &mat->occlusion_map, mat->occlusion_map.texture, texture_index, &transform);
        if (info) {
            if (mat->occlusion_strength != 1.0f) cJSON_AddNumberToObject(info, "strength", clamp01(mat->occlusion_strength));
            cJSON_AddItemToObject(json, "occlusionTexture", info);
        }
        info = texture_info(w, &mat->emissive_map, mat->emissive_map.texture, texture_index, &transform);
        if (info) cJSON_AddItemToObject(json, "emissiveTexture", info);
        /* emissiveFactor is at most 1 per channel: a brighter one moves into KHR_materials_emissive_strength */
        float emissive[3] = {fmaxf(mat->emissive_factor[0], 0), fmaxf(mat->emissive_factor[1], 0),
                             fmaxf(mat->emissive_factor[2], 0)};
        float emissive_strength = mat->emissive_strength > 0 ? mat->emissive_strength : 1.0f;
        float largest = fmaxf(emissive[0], fmaxf(emissive[1], emissive[2]));
        if (largest > 1.0f) {
            for (int k = 0; k < 3; k++) emissive[k] /= largest;
            emissive_strength *= largest;
        }
        if (largest > 0) cJSON_AddItemToObject(json, "emissiveFactor", cJSON_CreateFloatArray(emissive, 3));
        cJSON *extensions = NULL;
        if (largest > 0 && emissive_strength != 1.0f) {
            extensions = cJSON_AddObjectToObject(json, "extensions");
            cJSON *e = cJSON_AddObjectToObject(extensions, "KHR_materials_emissive_strength");
            cJSON_AddNumberToObject(e, "emissiveStrength", emissive_strength);
            strength = true;
        }
        if (mat->unlit) {
            if (!extensions) extensions = cJSON_AddObjectToObject(json, "extensions");
            cJSON_AddObjectToObject(extensions, "KHR_materials_unlit");
            unlit = true;
        }
        if (mat->alpha_mode == MATERIAL_ALPHA_MASK) {
            cJSON_AddStringToObject(json, "alphaMode", "MASK");
            if (mat->alpha_cutoff != 0.5f) cJSON_AddNumberToObject(json, "alphaCutoff", fmaxf(mat->alpha_cutoff, 0));
        } else if (mat->alpha_mode == MATERIAL_ALPHA_BLEND)
            cJSON_AddStringToObject(json, "alphaMode", "BLEND");
        if (mat->double_sided) cJSON_AddTrueToObject(json, "doubleSided");
    }
    if (transform) cJSON_AddItemToArray(extensions_used, cJSON_CreateString("KHR_texture_transform"));
    if (unlit) cJSON_AddItemToArray(extensions_used, cJSON_CreateString("KHR_materials_unlit"));
    if (strength) cJSON_AddItemToArray(extensions_used, cJSON_CreateString("KHR_materials_emissive_strength"));
    w->report->materials = model->material_count;
    free(texture_index);
    return !w->failed;
}
