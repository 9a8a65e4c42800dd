/* fbx_apply_common.c — the small readers every step of stage 8 (fbx_apply*.c) uses: an object's
 * kind, a number property, FBX's double matrices to and from cglm, a record's matrix, the vector
 * properties of a Model, a mesh's node, every node's properties at a time of a stack. A leaf: it
 * calls no step, so that fbx_apply.c (which runs the steps) and the steps do not call each other back.
 */
#include "fbx_apply_common.h"

bool fbx_is_kind(const FbxScene *scene, int object, const char *kind)
{
    return object >= 0 && object < scene->object_count && scene->objects[object].kind &&
           strcmp(scene->objects[object].kind, kind) == 0;
}

bool fbx_is_subclass(const FbxScene *scene, int object, const char *subclass)
{
    return object >= 0 && object < scene->object_count && scene->objects[object].subclass &&
           strcmp(scene->objects[object].subclass, subclass) == 0;
}

double fbx_read_number(const FbxScene *scene, int object, const char *name, double fallback)
{
    double v;
    return fbx_object_property_numbers(scene, object, name, &v, 1) >= 1 && isfinite(v) ? v : fallback;
}

void fbx_to_mat4(const double m[16], mat4 out)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) out[c][r] = (float)m[4 * c + r];
}

void fbx_from_mat4(mat4 m, double out[16])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) out[4 * c + r] = m[c][r];
}

/* The 16 numbers of a child record (Cluster Transform / TransformLink, PoseNode Matrix). */
bool fbx_record_matrix(const FbxScene *scene, const FbxRecord *record, const char *name, double out[16])
{
    const FbxRecord *child = record ? fbx_record_child(record, name) : NULL;
    size_t count = 0;
    const double *values = child ? fbx_record_reals((FbxDocument *)&scene->doc, child, &count) : NULL;
    if (!values || count != 16) return false;
    for (int i = 0; i < 16; i++)
        if (!isfinite(values[i])) return false;
    memcpy(out, values, sizeof(double) * 16);
    return true;
}

/* The vector properties of a Model and where they live in FbxNodeProperties: the first
 * FBX_ANIMATED_PROPERTY_COUNT are the ones a curve node can drive (fbx_apply_clip.c). */
const FbxVec3Property fbx_node_vec3_properties[FBX_NODE_VEC3_PROPERTY_COUNT] = {
#define P(name, field) {name, offsetof(FbxNodeProperties, field)}
    P("Lcl Translation", translation),   P("Lcl Rotation", rotation),     P("Lcl Scaling", scaling),
    P("PreRotation", pre_rotation),      P("PostRotation", post_rotation),
    P("RotationOffset", rotation_offset), P("RotationPivot", rotation_pivot),
    P("ScalingOffset", scaling_offset),  P("ScalingPivot", scaling_pivot),
    P("GeometricTranslation", geometric_translation), P("GeometricRotation", geometric_rotation),
    P("GeometricScaling", geometric_scaling),
#undef P
};

/* The node (index into a->nodes) of the Model that holds mesh, or -1: the mesh hangs under no
 * matched Model. */
int fbx_mesh_node(const Apply *a, const Mesh *mesh)
{
    const Skeleton *sk = &a->im->model->skeleton;
    if (mesh->node_joint < 0 || mesh->node_joint >= sk->joint_count) return -1;
    return a->joint_node[mesh->node_joint];
}

/* Every node's properties at time t of a stack: the static values, the stack's curves on top. */
void fbx_stack_properties(const Apply *a, const Stack *stack, double t, FbxNodeProperties *props)
{
    for (int i = 0; i < a->node_count; i++) props[i] = a->nodes[i].props;
    for (int c = 0; c < stack->channel_count; c++) {
        const Channel *channel = &stack->channels[c];
        double *field = (double *)((char *)&props[channel->node] + channel->offset);
        for (int i = 0; i < 3; i++) {
            double v = channel->curves[i] ? fbx_curve_evaluate(channel->curves[i], t) : channel->defaults[i];
            if (isfinite(v)) field[i] = v;
        }
    }
}
