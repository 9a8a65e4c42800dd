/* test_retarget_morph.c — morph-weight tracks of a clip from another file land on the character's
 * morph targets of the same name (src/anim/retarget_morph.c, issue 28), written in memory:
 *   - the source's targets in another order and other meshes than the character's: each track
 *     drives the character's target of its name (every mesh that has it), keys and interpolation
 *     copied exactly, CUBICSPLINE tangents included;
 *   - a second source track of a name already driven adds nothing; an unnamed target and a name the
 *     character lacks are dropped and counted;
 *   - the clip plays: morph_sample-style evaluation through the Animator gives the character's
 *     target the source's weight at a time between keys. */
#include "anim/animator.h"
#include "anim/retarget.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void add_mesh(Model *model, const char *const *names, int count)
{
    Mesh *mesh = &model->meshes[model->mesh_count++];
    memset(mesh, 0, sizeof *mesh);
    snprintf(mesh->name, sizeof mesh->name, "mesh%d", model->mesh_count - 1);
    mesh->morph_target_count = count;
    mesh->morph_target_names = calloc((size_t)count, SV_NAME_MAX);
    for (int k = 0; k < count; k++) snprintf(mesh->morph_target_names[k], SV_NAME_MAX, "%s", names[k]);
}

static void add_track(Clip *clip, int mesh, int target, float scale, bool cubic)
{
    MorphTrack *track = &clip->morph_tracks[clip->morph_track_count++];
    memset(track, 0, sizeof *track);
    track->mesh = mesh, track->target = target, track->key_count = 3;
    track->interpolation = cubic ? INTERPOLATION_CUBICSPLINE : INTERPOLATION_LINEAR;
    track->times = malloc(3 * sizeof(float));
    track->weights = malloc(3 * sizeof(float));
    for (int k = 0; k < 3; k++) track->times[k] = 0.5f * (float)k, track->weights[k] = scale * (float)(k % 2);
    if (cubic) {
        track->tangents = malloc(6 * sizeof(float));
        for (int k = 0; k < 6; k++) track->tangents[k] = 0.25f * (float)k;
    }
}

static const MorphTrack *find(const Clip *clip, int mesh, int target)
{
    for (int i = 0; i < clip->morph_track_count; i++)
        if (clip->morph_tracks[i].mesh == mesh && clip->morph_tracks[i].target == target) return &clip->morph_tracks[i];
    return NULL;
}

int main(void)
{
    Model source, character;
    memset(&source, 0, sizeof source);
    memset(&character, 0, sizeof character);
    source.meshes = calloc(2, sizeof(Mesh));
    character.meshes = calloc(2, sizeof(Mesh));
    add_mesh(&source, (const char *const[]){"smile", "blink", "", "frown"}, 4);
    add_mesh(&source, (const char *const[]){"blink"}, 1);
    add_mesh(&character, (const char *const[]){"jaw", "blink", "smile"}, 3);
    add_mesh(&character, (const char *const[]){"smile"}, 1);
    source.clips = calloc(1, sizeof(Clip));
    source.clip_count = 1;
    Clip *clip = &source.clips[0];
    clip->duration = 1.0f;
    clip->morph_tracks = calloc(5, sizeof(MorphTrack));
    add_track(clip, 0, 0, 0.8f, false);   /* smile */
    add_track(clip, 0, 1, 0.6f, true);    /* blink, cubic */
    add_track(clip, 0, 2, 0.4f, false);   /* unnamed: dropped */
    add_track(clip, 0, 3, 0.3f, false);   /* frown: the character has none */
    add_track(clip, 1, 0, 0.2f, false);   /* blink again, from the other mesh: already driven */

    Clip out;
    memset(&out, 0, sizeof out);
    int dropped = -1;
    CHECK(retarget_morph_tracks(&source, clip, &character, &out, &dropped), "retarget_morph_tracks ran");
    printf("%d morph tracks carried, %d dropped\n", out.morph_track_count, dropped);
    CHECK(out.morph_track_count == 3, "smile on two meshes + blink: 3 tracks (got %d)", out.morph_track_count);
    CHECK(dropped == 2, "the unnamed target and 'frown' dropped (got %d)", dropped);
    const MorphTrack *smile0 = find(&out, 0, 2), *smile1 = find(&out, 1, 0), *blink = find(&out, 0, 1);
    CHECK(smile0 && smile1 && blink, "smile -> mesh 0 target 2 and mesh 1 target 0, blink -> mesh 0 target 1");
    CHECK(!find(&out, 0, 0), "the character's 'jaw' (index 0, the source's smile) is not driven");
    if (smile0 && smile1 && blink) {
        CHECK(smile0->key_count == 3 && smile0->weights[1] == 0.8f && smile1->weights[1] == 0.8f && smile0->times[2] == 1.0f,
              "smile's keys copied");
        CHECK(blink->weights[1] == 0.6f, "blink takes the first track's keys (0.6), not the second's (0.2): %g", blink->weights[1]);
        CHECK(blink->interpolation == INTERPOLATION_CUBICSPLINE && blink->tangents && blink->tangents[5] == 1.25f,
              "blink's CUBICSPLINE tangents copied");
        CHECK(smile0->tangents == NULL && smile0->interpolation == INTERPOLATION_LINEAR, "smile stays linear");
    }

    /* the clip plays on the character: at 0.25 s (half way to the middle key) smile weighs 0.4 */
    Model played;
    memset(&played, 0, sizeof played);
    played.meshes = calloc(1, sizeof(Mesh));
    add_mesh(&played, (const char *const[]){"jaw", "blink", "smile"}, 3);
    Mesh *mesh = &played.meshes[0];
    mesh->vertex_count = 1;
    mesh->positions = calloc(1, sizeof(vec3));
    mesh->normals = calloc(1, sizeof(vec3));
    mesh->morph_position_deltas = calloc(3, sizeof(vec3));
    mesh->morph_normal_deltas = calloc(3, sizeof(vec3));
    mesh->morph_default_weights = calloc(3, sizeof(float));
    played.clips = calloc(1, sizeof(Clip));
    played.clip_count = 1;
    Clip only;
    memset(&only, 0, sizeof only);
    only.duration = 1.0f;
    only.morph_tracks = calloc(1, sizeof(MorphTrack));
    add_track(&only, 0, 0, 0.8f, false);
    int dropped_played = 0;
    played.clips[0].duration = 1.0f;
    CHECK(retarget_morph_tracks(&source, &only, &played, &played.clips[0], &dropped_played), "onto one mesh");
    Animator animator;
    if (animator_init(&animator, &played)) {
        animator_evaluate(&animator, 0, 0.25f);
        float w = animator.morph.weights[0][2];
        printf("smile at 0.25 s on the character: %g\n", w);
        CHECK(fabsf(w - 0.4f) < 1e-6f, "smile plays on the character's target 2: %g (0.4 expected)", w);
        CHECK(animator.morph.weights[0][0] == 0.0f, "jaw stays at its default: %g", animator.morph.weights[0][0]);
        animator_free(&animator);
    } else {
        CHECK(false, "animator_init");
    }
    clip_free(&only);
    clip_free(&out);
    model_free(&played);
    model_free(&source);
    model_free(&character);
    return test_finish();
}
