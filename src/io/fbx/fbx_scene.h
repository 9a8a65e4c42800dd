/* fbx_scene.h — an FBX document as the FBX SDK's object graph (stage 1 of the FBX reader).
 *
 * One version-independent view of what fbx_doc.h read:
 *   - objects (the children of Objects): Model, Geometry, NodeAttribute, Deformer (Skin, BlendShape),
 *     SubDeformer (Cluster, BlendShapeChannel), Geometry "Shape", Material, Texture, Video, Pose,
 *     AnimationStack, AnimationLayer, AnimationCurveNode, AnimationCurve;
 *   - their properties (Properties70 `P`, FBX 6 Properties60 `Property`), falling back to the
 *     Definitions' PropertyTemplate of the object's class when the object does not set one;
 *   - connections (Connections: `C: "OO", src, dst` and `C: "OP", src, dst, "Property"`;
 *     FBX 6 `Connect:` by name), src → dst meaning "src belongs to dst";
 *   - GlobalSettings (axes, unit scale, time mode / frame rate).
 * FBX 6 and 5 files have no AnimationStack/Layer/CurveNode/Curve objects: their Takes are turned
 * into the same objects here (one stack per Take, one layer, one curve node per Model channel
 * T/R/S with curves X/Y/Z), so that later stages read one form. Keys of both forms are decoded
 * into FbxCurve below.
 */
#ifndef SKINVIEW_FBX_SCENE_H
#define SKINVIEW_FBX_SCENE_H

#include "fbx_doc.h"

#define FBX_TICKS_PER_SECOND 46186158000.0   /* KTime units per second */

typedef struct FbxObject {
    int64_t          id;          /* the file's id (FBX 6: one given here, unique in the scene) */
    const char      *kind;        /* the record's name: "Model", "Geometry", "Deformer", … */
    const char      *subclass;    /* its last string value: "Mesh", "LimbNode", "Null", "Skin",
                                     "Cluster", "BlendShape", "BlendShapeChannel", "Shape", … */
    const char      *name;        /* without the "Model::" prefix or the "\0\1Model" suffix */
    const FbxRecord *record;      /* the object's own record (Vertices, KeyTime, … are children) */
    const FbxRecord *properties;  /* its Properties70 / Properties60, or NULL */
    const FbxRecord *template_properties; /* the class's PropertyTemplate Properties70, or NULL */
} FbxObject;

typedef struct FbxConnection {
    int         src, dst;         /* object indices; dst = -1: the scene root */
    const char *property;         /* "OP": the dst property src drives ("Lcl Translation",
                                     "d|X", "DeformPercent", "DiffuseColor" …); NULL for "OO" */
} FbxConnection;

/* Curve key interpolation and tangents, decoded from KeyAttrFlags / KeyAttrDataFloat (7.x)
 * or the FBX 6 key lists. */
typedef enum FbxInterpolation {
    FBX_INTERPOLATION_CONSTANT,   /* hold the key's value (or the next key's: constant_next) */
    FBX_INTERPOLATION_LINEAR,
    FBX_INTERPOLATION_CUBIC,      /* Bézier from the key's right slope/weight to the next key's left */
} FbxInterpolation;

typedef enum FbxExtrapolation {   /* Pre-/Post-Extrapolation Type: C, R, M, K (FBX SDK EExtrapolationType) */
    FBX_EXTRAPOLATION_CONSTANT,
    FBX_EXTRAPOLATION_REPETITION,
    FBX_EXTRAPOLATION_MIRROR_REPETITION,
    FBX_EXTRAPOLATION_KEEP_SLOPE,
    FBX_EXTRAPOLATION_RELATIVE_REPETITION,   /* 'A': repeated, each cycle offset by the last-first difference */
} FbxExtrapolation;

typedef struct FbxCurveKey {
    int64_t          time;          /* KTime ticks */
    double           value;
    FbxInterpolation interpolation; /* from this key to the next */
    bool             constant_next; /* CONSTANT: take the next key's value (eConstantNext) */
    double           right_slope;   /* value per second leaving this key (cubic) */
    double           next_left_slope; /* value per second arriving at the next key (cubic) */
    double           right_weight;  /* tangent weights (0..1 of the interval; 1/3 when unweighted) */
    double           next_left_weight;
    uint32_t         attr_flags;    /* the KeyAttrFlags word (FBX 6: made from the key letters): tangent
                                       mode 0x100 auto, 0x200 TCB, 0x400 user, 0x800 break, …; --info */
} FbxCurveKey;

typedef struct FbxCurve {
    int               key_count;
    FbxCurveKey      *keys;         /* times strictly increasing */
    double            default_value;
    FbxExtrapolation  pre, post;
    int               pre_repetitions, post_repetitions; /* -1: forever */
} FbxCurve;

typedef struct FbxScene {
    FbxDocument    doc;
    int            object_count;
    FbxObject     *objects;
    int            connection_count;
    FbxConnection *connections;
    FbxCurve      *curves;          /* [object_count]: decoded keys of each AnimationCurve object
                                       (key_count 0 for every other object) */
    /* GlobalSettings */
    int            up_axis, up_axis_sign, front_axis, front_axis_sign, coord_axis, coord_axis_sign;
    double         unit_scale_factor;        /* centimetres per unit, 1 when absent */
    bool           settings_found;           /* the file has GlobalSettings properties (the axes and unit above) */
    double         frame_rate;               /* frames per second of TimeMode (CustomFrameRate), 0 if unknown */
    void          *index;                    /* fbx_scene_lookup.c's tables */
} FbxScene;

/* Reads the document and builds the graph. False with a one-line cause in error[]. */
bool fbx_scene_read(FbxScene *scene, const void *bytes, size_t size, char *error, size_t error_size);
void fbx_scene_free(FbxScene *scene);

/* A property of the object (then of its class template): its number values in `out[0..n)`
 * (a bool / enum / int as a number). Returns how many it had (0: neither sets it). */
int fbx_object_property_numbers(const FbxScene *scene, int object, const char *name, double *out, int n);
/* A string property (e.g. "RelPath", "FileName"), or NULL. */
const char *fbx_object_property_string(const FbxScene *scene, int object, const char *name);

/* Connections of an object, both ways: the index of the k-th (0, 1, …) connection whose dst
 * (src) is `object`, or -1 past the last. */
int fbx_connection_to(const FbxScene *scene, int object, int k);
int fbx_connection_from(const FbxScene *scene, int object, int k);

/* Index of the object with this id, or -1. */
int fbx_object_by_id(const FbxScene *scene, int64_t id);
/* The object a value names: an id (7.x) or a full name ("Model::Hips", "Hips\0\1Model", FBX 5's bare
 * "Hips" meaning a Model), as PoseNode/Node, Connect and Link records hold them; -1 if none. */
int fbx_object_by_reference(const FbxScene *scene, const FbxValue *value);

/* The application that wrote the file: SceneInfo's "Original|ApplicationName" ("Maya", "3ds Max",
 * "MotionBuilder", "Blender" ...; in FBXHeaderExtension for 7.x, among the Objects for 6.1), else
 * the top-level Creator string; "" when neither is there. */
const char *fbx_writing_application(const FbxScene *scene);

#endif
