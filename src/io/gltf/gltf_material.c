/* gltf_material.c — step 6 of the glTF reader: materials and their textures.
 *
 * Rules of this step (glTF 2.0 section 3.9 "Materials", 3.8 "Textures"; KHR_texture_transform,
 * KHR_materials_emissive_strength, KHR_materials_unlit, EXT_texture_webp):
 *   - One Material per file material, then one default material (white, glTF's defaults) that
 *     primitives without a material use (as Assimp added it).
 *   - The colour is pbrMetallicRoughness.baseColorFactor, the texture its baseColorTexture (what the
 *     renderer draws today). Kept for a PBR renderer: metallicFactor, roughnessFactor and
 *     metallicRoughnessTexture; normalTexture and its scale; occlusionTexture and its strength;
 *     emissiveFactor, emissiveTexture and KHR_materials_emissive_strength; alphaMode, alphaCutoff,
 *     doubleSided; per texture its texCoord and KHR_texture_transform (offset, rotation, scale, and
 *     the extension's texCoord, which overrides).
 *   - A texture's image is its EXT_texture_webp source when it has one (decoded by gltf_webp.h),
 *     else its `source`. An image is a uri (data: or a file next to the model, percent-decoded if
 *     needed) or a bufferView with a mimeType; PNG / JPEG / ... decode with stb_image, WebP with
 *     libwebp. Each image is decoded once; one that is missing, not an image or larger than
 *     VALIDATE_MAX_TEXTURE_SIDE a side is one warning, counted in stats.textures_missing, and the
 *     material keeps its colour. Texture.source is the uri, or "*N" for image N stored in the file.
 */
#include "gltf_internal.h"
#include "gltf_webp.h"
#include "io/validate.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "stb_image.h"   /* the implementation is compiled in import_material.c */
#pragma GCC diagnostic pop

#include <stdlib.h>
#include <string.h>

static void warn_texture(Gltf *g, const char *source, const char *why)
{
    g->model->stats.textures_missing++;
    io_warning_line(g->warnings, g->source, "texture '%s' %s; using the material colour", QUOTED(source), why);
}

static bool is_webp(const uint8_t *bytes, size_t size)
{
    return size >= 12 && memcmp(bytes, "RIFF", 4) == 0 && memcmp(bytes + 8, "WEBP", 4) == 0;
}

/* Decodes image `index` into a Model texture (once); its index, or -1 with a warning. */
static int load_image(Gltf *g, int index)
{
    if (index < 0 || index >= g->image_count) return -1;
    if (g->texture_of_image[index] != -2) return g->texture_of_image[index];
    g->texture_of_image[index] = -1;
    const cJSON *image = gltf_get(&g->image_list, index);
    const char *uri = gltf_string(image, "uri");
    char source[SV_NAME_MAX];
    if (uri && strncmp(uri, "data:", 5) != 0) snprintf(source, sizeof source, "%s", uri);
    else snprintf(source, sizeof source, "*%d", index);

    uint8_t *owned = NULL;
    const uint8_t *bytes = NULL;
    size_t size = 0;
    const char *why = "could not be found";
    if (uri && strncmp(uri, "data:", 5) == 0) {
        owned = gltf_data_uri(uri, &size);
        why = "(embedded) could not be decoded";
    } else if (uri) {
        owned = gltf_read_external(g, uri, &size);
    } else if (gltf_item(image, "bufferView")) {
        const GltfView *view = gltf_view(g, gltf_int(image, "bufferView", -1));
        if (view) bytes = view->bytes, size = view->size;
        else g->error[0] = '\0';   /* a damaged image view costs the texture, not the model */
        why = "(embedded) could not be decoded";
    }
    if (owned) bytes = owned;

    int width = 0, height = 0;
    unsigned char *rgba = NULL;
    if (bytes && size > 0 && size <= 0x7fffffffu) {
        if (is_webp(bytes, size)) {
            if (!gltf_webp_decode(bytes, size, &width, &height, &rgba)) why = "(WebP) could not be decoded", rgba = NULL;
        } else {
            int channels = 0;
            if (!stbi_info_from_memory(bytes, (int)size, &width, &height, &channels))
                why = "is not an image skinview can read, or too large to decode";
            else if (width > VALIDATE_MAX_TEXTURE_SIDE || height > VALIDATE_MAX_TEXTURE_SIDE)
                why = "is larger than 16384 pixels a side";
            else {
                rgba = stbi_load_from_memory(bytes, (int)size, &width, &height, &channels, 4);
                if (!rgba) why = "could not be decoded";
            }
        }
    }
    if (!rgba) {
        free(owned);
        warn_texture(g, source, why);
        return -1;
    }
    Model *model = g->model;
    Texture *grown = realloc(model->textures, sizeof(Texture) * (size_t)(model->texture_count + 1));
    if (!grown) {
        free(owned);
        free(rgba);
        return -1;
    }
    model->textures = grown;
    Texture *texture = &model->textures[model->texture_count];
    memset(texture, 0, sizeof *texture);
    utf8_copy_valid(texture->source, sizeof texture->source, source, strlen(source));
    texture->width = width;
    texture->height = height;
    texture->rgba = rgba;   /* malloc'd (stb_image and gltf_webp_decode both): model_free's free() matches */
    /* the image's own bytes for the export to copy (PNG / JPEG; out of memory only costs the copy) */
    if (g->keep_image_bytes) (void)texture_keep_encoded(texture, bytes, size);
    free(owned);
    g->texture_of_image[index] = model->texture_count;
    return model->texture_count++;
}

/* A textureInfo object -> MaterialMap (texture -1 when absent or undecodable). */
static void read_map(Gltf *g, const cJSON *info, MaterialMap *map)
{
    if (!cJSON_IsObject(info)) return;
    const cJSON *texture = gltf_get(&g->texture_list, gltf_int(info, "index", -1));
    if (!texture) return;
    const cJSON *webp = gltf_extension(texture, "EXT_texture_webp");
    int image = webp && gltf_item(webp, "source") ? gltf_int(webp, "source", -1) : gltf_int(texture, "source", -1);
    map->texture = load_image(g, image);
    map->texcoord = gltf_int(info, "texCoord", 0);
    const cJSON *transform = gltf_extension(info, "KHR_texture_transform");
    if (transform) {
        map->has_transform = true;
        gltf_numbers(transform, "offset", map->offset, 2);
        map->rotation = (float)gltf_number(transform, "rotation", 0.0);
        gltf_numbers(transform, "scale", map->scale, 2);
        map->texcoord = gltf_int(transform, "texCoord", map->texcoord);
    }
}

bool gltf_materials(Gltf *g)
{
    Model *model = g->model;
    int count = cJSON_IsArray(g->materials) ? cJSON_GetArraySize(g->materials) : 0;
    model->materials = calloc((size_t)count + 1, sizeof *model->materials);
    if (!model->materials) return gltf_fail(g, "out of memory");
    model->material_count = count + 1;
    for (int m = 0; m <= count; m++) {
        Material *material = &model->materials[m];
        material_init(material);
        if (m == count) {   /* the default material */
            snprintf(material->name, sizeof material->name, "DefaultMaterial");
            continue;
        }
        const cJSON *json = gltf_get(&g->material_list, m);
        const char *name = gltf_string(json, "name");
        if (name) utf8_copy_valid(material->name, SV_NAME_MAX, name, strlen(name));
        const cJSON *pbr = gltf_item(json, "pbrMetallicRoughness");
        float color[4];
        if (gltf_numbers(pbr, "baseColorFactor", color, 4) == 4) glm_vec4_copy(color, material->diffuse_color);
        read_map(g, gltf_item(pbr, "baseColorTexture"), &material->diffuse_map);
        material->diffuse_texture = material->diffuse_map.texture;
        material->metallic_factor = (float)gltf_number(pbr, "metallicFactor", 1.0);
        material->roughness_factor = (float)gltf_number(pbr, "roughnessFactor", 1.0);
        read_map(g, gltf_item(pbr, "metallicRoughnessTexture"), &material->metallic_roughness_map);
        const cJSON *normal = gltf_item(json, "normalTexture");
        read_map(g, normal, &material->normal_map);
        material->normal_scale = (float)gltf_number(normal, "scale", 1.0);
        const cJSON *occlusion = gltf_item(json, "occlusionTexture");
        read_map(g, occlusion, &material->occlusion_map);
        material->occlusion_strength = (float)gltf_number(occlusion, "strength", 1.0);
        gltf_numbers(json, "emissiveFactor", material->emissive_factor, 3);
        read_map(g, gltf_item(json, "emissiveTexture"), &material->emissive_map);
        material->emissive_strength =
            (float)gltf_number(gltf_extension(json, "KHR_materials_emissive_strength"), "emissiveStrength", 1.0);
        const char *alpha = gltf_string(json, "alphaMode");
        if (alpha && strcmp(alpha, "MASK") == 0) material->alpha_mode = MATERIAL_ALPHA_MASK;
        else if (alpha && strcmp(alpha, "BLEND") == 0) material->alpha_mode = MATERIAL_ALPHA_BLEND;
        material->alpha_cutoff = (float)gltf_number(json, "alphaCutoff", 0.5);
        material->double_sided = cJSON_IsTrue(gltf_item(json, "doubleSided"));
        material->unlit = gltf_extension(json, "KHR_materials_unlit") != NULL;
    }
    return true;
}
