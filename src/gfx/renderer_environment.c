/* renderer_environment.c — --environment FILE.hdr: image-based ambient light from an
 * equirectangular (latitude-longitude) radiance image, prefiltered once on the CPU at load:
 *   - diffuse: the irradiance as 9 spherical-harmonic coefficients (Ramamoorthi & Hanrahan 2001):
 *     L_lm = sum over texels of L(w) Y_lm(w) dw, then E(n) / pi = sum_lm (A_l / pi) L_lm Y_lm(n)
 *     with A_0 = pi, A_1 = 2 pi / 3, A_2 = pi / 4 (skinned.frag multiplies by c_diff);
 *   - specular: ENVIRONMENT_LEVELS mip levels of one texture, level k prefiltered for roughness
 *     k / (levels - 1): each texel the radiance around its direction R weighted by the lobe
 *     (R . w)^s dw with s = 2 / alpha^2 - 2 (the Phong exponent of GGX alpha = roughness^2; the
 *     split-sum assumption N = V = R), level 0 the image itself (box-downsampled). skinned.frag
 *     reads it with textureLod(roughness * (levels - 1)) and the EnvBRDFApprox fit as before.
 * Directions: +Y up; the image's centre column looks along -Z, u = 0.5 + atan2(x, -z) / (2 pi),
 * v = acos(y) / pi from the top row. */
#include "renderer_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The direction of texel centre (x, y) of a w x h latitude-longitude image, and its solid angle. */
static float texel_direction(int x, int y, int w, int h, vec3 out)
{
    float theta = GLM_PIf * ((float)y + 0.5f) / (float)h;              /* from +Y down */
    float phi = 2.0f * GLM_PIf * (((float)x + 0.5f) / (float)w - 0.5f);  /* from -Z toward +X */
    out[0] = sinf(theta) * sinf(phi);
    out[1] = cosf(theta);
    out[2] = -sinf(theta) * cosf(phi);
    return (2.0f * GLM_PIf / (float)w) * (GLM_PIf / (float)h) * sinf(theta);   /* dw = dphi dtheta sin(theta) */
}

/* The 9 real spherical harmonics Y_00 .. Y_22 at unit direction d. */
static void sh_basis(const vec3 d, float y[9])
{
    y[0] = 0.282095f;
    y[1] = 0.488603f * d[1];
    y[2] = 0.488603f * d[2];
    y[3] = 0.488603f * d[0];
    y[4] = 1.092548f * d[0] * d[1];
    y[5] = 1.092548f * d[1] * d[2];
    y[6] = 0.315392f * (3.0f * d[2] * d[2] - 1.0f);
    y[7] = 1.092548f * d[0] * d[2];
    y[8] = 0.546274f * (d[0] * d[0] - d[1] * d[1]);
}

/* `in` (w x h RGB) box-averaged to ow x oh (w, h multiples not required: each output texel
 * averages the input texels whose centres fall in it, at least one). */
static void downsample(const float *in, int w, int h, float *out, int ow, int oh)
{
    for (int oy = 0; oy < oh; oy++)
        for (int ox = 0; ox < ow; ox++) {
            int x0 = ox * w / ow, x1 = (ox + 1) * w / ow, y0 = oy * h / oh, y1 = (oy + 1) * h / oh;
            if (x1 <= x0) x1 = x0 + 1;
            if (y1 <= y0) y1 = y0 + 1;
            double sum[3] = {0, 0, 0};
            for (int y = y0; y < y1; y++)
                for (int x = x0; x < x1; x++)
                    for (int c = 0; c < 3; c++) sum[c] += in[3 * ((size_t)y * (size_t)w + (size_t)x) + (size_t)c];
            double n = (double)(x1 - x0) * (double)(y1 - y0);
            for (int c = 0; c < 3; c++) out[3 * ((size_t)oy * (size_t)ow + (size_t)ox) + (size_t)c] = (float)(sum[c] / n);
        }
}

bool environment_prefilter(const float *rgb, int width, int height, EnvironmentLight *out)
{
    memset(out, 0, sizeof *out);
    if (!rgb || width < 1 || height < 1) return false;
    int w0 = ENVIRONMENT_WIDTH, h0 = ENVIRONMENT_WIDTH / 2;
    float *base = malloc(sizeof(float) * 3 * (size_t)w0 * (size_t)h0);
    /* the source of the rough levels and the harmonics: 64 x 32 (texels of ~5.6 degrees) */
    enum { SW = 64, SH = 32 };
    float *source = malloc(sizeof(float) * 3 * SW * SH);
    vec3 *directions = malloc(sizeof(vec3) * SW * SH);
    float *solid = malloc(sizeof(float) * SW * SH);
    if (!base || !source || !directions || !solid) {
        free(base), free(source), free(directions), free(solid);
        return false;
    }
    downsample(rgb, width, height, base, w0, h0);
    downsample(base, w0, h0, source, SW, SH);
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SW; x++) solid[y * SW + x] = texel_direction(x, y, SW, SH, directions[y * SW + x]);

    static const float band[9] = {1.0f, 2.0f / 3.0f, 2.0f / 3.0f, 2.0f / 3.0f, 0.25f, 0.25f, 0.25f, 0.25f, 0.25f};
    for (int i = 0; i < SW * SH; i++) {
        float y[9];
        sh_basis(directions[i], y);
        for (int k = 0; k < 9; k++)
            for (int c = 0; c < 3; c++) out->sh[k][c] += band[k] * source[3 * i + c] * y[k] * solid[i];   /* A_l / pi */
    }

    out->levels[0] = base;
    bool ok = true;
    for (int level = 1; level < ENVIRONMENT_LEVELS && ok; level++) {
        int lw = w0 >> level, lh = h0 >> level;
        float *texels = out->levels[level] = malloc(sizeof(float) * 3 * (size_t)lw * (size_t)lh);
        if (!texels) {
            ok = false;
            break;
        }
        float roughness = (float)level / (ENVIRONMENT_LEVELS - 1), alpha = roughness * roughness;
        float exponent = 2.0f / (alpha * alpha) - 2.0f;   /* GGX alpha ~ Phong exponent 2 / alpha^2 - 2 */
        for (int ty = 0; ty < lh; ty++)
            for (int tx = 0; tx < lw; tx++) {
                vec3 r;
                texel_direction(tx, ty, lw, lh, r);
                double sum[3] = {0, 0, 0}, weights = 0.0;
                for (int i = 0; i < SW * SH; i++) {
                    float cosine = glm_vec3_dot(r, directions[i]);
                    if (cosine <= 0.0f) continue;
                    double weight = pow(cosine, exponent) * solid[i];
                    weights += weight;
                    for (int c = 0; c < 3; c++) sum[c] += weight * source[3 * i + c];
                }
                for (int c = 0; c < 3; c++)
                    texels[3 * ((size_t)ty * (size_t)lw + (size_t)tx) + (size_t)c] = weights > 0.0 ? (float)(sum[c] / weights) : 0.0f;
            }
    }
    free(source), free(directions), free(solid);
    if (!ok) environment_light_free(out);
    return ok;
}

void environment_light_free(EnvironmentLight *light)
{
    for (int level = 0; level < ENVIRONMENT_LEVELS; level++) free(light->levels[level]);
    memset(light, 0, sizeof *light);
}

bool environment_upload(const float *rgb, int width, int height, GLuint *texture, float sh[9][3])
{
    EnvironmentLight light;
    if (!environment_prefilter(rgb, width, height, &light)) return false;
    if (!*texture) glGenTextures(1, texture);
    glBindTexture(GL_TEXTURE_2D, *texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    for (int level = 0; level < ENVIRONMENT_LEVELS; level++)   /* rows top to bottom: v = 0 is the zenith */
        glTexImage2D(GL_TEXTURE_2D, level, GL_RGB16F, ENVIRONMENT_WIDTH >> level, (ENVIRONMENT_WIDTH / 2) >> level, 0,
                     GL_RGB, GL_FLOAT, light.levels[level]);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 0);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, ENVIRONMENT_LEVELS - 1);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);   /* around the horizon */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    memcpy(sh, light.sh, sizeof light.sh);
    environment_light_free(&light);
    return true;
}

bool renderer_set_environment(Renderer *renderer, const float *rgb, int width, int height)
{
    if (!environment_upload(rgb, width, height, &renderer->environment_texture, renderer->environment_sh)) return false;
    renderer->has_environment = true;
    return renderer_recompile(renderer);   /* HAS_ENVIRONMENT compiled in */
}
