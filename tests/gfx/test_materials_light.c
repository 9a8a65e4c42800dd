/* test_materials_light.c — the cases test_materials runs one at a time: --shadow's ground shadow
 * (gfx_shadow), the image-based light of an .hdr written here (gfx_environment), an OBJ's opacity
 * and bump maps (gfx_opacity), a VAT bake's mesh.glb keeping every map (gfx_vat_materials).
 * Part of the program test_materials (materials_fixture.h). */
#include "materials_fixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- --shadow, --environment, Assimp opacity and bump maps ---------------------------------- */

void test_shadow(void)
{
    Scene s;
    scene_init(&s);
    scene_sphere(&s, 0.5f, "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.8,0.8,0.8,1],\"metallicFactor\":0}}");
    Model model;
    if (!scene_load(&s, "shadow", &model)) return;
    RenderLight light;
    render_light_default(&light);
    glm_vec3_copy((vec3){1.0f, 1.0f, 0.0f}, light.direction);
    const float ground[4] = {-1.5f, 0.0f, 0.0f, 3.0f};
    Extras extras = {.shadow = ground};
    const float eye[3] = {0.0f, 4.0f, 6.0f}, target[3] = {0.0f, -1.5f, 0.0f};
    Render *with = malloc(sizeof *with), *without = malloc(sizeof *without);
    render_from(&model, eye, target, &light, &extras, with);
    render_from(&model, eye, target, &light, NULL, without);
    const unsigned char *in = pixel_at(with, -1.5f, -1.5f, 0.0f), *out = pixel_at(with, 1.2f, -1.5f, 0.0f);
    const unsigned char *edge = pixel_at(with, -1.5f, -1.5f, 0.5f), *off = pixel_at(without, -1.5f, -1.5f, 0.0f);
    float keep = 1.0f - RENDERER_SHADOW_STRENGTH;
    printf("shadow: in %d %d %d (expected %.0f %.0f %.0f), edge %d %d %d, outside %d %d %d, --shadow off %d %d %d\n",
           in[0], in[1], in[2], keep * background[0], keep * background[1], keep * background[2], edge[0], edge[1], edge[2],
           out[0], out[1], out[2], off[0], off[1], off[2]);
    CHECK(near(in, (int)lrintf(keep * background[0]), (int)lrintf(keep * background[1]), (int)lrintf(keep * background[2]), 1),
          "under the sphere along the light, the ground is darkened by the shadow's strength");
    CHECK(near(out, background[0], background[1], background[2], 0), "outside the shadow the ground is the background exactly");
    CHECK(edge[2] > in[2] + 2 && edge[2] < background[2] - 2, "the shadow's edge is soft (between shadow and background)");
    CHECK(near(off, background[0], background[1], background[2], 0), "without --shadow there is none");
    free(with);
    free(without);
    model_free(&model);
}

/* A Radiance file (flat, not run-length encoded): w x h pixels of rgb (RGBE: m * 2^(e - 136)). */
static void write_hdr(const char *path, const float *rgb, int w, int h)
{
    FILE *file = fopen(path, "wb");
    CHECK(file != NULL, "write %s", path);
    if (!file) return;
    fprintf(file, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n", h, w);
    for (int i = 0; i < w * h; i++) {
        const float *c = rgb + 3 * i;
        float peak = fmaxf(c[0], fmaxf(c[1], c[2]));
        unsigned char rgbe[4] = {0, 0, 0, 0};
        if (peak > 1e-32f) {
            int e;
            float scale = frexpf(peak, &e) * 256.0f / peak;   /* peak = f 2^e, f in [0.5, 1) */
            for (int k = 0; k < 3; k++) rgbe[k] = (unsigned char)(c[k] * scale);
            rgbe[3] = (unsigned char)(e + 128);
        }
        fwrite(rgbe, 1, 4, file);
    }
    fclose(file);
}

void test_environment(void)
{
    enum { EW = 16, EH = 8 };
    float uniform[EW * EH * 3], split[EW * EH * 3];
    for (int i = 0; i < EW * EH; i++)
        for (int c = 0; c < 3; c++) {
            uniform[3 * i + c] = 0.5f;
            split[3 * i + c] = i / EW < EH / 2 ? (c == 0 ? 1.0f : 0.1f) : (c == 2 ? 1.0f : 0.1f);
        }
    EnvironmentLight prefiltered;
    CHECK(environment_prefilter(uniform, EW, EH, &prefiltered), "environment_prefilter");
    /* E(n) / pi = sum_lm sh_lm Y_lm(n): for a constant only Y_00 = 0.282095 remains */
    float diffuse = prefiltered.sh[0][1] * 0.282095f, worst = 0.0f;
    for (int level = 0; level < ENVIRONMENT_LEVELS; level++) {
        int texels = (ENVIRONMENT_WIDTH >> level) * ((ENVIRONMENT_WIDTH / 2) >> level);
        for (int t = 0; t < 3 * texels; t++) worst = fmaxf(worst, fabsf(prefiltered.levels[level][t] - 0.5f));
    }
    float band1 = fabsf(prefiltered.sh[1][0]) + fabsf(prefiltered.sh[2][0]) + fabsf(prefiltered.sh[3][0]);
    printf("environment: uniform 0.5 -> diffuse %.4f, specular levels within %.5f, band-1 sum %.5f\n", diffuse, worst, band1);
    CHECK(fabsf(diffuse - 0.5f) < 0.005f, "a uniform environment's irradiance / pi is its radiance");
    CHECK(worst < 1e-4f, "every prefiltered level of a uniform environment is its radiance");
    CHECK(band1 < 1e-3f, "a uniform environment has no directional harmonics");
    environment_light_free(&prefiltered);

    char path[sizeof dir + 32], error[512];
    snprintf(path, sizeof path, "%s/split.hdr", dir);
    write_hdr(path, split, EW, EH);
    float *rgb = NULL;
    int w = 0, h = 0;
    CHECK(hdr_image_load(path, &rgb, &w, &h, error, sizeof error) && w == EW && h == EH, "read the .hdr back: %s", error);
    if (rgb) CHECK(fabsf(rgb[0] - 1.0f) < 0.01f && fabsf(rgb[3 * EW * EH - 1] - 1.0f) < 0.01f, "RGBE decodes");

    Scene s;
    scene_init(&s);
    scene_sphere(&s, 1.0f, "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,1,1,1],\"metallicFactor\":0,\"roughnessFactor\":1}}");
    Model model;
    if (rgb && scene_load(&s, "environment", &model)) {
        RenderLight light;
        pbr_directional(&light, 0, 1, 0, 0.0f);   /* no key light: only the environment */
        Extras extras = {.environment = rgb, .environment_width = w, .environment_height = h};
        Render *r = malloc(sizeof *r);
        render_from(&model, (float[3]){0, 0, 5}, (float[3]){0, 0, 0}, &light, &extras, r);
        const unsigned char *top = pixel_at(r, 0, 0.9f, 0.4f), *bottom = pixel_at(r, 0, -0.9f, 0.4f);
        printf("environment: sphere top %d %d %d, bottom %d %d %d\n", top[0], top[1], top[2], bottom[0], bottom[1], bottom[2]);
        CHECK(top[0] > top[2] + 60, "the red sky lights the top red");
        CHECK(bottom[2] > bottom[0] + 60, "the blue ground lights the bottom blue");
        free(r);
        model_free(&model);
    }
    free(rgb);

    snprintf(path, sizeof path, "%s/not.hdr", dir);
    FILE *file = fopen(path, "wb");
    if (file) {
        fputs("no image here\n", file);
        fclose(file);
    }
    CHECK(!hdr_image_check(path, error, sizeof error) && strstr(error, path) && !strchr(error, '\n'),
          "a file that is not Radiance is refused with one line naming it: %s", error);
    snprintf(path, sizeof path, "%s/image0.png", dir);   /* written by the earlier cases: a PNG is not HDR */
    unsigned char png[4 * 4 * 4] = {0};
    CHECK(app_write_png(path, 4, 4, png, error, sizeof error), "write %s", path);
    CHECK(!hdr_image_check(path, error, sizeof error), "a PNG is refused: %s", error);
}

/* `model` from (0, 0, 5) under ambient 1, flat (the colours as they are); the caller frees it. */
static Render *render_flat(const Model *model)
{
    RenderLight light;
    flat_white(&light);
    Render *r = malloc(sizeof *r);
    if (r) render(model, 5.0f, &light, r);
    return r;
}

void test_opacity_and_bump(void)
{
    unsigned char red[16 * 16 * 4], opacity[16 * 16 * 4], height[16 * 16 * 4];
    for (int i = 0; i < 16 * 16; i++) {
        int x = i % 16;
        memcpy(red + 4 * i, (unsigned char[4]){255, 0, 0, 255}, 4);
        unsigned char o = x < 8 ? 255 : 0, ramp = (unsigned char)(x * 17);   /* h = x / 15 */
        memcpy(opacity + 4 * i, (unsigned char[4]){o, o, o, 255}, 4);
        memcpy(height + 4 * i, (unsigned char[4]){ramp, ramp, ramp, 255}, 4);
    }
    char path[sizeof dir + 32], error[256];
    const char *names[3] = {"red.png", "opacity.png", "height.png"};
    const unsigned char *images[3] = {red, opacity, height};
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        CHECK(app_write_png(path, 16, 16, images[k], error, sizeof error), "write %s: %s", path, error);
    }
    snprintf(path, sizeof path, "%s/cutout.mtl", dir);
    FILE *file = fopen(path, "w");
    if (file) {
        fputs("newmtl cutout\nKd 1 1 1\nmap_Kd red.png\nmap_d opacity.png\nmap_bump height.png\n", file);
        fclose(file);
    }
    snprintf(path, sizeof path, "%s/cutout.obj", dir);
    file = fopen(path, "w");
    if (file) {
        fputs("mtllib cutout.mtl\nv -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 0 1\n"
              "usemtl cutout\nf 1/1/1 2/2/1 3/3/1\nf 1/1/1 3/3/1 4/4/1\n",
              file);
        fclose(file);
    }
    Model model;
    memset(&model, 0, sizeof model);
    if (!app_load_model(path, &(ImportOptions){0}, &model)) {
        CHECK(false, "import %s", path);
        return;
    }
    int used = model.mesh_count > 0 ? model.meshes[0].material : -1;   /* Assimp puts its default material first */
    const Material *material = used >= 0 && used < model.material_count ? &model.materials[used] : NULL;
    CHECK(material && material->alpha_mode == MATERIAL_ALPHA_MASK, "a cut-out opacity map makes the material MASK");
    int normal = material ? material->normal_map.texture : -1;
    CHECK(normal >= 0 && normal < model.texture_count, "the height map becomes a normal map");
    if (normal >= 0 && normal < model.texture_count) {
        const unsigned char *texel = model.textures[normal].rgba + 4 * (16 * 8 + 8);
        /* dh/dx = 1/15 per texel: n = normalize(-2/15, 0, 1) = (-0.132, 0, 0.991) */
        printf("bump: normal texel %d %d %d (expected 111 128 254)\n", texel[0], texel[1], texel[2]);
        CHECK(abs(texel[0] - 111) <= 1 && abs(texel[1] - 128) <= 1 && abs(texel[2] - 254) <= 1,
              "the normal map tilts by the height map's slope");
    }
    Render *r = render_flat(&model);
    const unsigned char *left = pixel_at(r, -0.5f, 0.0f, 0), *right = pixel_at(r, 0.5f, 0.0f, 0);
    printf("opacity: left %d %d %d, right %d %d %d\n", left[0], left[1], left[2], right[0], right[1], right[2]);
    CHECK(near(left, 255, 0, 0, 1), "opacity 1: the diffuse texture shows");
    CHECK(near(right, background[0], background[1], background[2], 0), "opacity 0: the background shows exactly");
    free(r);
    model_free(&model);
}

void test_vat_materials(void)
{
    unsigned char texels[4 * 4 * 4];
    memset(texels, 200, sizeof texels);
    Scene s;
    scene_init(&s);
    int t = scene_image(&s, texels, 4, 4);
    char material[640];
    snprintf(material, sizeof material,
             "{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":%d},\"metallicRoughnessTexture\":{\"index\":%d},"
             "\"metallicFactor\":0.25,\"roughnessFactor\":0.5},\"normalTexture\":{\"index\":%d,\"scale\":0.5},"
             "\"occlusionTexture\":{\"index\":%d,\"strength\":0.75},\"emissiveTexture\":{\"index\":%d},"
             "\"emissiveFactor\":[0.5,0.25,0],\"alphaMode\":\"MASK\",\"alphaCutoff\":0.375}",
             t, t, t, t, t);
    const float colors[12] = {1, 0.5f, 0.25f, 1, 0.5f, 0.25f, 1, 0.5f, 0.25f, 1, 0.5f, 0.25f};
    scene_quad(&s, 0, 0, 0, 1.0f, false, NULL, colors, 5126, material);
    Model model, baked;
    if (!scene_load(&s, "vat_source", &model)) return;
    char path[sizeof dir + 32], error[512];
    snprintf(path, sizeof path, "%s/mesh.glb", dir);
    const Mesh *mesh = &model.meshes[0];
    CHECK(vat_export_mesh(path, &model, mesh->positions, mesh->normals, error, sizeof error), "vat_export_mesh: %s", error);
    memset(&baked, 0, sizeof baked);
    if (!app_load_model(path, &(ImportOptions){0}, &baked) || baked.mesh_count < 1) {
        CHECK(false, "import %s", path);
        model_free(&model);
        return;
    }
    int used = baked.meshes[0].material;
    const Material *m = used >= 0 && used < baked.material_count ? &baked.materials[used] : NULL;
    CHECK(m != NULL, "the baked mesh has its material");
    if (m) {
        printf("vat: normal %d x %.3f, occlusion %d x %.3f, metallic-roughness %d (%.3f %.3f), emissive %d (%.3f %.3f %.3f), "
               "alpha %d cutoff %.3f, colours %s\n",
               m->normal_map.texture, m->normal_scale, m->occlusion_map.texture, m->occlusion_strength,
               m->metallic_roughness_map.texture, m->metallic_factor, m->roughness_factor, m->emissive_map.texture,
               m->emissive_factor[0], m->emissive_factor[1], m->emissive_factor[2], (int)m->alpha_mode, m->alpha_cutoff,
               baked.meshes[0].colors ? "yes" : "no");
        CHECK(m->normal_map.texture >= 0 && fabsf(m->normal_scale - 0.5f) < 1e-6f, "normal map and scale");
        CHECK(m->occlusion_map.texture >= 0 && fabsf(m->occlusion_strength - 0.75f) < 1e-6f, "occlusion and strength");
        CHECK(m->metallic_roughness_map.texture >= 0 && fabsf(m->metallic_factor - 0.25f) < 1e-6f &&
                  fabsf(m->roughness_factor - 0.5f) < 1e-6f,
              "metallic-roughness map and factors");
        CHECK(m->emissive_map.texture >= 0 && fabsf(m->emissive_factor[0] - 0.5f) < 1e-6f &&
                  fabsf(m->emissive_factor[1] - 0.25f) < 1e-6f,
              "emissive map and factor");
        CHECK(m->alpha_mode == MATERIAL_ALPHA_MASK && fabsf(m->alpha_cutoff - 0.375f) < 1e-6f, "MASK and its cutoff");
    }
    CHECK(baked.meshes[0].colors && fabsf(baked.meshes[0].colors[0][1] - 0.5f) < 1e-6f, "vertex colours");
    model_free(&baked);
    model_free(&model);
}
