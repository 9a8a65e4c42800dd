/* fbx_apply_common.h — what the files of stage 8 (fbx_apply*.c) share: the FBX Models as
 * nodes, the stage's state, the animation stacks, the small readers (fbx_apply_common.c) and each
 * step's entry point.
 *
 * The stage, one file per step (each file's top says its rules):
 *   fbx_apply.c        the FBX Models as nodes, matching Assimp's joints to them, the stage itself
 *   fbx_apply_common.c the small readers every step uses (a leaf: it calls no step)
 *   fbx_apply_rest.c   poses (every node's world, every joint's local), the rest pose, geometric
 *                      transforms, scale helper joints, --info's per-joint source features
 *   fbx_apply_skin.c   skins Assimp dropped, rebuilt; bind matrices; SkinningType Blend shares
 *   fbx_apply_blend.c  blend shapes: the file's morph targets and their weight tracks
 *   fbx_apply_clip.c   clips: one per AnimationStack, curves evaluated and resampled
 *   fbx_apply_unhandled.c  --info: what the file uses that changes a pose, skin or shape and is not applied
 */
#ifndef SKINVIEW_FBX_APPLY_COMMON_H
#define SKINVIEW_FBX_APPLY_COMMON_H

#include "fbx_blend.h"
#include "fbx_curve.h"
#include "fbx_scene.h"
#include "fbx_transform.h"
#include "io/import_internal.h"

#include <stdlib.h>
#include <string.h>

/* Which FBX Model each joint is (from matching Assimp's nodes to the scene's Models). */
typedef struct FbxJointMap {
    int  joint_count;
    int *joint_object;   /* [joint]: the Model's object index; FBX_JOINT_ROOT for the scene root node
                            Assimp adds ("RootNode"); FBX_JOINT_NONE when no Model matches */
} FbxJointMap;

#define FBX_JOINT_ROOT (-1)
#define FBX_JOINT_NONE (-2)

typedef struct Node {
    int               object;
    int               parent;        /* index into nodes[], -1: under the scene root */
    int               depth;
    FbxNodeProperties props;         /* the static values */
    FbxTrs            geometric;
    bool              has_geometric;
    int               scale_source;  /* index into nodes[] or -1 (fbx_scale_source) */
} Node;

typedef struct Apply {
    Importer       *im;
    const FbxScene *scene;
    int             node_count;
    Node           *nodes;           /* parents before children */
    int            *node_of_object;  /* [object_count] -> index into nodes[], -1 */
    FbxJointMap     map;
    int            *joint_node;      /* [joint] -> node index, -1 none (root, unmatched or a helper) */
    int            *helper_node;     /* [joint] -> for a scale helper joint, the node whose unscaled
                                        world it is (fbx_insert_scale_helpers); -1 for every other joint */
    double          root_matrix[16]; /* the scene matrix of the FBX scene root (Assimp's root joint) */
    FbxBlendMesh   *blends;          /* [mesh_count] the FBX blend shapes that replaced Assimp's morph
                                        targets of each mesh (channel_count 0: none) */
} Apply;

/* A vector (3 doubles) property of a Model: its FBX name and its place in FbxNodeProperties. */
typedef struct FbxVec3Property {
    const char *name;
    size_t      offset;
} FbxVec3Property;

#define FBX_NODE_VEC3_PROPERTY_COUNT 12
#define FBX_ANIMATED_PROPERTY_COUNT 9   /* the first 9: Lcl T / R / S, pre / post rotation, pivots, offsets */
extern const FbxVec3Property fbx_node_vec3_properties[FBX_NODE_VEC3_PROPERTY_COUNT];

/* One animated property of one node in one stack: up to three curves (x, y, z). */
typedef struct Channel {
    int             node;
    size_t          offset;
    const FbxCurve *curves[3];
    double          defaults[3];
} Channel;

/* A blend shape channel's DeformPercent curve in one stack. */
typedef struct MorphChannel {
    int             channel_object;
    const FbxCurve *curve;
} MorphChannel;

typedef struct Stack {
    int      object;
    double   start, stop;          /* seconds */
    int      channel_count;
    Channel *channels;
    int           morph_count;
    MorphChannel *morphs;
    int      layer_count;
    int      time_count;           /* the sample times (sample_times) */
    double  *times;
} Stack;

/* fbx_apply.c */
/* Matches every joint of im's skeleton (Assimp's nodes, named after the Models, parents first)
 * to the FBX Models: a joint is the Model of its name among the children of its parent joint's
 * Model (the root's children for the top level); names repeat (trap 10), the parent chain tells
 * them apart; a Model is matched once. Returns the number of joints without a Model, -1 when out
 * of memory. */
int fbx_match_joints(const FbxScene *scene, const Importer *im, FbxJointMap *map);
void fbx_joint_map_free(FbxJointMap *map);

/* fbx_apply_common.c */
bool fbx_is_kind(const FbxScene *scene, int object, const char *kind);
bool fbx_is_subclass(const FbxScene *scene, int object, const char *subclass);
double fbx_read_number(const FbxScene *scene, int object, const char *name, double fallback);
void fbx_to_mat4(const double m[16], mat4 out);
void fbx_from_mat4(mat4 m, double out[16]);
int fbx_mesh_node(const Apply *a, const Mesh *mesh);
bool fbx_record_matrix(const FbxScene *scene, const FbxRecord *record, const char *name, double out[16]);
/* Every node's properties at time t of a stack: the static values, the stack's curves on top. */
void fbx_stack_properties(const Apply *a, const Stack *stack, double t, FbxNodeProperties *props);

/* fbx_apply_rest.c */
void fbx_nodes_world(const Apply *a, const FbxNodeProperties *props, FbxNodeWorld *world);
void fbx_joints_scene(const Apply *a, const FbxNodeWorld *world, double *scene_world /* [joint*16] */);
/* Joint j's local transform as a TRS (and its matrix): a node or scale helper under the joint of
 * its own frame takes its frame_local from `world` directly (no inversion: exact, finite when a
 * scale is 0); any other joint inverse(scene_parent) · scene_j, decomposed. False when that parent
 * matrix is singular. */
bool fbx_joint_local(const Apply *a, const FbxNodeWorld *world, const double *scene_world, int j, FbxTrs *trs, double local[16]);
void fbx_trs_to_joint(const FbxTrs *trs, JointTransform *out);
double fbx_apply_rest(Apply *a, double *scene_world);
void fbx_apply_geometric(Apply *a);
bool fbx_insert_scale_helpers(Apply *a, const Stack *stacks, int stack_count);
bool fbx_set_source_features(Apply *a, const Stack *stacks, int stack_count);

/* fbx_apply_skin.c */
int fbx_geometry_of(const FbxScene *scene, int model_object);
bool fbx_mesh_control_points(const FbxScene *scene, int geometry, const Mesh *mesh, int **out);
bool fbx_rebuild_dropped_skins(Apply *a);
bool fbx_apply_dq_weights(Apply *a);
void fbx_apply_skins(Apply *a, const double *rest_scene, const bool *node_animated);

/* fbx_apply_blend.c */
bool fbx_apply_blend_shapes(Apply *a);
bool fbx_build_morph_tracks(Apply *a, const Stack *stack, Clip *clip);

/* fbx_apply_unhandled.c */
void fbx_report_unhandled(Apply *a, const Stack *stacks, int stack_count);

/* fbx_apply_clip.c */
void fbx_free_stacks(Stack *stacks, int count);
int fbx_collect_stacks(const Apply *a, Stack **out);
bool fbx_apply_clips(Apply *a, Stack *stacks, int stack_count, double *scene_world);

#endif
