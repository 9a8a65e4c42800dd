/* test_vat_texture.c — a VAT bake keeps what the skinned viewer textures and draws with beyond
 * the maps themselves (docs/vat.md, src/io/vat_mesh.c, src/io/vat_mesh_gltf.c):
 *   - "io" (io_vat_mesh_roundtrip): a model built here (a textured quad whose maps have
 *     KHR_texture_transforms and sample either UV set, a line mesh, a point mesh) written as
 *     mesh.glb and read back (import_model + vat_mesh_read_extras): every map's texture, texCoord,
 *     offset, rotation and scale, the second UV set by vertex id, every mesh's primitive kind and
 *     index count equal the model's, no two vertices are welded (two points alike but for their
 *     id) and none is dropped (one no triangle uses); the GLB lists KHR_texture_transform in extensionsUsed; a
 *     model with none of them (what an older bake wrote) reads back with identity transforms,
 *     texCoord 0, no second UV set and triangles;
 *   - "gfx" (gfx_vat_texture_lines): a glTF written here (a quad whose base colour texture, four
 *     stripes, is shifted by KHR_texture_transform and sampled through TEXCOORD_1, mirrored from
 *     TEXCOORD_0; a square of LINES; three POINTS that would make a large triangle) baked with
 *     --bake-vat and drawn by --vat --screenshot looks as the skinned viewer's --screenshot of it:
 *     the same pixels within a small tolerance, the stripes in the order only the mirror and the
 *     offset together give, the lines a thin outline (not nothing, not a filled area), the
 *     points a few pixels.
 */
#include "testutil.h"

#include "app/commands.h"
#include "io/import.h"
#include "io/vat_mesh.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stb_image.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[] = "/tmp/test_vat_texture_XXXXXX";

/* ---- io: write -> read -> equal ------------------------------------------------------------ */

/* Mesh k of the model built below: 0 a quad (triangles), 1 a square outline (lines), 2 points. */
static void fill_mesh(Mesh *mesh, int k, bool extras)
{
    static const uint32_t quad[6] = {0, 1, 2, 0, 2, 3}, outline[8] = {0, 1, 1, 2, 2, 3, 3, 0}, points[3] = {0, 1, 2};
    /* without extras: triangles throughout (mesh 1 the quad's two, mesh 2 one of its three points) */
    const uint32_t *indices = k == 0 || (k == 1 && !extras) ? quad : k == 1 ? outline : points;
    int index_count = k == 0 || (k == 1 && !extras) ? 6 : k == 1 ? 8 : 3, vertex_count = k == 2 ? 3 : k == 0 ? 5 : 4;
    snprintf(mesh->name, sizeof mesh->name, "mesh%d", k);
    mesh->vertex_count = vertex_count;
    mesh->index_count = index_count;
    mesh->primitive = !extras || k == 0 ? MESH_TRIANGLES : k == 1 ? MESH_LINES : MESH_POINTS;
    mesh->positions = calloc((size_t)vertex_count, sizeof(vec3));
    mesh->normals = calloc((size_t)vertex_count, sizeof(vec3));
    mesh->uvs = calloc((size_t)vertex_count, sizeof(vec2));
    mesh->indices = malloc(sizeof(uint32_t) * (size_t)index_count);
    if (extras && k == 0) mesh->uvs2 = calloc((size_t)vertex_count, sizeof(vec2));
    if (!mesh->positions || !mesh->normals || !mesh->uvs || !mesh->indices || (extras && k == 0 && !mesh->uvs2)) return;
    memcpy(mesh->indices, indices, sizeof(uint32_t) * (size_t)mesh->index_count);
    for (int v = 0; v < vertex_count; v++) {
        float x = (v == 1 || v == 2) ? 1.0f : -1.0f, y = v >= 2 ? 1.0f : -1.0f;
        glm_vec3_copy((vec3){x + 3.0f * (float)k, y, 0.0f}, mesh->positions[v]);
        glm_vec3_copy((vec3){0.0f, 0.0f, 1.0f}, mesh->normals[v]);
        mesh->uvs[v][0] = 0.5f * (x + 1.0f);
        mesh->uvs[v][1] = 0.5f * (y + 1.0f);
        if (mesh->uvs2) {   /* a second set unlike the first: every vertex its own value */
            mesh->uvs2[v][0] = 0.125f + 0.25f * (float)v;
            mesh->uvs2[v][1] = 0.875f - 0.1875f * (float)v;
        }
    }
    /* mesh 0's vertex 4 is used by no triangle: the exporter must not drop it */
    if (k == 2) {   /* two points alike but for their id: the exporter must not weld them */
        glm_vec3_copy(mesh->positions[1], mesh->positions[2]);
        glm_vec2_copy(mesh->uvs[1], mesh->uvs[2]);
    }
    mesh->material = k == 0 ? 0 : 1;
    mesh->node_joint = -1;
}

static void set_map(MaterialMap *map, int texture, int texcoord, float ox, float oy, float rotation, float sx, float sy)
{
    map->texture = texture;
    map->texcoord = texcoord;
    map->has_transform = sx != 0.0f;
    if (!map->has_transform) return;
    glm_vec2_copy((vec2){ox, oy}, map->offset);
    map->rotation = rotation;
    glm_vec2_copy((vec2){sx, sy}, map->scale);
}

/* The model: three meshes, two materials, one 2x2 texture. `extras`: the quad's maps have
 * transforms and UV sets 0 and 1, the quad has a second UV set, meshes 1 and 2 are lines and
 * points; without: none of them. */
static bool build_model(Model *model, bool extras)
{
    memset(model, 0, sizeof *model);
    model->meshes = calloc(3, sizeof(Mesh));
    model->materials = calloc(2, sizeof(Material));
    model->textures = calloc(1, sizeof(Texture));
    if (!model->meshes || !model->materials || !model->textures) return false;
    model->mesh_count = 3;
    model->material_count = 2;
    model->texture_count = 1;
    for (int k = 0; k < 3; k++) fill_mesh(&model->meshes[k], k, extras);
    Texture *texture = &model->textures[0];
    texture->width = texture->height = 2;
    texture->rgba = malloc(16);
    if (!texture->rgba) return false;
    memset(texture->rgba, 180, 16);
    for (int m = 0; m < 2; m++) {
        material_init(&model->materials[m]);
        snprintf(model->materials[m].name, sizeof model->materials[m].name, "material%d", m);
    }
    Material *quad = &model->materials[0];
    quad->diffuse_texture = 0;
    if (extras) {
        set_map(&quad->diffuse_map, 0, 1, 0.5f, 0.25f, 0.3f, 2.0f, 0.5f);
        set_map(&quad->normal_map, 0, 0, -0.125f, 0.0f, -1.25f, 1.0f, 3.0f);
        set_map(&quad->occlusion_map, 0, 1, 0, 0, 0, 0, 0);
        set_map(&quad->emissive_map, 0, 0, 0.0f, 0.75f, 0.0f, 1.0f, 1.0f);
        set_map(&quad->metallic_roughness_map, 0, 1, 0.0f, 0.0f, 0.5f, 0.25f, 0.25f);
    } else {
        set_map(&quad->diffuse_map, 0, 0, 0, 0, 0, 0, 0);
        set_map(&quad->normal_map, 0, 0, 0, 0, 0, 0, 0);
    }
    glm_vec4_copy((vec4){1.0f, 1.0f, 0.0f, 1.0f}, model->materials[1].diffuse_color);
    model->materials[1].unlit = extras;
    return true;
}

static bool same_map(const MaterialMap *a, const MaterialMap *b, const char *what)
{
    bool ok = (a->texture >= 0) == (b->texture >= 0) && a->texcoord == b->texcoord && a->has_transform == b->has_transform;
    if (ok && a->has_transform)
        ok = fabsf(a->offset[0] - b->offset[0]) < 1e-6f && fabsf(a->offset[1] - b->offset[1]) < 1e-6f &&
             fabsf(a->rotation - b->rotation) < 1e-6f && fabsf(a->scale[0] - b->scale[0]) < 1e-6f &&
             fabsf(a->scale[1] - b->scale[1]) < 1e-6f;
    printf("  %s: texture %s, texCoord %d, transform %s offset (%g, %g) rotation %g scale (%g, %g)\n", what,
           b->texture >= 0 ? "yes" : "no", b->texcoord, b->has_transform ? "yes" : "no", b->offset[0], b->offset[1],
           b->rotation, b->scale[0], b->scale[1]);
    return ok;
}

/* Whether the GLB at path lists `extension` in extensionsUsed. */
static bool glb_lists_extension(const char *path, const char *extension)
{
    size_t size = 0;
    unsigned char *glb = (unsigned char *)test_read_file(path, &size);
    bool found = false;
    if (glb && size > 20) {
        uint32_t length = (uint32_t)glb[12] | (uint32_t)glb[13] << 8 | (uint32_t)glb[14] << 16 | (uint32_t)glb[15] << 24;
        cJSON *json = length <= size - 20 ? cJSON_ParseWithLength((const char *)glb + 20, length) : NULL;
        const cJSON *item;
        cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(json, "extensionsUsed"))
            found = found || (cJSON_IsString(item) && strcmp(item->valuestring, extension) == 0);
        cJSON_Delete(json);
    }
    free(glb);
    return found;
}

static void roundtrip(bool extras)
{
    Model model, baked;
    CHECK(build_model(&model, extras), "build the model");
    int total = model_total_vertices(&model);
    vec3 *positions = malloc(sizeof(vec3) * (size_t)total), *normals = malloc(sizeof(vec3) * (size_t)total);
    for (int k = 0, first = 0; positions && normals && k < model.mesh_count; first += model.meshes[k++].vertex_count)
        for (int v = 0; v < model.meshes[k].vertex_count; v++) {
            glm_vec3_copy(model.meshes[k].positions[v], positions[first + v]);
            glm_vec3_copy(model.meshes[k].normals[v], normals[first + v]);
        }
    char path[sizeof dir + 32], error[512] = "";
    snprintf(path, sizeof path, "%s/mesh%s.glb", dir, extras ? "" : "_plain");
    bool written = positions && normals &&
                   vat_export_mesh(path, &model, (const vec3 *)positions, (const vec3 *)normals, error, sizeof error);
    CHECK(written, "vat_export_mesh: %s", error);
    ImportOptions options = {.quiet = true};
    VatMeshUv1 uv1 = {0};
    bool read = written && import_model(path, &options, &baked, error, sizeof error);
    CHECK(read, "import %s: %s", path, error);
    read = read && vat_mesh_read_extras(path, &baked, total, &uv1, error, sizeof error);
    CHECK(read, "vat_mesh_read_extras: %s", error);
    if (read) {
        printf("%s model: %d meshes, %d materials back\n", extras ? "transformed" : "plain", baked.mesh_count,
               baked.material_count);
        CHECK(baked.material_count >= 2, "both materials back");
        const Material *a = &model.materials[0], *b = baked.material_count >= 2 ? &baked.materials[0] : NULL;
        if (b) {
            CHECK(same_map(&a->diffuse_map, &b->diffuse_map, "base colour"), "base colour map's texCoord and transform");
            CHECK(same_map(&a->normal_map, &b->normal_map, "normal"), "normal map's texCoord and transform");
            CHECK(same_map(&a->occlusion_map, &b->occlusion_map, "occlusion"), "occlusion map's texCoord");
            CHECK(same_map(&a->emissive_map, &b->emissive_map, "emissive"), "emissive map's transform");
            CHECK(same_map(&a->metallic_roughness_map, &b->metallic_roughness_map, "metallic-roughness"),
                  "metallic-roughness map's texCoord and transform");
        }
        CHECK(glb_lists_extension(path, "KHR_texture_transform") == extras, "extensionsUsed %s KHR_texture_transform",
              extras ? "lists" : "does not list");
        CHECK(baked.material_count >= 2 && baked.materials[1].unlit == extras, "KHR_materials_unlit %s",
              extras ? "kept" : "absent");
        CHECK((uv1.uv != NULL) == extras, "the second UV set is %s", extras ? "back" : "absent");
        int uv1_matches = 0, kinds = 0;
        for (int m = 0; m < baked.mesh_count; m++) {
            const Mesh *mesh = &baked.meshes[m];
            int id = mesh->uvs2 && mesh->vertex_count > 0 ? (int)mesh->uvs2[0][0] : -1;
            int source = 0, first = 0;   /* the model's mesh holding id: ids run mesh after mesh */
            while (source < 2 && id >= first + model.meshes[source].vertex_count) first += model.meshes[source++].vertex_count;
            const Mesh *original = &model.meshes[source];
            /* the quad's vertex 4, which no triangle uses, comes with a degenerate triangle of its own */
            int unused_elements = source == 0 ? 3 : 0;
            kinds += mesh->primitive == original->primitive && mesh->index_count == original->index_count + unused_elements;
            for (int v = 0; v < mesh->vertex_count && uv1.uv; v++) {
                int vertex_id = (int)mesh->uvs2[v][0], local = vertex_id - first;
                bool present = uv1.present[vertex_id] != 0;
                if (!original->uvs2) uv1_matches += !present;
                else uv1_matches += present && fabsf(uv1.uv[vertex_id][0] - original->uvs2[local][0]) < 1e-6f &&
                                    fabsf(uv1.uv[vertex_id][1] - original->uvs2[local][1]) < 1e-6f;
            }
        }
        printf("  %d of %d meshes keep their primitive kind and index count; second UV set right on %d of %d vertices\n",
               kinds, baked.mesh_count, uv1_matches, uv1.uv ? total : 0);
        CHECK(baked.mesh_count == 3 && kinds == 3, "every mesh keeps its primitive kind (triangles, lines, points)");
        CHECK(model_total_vertices(&baked) == total, "every vertex written once: %d of %d (none welded)",
              model_total_vertices(&baked), total);
        CHECK(!uv1.uv || uv1_matches == total, "TEXCOORD_2 gives back each vertex's second UV set, by id");
    }
    vat_mesh_uv1_free(&uv1);
    if (read) model_free(&baked);
    model_free(&model);
    free(positions);
    free(normals);
}

/* ---- gfx: the VAT player draws what the skinned viewer draws -------------------------------- */

static const unsigned char stripe_colors[4][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255}};

/* The glTF of the "gfx" case (see the top); colours: the texture's stripes (stripe_colors), the
 * lines yellow, the points magenta, all unlit. */
static bool write_scene(const char *path)
{
    TestGltf g;
    test_gltf_init(&g);
    const float quad_positions[12] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0}, normals[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    const float uv0[8] = {0, 1, 1, 1, 1, 0, 0, 0}, uv1[8] = {1, 1, 0, 1, 0, 0, 1, 0};   /* uv1: u mirrored */
    const unsigned short quad_indices[6] = {0, 1, 2, 0, 2, 3}, outline[8] = {0, 1, 1, 2, 2, 3, 3, 0};
    const float square[12] = {-1.6f, -1.4f, 0, 1.6f, -1.4f, 0, 1.6f, 1.4f, 0, -1.6f, 1.4f, 0};
    const float dots[9] = {-1.3f, 1.2f, 0.1f, 1.3f, 1.2f, 0.1f, 0.0f, -1.2f, 0.1f};
    const float times[2] = {0.0f, 1.0f}, offsets[6] = {0, 0, 0, 0, 0, 0};
    int qp = test_gltf_accessor(&g, test_gltf_view(&g, quad_positions, sizeof quad_positions, 0), 0, 5126, false, 4, "VEC3",
                                "\"min\":[-1,-1,0],\"max\":[1,1,0]");
    int qn = test_gltf_accessor(&g, test_gltf_view(&g, normals, sizeof normals, 0), 0, 5126, false, 4, "VEC3", NULL);
    int q0 = test_gltf_accessor(&g, test_gltf_view(&g, uv0, sizeof uv0, 0), 0, 5126, false, 4, "VEC2", NULL);
    int q1 = test_gltf_accessor(&g, test_gltf_view(&g, uv1, sizeof uv1, 0), 0, 5126, false, 4, "VEC2", NULL);
    int qi = test_gltf_accessor(&g, test_gltf_view(&g, quad_indices, sizeof quad_indices, 0), 0, 5123, false, 6, "SCALAR", NULL);
    int sp = test_gltf_accessor(&g, test_gltf_view(&g, square, sizeof square, 0), 0, 5126, false, 4, "VEC3",
                                "\"min\":[-1.6,-1.4,0],\"max\":[1.6,1.4,0]");
    int si = test_gltf_accessor(&g, test_gltf_view(&g, outline, sizeof outline, 0), 0, 5123, false, 8, "SCALAR", NULL);
    int dp = test_gltf_accessor(&g, test_gltf_view(&g, dots, sizeof dots, 0), 0, 5126, false, 3, "VEC3",
                                "\"min\":[-1.3,-1.2,0.1],\"max\":[1.3,1.2,0.1]");
    int ti = test_gltf_accessor(&g, test_gltf_view(&g, times, sizeof times, 0), 0, 5126, false, 2, "SCALAR",
                                "\"min\":[0],\"max\":[1]");
    int to = test_gltf_accessor(&g, test_gltf_view(&g, offsets, sizeof offsets, 0), 0, 5126, false, 2, "VEC3", NULL);
    /* the texture: 16x16, four columns (u 0-0.25 ... 0.75-1) red, green, blue, white */
    unsigned char texels[16 * 16 * 4];
    for (int i = 0; i < 16 * 16; i++) memcpy(texels + 4 * i, stripe_colors[(i % 16) / 4], 3), texels[4 * i + 3] = 255;
    char png_path[sizeof dir + 32], error[256];
    snprintf(png_path, sizeof png_path, "%s/stripes.png", dir);
    bool ok = app_write_png(png_path, 16, 16, texels, error, sizeof error);
    char members[4096];
    snprintf(members, sizeof members,
             "\"scene\":0,\"scenes\":[{\"nodes\":[0,1,2]}],\"nodes\":[{\"mesh\":0},{\"mesh\":1},{\"mesh\":2}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":%d,\"NORMAL\":%d,\"TEXCOORD_0\":%d,\"TEXCOORD_1\":%d},"
             "\"indices\":%d,\"material\":0}]},"
             "{\"primitives\":[{\"attributes\":{\"POSITION\":%d},\"indices\":%d,\"mode\":1,\"material\":1}]},"
             "{\"primitives\":[{\"attributes\":{\"POSITION\":%d},\"mode\":0,\"material\":2}]}],"
             "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0,\"texCoord\":1,"
             "\"extensions\":{\"KHR_texture_transform\":{\"offset\":[0.25,0]}}}},\"extensions\":{\"KHR_materials_unlit\":{}}},"
             "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,1,0,1]},\"extensions\":{\"KHR_materials_unlit\":{}}},"
             "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,0,1,1]},\"extensions\":{\"KHR_materials_unlit\":{}}}],"
             "\"images\":[{\"uri\":\"stripes.png\"}],\"textures\":[{\"source\":0,\"sampler\":0}],"
             "\"samplers\":[{\"magFilter\":9728,\"minFilter\":9728}],"
             "\"animations\":[{\"name\":\"still\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}],"
             "\"samplers\":[{\"input\":%d,\"output\":%d}]}],"
             "\"extensionsUsed\":[\"KHR_texture_transform\",\"KHR_materials_unlit\"]",
             qp, qn, q0, q1, qi, sp, si, dp, ti, to);
    ok = ok && test_gltf_write(&g, path, members, true);
    test_gltf_free(&g);
    return ok;
}

/* Pixel statistics of one screenshot: how many pixels show each colour of the scene (by which
 * channels stand out: the tone map and the lines' and points' anti-aliasing soften them). */
typedef struct Census {
    long stripes[4], yellow, magenta, total;
} Census;

/* 0-3: the stripe colour p shows (red, green, blue, white), 4 yellow, 5 magenta, -1 none. */
static int classify(const unsigned char *p)
{
    int r = p[0], g = p[1], b = p[2], margin = 25;
    if (r > 180 && g > 180 && b > 180) return 3;
    if (r > g + 60 && r > b + 60) return 0;
    if (g > r + 60 && g > b + 60) return 1;
    if (b > r + 60 && b > g + 60) return 2;
    if (r > b + margin && g > b + margin && abs(r - g) < margin) return 4;
    if (r > g + margin && b > g + margin && abs(r - b) < margin) return 5;
    return -1;
}

static bool near_rgb(const unsigned char *p, const unsigned char *q)
{
    return abs(p[0] - q[0]) + abs(p[1] - q[1]) + abs(p[2] - q[2]) <= 30;
}

/* Reads the screenshot at `path` (stb_image) into *pixels (free it) and counts its colours. */
static bool census(const char *path, unsigned char **pixels, int *w, int *h, Census *out)
{
    int channels = 0;
    *pixels = stbi_load(path, w, h, &channels, 3);
    memset(out, 0, sizeof *out);
    if (!*pixels) return false;
    out->total = (long)*w * *h;
    for (long i = 0; i < out->total; i++) {
        int kind = classify(*pixels + 3 * i);
        if (kind >= 0 && kind < 4) out->stripes[kind]++;
        out->yellow += kind == 4;
        out->magenta += kind == 5;
    }
    return true;
}

/* The stripes met along the middle row, left to right, in the order each first appears (4 when
 * all are met): *order gets their indices into stripe_colors. */
static int stripe_order(const unsigned char *pixels, int w, int h, int order[4])
{
    int found = 0;
    const unsigned char *row = pixels + 3 * (size_t)w * (size_t)(h / 2);
    for (int x = 0; x < w && found < 4; x++)
        for (int q = 0; q < 4; q++) {
            bool seen = false;
            for (int k = 0; k < found; k++) seen = seen || order[k] == q;
            if (!seen && classify(row + 3 * x) == q) order[found++] = q;
        }
    return found;
}

/* The screen columns of the quad (glTF u0 = 0.125, 0.375, 0.625, 0.875) sample the image at
 * u = fract(1.25 - u0) (TEXCOORD_1 = 1 - u0, then the offset 0.25): stripes 0, 3, 2, 1 (red,
 * white, blue, green). TEXCOORD_0 with the offset gives 1, 2, 3, 0; TEXCOORD_1 without it 3, 2,
 * 1, 0; neither 0, 1, 2, 3. */
static void test_screenshots(void)
{
    char model_path[sizeof dir + 32], bake[sizeof dir + 32], skinned_png[sizeof dir + 32], vat_png[sizeof dir + 32];
    snprintf(model_path, sizeof model_path, "%s/scene.glb", dir);
    snprintf(bake, sizeof bake, "%s/bake", dir);
    snprintf(skinned_png, sizeof skinned_png, "%s/skinned.png", dir);
    snprintf(vat_png, sizeof vat_png, "%s/vat.png", dir);
    if (!write_scene(model_path)) {
        CHECK(false, "write %s", model_path);
        return;
    }
    char command[2048], output[2048];
    snprintf(command, sizeof command, "'%s' '%s' --bake-vat '%s' --fps 2 --quiet 2>&1", SKINVIEW_BINARY, model_path, bake);
    CHECK(test_run_status(command, output, sizeof output) == 0, "--bake-vat: %s", output);
    const char *view = "--clip 0 --time 0 --no-grid --size 320x240";
    snprintf(command, sizeof command, "'%s' '%s' %s --screenshot '%s' 2>&1", SKINVIEW_BINARY, model_path, view, skinned_png);
    CHECK(test_run_status(command, output, sizeof output) == 0, "skinned --screenshot: %s", output);
    snprintf(command, sizeof command, "'%s' --vat '%s' %s --screenshot '%s' 2>&1", SKINVIEW_BINARY, bake, view, vat_png);
    CHECK(test_run_status(command, output, sizeof output) == 0, "--vat --screenshot: %s", output);
    unsigned char *a = NULL, *b = NULL;
    int wa = 0, ha = 0, wb = 0, hb = 0;
    Census skinned, vat;
    bool read = census(skinned_png, &a, &wa, &ha, &skinned) && census(vat_png, &b, &wb, &hb, &vat) && wa == wb && ha == hb;
    CHECK(read, "read both screenshots (same size)");
    if (read) {
        long differ = 0;
        for (long i = 0; i < skinned.total; i++)
            differ += !near_rgb(a + 3 * i, b + 3 * i);
        const Census *both[2] = {&skinned, &vat};
        for (int k = 0; k < 2; k++)
            printf("%s stripes %ld %ld %ld %ld, yellow %ld, magenta %ld\n", k ? "vat:    " : "skinned:", both[k]->stripes[0],
                   both[k]->stripes[1], both[k]->stripes[2], both[k]->stripes[3], both[k]->yellow, both[k]->magenta);
        printf("%ld of %ld pixels differ\n", differ, vat.total);
        CHECK(differ <= vat.total / 200, "the VAT screenshot is the skinned one (%ld pixels differ)", differ);
        int order[4] = {-1, -1, -1, -1}, found = stripe_order(b, wb, hb, order);
        printf("stripes along the middle row: %d %d %d %d\n", order[0], order[1], order[2], order[3]);
        CHECK(found == 4 && order[0] == 0 && order[1] == 3 && order[2] == 2 && order[3] == 1,
              "the stripes run red, white, blue, green: TEXCOORD_1 and the offset both apply");
        CHECK(vat.yellow > 200 && vat.yellow < 4000, "the lines are an outline (%ld pixels), not nothing or a fill",
              vat.yellow);
        CHECK(vat.magenta >= 3 && vat.magenta <= 40, "the points are a few pixels (%ld), not a triangle", vat.magenta);
    }
    stbi_image_free(a);
    stbi_image_free(b);
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : "io";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    if (strcmp(only, "io") == 0) {
        roundtrip(true);
        roundtrip(false);
    } else if (strcmp(only, "gfx") == 0) {
        test_screenshots();
    } else {
        CHECK(false, "unknown case %s", only);
    }
    char command[sizeof dir + 16];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    if (getenv("SKINVIEW_TEST_KEEP")) printf("kept %s\n", dir);   /* to look at the screenshots */
    else if (system(command) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return test_finish();
}
