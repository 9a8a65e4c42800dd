/* test_materials.c — materials and lights read back from real renders (src/gfx/renderer*.c,
 * shaders/skinned.frag, docs/materials.md), on small glTF files written here:
 *   - alpha MASK: a quad whose texture's alpha is below the cutoff in two quadrants shows the
 *     background exactly there, the texture elsewhere;
 *   - alpha BLEND: two half-transparent quads (red, blue) between two single-sided opaque ones
 *     (green faces the front camera, yellow the back one) show src * a + dst * (1 - a) composited
 *     in depth order from the front and from the back (sorting), and single-sided faces are culled;
 *   - a normal-mapped plane (generated tangents) lit from +X brightens toward the side whose
 *     map normals face the light, lit from -X the other way; the same plane without its map is
 *     uniform; a TANGENT in the file pointing along -u mirrors the gradient;
 *   - metallic 1 / roughness 0 vs metallic 0 / roughness 1 on a sphere: the smooth metal has a small
 *     near-white highlight and is dark elsewhere, the rough dielectric is broadly lit and has none;
 *   - vertex colours (COLOR_0: float VEC3 and normalized unsigned byte VEC4) come through exactly;
 *   - emissive (x KHR_materials_emissive_strength) shows with no light at all;
 *   - KHR_texture_transform (offset, rotation, scale; texCoord override) moves the texture as the
 *     extension says (worked out here from its formula, independent of the renderer's matrix).
 *   - with an argument, one more case each: "shadow" (gfx_shadow), "environment"
 *     (gfx_environment), "opacity" (gfx_opacity: an OBJ's opacity and bump maps), "vat"
 *     (gfx_vat_materials: a VAT bake's mesh.glb keeps every map).
 * Offscreen GL (glcontext_create_offscreen), the real shaders (from the source tree). */
#include "testutil.h"
#include "app/commands.h"
#include "app/glcontext.h"
#include "gfx/gl.h"
#include "gfx/framebuffer.h"
#include "gfx/renderer.h"
#include "io/hdr_image.h"
#include "io/vat_mesh.h"
#include "materials_fixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_alpha_mask(void)
{
    static const unsigned char colors[4][4] = {{255, 0, 0, 255}, {0, 255, 0, 60}, {0, 0, 255, 200}, {255, 255, 255, 0}};
    unsigned char texels[16 * 16 * 4];
    quadrant_texture(texels, colors);
    Scene s;
    scene_init(&s);
    int texture = scene_image(&s, texels, 16, 16);
    char material[256];
    snprintf(material, sizeof material,
             "{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":%d}},\"alphaMode\":\"MASK\",\"alphaCutoff\":0.5}", texture);
    Model model;
    Render *r = render_material_quad(&s, "mask", material, &model);
    if (!r) return;
    /* quadrant centres at (+-0.5, +-0.5): top-left red, top-right cut, bottom-left blue, bottom-right cut */
    const unsigned char *tl = pixel_at(r, -0.5f, 0.5f, 0), *tr = pixel_at(r, 0.5f, 0.5f, 0);
    const unsigned char *bl = pixel_at(r, -0.5f, -0.5f, 0), *br = pixel_at(r, 0.5f, -0.5f, 0);
    printf("mask: tl %d %d %d, tr %d %d %d, bl %d %d %d, br %d %d %d\n", tl[0], tl[1], tl[2], tr[0], tr[1], tr[2], bl[0], bl[1],
           bl[2], br[0], br[1], br[2]);
    CHECK(near(tl, 255, 0, 0, 1), "MASK: alpha 255 >= cutoff shows the texel (red)");
    CHECK(near(bl, 0, 0, 255, 1), "MASK: alpha 200 >= cutoff shows the texel (blue)");
    CHECK(near(tr, background[0], background[1], background[2], 0), "MASK: alpha 60 < cutoff shows the background exactly");
    CHECK(near(br, background[0], background[1], background[2], 0), "MASK: alpha 0 shows the background exactly");
    CHECK(tl[3] == 255 && bl[3] == 255, "MASK writes opaque alpha where it draws");
    free(r);
    model_free(&model);
}

static void test_alpha_blend(void)
{
    Scene s;
    scene_init(&s);
    /* opaque single-sided: green at z = -2 facing +Z (front camera), yellow at z = +2 facing -Z (back camera) */
    scene_quad(&s, 0, 0, -2.0f, 1.5f, false, NULL, NULL, 0,
               "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0,1,0,1]}}");
    scene_quad(&s, 0, 0, 2.0f, 1.5f, true, NULL, NULL, 0, "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,1,0,1]}}");
    /* blended double-sided, listed far-first for neither camera: blue at z = -0.5 first, red at +0.5 */
    scene_quad(&s, 0, 0, -0.5f, 0.6f, false, NULL, NULL, 0,
               "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0,0,1,0.5]},\"alphaMode\":\"BLEND\",\"doubleSided\":true}");
    scene_quad(&s, 0, 0, 0.5f, 0.6f, false, NULL, NULL, 0,
               "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,0,0,0.5]},\"alphaMode\":\"BLEND\",\"doubleSided\":true}");
    Model model;
    if (!scene_load(&s, "blend", &model)) return;
    RenderLight light;
    flat_white(&light);
    Render *r = malloc(sizeof *r);
    for (int side = 0; side < 2; side++) {
        float eye = side == 0 ? 6.0f : -6.0f;
        render(&model, eye, &light, r);
        /* linear compositing far to near: front = red over blue over green; back = blue over red over yellow */
        float far_rgb[3] = {side == 0 ? 0.0f : 1.0f, 1.0f, 0.0f};
        float first[3] = {side == 0 ? 0.0f : 1.0f, 0.0f, side == 0 ? 1.0f : 0.0f};   /* the farther blended quad */
        float last[3] = {side == 0 ? 1.0f : 0.0f, 0.0f, side == 0 ? 0.0f : 1.0f};    /* the nearer one */
        float expected[3], wrong[3];
        for (int c = 0; c < 3; c++) {
            expected[c] = 0.5f * last[c] + 0.5f * (0.5f * first[c] + 0.5f * far_rgb[c]);
            wrong[c] = 0.5f * first[c] + 0.5f * (0.5f * last[c] + 0.5f * far_rgb[c]);
        }
        const unsigned char *centre = pixel_at(r, 0, 0, 0), *rim = pixel_at(r, 1.3f, 0, side == 0 ? -2.0f : 2.0f);
        printf("blend %s: centre %d %d %d (expected %d %d %d, unsorted would be %d %d %d), rim %d %d %d\n",
               side == 0 ? "front" : "back", centre[0], centre[1], centre[2], linear_to_srgb8(expected[0]),
               linear_to_srgb8(expected[1]), linear_to_srgb8(expected[2]), linear_to_srgb8(wrong[0]),
               linear_to_srgb8(wrong[1]), linear_to_srgb8(wrong[2]), rim[0], rim[1], rim[2]);
        CHECK(near(centre, linear_to_srgb8(expected[0]), linear_to_srgb8(expected[1]), linear_to_srgb8(expected[2]), 2),
              "BLEND from the %s: both blended quads over the opaque one, composited far to near", side == 0 ? "front" : "back");
        CHECK(centre[3] == 255, "blending over an opaque background keeps alpha 1 (%d)", centre[3]);
        CHECK(near(rim, linear_to_srgb8(far_rgb[0]), linear_to_srgb8(far_rgb[1]), linear_to_srgb8(far_rgb[2]), 1),
              "outside the blended quads the opaque quad facing the %s camera shows (the other is culled: single-sided)",
              side == 0 ? "front" : "back");
    }
    free(r);
    model_free(&model);
}

/* A 16x1 normal map whose normal turns about Y from -60 degrees (u = 0) to +60 degrees (u = 1):
 * n = (sin a, 0, cos a), stored as n * 0.5 + 0.5 */
static void tilted_normal_map(unsigned char out[16 * 4 * 4])
{
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 16; x++) {
            float a = glm_rad(-60.0f + 120.0f * ((float)x + 0.5f) / 16.0f);
            unsigned char *p = out + 4 * (16 * y + x);
            p[0] = (unsigned char)lrintf(255.0f * (0.5f + 0.5f * sinf(a)));
            p[1] = 128;
            p[2] = (unsigned char)lrintf(255.0f * (0.5f + 0.5f * cosf(a)));
            p[3] = 255;
        }
}

/* Luminance at 5 points along the quad's X (its u) */
static void row_luminance(const Render *r, float out[5])
{
    for (int i = 0; i < 5; i++) out[i] = luminance(pixel_at(r, -0.8f + 0.4f * (float)i, 0.0f, 0.0f));
}

static void test_normal_map(void)
{
    unsigned char texels[16 * 4 * 4];
    tilted_normal_map(texels);
    const float reversed[16] = {-1, 0, 0, 1, -1, 0, 0, 1, -1, 0, 0, 1, -1, 0, 0, 1};   /* tangent along -u */
    for (int variant = 0; variant < 3; variant++) {   /* 0: generated tangents, 1: no map, 2: TANGENT = -u */
        Scene s;
        scene_init(&s);
        int texture = scene_image(&s, texels, 16, 4);
        char material[256];
        if (variant == 1)
            snprintf(material, sizeof material, "{\"pbrMetallicRoughness\":{\"metallicFactor\":0,\"roughnessFactor\":1}}");
        else
            snprintf(material, sizeof material,
                     "{\"pbrMetallicRoughness\":{\"metallicFactor\":0,\"roughnessFactor\":1},\"normalTexture\":{\"index\":%d}}",
                     texture);
        scene_quad(&s, 0, 0, 0, 1.0f, false, variant == 2 ? reversed : NULL, NULL, 0, material);
        Model model;
        char name[32];
        snprintf(name, sizeof name, "normal%d", variant);
        if (!scene_load(&s, name, &model)) return;
        CHECK(variant != 2 || model.meshes[0].tangents, "the file's TANGENT is read");
        Render *r = malloc(sizeof *r);
        for (int from = 0; from < 2; from++) {
            RenderLight light;
            float lx = from == 0 ? 1.0f : -1.0f;   /* 60 degrees off the normal, toward +X or -X */
            pbr_directional(&light, lx * sinf(glm_rad(60.0f)), 0.0f, cosf(glm_rad(60.0f)), 2.0f);
            render(&model, 5.0f, &light, r);
            float l[5];
            row_luminance(r, l);
            printf("normal map %s, light from %s: %.3f %.3f %.3f %.3f %.3f\n",
                   variant == 0 ? "generated tangents" : variant == 1 ? "none" : "TANGENT -u", from == 0 ? "+X" : "-X", l[0],
                   l[1], l[2], l[3], l[4]);
            if (variant == 1) {
                CHECK(fabsf(l[0] - l[4]) < 0.02f && fabsf(l[0] - l[2]) < 0.02f, "no normal map: the plane is uniform");
                continue;
            }
            /* expected: brightness follows max(n(u) . l, 0); n(u) turns toward +X as u grows (the -u
             * tangent mirrors it), so it rises toward the light's side */
            bool rising = (from == 0) == (variant == 0);
            bool monotonic = true;
            for (int i = 0; i + 1 < 5; i++) monotonic = monotonic && (rising ? l[i + 1] > l[i] : l[i + 1] < l[i]);
            CHECK(monotonic, "normal map: brightness %s along u", rising ? "rises" : "falls");
            float lo = rising ? l[0] : l[4], hi = rising ? l[4] : l[0];
            /* at the ends n.l = cos(60 +- 48) (the texel centres 0.1 and 0.9 of u): 0.21 vs 0.99 */
            CHECK(hi > 2.5f * lo, "normal map: the lit end is much brighter than the far end (%.3f vs %.3f)", hi, lo);
        }
        free(r);
        model_free(&model);
    }
}

static void test_metal_rough(void)
{
    float peak[2], median[2];
    int bright[2];
    for (int k = 0; k < 2; k++) {
        Scene s;
        scene_init(&s);
        scene_sphere(&s, 1.0f, k == 0 ? "{\"pbrMetallicRoughness\":{\"metallicFactor\":1,\"roughnessFactor\":0}}"
                                      : "{\"pbrMetallicRoughness\":{\"metallicFactor\":0,\"roughnessFactor\":1}}");
        Model model;
        if (!scene_load(&s, k == 0 ? "metal" : "rough", &model)) return;
        RenderLight light;
        pbr_directional(&light, 0.3f, 0.4f, 1.0f, 2.0f);   /* from near the camera */
        glm_vec3_fill(light.sky, 0.02f);
        glm_vec3_fill(light.ground, 0.02f);
        Render *r = malloc(sizeof *r);
        render(&model, 5.0f, &light, r);
        static float values[W * H];
        int n = 0;
        peak[k] = 0.0f;
        bright[k] = 0;
        for (int i = 0; i < W * H; i++) {
            const unsigned char *p = r->pixels + 4 * i;
            if (near(p, background[0], background[1], background[2], 0)) continue;
            float y = luminance(p);
            values[n++] = y;
            if (y > peak[k]) peak[k] = y;
            bright[k] += y > 0.8f;
        }
        /* median by partial selection: sort is fine for 25 600 values */
        for (int i = 1; i < n; i++) {
            float v = values[i];
            int j = i;
            while (j > 0 && values[j - 1] > v) values[j] = values[j - 1], j--;
            values[j] = v;
        }
        median[k] = n > 0 ? values[n / 2] : 0.0f;
        printf("%s: %d sphere pixels, peak luminance %.3f, %d above 0.8, median %.3f\n",
               k == 0 ? "metallic 1 roughness 0" : "metallic 0 roughness 1", n, peak[k], bright[k], median[k]);
        CHECK(n > 2000, "the sphere is in the picture");
        free(r);
        model_free(&model);
    }
    CHECK(peak[0] > 0.8f && bright[0] > 0 && bright[0] < 400, "smooth metal: a small near-white highlight (%d pixels)",
          bright[0]);
    CHECK(bright[1] == 0 && peak[1] < 0.75f, "rough dielectric: no highlight above 0.8 (peak %.3f)", peak[1]);
    CHECK(peak[0] > peak[1] + 0.2f, "the smooth metal's highlight is brighter than anything on the rough one");
    CHECK(median[1] > 3.0f * median[0], "away from the highlight the smooth metal is dark, the rough dielectric lit "
                                        "(median %.3f vs %.3f)", median[0], median[1]);
}

static void test_vertex_colors(void)
{
    Scene s;
    scene_init(&s);
    const float orange[12] = {1, 0.5f, 0, 1, 0.5f, 0, 1, 0.5f, 0, 1, 0.5f, 0};   /* linear, float VEC3 */
    const unsigned char teal[16] = {0, 128, 255, 255, 0, 128, 255, 255, 0, 128, 255, 255, 0, 128, 255, 255};
    scene_quad(&s, -1.1f, 0, 0, 0.9f, false, NULL, orange, 5126, "{\"pbrMetallicRoughness\":{}}");
    scene_quad(&s, 1.1f, 0, 0, 0.9f, false, NULL, teal, 5121,
               "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,1,1,1]}}");
    Model model;
    if (!scene_load(&s, "colors", &model)) return;
    CHECK(model.meshes[0].colors && model.meshes[1].colors, "COLOR_0 read for both meshes");
    RenderLight light;
    flat_white(&light);
    Render *r = malloc(sizeof *r);
    render(&model, 6.0f, &light, r);
    const unsigned char *a = pixel_at(r, -1.1f, 0, 0), *b = pixel_at(r, 1.1f, 0, 0);
    printf("vertex colours: %d %d %d and %d %d %d\n", a[0], a[1], a[2], b[0], b[1], b[2]);
    CHECK(near(a, 255, linear_to_srgb8(0.5f), 0, 1), "float VEC3 COLOR_0 (1, 0.5, 0) comes through");
    CHECK(near(b, 0, linear_to_srgb8(128.0f / 255.0f), 255, 1), "normalized byte VEC4 COLOR_0 comes through");
    free(r);
    model_free(&model);
}

static void test_emissive(void)
{
    Scene s;
    scene_init(&s);
    scene_quad(&s, 0, 0, 0, 1.0f, false, NULL, NULL, 0,
               "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0,0,0,1]},\"emissiveFactor\":[0,0.25,0.1],"
               "\"extensions\":{\"KHR_materials_emissive_strength\":{\"emissiveStrength\":2}}}");
    Model model;
    if (!scene_load(&s, "emissive", &model)) return;
    RenderLight light;
    pbr_directional(&light, 0, 0, 1, 0.0f);   /* no light at all */
    Render *r = malloc(sizeof *r);
    render(&model, 5.0f, &light, r);
    const unsigned char *p = pixel_at(r, 0, 0, 0);
    /* (0, 0.5, 0.2) through the tone map: min channel 0 (no offset), peak 0.5 < 0.76 (unchanged) */
    printf("emissive: %d %d %d (expected %d %d %d)\n", p[0], p[1], p[2], 0, linear_to_srgb8(0.5f), linear_to_srgb8(0.2f));
    CHECK(near(p, 0, linear_to_srgb8(0.5f), linear_to_srgb8(0.2f), 2), "emissive x strength shows with no light");
    free(r);
    model_free(&model);
}

/* The quadrant (0 tl, 1 tr, 2 bl, 3 br) of glTF UV uv after KHR_texture_transform, as the
 * extension defines it: uv' = T * R * S * uv, R = [cos sin; -sin cos] (wrapping with REPEAT). */
static int transformed_quadrant(float u, float v, const float offset[2], float rotation, const float scale[2])
{
    float su = scale[0] * u, sv = scale[1] * v;
    float ru = cosf(rotation) * su + sinf(rotation) * sv, rv = -sinf(rotation) * su + cosf(rotation) * sv;
    float tu = ru + offset[0], tv = rv + offset[1];
    tu -= floorf(tu);
    tv -= floorf(tv);
    return (tv >= 0.5f ? 2 : 0) + (tu >= 0.5f ? 1 : 0);
}

static void test_texture_transform(void)
{
    static const unsigned char colors[4][4] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 255}};
    unsigned char texels[16 * 16 * 4];
    quadrant_texture(texels, colors);
    struct { float offset[2], rotation, scale[2]; int texcoord; } cases[] = {
        {{0.0f, 0.0f}, 0.0f, {1.0f, 1.0f}, -1},
        {{0.5f, 0.0f}, 0.0f, {1.0f, 1.0f}, -1},
        {{0.0f, 0.5f}, 0.0f, {1.0f, 1.0f}, 1},
        {{0.0f, 0.0f}, GLM_PIf / 2.0f, {1.0f, 1.0f}, -1},
        {{0.25f, 0.25f}, 0.0f, {0.5f, 0.5f}, -1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        Scene s;
        scene_init(&s);
        int texture = scene_image(&s, texels, 16, 16);
        char material[512], texcoord[32] = "";
        if (cases[c].texcoord >= 0) snprintf(texcoord, sizeof texcoord, ",\"texCoord\":%d", cases[c].texcoord);
        snprintf(material, sizeof material,
                 "{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":%d,\"extensions\":{\"KHR_texture_transform\":"
                 "{\"offset\":[%g,%g],\"rotation\":%.9g,\"scale\":[%g,%g]%s}}}}}",
                 texture, cases[c].offset[0], cases[c].offset[1], cases[c].rotation, cases[c].scale[0], cases[c].scale[1],
                 texcoord);
        Model model;
        Render *r = render_material_quad(&s, "transform", material, &model);
        if (!r) return;
        int matches = 0, points = 0;
        for (int iy = 0; iy < 4; iy++)
            for (int ix = 0; ix < 4; ix++) {
                /* sample points at glTF UV (0.125 + 0.25 i, 0.125 + 0.25 j), away from the quadrant edges */
                float u = 0.125f + 0.25f * (float)ix, v = 0.125f + 0.25f * (float)iy;
                int q = transformed_quadrant(u, v, cases[c].offset, cases[c].rotation, cases[c].scale);
                const unsigned char *p = pixel_at(r, -1.0f + 2.0f * u, 1.0f - 2.0f * v, 0.0f);
                points++;
                matches += near(p, colors[q][0], colors[q][1], colors[q][2], 2);
                if (!near(p, colors[q][0], colors[q][1], colors[q][2], 2))
                    printf("  glTF uv (%.3f, %.3f): quadrant %d expected, pixel %d %d %d\n", u, v, q, p[0], p[1], p[2]);
            }
        printf("KHR_texture_transform offset (%g, %g) rotation %.3f scale (%g, %g)%s: %d of %d sample points match\n",
               cases[c].offset[0], cases[c].offset[1], cases[c].rotation, cases[c].scale[0], cases[c].scale[1],
               cases[c].texcoord >= 0 ? " texCoord 1" : "", matches, points);
        CHECK(matches == points, "KHR_texture_transform case %zu moves the texture as the extension says", c);
        free(r);
        model_free(&model);
    }
}

int main(int argc, char **argv)
{
    /* no argument: the material cases (gfx_materials); "shadow", "environment" or "opacity": that case */
    const char *only = argc > 1 ? argv[1] : NULL;
    GlContext context = {0};
    char error[512];
    if (!glcontext_create_offscreen(&context, error, sizeof error)) {
        fprintf(stderr, "no OpenGL context: %s\n", error);
        return TEST_SKIP_CODE;
    }
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    if (!only) {
        test_alpha_mask();
        test_alpha_blend();
        test_normal_map();
        test_metal_rough();
        test_vertex_colors();
        test_emissive();
        test_texture_transform();
    } else if (strcmp(only, "shadow") == 0) {
        test_shadow();
    } else if (strcmp(only, "environment") == 0) {
        test_environment();
    } else if (strcmp(only, "opacity") == 0) {
        test_opacity_and_bump();
    } else if (strcmp(only, "vat") == 0) {
        test_vat_materials();
    } else {
        CHECK(false, "unknown case %s", only);
    }
    glcontext_destroy(&context);
    test_remove_folder(dir);
    return test_finish();
}
