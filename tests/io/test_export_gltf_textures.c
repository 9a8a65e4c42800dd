/* test_export_gltf_textures — textures in --export-gltf: the file's own PNG / JPEG bytes copied byte for byte,
 * re-encoded (PNG) only when they must be.
 *   - Wizard.glb (../shared; 2 embedded images): every image of the GLB is the source's bytes (memcmp), none
 *     re-encoded (GltfExportReport.images_copied / images_encoded);
 *   - cesium_man.gltf (../shared) exported as .gltf: the image file beside it is the source image's bytes;
 *   - assimp's FBX/box_orphant_embedded_texture.fbx embeds a TGA: re-encoded; the same FBX with that PNG embedded
 *     instead (base64 in the ASCII file): the PNG is extracted from the FBX and copied byte for byte;
 *   - assimp's Collada/duck.dae (a TGA texture, which glTF does not take): re-encoded as PNG, and the PNG read
 *     back decodes to the same RGBA texels (lossless).
 * Each export is read back with ImportOptions.keep_image_bytes, which keeps the images' bytes (Texture.encoded). */
#define _GNU_SOURCE   /* memmem */
#include "testutil.h"

#include "io/gltf_write.h"
#include "io/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const ImportOptions keep = {.quiet = true, .keep_image_bytes = true};

/* the whole file, or NULL */
/* The file's bytes, and a '\0' after them (so text can be walked as a string) */
static unsigned char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *bytes = NULL;
    long length = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (length > 0 && fseek(f, 0, SEEK_SET) == 0) bytes = malloc((size_t)length + 1);
    if (bytes && fread(bytes, 1, (size_t)length, f) != (size_t)length) free(bytes), bytes = NULL;
    if (bytes) bytes[length] = '\0';
    fclose(f);
    *size = bytes ? (size_t)length : 0;
    return bytes;
}

static void base64_write(FILE *f, const unsigned char *bytes, size_t size)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < size; i += 3) {
        unsigned v = (unsigned)bytes[i] << 16 | (i + 1 < size ? (unsigned)bytes[i + 1] << 8 : 0) |
                     (i + 2 < size ? bytes[i + 2] : 0);
        fputc(digits[v >> 18 & 63], f), fputc(digits[v >> 12 & 63], f);
        fputc(i + 1 < size ? digits[v >> 6 & 63] : '=', f), fputc(i + 2 < size ? digits[v & 63] : '=', f);
    }
}

/* exports `path` to out, reads it back; false (with a failed CHECK) when either fails */
static bool export_and_read(const char *path, const char *out, Model *source, Model *back, GltfExportReport *report)
{
    char error[512];
    bool ok = import_model(path, &keep, source, error, sizeof error);
    CHECK(ok, "%s: %s", path, error);
    GltfExportOptions options = {0};
    ok = ok && gltf_export(source, out, &options, report, error, sizeof error);
    CHECK(ok, "%s: export: %s", path, error);
    ok = ok && import_model(out, &keep, back, error, sizeof error);
    CHECK(ok, "%s: the export does not read back: %s", path, error);
    return ok;
}

/* every source texture's bytes appear as one texture of `back` */
static int same_bytes(const Model *source, const Model *back)
{
    int matched = 0;
    for (int t = 0; t < source->texture_count; t++) {
        const Texture *a = &source->textures[t];
        for (int u = 0; a->encoded && u < back->texture_count; u++) {
            const Texture *b = &back->textures[u];
            if (b->encoded && b->encoded_size == a->encoded_size && memcmp(a->encoded, b->encoded, a->encoded_size) == 0) {
                matched++;
                break;
            }
        }
    }
    return matched;
}

int main(void)
{
    char path[2048], out[256];
    snprintf(out, sizeof out, "/tmp/skinview_export_textures_%d.glb", (int)getpid());

    snprintf(path, sizeof path, "%s/quaternius-wizard/Wizard.glb", SKINVIEW_SHARED_MODELS_DIR);
    if (access(path, R_OK) == 0) {
        Model source = {0}, back = {0};
        GltfExportReport report = {0};
        if (export_and_read(path, out, &source, &back, &report)) {
            int matched = same_bytes(&source, &back);
            printf("  Wizard.glb: %d textures, %d images copied, %d encoded, %d byte-identical after reading back\n",
                   source.texture_count, report.images_copied, report.images_encoded, matched);
            CHECK(report.images_copied == 2 && report.images_encoded == 0, "Wizard: %d copied, %d encoded (2, 0 expected)",
                  report.images_copied, report.images_encoded);
            CHECK(matched == 2, "Wizard: %d of 2 images byte-identical", matched);
        }
        unlink(out);
        model_free(&source), model_free(&back);
    } else
        printf("  %s absent (../shared): skipped\n", path);

    snprintf(path, sizeof path, "%s/khronos-cesiumman/cesium_man.gltf", SKINVIEW_SHARED_MODELS_DIR);
    if (access(path, R_OK) == 0) {
        char gltf[256], image[300];
        snprintf(gltf, sizeof gltf, "/tmp/skinview_export_textures_%d.gltf", (int)getpid());
        Model source = {0}, back = {0};
        GltfExportReport report = {0};
        if (export_and_read(path, gltf, &source, &back, &report)) {
            const Texture *a = source.texture_count > 0 ? &source.textures[0] : NULL;
            bool jpeg = a && a->encoded && a->encoded[0] == 0xff;
            snprintf(image, sizeof image, "/tmp/skinview_export_textures_%d_image0.%s", (int)getpid(), jpeg ? "jpg" : "png");
            size_t size = 0;
            unsigned char *file = read_all(image, &size);
            bool same = a && a->encoded && file && size == a->encoded_size && memcmp(file, a->encoded, size) == 0;
            printf("  cesium_man.gltf -> .gltf: %s beside it, %zu bytes, %s the source image's bytes\n", image, size,
                   same ? "equal to" : "NOT");
            CHECK(same, "cesium_man: the image file beside the .gltf is not the source image's bytes");
            free(file);
            unlink(image);
        }
        char bin[300];
        snprintf(bin, sizeof bin, "/tmp/skinview_export_textures_%d.bin", (int)getpid());
        unlink(gltf), unlink(bin);
        model_free(&source), model_free(&back);
    }

    /* FBX-embedded: assimp's box_orphant_embedded_texture.fbx embeds a TGA (re-encoded as PNG); the same file with
     * that PNG embedded instead (its base64 Content line replaced, the names made .png) has it copied */
    snprintf(path, sizeof path, "%s/FBX/box_orphant_embedded_texture.fbx", SKINVIEW_TESTMODELS_DIR);
    {
        Model source = {0}, back = {0}, png_source = {0}, png_back = {0};
        GltfExportReport report = {0}, png_report = {0};
        char png_fbx[256];
        snprintf(png_fbx, sizeof png_fbx, "/tmp/skinview_export_textures_%d.fbx", (int)getpid());
        if (export_and_read(path, out, &source, &back, &report)) {
            CHECK(report.images_copied == 0 && report.images_encoded == 1, "FBX embedded TGA: %d copied, %d encoded",
                  report.images_copied, report.images_encoded);
            const Texture *png = back.texture_count > 0 ? &back.textures[0] : NULL;
            size_t size = 0;
            char *text = (char *)read_all(path, &size);
            FILE *f = png && png->encoded && text ? fopen(png_fbx, "w") : NULL;
            CHECK(f != NULL, "cannot make the PNG-embedding FBX");
            for (char *line = text, *next; f && line && *line; line = next) {
                next = strchr(line, '\n');
                if (next) *next++ = '\0';
                if (strncmp(line, " \"AAAKAAAA", 10) == 0) {   /* the TGA's base64 line: the PNG's instead */
                    fputs(" \"", f);
                    base64_write(f, png->encoded, png->encoded_size);
                    fputs("\"\n", f);
                    continue;
                }
                for (char *tga; (tga = strstr(line, ".tga")) != NULL;) memcpy(tga, ".png", 4);
                fprintf(f, "%s\n", line);
            }
            if (f) fclose(f);
            if (f && export_and_read(png_fbx, out, &png_source, &png_back, &png_report)) {
                const Texture *a = png_source.texture_count > 0 ? &png_source.textures[0] : NULL;
                bool embedded_is_png = a && a->encoded && a->encoded_size == png->encoded_size &&
                                       memcmp(a->encoded, png->encoded, a->encoded_size) == 0;
                int matched = same_bytes(&png_source, &png_back);
                printf("  box_orphant_embedded_texture.fbx (TGA): %d encoded; with a PNG embedded instead: %d copied, %d "
                       "encoded, the image (%zu bytes) %s the embedded PNG, %d byte-identical after reading back\n",
                       report.images_encoded, png_report.images_copied, png_report.images_encoded,
                       a ? a->encoded_size : 0, embedded_is_png ? "is" : "is NOT", matched);
                CHECK(png_report.images_copied == 1 && png_report.images_encoded == 0, "FBX embedded PNG: %d copied, %d encoded",
                      png_report.images_copied, png_report.images_encoded);
                CHECK(embedded_is_png, "FBX embedded PNG: the kept bytes are not the embedded PNG's");
                CHECK(matched == 1, "FBX embedded PNG: not byte-identical after reading back");
            }
            free(text);
        }
        unlink(out), unlink(png_fbx);
        model_free(&source), model_free(&back), model_free(&png_source), model_free(&png_back);
    }

    snprintf(path, sizeof path, "%s/Collada/duck.dae", SKINVIEW_TESTMODELS_DIR);
    {
        Model source = {0}, back = {0};
        GltfExportReport report = {0};
        if (export_and_read(path, out, &source, &back, &report)) {
            const Texture *a = source.texture_count > 0 ? &source.textures[0] : NULL;
            const Texture *b = back.texture_count > 0 ? &back.textures[0] : NULL;
            bool same = a && b && a->width == b->width && a->height == b->height &&
                        memcmp(a->rgba, b->rgba, (size_t)a->width * (size_t)a->height * 4) == 0;
            printf("  duck.dae (TGA): %d copied, %d encoded as PNG; texels read back %s\n", report.images_copied,
                   report.images_encoded, same ? "identical" : "DIFFERENT");
            CHECK(a && !a->encoded, "duck.dae: a TGA kept as bytes glTF would take");
            CHECK(report.images_copied == 0 && report.images_encoded == 1, "duck.dae: %d copied, %d encoded (0, 1 expected)",
                  report.images_copied, report.images_encoded);
            CHECK(same, "duck.dae: the PNG does not decode to the source texels");
            CHECK(b && b->encoded && b->encoded[1] == 'P', "duck.dae: the export's image is no PNG");
        }
        unlink(out);
        model_free(&source), model_free(&back);
    }
    return test_finish();
}
