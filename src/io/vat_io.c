/* vat_io.c — the manifest of a VAT bake (vat_io.h): file names, checksums, writing and reading
 * the JSON, the commit of a finished bake. Its images are vat_images.c. */
#include "vat_io.h"
#include "base/whole_file.h"
#include "report.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

void vat_manifest_free(VatManifest *manifest)
{
    free(manifest->clips);
    free(manifest->meshes);
    free(manifest->files);
    memset(manifest, 0, sizeof *manifest);
}

void vat_positions_name(int page, bool float_precision, char *out, size_t out_size)
{
    const char *extension = float_precision ? "exr" : "png";
    if (page == 0) snprintf(out, out_size, "positions.%s", extension);
    else snprintf(out, out_size, "positions_%d.%s", page, extension);
}

void vat_normals_name(int page, char *out, size_t out_size)
{
    if (page == 0) snprintf(out, out_size, "normals.png");
    else snprintf(out, out_size, "normals_%d.png", page);
}

void vat_path(const char *dir, const char *name, char *out, size_t out_size)
{
    snprintf(out, out_size, "%s/%s", dir, name);
}

void vat_partial_path(const char *dir, const char *name, char *out, size_t out_size)
{
    snprintf(out, out_size, "%s/.%s.partial", dir, name);
}

/* ---- checksums, manifest --------------------------------------------------- */

bool vat_file_checksum(const char *path, long long *bytes, uint32_t *crc, char *error, size_t error_size)
{
    FILE *file = fopen(path, "rb");
    if (!file) {
        snprintf(error, error_size, "%s: cannot open: %s", path, strerror(errno));
        return false;
    }
    unsigned char buffer[65536];
    uLong sum = crc32(0L, Z_NULL, 0);
    long long total = 0;
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, file)) > 0) {
        sum = crc32(sum, buffer, (uInt)n);
        total += (long long)n;
    }
    bool ok = !ferror(file);
    fclose(file);
    if (!ok) {
        snprintf(error, error_size, "%s: cannot read", path);
        return false;
    }
    *bytes = total;
    *crc = (uint32_t)sum;
    return true;
}

static cJSON *vec3_json(const vec3 v)
{
    double values[3] = {v[0], v[1], v[2]};
    return cJSON_CreateDoubleArray(values, 3);
}

bool vat_write_manifest(const char *path, const VatManifest *manifest, char *error, size_t error_size)
{
    const VatLayout *layout = &manifest->layout;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "format", VAT_FORMAT_NAME);
    cJSON_AddNumberToObject(root, "version", VAT_FORMAT_VERSION);
    cJSON_AddStringToObject(root, "source", manifest->source);
    cJSON_AddNumberToObject(root, "vertex_count", layout->vertex_count);
    cJSON_AddStringToObject(root, "mesh", VAT_MESH_NAME);
    cJSON_AddStringToObject(root, "vertex_id", "TEXCOORD_1.x of mesh.glb (an integer stored as a float)");
    cJSON *meshes = cJSON_AddArrayToObject(root, "meshes");
    for (int m = 0; m < manifest->mesh_count; m++) {
        cJSON *mesh = cJSON_CreateObject();
        cJSON_AddStringToObject(mesh, "name", manifest->meshes[m].name);
        cJSON_AddNumberToObject(mesh, "first_vertex", manifest->meshes[m].first_vertex);
        cJSON_AddNumberToObject(mesh, "vertex_count", manifest->meshes[m].vertex_count);
        cJSON_AddItemToArray(meshes, mesh);
    }
    cJSON_AddStringToObject(root, "precision", manifest->float_precision ? "float" : "16");

    cJSON *json_layout = cJSON_AddObjectToObject(root, "layout");
    const struct {
        const char *name;
        int         value;
    } layout_numbers[] = {{"width", layout->width},           {"rows_per_frame", layout->rows_per_frame},
                          {"frames_per_page", layout->frames_per_page}, {"page_height", layout->page_height},
                          {"page_count", layout->page_count}, {"slot_count", layout->slot_count},
                          {"max_texture", layout->max_texture}};
    for (size_t i = 0; i < sizeof layout_numbers / sizeof layout_numbers[0]; i++)
        cJSON_AddNumberToObject(json_layout, layout_numbers[i].name, layout_numbers[i].value);
    cJSON_AddStringToObject(json_layout, "texel",
                            "slot = clip.first_slot + frame; page = slot / frames_per_page; x = vertex % width; "
                            "y = (slot % frames_per_page) * rows_per_frame + vertex / width (y = 0: first PNG row)");
    cJSON *pages = cJSON_AddArrayToObject(json_layout, "pages");
    for (int p = 0; p < layout->page_count; p++) {
        char name[VAT_FILE_NAME_MAX];
        cJSON *page = cJSON_CreateObject();
        vat_positions_name(p, manifest->float_precision, name, sizeof name);
        cJSON_AddStringToObject(page, "positions", name);
        vat_normals_name(p, name, sizeof name);
        cJSON_AddStringToObject(page, "normals", name);
        cJSON_AddNumberToObject(page, "width", layout->width);
        cJSON_AddNumberToObject(page, "height", vat_page_rows(layout, p));
        cJSON_AddItemToArray(pages, page);
    }

    cJSON *bounds = cJSON_AddObjectToObject(root, "bounds");
    cJSON_AddItemToObject(bounds, "min", vec3_json(manifest->bounds_min));
    cJSON_AddItemToObject(bounds, "max", vec3_json(manifest->bounds_max));
    cJSON *view_bounds = cJSON_AddObjectToObject(root, "view_bounds");
    cJSON_AddItemToObject(view_bounds, "min", vec3_json(manifest->view_min));
    cJSON_AddItemToObject(view_bounds, "max", vec3_json(manifest->view_max));
    cJSON *decode = cJSON_AddObjectToObject(root, "decode");
    cJSON_AddStringToObject(decode, "position",
                            manifest->float_precision
                                ? "p = texel.rgb (32-bit float, scene space)"
                                : "p = min + texel.rgb / 65535 * (max - min) (per axis, scene space)");
    cJSON_AddStringToObject(decode, "normal",
                            "e = texel.ga / 65535 * 2 - 1; v = (e.x, e.y, 1 - |e.x| - |e.y|); if v.z < 0: "
                            "v.xy = (1 - |v.yx|) * sign(v.xy); n = normalize(v)");
    cJSON_AddStringToObject(decode, "time",
                            "x = clamp(t / duration, 0, 1) * (frame_count - 1); blend frames floor(x) and "
                            "floor(x) + 1 by fract(x); frame i was sampled at i * duration / (frame_count - 1)");

    cJSON *clips = cJSON_AddArrayToObject(root, "clips");
    for (int c = 0; c < manifest->clip_count; c++) {
        const VatClip *clip = &manifest->clips[c];
        int page, x, y;
        vat_texel(layout, clip->first_slot, 0, &page, &x, &y);
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "name", clip->name);
        cJSON_AddNumberToObject(item, "source_index", clip->source_index);
        cJSON_AddNumberToObject(item, "first_slot", clip->first_slot);
        cJSON_AddNumberToObject(item, "page", page);
        cJSON_AddNumberToObject(item, "first_row", y);
        cJSON_AddNumberToObject(item, "frame_count", clip->frame_count);
        cJSON_AddNumberToObject(item, "fps", clip->fps);
        cJSON_AddNumberToObject(item, "duration", clip->duration);
        cJSON_AddBoolToObject(item, "loop", clip->loop);
        cJSON_AddNumberToObject(item, "front_yaw", clip->front_yaw);
        cJSON *frame_points = cJSON_AddArrayToObject(item, "frame_points");
        for (int i = 0; i < clip->frame_point_count; i++) cJSON_AddItemToArray(frame_points, vec3_json(clip->frame_points[i]));
        cJSON_AddItemToArray(clips, item);
    }
    cJSON *files = cJSON_AddArrayToObject(root, "files");
    for (int f = 0; f < manifest->file_count; f++) {
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "name", manifest->files[f].name);
        cJSON_AddNumberToObject(item, "bytes", (double)manifest->files[f].bytes);
        cJSON_AddNumberToObject(item, "crc32", manifest->files[f].crc32);
        cJSON_AddItemToArray(files, item);
    }

    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text) {
        snprintf(error, error_size, "out of memory writing %s", path);
        return false;
    }
    FILE *file = fopen(path, "w");
    bool ok = file && fputs(text, file) >= 0 && fputc('\n', file) != EOF;
    if (file && fclose(file) != 0) ok = false;
    if (!ok) snprintf(error, error_size, "cannot write %s: %s", path, strerror(errno));
    cJSON_free(text);
    return ok;
}

/* ---- reading the manifest ------------------------------------------------- */

static bool json_int(const cJSON *object, const char *key, int low, int high, int *out)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!cJSON_IsNumber(item)) return false;
    double v = item->valuedouble;
    if (!(v >= low && v <= high) || v != floor(v)) return false;
    *out = (int)v;
    return true;
}

static bool json_float(const cJSON *object, const char *key, float *out)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble)) return false;
    *out = (float)item->valuedouble;
    return true;
}

static bool json_vec3(const cJSON *object, const char *key, vec3 out)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 3) return false;
    for (int k = 0; k < 3; k++) {
        const cJSON *value = cJSON_GetArrayItem(item, k);
        if (!cJSON_IsNumber(value) || !isfinite(value->valuedouble)) return false;
        out[k] = (float)value->valuedouble;
    }
    return true;
}

static bool json_string(const cJSON *object, const char *key, char *out, size_t out_size)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!cJSON_IsString(item)) return false;
    snprintf(out, out_size, "%s", item->valuestring);
    return true;
}

static bool manifest_fail(char *error, size_t error_size, const char *path, const char *what)
{
    return io_fail(error, error_size, "%s: %s", path, what);
}

/* The items of the manifest's array `name` (1 to `limit` of them): item_size bytes each, zeroed,
 * their count in *count; NULL with the error set. */
static void *manifest_array(const cJSON *array, const char *name, int limit, size_t item_size, int *count,
                            const char *path, char *error, size_t error_size)
{
    int n = cJSON_GetArraySize(array);
    if (!cJSON_IsArray(array) || n < 1 || n > limit) {
        char what[64];
        snprintf(what, sizeof what, "\"%s\" must be a non-empty array", name);
        manifest_fail(error, error_size, path, what);
        return NULL;
    }
    void *items = calloc((size_t)n, item_size);
    if (!items) manifest_fail(error, error_size, path, "out of memory");
    *count = items ? n : 0;
    return items;
}

bool vat_read_manifest(const char *dir, VatManifest *manifest, char *error, size_t error_size)
{
    memset(manifest, 0, sizeof *manifest);
    char path[1200];
    vat_path(dir, VAT_MANIFEST_NAME, path, sizeof path);
    size_t text_size = 0;
    int error_number = 0;
    char *text = whole_file_read(path, 64u << 20, &text_size, &error_number);
    if (!text) {
        if (error_number == EFBIG) snprintf(error, error_size, "%s: larger than %u bytes", path, 64u << 20);
        else snprintf(error, error_size, "%s: cannot open: %s (not a finished bake?)", path, strerror(error_number));
        return false;
    }
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root) return manifest_fail(error, error_size, path, "not valid JSON (damaged?)");

    bool ok = false;
    char format[64] = "", precision[16] = "";
    int version = 0, vertex_count = 0;
    const cJSON *layout_json = cJSON_GetObjectItemCaseSensitive(root, "layout");
    const cJSON *bounds = cJSON_GetObjectItemCaseSensitive(root, "bounds");
    const cJSON *clips = cJSON_GetObjectItemCaseSensitive(root, "clips");
    const cJSON *meshes = cJSON_GetObjectItemCaseSensitive(root, "meshes");
    const cJSON *files = cJSON_GetObjectItemCaseSensitive(root, "files");
    VatLayout stored = {0};
    if (!json_string(root, "format", format, sizeof format) || strcmp(format, VAT_FORMAT_NAME) != 0 ||
        !json_int(root, "version", 1, 1000, &version)) {
        manifest_fail(error, error_size, path, "not a skinview VAT manifest (\"format\": \"" VAT_FORMAT_NAME "\")");
        goto done;
    }
    if (version != VAT_FORMAT_VERSION) {
        snprintf(error, error_size, "%s: format version %d, this skinview reads %d", path, version, VAT_FORMAT_VERSION);
        goto done;
    }
    json_string(root, "source", manifest->source, sizeof manifest->source);
    if (!json_string(root, "precision", precision, sizeof precision) ||
        (strcmp(precision, "16") != 0 && strcmp(precision, "float") != 0)) {
        manifest_fail(error, error_size, path, "\"precision\" must be \"16\" or \"float\"");
        goto done;
    }
    manifest->float_precision = strcmp(precision, "float") == 0;
    if (!json_int(root, "vertex_count", 1, 0x7fffffff, &vertex_count) || !cJSON_IsObject(layout_json) ||
        !json_int(layout_json, "width", 1, 1 << 20, &stored.width) ||
        !json_int(layout_json, "rows_per_frame", 1, 1 << 20, &stored.rows_per_frame) ||
        !json_int(layout_json, "frames_per_page", 1, 1 << 20, &stored.frames_per_page) ||
        !json_int(layout_json, "page_height", 1, 1 << 20, &stored.page_height) ||
        !json_int(layout_json, "page_count", 1, VAT_MAX_PAGES, &stored.page_count) ||
        !json_int(layout_json, "slot_count", 1, 0x7fffffff, &stored.slot_count) ||
        !json_int(layout_json, "max_texture", VAT_MIN_MAX_TEXTURE, 1 << 20, &stored.max_texture)) {
        manifest_fail(error, error_size, path, "missing or invalid vertex_count / layout");
        goto done;
    }
    if (!cJSON_IsObject(bounds) || !json_vec3(bounds, "min", manifest->bounds_min) ||
        !json_vec3(bounds, "max", manifest->bounds_max)) {
        manifest_fail(error, error_size, path, "missing or invalid bounds");
        goto done;
    }
    const cJSON *view_bounds = cJSON_GetObjectItemCaseSensitive(root, "view_bounds");
    if (!cJSON_IsObject(view_bounds) || !json_vec3(view_bounds, "min", manifest->view_min) ||
        !json_vec3(view_bounds, "max", manifest->view_max)) {
        glm_vec3_copy(manifest->bounds_min, manifest->view_min);
        glm_vec3_copy(manifest->bounds_max, manifest->view_max);
    }
    for (int k = 0; k < 3; k++)
        if (manifest->bounds_max[k] < manifest->bounds_min[k]) {
            manifest_fail(error, error_size, path, "bounds max below min");
            goto done;
        }

    int clip_count = cJSON_GetArraySize(clips);
    if (!cJSON_IsArray(clips) || clip_count < 1 || clip_count > 100000) {
        manifest_fail(error, error_size, path, "\"clips\" must be a non-empty array");
        goto done;
    }
    manifest->clips = calloc((size_t)clip_count, sizeof *manifest->clips);
    VatClipLayout *clip_layout = calloc((size_t)clip_count, sizeof *clip_layout);
    if (!manifest->clips || !clip_layout) {
        free(clip_layout);
        manifest_fail(error, error_size, path, "out of memory");
        goto done;
    }
    manifest->clip_count = clip_count;
    for (int c = 0; c < clip_count; c++) {
        const cJSON *item = cJSON_GetArrayItem(clips, c);
        VatClip *clip = &manifest->clips[c];
        if (!cJSON_IsObject(item) || !json_string(item, "name", clip->name, sizeof clip->name) ||
            !json_int(item, "first_slot", 0, 0x7fffffff, &clip->first_slot) ||
            !json_int(item, "frame_count", 1, VAT_MAX_FRAMES_PER_CLIP, &clip->frame_count) ||
            !json_float(item, "fps", &clip->fps) || !json_float(item, "duration", &clip->duration) ||
            !(clip->duration >= 0.0f) || !(clip->fps > 0.0f)) {
            snprintf(error, error_size, "%s: clip %d: missing or invalid name / first_slot / frame_count / fps / duration",
                     path, c);
            free(clip_layout);
            goto done;
        }
        json_int(item, "source_index", 0, 0x7fffffff, &clip->source_index);
        const cJSON *loop = cJSON_GetObjectItemCaseSensitive(item, "loop");
        clip->loop = !cJSON_IsFalse(loop);
        if (!json_float(item, "front_yaw", &clip->front_yaw) || !isfinite(clip->front_yaw)) clip->front_yaw = 0.0f;
        const cJSON *frame_points = cJSON_GetObjectItemCaseSensitive(item, "frame_points"), *point;
        clip->frame_point_count = 0;
        cJSON_ArrayForEach(point, frame_points) {   /* optional: framing only, never trusted for layout */
            if (clip->frame_point_count >= VAT_FRAME_POINTS_MAX || !cJSON_IsArray(point) || cJSON_GetArraySize(point) != 3)
                break;
            float *p = clip->frame_points[clip->frame_point_count];
            bool ok = true;
            for (int k = 0; k < 3; k++) {
                const cJSON *value = cJSON_GetArrayItem(point, k);
                ok = ok && cJSON_IsNumber(value) && isfinite(value->valuedouble);
                p[k] = ok ? (float)value->valuedouble : 0.0f;
            }
            if (!ok) break;
            clip->frame_point_count++;
        }
        clip_layout[c].frame_count = clip->frame_count;
        clip_layout[c].duration = clip->duration;
    }
    /* The layout must be the one this skinview would build for these clips: then every clip's
     * slots lie inside the pages and no two clips overlap (vat_layout_build guarantees both). */
    VatLayout rebuilt;
    char layout_error[256];
    if (!vat_layout_build(vertex_count, stored.max_texture, VAT_MAX_PAGES, clip_layout, clip_count, &rebuilt,
                          layout_error, sizeof layout_error)) {
        snprintf(error, error_size, "%s: %s", path, layout_error);
        free(clip_layout);
        goto done;
    }
    for (int c = 0; c < clip_count; c++)
        if (clip_layout[c].first_slot != manifest->clips[c].first_slot) {
            io_fail(error, error_size, "%s: clip %d \"%s\" starts at slot %d; its layout says %d", path, c,
                    QUOTED(manifest->clips[c].name), manifest->clips[c].first_slot, clip_layout[c].first_slot);
            free(clip_layout);
            goto done;
        }
    free(clip_layout);
    if (rebuilt.width != stored.width || rebuilt.rows_per_frame != stored.rows_per_frame ||
        rebuilt.frames_per_page != stored.frames_per_page || rebuilt.page_count != stored.page_count ||
        rebuilt.page_height != stored.page_height || rebuilt.slot_count != stored.slot_count) {
        manifest_fail(error, error_size, path, "layout does not match the vertex count and clips (edited or damaged)");
        goto done;
    }
    manifest->layout = rebuilt;

    int mesh_count = 0;
    manifest->meshes = manifest_array(meshes, "meshes", 1000000, sizeof *manifest->meshes, &mesh_count, path, error, error_size);
    if (!manifest->meshes) goto done;
    manifest->mesh_count = mesh_count;
    long long next_vertex = 0;
    for (int m = 0; m < mesh_count; m++) {
        const cJSON *item = cJSON_GetArrayItem(meshes, m);
        VatMeshRange *range = &manifest->meshes[m];
        if (!cJSON_IsObject(item) || !json_int(item, "first_vertex", 0, 0x7fffffff, &range->first_vertex) ||
            !json_int(item, "vertex_count", 0, 0x7fffffff, &range->vertex_count) || range->first_vertex != next_vertex) {
            snprintf(error, error_size, "%s: mesh %d: invalid first_vertex / vertex_count", path, m);
            goto done;
        }
        json_string(item, "name", range->name, sizeof range->name);
        next_vertex += range->vertex_count;
    }
    if (next_vertex != vertex_count) {
        snprintf(error, error_size, "%s: the meshes hold %lld vertices, vertex_count says %d", path, next_vertex,
                 vertex_count);
        goto done;
    }

    int file_count = 0;
    manifest->files = manifest_array(files, "files", VAT_MAX_FILES, sizeof *manifest->files, &file_count, path, error, error_size);
    if (!manifest->files) goto done;
    manifest->file_count = file_count;
    for (int f = 0; f < file_count; f++) {
        const cJSON *item = cJSON_GetArrayItem(files, f);
        VatFile *file = &manifest->files[f];
        const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(item, "bytes");
        const cJSON *crc = cJSON_GetObjectItemCaseSensitive(item, "crc32");
        if (!cJSON_IsObject(item) || !json_string(item, "name", file->name, sizeof file->name) ||
            strchr(file->name, '/') || file->name[0] == '.' || !cJSON_IsNumber(bytes) || !cJSON_IsNumber(crc) ||
            !(bytes->valuedouble >= 0 && bytes->valuedouble < 9.0e18) || crc->valuedouble < 0 || crc->valuedouble > 4294967295.0) {
            snprintf(error, error_size, "%s: file entry %d is invalid", path, f);
            goto done;
        }
        file->bytes = (long long)bytes->valuedouble;
        file->crc32 = (uint32_t)crc->valuedouble;
    }
    /* every page image and the mesh must be listed, and each must be intact */
    for (int p = 0; p < manifest->layout.page_count * 2 + 1; p++) {
        char name[VAT_FILE_NAME_MAX];
        if (p == manifest->layout.page_count * 2) snprintf(name, sizeof name, "%s", VAT_MESH_NAME);
        else if (p % 2 == 0) vat_positions_name(p / 2, manifest->float_precision, name, sizeof name);
        else vat_normals_name(p / 2, name, sizeof name);
        bool listed = false;
        for (int f = 0; f < file_count; f++) listed = listed || strcmp(manifest->files[f].name, name) == 0;
        if (!listed) {
            snprintf(error, error_size, "%s: does not list %s", path, name);
            goto done;
        }
    }
    for (int f = 0; f < file_count; f++) {
        char file_path[1200];
        long long bytes = 0;
        uint32_t crc = 0;
        vat_path(dir, manifest->files[f].name, file_path, sizeof file_path);
        if (!vat_file_checksum(file_path, &bytes, &crc, error, error_size)) goto done;
        if (bytes != manifest->files[f].bytes) {
            io_fail(error, error_size, "%s/%s: %lld bytes, vat.json says %lld (truncated, or from another bake)", dir,
                    QUOTED(manifest->files[f].name), bytes, manifest->files[f].bytes);
            goto done;
        }
        if (crc != manifest->files[f].crc32) {
            io_fail(error, error_size, "%s/%s: checksum differs from vat.json (damaged, or from another bake)", dir,
                    QUOTED(manifest->files[f].name));
            goto done;
        }
    }
    ok = true;
done:
    cJSON_Delete(root);
    /* one line whatever vat.json holds (its clip and file names are quoted in the messages above) */
    if (!ok) quote_message(error, error_size);
    if (!ok) vat_manifest_free(manifest);
    return ok;
}

/* ---- commit ------------------------------------------------------------- */

bool vat_commit(const char *dir, const VatManifest *manifest, char *error, size_t error_size)
{
    char final_path[1200], partial[1200];
    /* An older vat.json goes first: between the renames below the folder holds no manifest,
     * so a bake killed here leaves nothing --vat accepts (never old JSON with new images). */
    vat_path(dir, VAT_MANIFEST_NAME, final_path, sizeof final_path);
    if (remove(final_path) != 0 && errno != ENOENT) {
        snprintf(error, error_size, "cannot replace %s: %s", final_path, strerror(errno));
        return false;
    }
    for (int f = 0; f <= manifest->file_count; f++) {
        const char *name = f < manifest->file_count ? manifest->files[f].name : VAT_MANIFEST_NAME;
        vat_partial_path(dir, name, partial, sizeof partial);
        vat_path(dir, name, final_path, sizeof final_path);
        if (rename(partial, final_path) != 0) {
            snprintf(error, error_size, "cannot rename %s to %s: %s", partial, final_path, strerror(errno));
            return false;
        }
    }
    return true;
}

void vat_remove_partials(const char *dir, const VatManifest *manifest)
{
    char partial[1200];
    for (int f = 0; f <= manifest->file_count; f++) {
        vat_partial_path(dir, f < manifest->file_count ? manifest->files[f].name : VAT_MANIFEST_NAME, partial,
                         sizeof partial);
        remove(partial);
    }
}
