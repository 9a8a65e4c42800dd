/* retarget_fixture.h — what the two files of test_retarget share: the ../shared models, a quiet
 * import, a pose at a time, every clip retargeted, and two clips compared pose by pose. */
#ifndef SKINVIEW_TEST_RETARGET_FIXTURE_H
#define SKINVIEW_TEST_RETARGET_FIXTURE_H

#include "testio.h"
#include "anim/anim.h"
#include "anim/animator.h"
#include "anim/retarget.h"
#include "io/import.h"

#define XBOT SKINVIEW_SHARED_MODELS_DIR "/threejs-xbot/Xbot.glb"
#define MIXAMO SKINVIEW_SHARED_MODELS_DIR "/threejs-mixamo-fbx/mixamo.fbx"
bool load(const char *path, Model *model);

/* Model-space joint matrices of `clip` (NULL: rest) at playback time `time`. */
void pose_at(const Skeleton *skeleton, const Clip *clip, float time, mat4 *local, mat4 *model);

/* Retargets every clip of `source` onto `target` (map given), into clips[] (caller frees). */
bool retarget_all(const Model *source, const Skeleton *target, const RetargetMap *map, RetargetMode mode,
                  Clip *clips, RetargetSetup *setup);

/* ---- 1. identity ------------------------------------------------------------------------------ */


/* Worst joint distance between `a` (the original) and `b` over key times (and mid-points), relative
 * to the diagonal of the joints' reach. */
double compare_clips(const Skeleton *skeleton, const Clip *a, const Clip *b, double *diagonal_out);

/* ---- what main runs from the other files of the program ---- */

/* Every clip of `source_path` on `target_path`: matched joints, contacts, travel. */
void real_pair(const char *source_path, const char *target_path, bool all_joints, double contact_tolerance,
               const char *label);
void test_renamed(void);

#endif
