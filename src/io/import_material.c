/* import_material.c — stage 5: materials and their diffuse textures.
 *
 * Rules of this stage:
 *   - Colour: the diffuse colour (base colour as a last resort). Texture: the first DIFFUSE texture, else the first BASE_COLOR one.
 *   - A texture is loaded once per source string: embedded ("*N" or an embedded file
 *     name), else a file next to the model (as written, its file name, then the same
 *     percent-decoded). A texture that cannot be loaded is one warning, and the
 *     material keeps its colour.
 */
#include "import_internal.h"
#include "validate.h"
#include "base/uri.h"

#include <assimp/material.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* stb_image is compiled here (the one STB_IMAGE_IMPLEMENTATION of src/io). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#define STB_IMAGE_IMPLEMENTATION
#define STBI_FAILURE_USERMSG
#include "stb_image.h"
#pragma GCC diagnostic pop

static void path_basename(const char *path, char *out, size_t out_size)
{
    const char *base = path;
    for (const char *c = path; *c; c++)
        if (*c == '/' || *c == '\\') base = c + 1;
    snprintf(out, out_size, "%s", base);
}

static void warn_texture(Importer *im, const char *source, const char *why)
{
    for (int i = 0; i < im->failed_count; i++)
        if (strcmp(im->failed_textures[i], source) == 0) return;   /* already reported */
    char **grown = realloc(im->failed_textures, sizeof(char *) * (size_t)(im->failed_count + 1));
    if (grown) {
        im->failed_textures = grown;
        char *copy = strdup(source);
        if (copy) im->failed_textures[im->failed_count++] = copy;
    }
    io_warning_line(im->warnings, im->path, "texture '%s' %s; using the material colour", QUOTED(source), why);
}

/* Converts Assimp's uncompressed BGRA texels to RGBA8. */
static unsigned char *decode_texels(const struct aiTexture *texture, int *width, int *height)
{
    if (texture->mWidth == 0 || texture->mHeight == 0 || texture->mWidth > 65536 || texture->mHeight > 65536)
        return NULL;
    size_t count = (size_t)texture->mWidth * texture->mHeight;
    unsigned char *rgba = malloc(count * 4);
    if (!rgba) return NULL;
    for (size_t i = 0; i < count; i++) {
        const struct aiTexel *t = &texture->pcData[i];
        rgba[4 * i + 0] = t->r;
        rgba[4 * i + 1] = t->g;
        rgba[4 * i + 2] = t->b;
        rgba[4 * i + 3] = t->a;
    }
    *width = (int)texture->mWidth;
    *height = (int)texture->mHeight;
    return rgba;
}

/* Textures are checked before they are decoded: a file that is not an image, or an image whose
 * header claims more than VALIDATE_MAX_TEXTURE_SIDE pixels a side (a 60 000 x 60 000 PNG is 14 GB
 * of RGBA), is refused with a warning and the material keeps its colour. */
#define TEXTURE_MAX_FILE_BYTES (256L << 20)

static const char *texture_header_problem(int ok, int width, int height)
{
    /* stb_image refuses headers over 1 GiB of pixels too, but then tries its other formats and
     * reports the last one's reason: the two cannot be told apart here */
    if (!ok) return "is not an image skinview can read, or too large to decode";
    if (width > VALIDATE_MAX_TEXTURE_SIDE || height > VALIDATE_MAX_TEXTURE_SIDE)
        return "is larger than 16384 pixels a side";
    return NULL;
}

static unsigned char *decode_embedded(const struct aiTexture *texture, int *width, int *height, const char **why)
{
    if (!texture->pcData) return NULL;
    if (texture->mHeight > 0) {
        if (texture->mWidth > VALIDATE_MAX_TEXTURE_SIDE || texture->mHeight > VALIDATE_MAX_TEXTURE_SIDE) {
            *why = "(embedded) is larger than 16384 pixels a side";
            return NULL;
        }
        return decode_texels(texture, width, height);
    }
    if (texture->mWidth == 0 || texture->mWidth > 0x7fffffffu) return NULL;
    int channels;
    const stbi_uc *bytes = (const stbi_uc *)texture->pcData;
    const char *problem = texture_header_problem(stbi_info_from_memory(bytes, (int)texture->mWidth, width, height,
                                                                       &channels), *width, *height);
    if (problem) {
        *why = problem;
        return NULL;
    }
    return stbi_load_from_memory(bytes, (int)texture->mWidth, width, height, &channels, 4);
}

static const struct aiTexture *find_embedded(const Importer *im, const char *source)
{
    const struct aiScene *scene = im->scene;
    if (!scene) return NULL;   /* a Model built without Assimp (legacy FBX): files only */
    if (source[0] == '*') {
        char *end;
        long index = strtol(source + 1, &end, 10);
        if (end != source + 1 && *end == '\0' && index >= 0 && index < (long)scene->mNumTextures)
            return scene->mTextures[index];
        return NULL;
    }
    char base[1024], texture_base[1024];
    path_basename(source, base, sizeof base);
    for (unsigned t = 0; t < scene->mNumTextures; t++) {
        const struct aiTexture *texture = scene->mTextures[t];
        if (!texture || texture->mFilename.length == 0) continue;
        if (strcmp(texture->mFilename.data, source) == 0) return texture;
        path_basename(texture->mFilename.data, texture_base, sizeof texture_base);
        if (strcmp(texture_base, base) == 0) return texture;
    }
    return NULL;
}

/* Adds a texture to the model under `key` (its source string, or for one made here — an
 * opacity-combined diffuse, a normal map from a height map — a description, so it is made once);
 * an existing key returns that texture. Takes `rgba` (malloc'd: model_free frees it). Returns its
 * index, or -1 (out of memory: rgba freed). */
static int add_texture(Importer *im, const char *key, int width, int height, unsigned char *rgba)
{
    Model *model = im->model;
    for (int t = 0; t < model->texture_count; t++)
        if (strcmp(im->texture_keys[t], key) == 0) {
            free(rgba);
            return t;
        }
    Texture *grown = realloc(model->textures, sizeof(Texture) * (size_t)(model->texture_count + 1));
    char **keys = realloc(im->texture_keys, sizeof(char *) * (size_t)(model->texture_count + 1));
    if (grown) model->textures = grown;
    if (keys) im->texture_keys = keys;
    char *copy = strdup(key);
    if (!grown || !keys || !copy) {
        free(copy);
        free(rgba);
        return -1;
    }
    Texture *texture = &model->textures[model->texture_count];
    memset(texture, 0, sizeof *texture);
    utf8_copy_valid(texture->source, sizeof texture->source, key, strlen(key));
    texture->width = width;
    texture->height = height;
    texture->rgba = rgba;
    im->texture_keys[model->texture_count] = copy;
    return model->texture_count++;
}

/* Texture.encoded for --export-gltf: an embedded texture's compressed bytes (FBX Video content, as Assimp hands
 * them over: the file's own bytes), or the image file's bytes; kept when PNG or JPEG (texture_keep_encoded). A
 * failure only costs the copy (the export then re-encodes the rgba). */
static void keep_image_bytes(Texture *texture, const struct aiTexture *embedded, const char *file)
{
    if (embedded) {
        if (embedded->mHeight == 0 && embedded->pcData && embedded->mWidth > 0)
            (void)texture_keep_encoded(texture, (const unsigned char *)embedded->pcData, embedded->mWidth);
        return;
    }
    FILE *f = file[0] ? fopen(file, "rb") : NULL;
    if (!f) return;
    unsigned char head[8];
    long length = -1;
    if (fread(head, 1, sizeof head, f) == sizeof head && image_bytes_mime(head, sizeof head) && fseek(f, 0, SEEK_END) == 0)
        length = ftell(f);
    unsigned char *bytes = length > 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t)length) : NULL;
    if (bytes && fread(bytes, 1, (size_t)length, f) == (size_t)length) (void)texture_keep_encoded(texture, bytes, (size_t)length);
    free(bytes);
    fclose(f);
}

/* Loads the texture `source` (embedded "*N", an embedded file name, or a file next to
 * the model) once; returns its index in model->textures, or -1 with a warning. */
int import_load_texture(Importer *im, const char *source)
{
    Model *model = im->model;
    for (int t = 0; t < model->texture_count; t++)
        if (strcmp(im->texture_keys[t], source) == 0) return t;
    for (int i = 0; i < im->failed_count; i++)
        if (strcmp(im->failed_textures[i], source) == 0) return -1;

    int width = 0, height = 0;
    unsigned char *rgba = NULL;
    const char *why = "could not be found";
    char found[2300] = "";   /* the file it was decoded from */
    const struct aiTexture *embedded = find_embedded(im, source);
    if (embedded) {
        why = "(embedded) could not be decoded";
        rgba = decode_embedded(embedded, &width, &height, &why);
    } else if (source[0] != '*') {
        char normalized[1024], base[1024], candidate[2300];
        snprintf(normalized, sizeof normalized, "%s", source);
        for (char *c = normalized; *c; c++)
            if (*c == '\\') *c = '/';
        path_basename(normalized, base, sizeof base);
        char decoded[1024], decoded_base[1024];
        bool has_escapes = uri_percent_decode(normalized, decoded, sizeof decoded);
        path_basename(decoded, decoded_base, sizeof decoded_base);
        /* as written, absolute as written, its file name; then the same percent-decoded */
        const char *tries[6] = {normalized, NULL, base, NULL, NULL, NULL};
        char absolute[1024];
        if (normalized[0] == '/') {   /* an absolute path is tried as it is, then next to the model */
            snprintf(absolute, sizeof absolute, "%s", normalized);
            tries[1] = absolute;
        }
        if (has_escapes) {
            tries[3] = decoded;
            tries[4] = decoded[0] == '/' ? decoded : NULL;
            tries[5] = decoded_base;
        }
        for (int k = 0; k < 6 && !rgba; k++) {
            if (!tries[k] || !tries[k][0]) continue;
            if (k == 1 || k == 4) snprintf(candidate, sizeof candidate, "%s", tries[k]);
            else snprintf(candidate, sizeof candidate, "%s%s", im->directory, tries[k]);
            struct stat st;
            if (stat(candidate, &st) != 0 || !S_ISREG(st.st_mode)) continue;
            int channels;
            const char *problem = st.st_size > TEXTURE_MAX_FILE_BYTES ? "is larger than 256 MiB"
                                  : texture_header_problem(stbi_info(candidate, &width, &height, &channels), width, height);
            if (problem) {
                why = problem;
                continue;
            }
            rgba = stbi_load(candidate, &width, &height, &channels, 4);
            if (!rgba) why = "could not be decoded";
            else snprintf(found, sizeof found, "%s", candidate);
        }
    } else {
        why = "refers to a missing embedded texture";
    }
    if (!rgba) {
        model->stats.textures_missing++;
        warn_texture(im, source, why);
        return -1;
    }

    int index = add_texture(im, source, width, height, rgba);   /* stb_image allocates with malloc */
    if (index >= 0 && im->keep_image_bytes) keep_image_bytes(&model->textures[index], embedded, found);
    return index;
}

/* Float property `key` (an AI_MATKEY_* triple), false when absent or not finite. */
static bool material_float(const struct aiMaterial *src, const char *key, unsigned type, unsigned index, float *out)
{
    ai_real value = 0;
    unsigned max = 1;
    if (aiGetMaterialFloatArray(src, key, type, index, &value, &max) != aiReturn_SUCCESS || max != 1 || !isfinite(value))
        return false;
    *out = (float)value;
    return true;
}

/* The first texture of `type`, loaded; -1 when none. Its UV channel into *uv_set (0 or 1). */
static int material_texture(Importer *im, const struct aiMaterial *src, enum aiTextureType type, int *uv_set)
{
    struct aiString path;
    unsigned uv_index = 0;
    if (aiGetMaterialTexture(src, type, 0, &path, NULL, &uv_index, NULL, NULL, NULL, NULL) != aiReturn_SUCCESS ||
        path.length == 0)
        return -1;
    if (uv_set) *uv_set = uv_index == 1 ? 1 : 0;
    return import_load_texture(im, path.data);
}

/* Does the texture's alpha channel carry anything (some texel below 250)? And is it a cut-out
 * (at least 90 % of the texels fully opaque or fully clear) rather than a soft blend? */
static bool texture_alpha(const Texture *texture, bool *cut_out)
{
    size_t count = (size_t)texture->width * (size_t)texture->height, partial = 0, below = 0;
    for (size_t i = 0; i < count; i++) {
        unsigned char a = texture->rgba[4 * i + 3];
        below += a < 250;
        partial += a > 5 && a < 250;
    }
    *cut_out = partial * 10 <= count;
    return below > 0;
}

/* Texel (x, y) of `t` sampled at the same relative place in a texture of size w x h (nearest). */
static const unsigned char *texel_at(const Texture *t, int x, int y, int w, int h)
{
    int tx = (int)(((long long)x * t->width) / w), ty = (int)(((long long)y * t->height) / h);
    return t->rgba + 4 * ((size_t)ty * (size_t)t->width + (size_t)tx);
}

/* A separate OPACITY texture (FBX TransparentColor / TransparencyFactor maps, Collada
 * <transparent>, X): the diffuse texture's colour with the opacity map as alpha, at the diffuse
 * texture's size (the opacity map resampled, nearest). The opacity is the map's alpha when it has
 * one (some texel below 250), else its red channel (a grey mask). Without a diffuse texture: white
 * RGB (the material colour tints it). Returns the combined texture, or -1. */
static int combine_opacity(Importer *im, int diffuse, int opacity)
{
    Model *model = im->model;
    const Texture *mask = &model->textures[opacity];
    const Texture *color = diffuse >= 0 ? &model->textures[diffuse] : mask;
    int width = color->width, height = color->height;
    if (!mask->rgba || width <= 0 || height <= 0) return -1;
    bool cut_out;
    bool alpha_channel = texture_alpha(mask, &cut_out);
    unsigned char *rgba = malloc(4 * (size_t)width * (size_t)height);
    if (!rgba) return -1;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            unsigned char *out = rgba + 4 * ((size_t)y * (size_t)width + (size_t)x);
            const unsigned char *m = texel_at(mask, x, y, width, height);
            if (diffuse >= 0 && color->rgba) memcpy(out, texel_at(color, x, y, width, height), 3);
            else memset(out, 255, 3);
            out[3] = alpha_channel ? m[3] : m[0];
        }
    char key[600];
    snprintf(key, sizeof key, "%s + opacity %s", diffuse >= 0 ? im->texture_keys[diffuse] : "white",
             im->texture_keys[opacity]);
    return add_texture(im, key, width, height, rgba);
}

/* A grey height (bump) map as a tangent-space normal map: with h(x, y) in [0, 1] (the red
 * channel) and central differences, n = normalize(-BUMP_SLOPE dh/dx, BUMP_SLOPE dh/dy, 1) stored as
 * n * 0.5 + 0.5 (rows run top to bottom while the map's +Y is up, hence the sign of dh/dy);
 * the edges wrap (tiling textures). BUMP_SLOPE turns one full 0..1 step per texel into a
 * 63-degree slope (the material's bump scaling scales the result as glTF's normal scale). */
#define BUMP_SLOPE 2.0f
static int height_to_normal(Importer *im, int height)
{
    const Texture *t = &im->model->textures[height];
    int w = t->width, h = t->height;
    if (!t->rgba || w <= 0 || h <= 0) return -1;
    unsigned char *rgba = malloc(4 * (size_t)w * (size_t)h);
    if (!rgba) return -1;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
#define H(px, py) (t->rgba[4 * ((size_t)(((py) + h) % h) * (size_t)w + (size_t)(((px) + w) % w))] / 255.0f)
            float dx = 0.5f * (H(x + 1, y) - H(x - 1, y)), dy = 0.5f * (H(x, y + 1) - H(x, y - 1));
#undef H
            vec3 n = {-BUMP_SLOPE * dx, BUMP_SLOPE * dy, 1.0f};
            glm_vec3_normalize(n);
            unsigned char *out = rgba + 4 * ((size_t)y * (size_t)w + (size_t)x);
            for (int c = 0; c < 3; c++) out[c] = (unsigned char)lroundf((n[c] * 0.5f + 0.5f) * 255.0f);
            out[3] = 255;
        }
    char key[600];
    snprintf(key, sizeof key, "normals from height %s", im->texture_keys[height]);
    return add_texture(im, key, w, h, rgba);
}

/* FBX / Collada / X / OBJ materials are Phong-style (diffuse, specular, shininess): mapped onto
 * glTF's metallic-roughness here, docs/materials.md section "Assimp formats" (the table there
 * is this function):
 *   metallic  = 0 (the file's $mat.metallicFactor when it has one)
 *   roughness = (2 / (shininess + 2))^(1/4): Blinn-Phong exponent s ~ Beckmann alpha^2 = 2 / (s + 2),
 *               GGX alpha ~ Beckmann alpha, glTF roughness = sqrt(alpha); no specular (colour x
 *               strength below 0.01) or no shininess: 1; the file's $mat.roughnessFactor wins
 *   normal    = the NORMALS texture, else a HEIGHT texture (the slot Assimp gives OBJ's bump and
 *               FBX's bump maps) when its pixels are a normal map's (mean blue > 0.7, mean red and
 *               green near 0.5), else converted from heights to normals (height_to_normal)
 *   emissive  = the emissive colour (x $mat.emissiveIntensity), the EMISSIVE texture (white factor
 *               when the colour is black)
 *   alpha     = opacity (AI_MATKEY_OPACITY) x diffuse alpha: below 1 is BLEND (opacity 0 counts as
 *               1: exporters write 0 for "not set" far more often than an invisible material);
 *               a diffuse texture with a used alpha channel: MASK (cutoff 0.5) when its alpha is
 *               a cut-out, else BLEND; a separate OPACITY texture becomes the diffuse texture's
 *               alpha (combine_opacity) and is judged the same way
 *   double-sided = true (these formats have no dependable flag; open meshes are common) */
static void map_specular_workflow(Importer *im, const struct aiMaterial *src, Material *material)
{
    Model *model = im->model;
    material->double_sided = true;
    material->metallic_factor = 0.0f;
    material_float(src, AI_MATKEY_METALLIC_FACTOR, &material->metallic_factor);
    float shininess = 0.0f, strength = 1.0f, roughness = 1.0f;
    struct aiColor4D specular = {1, 1, 1, 1};
    bool have_specular = aiGetMaterialColor(src, AI_MATKEY_COLOR_SPECULAR, &specular) == aiReturn_SUCCESS;
    material_float(src, AI_MATKEY_SHININESS_STRENGTH, &strength);
    float level = fmaxf(specular.r, fmaxf(specular.g, specular.b)) * strength;
    if (material_float(src, AI_MATKEY_SHININESS, &shininess) && shininess > 0.0f && (!have_specular || level >= 0.01f))
        roughness = powf(2.0f / (shininess + 2.0f), 0.25f);
    material_float(src, AI_MATKEY_ROUGHNESS_FACTOR, &roughness);
    material->roughness_factor = fminf(1.0f, fmaxf(0.0f, roughness));

    int uv = 0;
    int normal = material_texture(im, src, aiTextureType_NORMALS, &uv);
    if (normal < 0) {
        int height = material_texture(im, src, aiTextureType_HEIGHT, &uv);
        if (height >= 0) {
            const Texture *t = &model->textures[height];
            double sum[3] = {0, 0, 0};
            size_t count = (size_t)t->width * (size_t)t->height;
            for (size_t i = 0; i < count; i++)
                for (int c = 0; c < 3; c++) sum[c] += t->rgba[4 * i + (size_t)c] / 255.0;
            if (count > 0 && sum[2] / (double)count > 0.7 && fabs(sum[0] / (double)count - 0.5) < 0.15 &&
                fabs(sum[1] / (double)count - 0.5) < 0.15)
                normal = height;
            else
                normal = height_to_normal(im, height);   /* a grey height map: its slopes */
        }
    }
    if (normal >= 0) {
        material->normal_map.texture = normal;
        material->normal_map.texcoord = uv;
        material_float(src, AI_MATKEY_BUMPSCALING, &material->normal_scale);
    }

    struct aiColor4D emissive;
    if (aiGetMaterialColor(src, AI_MATKEY_COLOR_EMISSIVE, &emissive) == aiReturn_SUCCESS && isfinite(emissive.r) &&
        isfinite(emissive.g) && isfinite(emissive.b)) {
        material->emissive_factor[0] = emissive.r;
        material->emissive_factor[1] = emissive.g;
        material->emissive_factor[2] = emissive.b;
    }
    material_float(src, "$mat.emissiveIntensity", 0, 0, &material->emissive_strength);
    int emissive_texture = material_texture(im, src, aiTextureType_EMISSIVE, &uv);
    if (emissive_texture >= 0) {
        material->emissive_map.texture = emissive_texture;
        material->emissive_map.texcoord = uv;
        if (glm_vec3_max(material->emissive_factor) <= 0.0f) glm_vec3_one(material->emissive_factor);
    }

    int opacity_texture = material_texture(im, src, aiTextureType_OPACITY, NULL);
    if (opacity_texture >= 0 && opacity_texture != material->diffuse_texture) {
        int combined = combine_opacity(im, material->diffuse_texture, opacity_texture);
        if (combined >= 0) material->diffuse_texture = material->diffuse_map.texture = combined;
    }
    float opacity = 1.0f;
    if (material_float(src, AI_MATKEY_OPACITY, &opacity) && opacity > 0.0f && opacity < 1.0f)
        material->diffuse_color[3] *= opacity;
    if (material->diffuse_color[3] < 1.0f) material->alpha_mode = MATERIAL_ALPHA_BLEND;
    bool cut_out = false;
    if (material->diffuse_texture >= 0 && texture_alpha(&model->textures[material->diffuse_texture], &cut_out) &&
        material->alpha_mode != MATERIAL_ALPHA_BLEND)
        material->alpha_mode = cut_out ? MATERIAL_ALPHA_MASK : MATERIAL_ALPHA_BLEND;
}

bool import_materials(Importer *im)
{
    const struct aiScene *scene = im->scene;
    Model *model = im->model;
    if (scene->mNumMaterials == 0) return true;
    model->materials = calloc(scene->mNumMaterials, sizeof *model->materials);
    if (!model->materials) return import_fail(im, "out of memory");
    model->material_count = (int)scene->mNumMaterials;

    for (unsigned m = 0; m < scene->mNumMaterials; m++) {
        const struct aiMaterial *src = scene->mMaterials[m];
        Material *material = &model->materials[m];
        material_init(material);
        if (!src) continue;

        struct aiString name;
        if (aiGetMaterialString(src, AI_MATKEY_NAME, &name) == aiReturn_SUCCESS) import_copy_name(material->name, &name);

        /* the diffuse colour, the base colour as a last resort (glTF is read by src/io/gltf/) */
        struct aiColor4D color;
        bool have = aiGetMaterialColor(src, AI_MATKEY_COLOR_DIFFUSE, &color) == aiReturn_SUCCESS;
        if (!have) have = aiGetMaterialColor(src, AI_MATKEY_BASE_COLOR, &color) == aiReturn_SUCCESS;
        if (have && isfinite(color.r) && isfinite(color.g) && isfinite(color.b) && isfinite(color.a)) {
            material->diffuse_color[0] = color.r;
            material->diffuse_color[1] = color.g;
            material->diffuse_color[2] = color.b;
            material->diffuse_color[3] = color.a;
        }

        struct aiString path;
        bool found = aiGetMaterialTexture(src, aiTextureType_DIFFUSE, 0, &path, NULL, NULL, NULL, NULL, NULL,
                                          NULL) == aiReturn_SUCCESS;
        if (!found)
            found = aiGetMaterialTexture(src, aiTextureType_BASE_COLOR, 0, &path, NULL, NULL, NULL, NULL, NULL,
                                         NULL) == aiReturn_SUCCESS;
        if (found && path.length > 0) material->diffuse_texture = import_load_texture(im, path.data);
        material->diffuse_map.texture = material->diffuse_texture;
        map_specular_workflow(im, src, material);
    }
    return true;
}
