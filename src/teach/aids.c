/* aids.c — the teaching aids' keys (aids.h). */
#include "teach/aids.h"

bool aids_apply(AidOptions *aids, Action action)
{
    switch (action.kind) {
    case ACTION_TOGGLE_SKELETON: aids->show_skeleton = !aids->show_skeleton; return true;
    case ACTION_TOGGLE_SOURCE_RIG: aids->show_source_rig = !aids->show_source_rig; return true;
    case ACTION_TOGGLE_JOINT_VALUES: aids->joint_values = !aids->joint_values; return true;
    case ACTION_CYCLE_WEIGHTS:   /* lit -> weights -> influence count -> lit */
        if (aids->show_weights) {
            aids->show_weights = false;
            aids->show_influences = true;
        } else if (aids->show_influences) {
            aids->show_influences = false;
        } else {
            aids->show_weights = true;
        }
        return true;
    case ACTION_CYCLE_AXES: aids->axes = (AxesMode)((aids->axes + 1) % 3); return true;
    case ACTION_TOGGLE_NAMES: aids->show_names = !aids->show_names; return true;
    case ACTION_CYCLE_SKINNING:
        aids->skinning = (SkinningMethod)((aids->skinning + 1) % SKINNING_METHOD_COUNT);
        return true;
    case ACTION_TOGGLE_REFERENCE: aids->reference = !aids->reference; return true;
    case ACTION_TOGGLE_WIREFRAME: aids->wireframe = !aids->wireframe; return true;
    case ACTION_TOGGLE_GRID: aids->grid = !aids->grid; return true;
    case ACTION_TOGGLE_SHADOW: aids->shadow = !aids->shadow; return true;
    case ACTION_TOGGLE_NORMALS: aids->show_normals = !aids->show_normals; return true;
    case ACTION_TOGGLE_COMPARE: aids->compare = !aids->compare; return true;
    case ACTION_TOGGLE_INSPECTOR: aids->inspector = !aids->inspector; return true;
    case ACTION_TOGGLE_BONE_SPACE: aids->show_bone_space = !aids->show_bone_space; return true;
    case ACTION_TOGGLE_MORPHS: aids->show_morphs = !aids->show_morphs; return true;
    case ACTION_TOGGLE_ISOLATE: aids->isolate_joint = !aids->isolate_joint; return true;
    default: return false;
    }
}

