/* test_source_rig_fade.c — the source rig beside the character follows a cross-fade
 * (source_rig_view_evaluate_fade, src/teach/source_rig.c; Shift+B / --show-source-rig).
 *
 * No window: the rig's poses are Animators, read back without drawing. The character is the CMU take
 * BVH/01_01.bvh (assimp-testmodels) with its own clip [0] and two clips of a second copy of the file
 * (its take and a copy of it) added, retargeted ([1], [2]: one source rig). During a fade
 *   [1] at 1 s -> [2] at 3 s, weight 0.25   the rig's joints are where a blend of its own clip at 1 s
 *                                           and 3 s (weight 0.25) puts them, not where 3 s alone does
 *   [0] (own) -> [1]                        the incoming clip's rig, at the incoming time
 *   [1] -> [0] (own)                        the outgoing clip's rig, at the outgoing time, until the end
 * and without a fade (or when it has ended, weight 1) the rig is posed as before. */
#include "testio.h"
#include "testutil.h"
#include "anim/animator.h"
#include "anim/retarget.h"
#include "teach/source_rig.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAKE SKINVIEW_TESTMODELS_DIR "/BVH/01_01.bvh"

/* The largest distance between the joints of two poses (model matrices). */
static float pose_distance(const Animator *a, const Animator *b, int joints)
{
    float worst = 0.0f;
    for (int j = 0; j < joints; j++) {
        float d = glm_vec3_distance(a->joint_model[j][3], b->joint_model[j][3]);
        if (d > worst) worst = d;
    }
    return worst;
}

int main(void)
{
    if (!test_file_exists(TAKE)) {
        printf("%s absent: skipped\n", TAKE);
        return 77;
    }
    Model character = {0}, *source = calloc(1, sizeof(Model));
    bool ok = test_import(TAKE, &(ImportOptions){.quiet = true}, &character) &&
              test_import(TAKE, &(ImportOptions){.quiet = true}, source);
    CHECK(ok && character.clip_count == 1 && source->clip_count == 1, "%s did not load with one clip", TAKE);
    if (!ok) return test_finish();

    /* the second copy gets a second clip, the first's keys copied (--retarget off onto itself): an
     * Animator does not blend a clip with itself */
    RetargetMap map;
    RetargetSetup setup;
    char error[256];
    ok = retarget_match(&source->skeleton, &source->skeleton, NULL, 0, &map, error, sizeof error) &&
         retarget_setup(&setup, &source->skeleton, &source->skeleton, &map);
    Clip *source_clips = ok ? realloc(source->clips, 2 * sizeof(Clip)) : NULL;
    ok = source_clips && retarget_clip(&setup, &source_clips[0], RETARGET_OFF, &source_clips[1], NULL);
    if (source_clips) source->clips = source_clips, source->clip_count = ok ? 2 : 1;
    retarget_setup_free(&setup);
    retarget_map_free(&map);
    CHECK(ok, "the source's second clip: %s", error);
    if (!ok) return test_finish();
    /* clips [1] and [2]: the second copy's two clips retargeted onto the character, from source rig 1 */
    ok = retarget_match(&source->skeleton, &character.skeleton, NULL, 0, &map, error, sizeof error) &&
         retarget_setup(&setup, &source->skeleton, &character.skeleton, &map);
    CHECK(ok, "retarget set-up: %s", error);
    if (!ok) return test_finish();
    Clip *clips = realloc(character.clips, 3 * sizeof(Clip));
    CHECK(clips != NULL, "out of memory");
    if (!clips) return test_finish();
    character.clips = clips;
    for (int c = 1; c < 3; c++) {
        CHECK(retarget_clip(&setup, &source->clips[c - 1], RETARGET_ON, &clips[c], NULL), "retarget_clip failed");
        clips[c].source_rig = 1;
        clips[c].source_clip = c - 1;
    }
    character.clip_count = 3;
    character.source_rigs = calloc(1, sizeof(SourceRig));
    character.source_rigs[0] = (SourceRig){source,
                                           {(float)setup.align[0], (float)setup.align[1], (float)setup.align[2], (float)setup.align[3]},
                                           (float)setup.hip_scale, setup.source_hips, setup.target_hips};
    character.source_rig_count = 1;

    /* the rig view without its GL lines (evaluating draws nothing) */
    SourceRigView view = {0};
    view.rig = -1;
    view.rig_count = 1;
    view.poses = calloc(1, sizeof(Animator));
    Animator expected;
    ok = animator_init(&view.poses[0], source) && animator_init(&expected, source);
    CHECK(ok, "animator_init failed");
    if (!ok) return test_finish();
    int n = source->skeleton.joint_count;

    /* 1. one rig on both sides of the fade: the rig's pose is blended as the character's */
    source_rig_view_evaluate_fade(&view, &character, 2, 3.0f, 1, 1.0f, 0.25f);
    animator_evaluate_blend(&expected, 0, 1.0f, 1, 3.0f, 0.25f);
    float blended = pose_distance(&view.poses[0], &expected, n);
    animator_evaluate(&expected, 1, 3.0f);
    float from_incoming = pose_distance(&view.poses[0], &expected, n);
    CHECK(view.rig == 0 && blended < 1e-5f, "mid-fade the rig is %.3g from the blended pose (rig %d)", (double)blended, view.rig);
    CHECK(from_incoming > 1.0f, "mid-fade the rig is only %.3g from the incoming clip's pose alone: not blended",
          (double)from_incoming);
    printf("fade [1] 1 s -> [2] 3 s at 0.25: the rig within %.1e of the blend, %.2f units from the incoming pose alone\n",
           (double)blended, (double)from_incoming);

    /* 2. the character's own clip fading into an added one: the incoming clip's rig */
    source_rig_view_evaluate_fade(&view, &character, 1, 2.0f, 0, 5.0f, 0.5f);
    animator_evaluate(&expected, 0, 2.0f);
    float incoming = pose_distance(&view.poses[0], &expected, n);
    CHECK(view.rig == 0 && incoming < 1e-5f, "own -> added: rig %d, %.3g from the incoming clip's pose", view.rig,
          (double)incoming);

    /* 3. an added clip fading into the character's own: the outgoing clip's rig until the fade ends */
    source_rig_view_evaluate_fade(&view, &character, 0, 2.0f, 1, 4.0f, 0.5f);
    animator_evaluate(&expected, 0, 4.0f);
    float outgoing = pose_distance(&view.poses[0], &expected, n);
    CHECK(view.rig == 0 && outgoing < 1e-5f, "added -> own: rig %d, %.3g from the outgoing clip's pose", view.rig,
          (double)outgoing);
    source_rig_view_evaluate_fade(&view, &character, 0, 2.0f, 1, 4.0f, 1.0f);
    CHECK(view.rig == -1, "added -> own, the fade over: the rig still shown (%d)", view.rig);

    /* 4. no fade: as source_rig_view_evaluate always did */
    source_rig_view_evaluate(&view, &character, 2, 3.0f);
    animator_evaluate(&expected, 1, 3.0f);
    float plain = pose_distance(&view.poses[0], &expected, n);
    CHECK(view.rig == 0 && plain < 1e-5f, "no fade: %.3g from the clip's pose", (double)plain);
    source_rig_view_evaluate(&view, &character, 0, 3.0f);
    CHECK(view.rig == -1, "the character's own clip shows a rig (%d)", view.rig);

    animator_free(&view.poses[0]);
    free(view.poses);
    animator_free(&expected);
    retarget_setup_free(&setup);
    retarget_map_free(&map);
    model_free(&character);
    return test_finish();
}
