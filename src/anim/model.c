/* model.c — freeing, small queries and the rules every reader shares on the in-memory Model
 * (clip names, the 4 largest influences, renormalised weights). */
#include "model.h"

#include "alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mesh_free(Mesh *mesh)
{
    void *owned[] = {mesh->positions, mesh->normals, mesh->uvs, mesh->uvs2, mesh->colors, mesh->tangents,
                     mesh->indices, mesh->bone_joint, mesh->inverse_bind, mesh->joint_indices, mesh->weights,
                     mesh->influences_in_file, mesh->joint_indices_more, mesh->weights_more, mesh->dq_weight,
                     mesh->morph_target_names,
                     mesh->morph_position_deltas, mesh->morph_normal_deltas, mesh->morph_default_weights};
    anim_free_each(owned, sizeof owned / sizeof *owned);
    memset(mesh, 0, sizeof *mesh);
}

void joint_track_free(JointTrack *track)
{
    void *owned[] = {track->translation_times, track->translation_values, track->translation_tangents,
                     track->rotation_times, track->rotation_values, track->rotation_tangents,
                     track->scale_times, track->scale_values, track->scale_tangents};
    anim_free_each(owned, sizeof owned / sizeof *owned);
    memset(track, 0, sizeof *track);
}

const char *interpolation_name(Interpolation kind)
{
    switch (kind) {
    case INTERPOLATION_STEP: return "step";
    case INTERPOLATION_CUBICSPLINE: return "cubicspline";
    default: return "linear";
    }
}

bool model_asks_dual_quaternion(const Model *model)
{
    int skinned = 0, dq = 0;
    for (int m = 0; m < model->mesh_count; m++)
        if (model->meshes[m].skinned) {
            skinned++;
            dq += model->meshes[m].skinning_in_file == MESH_SKINNING_DUAL_QUATERNION ||
                  model->meshes[m].skinning_in_file == MESH_SKINNING_BLEND;   /* DQS with per-vertex LBS shares */
        }
    return skinned > 0 && dq == skinned;
}

const char *joint_source_feature_name(int index)
{
    static const char *const names[JOINT_SOURCE_FEATURE_COUNT] = {
        "pivots", "pre-rotation", "post-rotation", "rotation-order", "rotation-inactive",
        "inherit-RrSs", "inherit-Rrs", "geometric-transform", "scale-helper", "animated-pivots"};
    return index >= 0 && index < JOINT_SOURCE_FEATURE_COUNT ? names[index] : "?";
}

unsigned clip_interpolation_kinds(const Clip *clip)
{
    unsigned kinds = 0;
    for (int t = 0; t < clip->track_count; t++) {
        const JointTrack *track = &clip->tracks[t];
        if (track->translation_count > 0) kinds |= 1u << track->translation_interpolation;
        if (track->rotation_count > 0) kinds |= 1u << track->rotation_interpolation;
        if (track->scale_count > 0) kinds |= 1u << track->scale_interpolation;
    }
    for (int t = 0; t < clip->morph_track_count; t++) kinds |= 1u << clip->morph_tracks[t].interpolation;
    return kinds;
}

void clip_free(Clip *clip)
{
    for (int t = 0; t < clip->track_count; t++) joint_track_free(&clip->tracks[t]);
    free(clip->tracks);
    for (int t = 0; t < clip->morph_track_count; t++) {
        free(clip->morph_tracks[t].times);
        free(clip->morph_tracks[t].weights);
        free(clip->morph_tracks[t].tangents);
    }
    free(clip->morph_tracks);
    memset(clip, 0, sizeof *clip);
}

bool skeleton_alloc(Skeleton *skeleton, int joint_count)
{
    size_t n = (size_t)joint_count;
    skeleton->joint_count = joint_count;
    skeleton->names = calloc(n, sizeof *skeleton->names);
    skeleton->parent = calloc(n, sizeof *skeleton->parent);
    skeleton->rest_local = calloc(n, sizeof *skeleton->rest_local);
    skeleton->rest_trs = calloc(n, sizeof *skeleton->rest_trs);
    skeleton->is_bone = calloc(n, sizeof *skeleton->is_bone);
    return skeleton->names && skeleton->parent && skeleton->rest_local && skeleton->rest_trs && skeleton->is_bone;
}

static void material_map_init(MaterialMap *map)
{
    map->texture = -1;
    map->texcoord = 0;
    map->has_transform = false;
    map->offset[0] = map->offset[1] = 0.0f;
    map->rotation = 0.0f;
    map->scale[0] = map->scale[1] = 1.0f;
}

void material_init(Material *material)
{
    memset(material, 0, sizeof *material);
    glm_vec4_one(material->diffuse_color);
    material->diffuse_texture = -1;
    material_map_init(&material->diffuse_map);
    material->metallic_factor = 1.0f;
    material->roughness_factor = 1.0f;
    material_map_init(&material->metallic_roughness_map);
    material_map_init(&material->normal_map);
    material->normal_scale = 1.0f;
    material_map_init(&material->occlusion_map);
    material->occlusion_strength = 1.0f;
    material->emissive_strength = 1.0f;
    material_map_init(&material->emissive_map);
    material->alpha_mode = MATERIAL_ALPHA_OPAQUE;
    material->alpha_cutoff = 0.5f;
}

void model_free(Model *model)
{
    if (!model) return;
    for (int m = 0; m < model->mesh_count; m++) mesh_free(&model->meshes[m]);
    for (int c = 0; c < model->clip_count; c++) clip_free(&model->clips[c]);
    for (int t = 0; t < model->texture_count; t++) free(model->textures[t].rgba), free(model->textures[t].encoded);
    free(model->meshes);
    free(model->clips);
    free(model->textures);
    free(model->materials);
    free(model->skeleton.names);
    free(model->skeleton.source_features);
    free(model->skeleton.parent);
    free(model->skeleton.rest_local);
    free(model->skeleton.rest_trs);
    free(model->skeleton.is_bone);
    for (int r = 0; r < model->source_rig_count; r++) {
        model_free(model->source_rigs[r].model);
        free(model->source_rigs[r].model);
    }
    free(model->source_rigs);
    memset(model, 0, sizeof *model);
}

int model_find_clip(const Model *model, const char *name)
{
    for (int c = 0; c < model->clip_count; c++)
        if (strcmp(model->clips[c].name, name) == 0) return c;
    return -1;
}

int model_total_vertices(const Model *model)
{
    int total = 0;
    for (int m = 0; m < model->mesh_count; m++) total += model->meshes[m].vertex_count;
    return total;
}

/* Length of the well-formed UTF-8 sequence at s (at most `left` bytes), or 0 if
 * s[0] does not start one (RFC 3629: no overlongs, no surrogates, <= U+10FFFF). */
static size_t utf8_sequence_length(const unsigned char *s, size_t left)
{
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    size_t length;
    unsigned char lo = 0x80, hi = 0xbf;   /* allowed range of the second byte */
    if (c >= 0xc2 && c <= 0xdf) length = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        length = 3;
        if (c == 0xe0) lo = 0xa0;         /* overlong */
        if (c == 0xed) hi = 0x9f;         /* UTF-16 surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        length = 4;
        if (c == 0xf0) lo = 0x90;         /* overlong */
        if (c == 0xf4) hi = 0x8f;         /* beyond U+10FFFF */
    } else
        return 0;
    if (length > left || s[1] < lo || s[1] > hi) return 0;
    for (size_t k = 2; k < length; k++)
        if (s[k] < 0x80 || s[k] > 0xbf) return 0;
    return length;
}

size_t utf8_copy_valid(char *dst, size_t dst_size, const char *src, size_t src_length)
{
    static const char replacement[] = "\xef\xbf\xbd";   /* U+FFFD */
    const unsigned char *s = (const unsigned char *)src;
    size_t out = 0, i = 0;
    if (dst_size == 0) return 0;
    while (i < src_length && s[i] != '\0') {
        size_t length = utf8_sequence_length(s + i, src_length - i);
        const char *piece = length ? src + i : replacement;
        size_t piece_length = length ? length : 3;
        if (out + piece_length > dst_size - 1) break;   /* never split a character */
        memcpy(dst + out, piece, piece_length);
        out += piece_length;
        i += length ? length : 1;
    }
    dst[out] = '\0';
    return out;
}

void model_name_clip(Model *model, int c, const char *source, size_t src_length)
{
    Clip *clip = &model->clips[c];
    utf8_copy_valid(clip->name, SV_NAME_MAX, source, src_length);
    if (clip->name[0] == '\0' || model_find_clip(model, clip->name) == c) return;   /* no earlier clip has it */
    char base[SV_NAME_MAX];
    snprintf(base, sizeof base, "%s", clip->name);
    for (int n = 2;; n++) {
        char suffix[24];
        snprintf(suffix, sizeof suffix, " (%d)", n);
        size_t room = SV_NAME_MAX - strlen(suffix);   /* base cut between characters, then the suffix */
        size_t kept = utf8_copy_valid(clip->name, room, base, strlen(base));
        memcpy(clip->name + kept, suffix, strlen(suffix) + 1);
        if (model_find_clip(model, clip->name) == c) break;
    }
    model->stats.clips_renamed++;
}

void influence_keep_largest(uint16_t joint_index[SV_MAX_INFLUENCES], float weight[SV_MAX_INFLUENCES], int joint,
                            float w)
{
    int k = SV_MAX_INFLUENCES - 1;
    if (w <= weight[k]) return;
    while (k > 0 && weight[k - 1] < w) {   /* insertion step: shift the smaller ones down */
        weight[k] = weight[k - 1];
        joint_index[k] = joint_index[k - 1];
        k--;
    }
    weight[k] = w;
    joint_index[k] = (uint16_t)joint;
}

const char *image_bytes_mime(const unsigned char *bytes, size_t size)
{
    static const unsigned char png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (bytes && size >= 8 && memcmp(bytes, png, 8) == 0) return "image/png";
    if (bytes && size >= 3 && bytes[0] == 0xff && bytes[1] == 0xd8 && bytes[2] == 0xff) return "image/jpeg";
    return NULL;
}

bool texture_keep_encoded(Texture *texture, const unsigned char *bytes, size_t size)
{
    if (!image_bytes_mime(bytes, size)) return true;   /* another format: the export re-encodes the rgba */
    unsigned char *copy = malloc(size);
    if (!copy) return false;
    memcpy(copy, bytes, size);
    free(texture->encoded);
    texture->encoded = copy;
    texture->encoded_size = size;
    return true;
}

void influence_keep_largest_more(uint16_t joint_index[SV_MAX_INFLUENCES], float weight[SV_MAX_INFLUENCES],
                                 uint16_t more_index[SV_MAX_INFLUENCES], float more_weight[SV_MAX_INFLUENCES], int joint,
                                 float w)
{
    if (w <= more_weight[SV_MAX_INFLUENCES - 1]) return;
    if (w <= weight[SV_MAX_INFLUENCES - 1]) {   /* among the next four only */
        influence_keep_largest(more_index, more_weight, joint, w);
        return;
    }
    /* the smallest of the first four moves down to the next four, then w goes into the first four */
    influence_keep_largest(more_index, more_weight, joint_index[SV_MAX_INFLUENCES - 1], weight[SV_MAX_INFLUENCES - 1]);
    weight[SV_MAX_INFLUENCES - 1] = 0.0f;
    influence_keep_largest(joint_index, weight, joint, w);
}

int mesh_normalize_weights(Mesh *mesh, int bone_count, ImportStats *stats)
{
    bool any_more = false;
    int extra_bone = -1;
    for (int v = 0; v < mesh->vertex_count; v++) {
        float *w = mesh->weights[v];
        float sum = w[0] + w[1] + w[2] + w[3];
        if (!(sum > 0.0f)) {   /* unweighted: rigidly on the mesh's node */
            if (extra_bone < 0) {
                extra_bone = bone_count++;
                mesh->bone_joint[extra_bone] = mesh->node_joint;
                glm_mat4_identity(mesh->inverse_bind[extra_bone]);
            }
            mesh->joint_indices[v][0] = (uint16_t)extra_bone;
            w[0] = 1.0f;
            if (stats) stats->vertices_unweighted++;
            continue;
        }
        bool cut = mesh->influences_in_file && mesh->influences_in_file[v] > SV_MAX_INFLUENCES;
        if (stats && !cut && fabsf(sum - 1.0f) > 1e-4f) stats->vertices_renormalized++;
        for (int k = 0; k < SV_MAX_INFLUENCES; k++) {   /* w_k' = w_k / sum_j w_j */
            w[k] /= sum;
            if (w[k] == 0.0f) mesh->joint_indices[v][k] = 0;
        }
        for (int k = 0; mesh->weights_more && k < SV_MAX_INFLUENCES; k++) {   /* the 5th..8th: the same divisor */
            mesh->weights_more[v][k] /= sum;
            if (mesh->weights_more[v][k] == 0.0f) mesh->joint_indices_more[v][k] = 0;
            else any_more = true;
        }
    }
    if (!any_more) {   /* kept only where a vertex has a 5th influence */
        free(mesh->joint_indices_more), free(mesh->weights_more);
        mesh->joint_indices_more = NULL, mesh->weights_more = NULL;
    }
    return bone_count;
}
