/* retarget_morph.c — the morph-weight tracks of a clip from another file, carried to the character's
 * morph targets of the same name (retarget.h: retarget_morph_tracks). */
#include "retarget.h"

#include <stdlib.h>
#include <string.h>

/* The name a morph track drives: its target's, "" when the file left it unnamed. */
static const char *track_target_name(const Model *model, const MorphTrack *track)
{
    if (track->mesh < 0 || track->mesh >= model->mesh_count) return "";
    const Mesh *mesh = &model->meshes[track->mesh];
    if (track->target < 0 || track->target >= mesh->morph_target_count || !mesh->morph_target_names) return "";
    return mesh->morph_target_names[track->target];
}

/* Whether `out` already drives (mesh, target): two source tracks of one name (a face split into
 * meshes, each with the target) drive each character target once, the first one's keys. */
static bool driven(const Clip *out, int mesh, int target)
{
    for (int i = 0; i < out->morph_track_count; i++)
        if (out->morph_tracks[i].mesh == mesh && out->morph_tracks[i].target == target) return true;
    return false;
}

bool retarget_morph_tracks(const Model *source, const Clip *clip, const Model *target, Clip *out, int *dropped_tracks)
{
    int dropped = 0, capacity = 0;
    for (int i = 0; i < clip->morph_track_count; i++) {
        const MorphTrack *in = &clip->morph_tracks[i];
        const char *name = track_target_name(source, in);
        bool carried = false;
        /* every character mesh that has a target of this name (never an unnamed one: "" names nothing) */
        for (int m = 0; name[0] && m < target->mesh_count; m++) {
            const Mesh *mesh = &target->meshes[m];
            for (int k = 0; mesh->morph_target_names && k < mesh->morph_target_count; k++) {
                if (strcmp(mesh->morph_target_names[k], name) != 0) continue;
                carried = true;   /* the name is the character's (a second track of it adds nothing) */
                if (driven(out, m, k)) continue;
                if (out->morph_track_count == capacity) {
                    capacity = capacity ? 2 * capacity : 8;
                    MorphTrack *grown = realloc(out->morph_tracks, sizeof(MorphTrack) * (size_t)capacity);
                    if (!grown) return false;
                    out->morph_tracks = grown;
                }
                MorphTrack *copy = &out->morph_tracks[out->morph_track_count];
                memset(copy, 0, sizeof *copy);
                copy->mesh = m, copy->target = k, copy->key_count = in->key_count, copy->interpolation = in->interpolation;
                size_t n = (size_t)in->key_count;
                copy->times = malloc(sizeof(float) * n);
                copy->weights = malloc(sizeof(float) * n);
                if (in->tangents) copy->tangents = malloc(sizeof(float) * 2 * n);
                out->morph_track_count++;   /* counted before the check: clip_free frees what was allocated */
                if (!copy->times || !copy->weights || (in->tangents && !copy->tangents)) return false;
                memcpy(copy->times, in->times, sizeof(float) * n);
                memcpy(copy->weights, in->weights, sizeof(float) * n);
                if (in->tangents) memcpy(copy->tangents, in->tangents, sizeof(float) * 2 * n);
            }
        }
        dropped += !carried;
    }
    if (dropped_tracks) *dropped_tracks = dropped;
    return true;
}
