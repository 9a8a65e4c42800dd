/* morph_override.c — morph target weights set by hand over the clip's (the viewer's sliders,
 * `--morph NAME=W,...`; see animator.h). */
#include "animator.h"

#include "alloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool morph_override_init(MorphOverride *o, const Model *model)
{
    memset(o, 0, sizeof *o);
    bool ok = true;
    o->mesh_count = model->mesh_count;
    o->set = anim_zeroed((size_t)model->mesh_count, sizeof *o->set, &ok);
    o->weight = anim_zeroed((size_t)model->mesh_count, sizeof *o->weight, &ok);
    for (int m = 0; ok && m < model->mesh_count; m++) {
        int targets = model->meshes[m].morph_target_count;
        if (targets <= 0) continue;
        /* one block per mesh: the weights, then whether each is set */
        o->weight[m] = anim_zeroed((size_t)targets, sizeof(float) + sizeof(bool), &ok);
        if (ok) o->set[m] = (bool *)(o->weight[m] + targets);
    }
    if (!ok) morph_override_free(o);
    return ok;
}

void morph_override_free(MorphOverride *o)
{
    for (int m = 0; o->weight && m < o->mesh_count; m++) free(o->weight[m]);   /* (set[m] lives in the same block) */
    free(o->set);
    free(o->weight);
    memset(o, 0, sizeof *o);
}

void morph_override_set(MorphOverride *o, int mesh, int target, float weight)
{
    if (mesh < 0 || mesh >= o->mesh_count || !o->set[mesh]) return;
    if (!o->set[mesh][target]) o->count++;
    o->set[mesh][target] = true;
    o->weight[mesh][target] = weight;
}

void morph_override_clear(MorphOverride *o, int mesh, int target)
{
    if (mesh < 0 || mesh >= o->mesh_count || !o->set[mesh] || !o->set[mesh][target]) return;
    o->set[mesh][target] = false;
    o->count--;
}

bool morph_override_parse(const Model *model, const char *spec, MorphOverride *o, char *error, size_t error_size)
{
    if (!morph_override_init(o, model)) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    for (const char *item = spec; item && *item;) {
        size_t length = strcspn(item, ",");
        const char *equals = memchr(item, '=', length);
        if (!equals || equals == item) {
            snprintf(error, error_size, "--morph needs NAME=WEIGHT,... (a target name or index), got '%.*s'",
                     (int)length, item);
            return false;
        }
        char number[64];
        snprintf(number, sizeof number, "%.*s", (int)(item + length - equals - 1), equals + 1);
        char *end = NULL;
        errno = 0;
        double weight = strtod(number, &end);
        if (errno || end == number || *end || !isfinite(weight) || fabs(weight) > 1000.0) {
            snprintf(error, error_size, "--morph: weight '%s' is not a number in [-1000, 1000]", number);
            return false;
        }
        /* NAME: a target name (every mesh that has it), or a target index (every mesh with that many) */
        size_t name_length = (size_t)(equals - item);
        char name[SV_NAME_MAX];
        snprintf(name, sizeof name, "%.*s", (int)(name_length < sizeof name ? name_length : sizeof name - 1), item);
        long index = strtol(name, &end, 10);
        bool is_index = end != name && *end == '\0' && index >= 0;
        int matched = 0;
        for (int m = 0; m < model->mesh_count; m++) {
            const Mesh *mesh = &model->meshes[m];
            for (int t = 0; t < mesh->morph_target_count; t++) {
                bool by_name = mesh->morph_target_names && strcmp(mesh->morph_target_names[t], name) == 0;
                if (by_name || (is_index && t == index)) {
                    morph_override_set(o, m, t, (float)weight);
                    matched++;
                }
            }
        }
        if (matched == 0) {
            snprintf(error, error_size, "--morph: no morph target named '%s' (see --info)", name);
            return false;
        }
        item += length;
        if (*item == ',') item++;
    }
    return true;
}

void morph_override_apply(const MorphOverride *o, Animator *animator)
{
    if (o->count == 0) return;
    const Model *model = animator->model;
    for (int m = 0; m < model->mesh_count && m < o->mesh_count; m++) {
        const Mesh *mesh = &model->meshes[m];
        if (mesh->morph_target_count <= 0) continue;
        bool changed = false;
        for (int t = 0; t < mesh->morph_target_count; t++)
            if (o->set[m][t]) {
                animator->morph.weights[m][t] = o->weight[m][t];   /* the hand-set weight replaces the clip's */
                changed = true;
            }
        if (changed) {
            MeshMorph *morph = &animator->morph.meshes[m];
            morph->active_count = morph_active_targets(animator->morph.weights[m], mesh->morph_target_count,
                                                       morph->active_targets, morph->active_weights);
        }
    }
}
