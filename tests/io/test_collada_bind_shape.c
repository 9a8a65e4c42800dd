/* test_collada_bind_shape — the bind pose of a Collada skin is where its <bind_shape_matrix> put
 * the mesh, not where the node holding the <instance_controller> stands (src/io/import_collada.c,
 * docs/accuracy.md).
 *
 * Collada skins a vertex as v' = sum_i w_i * J_i * IBM_i * BSM * v (COLLADA 1.4.1, "Skin
 * deformation"); at bind time J_i = inverse(IBM_i), so the bind pose is BSM * v, in the Collada
 * world. Assimp folds BSM into the bones' offsets and makes the controller's node the mesh's node.
 * skinview's scene space is Assimp's: the Collada world under the root node, which carries the
 * file's unit and up-axis turn (R). So the bind pose in scene space is R * BSM * v, every bone at
 * R * inverse(IBM_i).
 *
 * 1. A file written by the test (cm units, Z up): a 6-vertex strip skinned to Root and Tip, a
 *    bind shape matrix that turns by 90° and moves by (3, 0, 1), inverse bind matrices that are
 *    NOT the rest pose, and the skinned node translated and turned under a translated Armature
 *    node (the mesh must not follow it). Checked from the numbers written:
 *      - --clip bind (Animator bind pose + skinning): each vertex at R * BSM * v;
 *      - the bones at R * inverse(IBM_i) in the bind pose;
 *      - the rest pose: sum_i w_i * R * J_i,rest * IBM_i * BSM * v, with J_i,rest the rest
 *        world matrices of the joints, multiplied out here.
 * 2. Collada/box_nested_animation.dae (assimp-testmodels): its BSM (a move by (-1, 1, 1)) and
 *    inverse bind matrix read from its text; --clip bind = R * BSM * v, and since the file's
 *    inverse bind matrix is exactly the inverse of the bone's rest world matrix, bind = rest. */
#include "anim/animator.h"
#include "io/import.h"
#include "testmath.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double distance3(const double a[3], const float b[3])
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static int joint_named(const Model *model, const char *name)
{
    for (int j = 0; j < model->skeleton.joint_count; j++)
        if (strcmp(model->skeleton.names[j], name) == 0) return j;
    return -1;
}

/* ---- 1. the written file --------------------------------------------------------- */

static const double strip[6][3] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 1, 0}};
/* per vertex: weight on Root, weight on Tip */
static const double strip_weights[6][2] = {{1, 0}, {0.5, 0.5}, {0, 1}, {1, 0}, {0.5, 0.5}, {0, 1}};
static const double bind_shape_rows[16] = {0, -1, 0, 3, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1};
static const double ibm_root_rows[16] = {1, 0, 0, -3, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
static const double ibm_tip_rows[16] = {1, 0, 0, -4, 0, 1, 0, -1, 0, 0, 1, 0, 0, 0, 0, 1};

static const char strip_dae[] =
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
    "<asset><unit name=\"centimeter\" meter=\"0.01\"/><up_axis>Z_UP</up_axis></asset>\n"
    "<library_geometries><geometry id=\"Strip-mesh\" name=\"Strip\"><mesh>\n"
    "<source id=\"Strip-positions\"><float_array id=\"Strip-positions-array\" count=\"18\">"
    "0 0 0 1 0 0 2 0 0 0 1 0 1 1 0 2 1 0</float_array>\n"
    "<technique_common><accessor source=\"#Strip-positions-array\" count=\"6\" stride=\"3\"><param name=\"X\" "
    "type=\"float\"/><param name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/></accessor></technique_common>"
    "</source>\n"
    "<vertices id=\"Strip-vertices\"><input semantic=\"POSITION\" source=\"#Strip-positions\"/></vertices>\n"
    "<triangles count=\"4\"><input semantic=\"VERTEX\" source=\"#Strip-vertices\" offset=\"0\"/>"
    "<p>0 1 4 0 4 3 1 2 5 1 5 4</p></triangles>\n"
    "</mesh></geometry></library_geometries>\n"
    "<library_controllers><controller id=\"Strip-skin\" name=\"StripSkin\"><skin source=\"#Strip-mesh\">\n"
    "<bind_shape_matrix>0 -1 0 3 1 0 0 0 0 0 1 1 0 0 0 1</bind_shape_matrix>\n"
    "<source id=\"Strip-skin-joints\"><Name_array id=\"Strip-skin-joints-array\" count=\"2\">Root Tip</Name_array>"
    "<technique_common><accessor source=\"#Strip-skin-joints-array\" count=\"2\" stride=\"1\"><param name=\"JOINT\" "
    "type=\"name\"/></accessor></technique_common></source>\n"
    "<source id=\"Strip-skin-bind_poses\"><float_array id=\"Strip-skin-bind_poses-array\" count=\"32\">"
    "1 0 0 -3 0 1 0 0 0 0 1 0 0 0 0 1 1 0 0 -4 0 1 0 -1 0 0 1 0 0 0 0 1</float_array>"
    "<technique_common><accessor source=\"#Strip-skin-bind_poses-array\" count=\"2\" stride=\"16\"><param "
    "name=\"TRANSFORM\" type=\"float4x4\"/></accessor></technique_common></source>\n"
    "<source id=\"Strip-skin-weights\"><float_array id=\"Strip-skin-weights-array\" count=\"3\">1 0.5 0.5</float_array>"
    "<technique_common><accessor source=\"#Strip-skin-weights-array\" count=\"3\" stride=\"1\"><param name=\"WEIGHT\" "
    "type=\"float\"/></accessor></technique_common></source>\n"
    "<joints><input semantic=\"JOINT\" source=\"#Strip-skin-joints\"/><input semantic=\"INV_BIND_MATRIX\" "
    "source=\"#Strip-skin-bind_poses\"/></joints>\n"
    "<vertex_weights count=\"6\"><input semantic=\"JOINT\" source=\"#Strip-skin-joints\" offset=\"0\"/>"
    "<input semantic=\"WEIGHT\" source=\"#Strip-skin-weights\" offset=\"1\"/>"
    "<vcount>1 2 1 1 2 1</vcount><v>0 0 0 1 1 2 1 0 0 0 0 1 1 2 1 0</v></vertex_weights>\n"
    "</skin></controller></library_controllers>\n"
    "<library_visual_scenes><visual_scene id=\"Scene\" name=\"Scene\">\n"
    "<node id=\"Armature\" name=\"Armature\" type=\"NODE\"><translate>5 5 5</translate>\n"
    "<node id=\"Root\" name=\"Root\" sid=\"Root\" type=\"JOINT\"><translate>0 0 2</translate>\n"
    "<node id=\"Tip\" name=\"Tip\" sid=\"Tip\" type=\"JOINT\"><translate>1 0 0</translate><rotate>0 0 1 90</rotate>"
    "</node></node>\n"
    "<node id=\"StripNode\" name=\"StripNode\" type=\"NODE\"><translate>-7 2 0</translate><rotate>1 0 0 30</rotate>\n"
    "<instance_controller url=\"#Strip-skin\"><skeleton>#Root</skeleton></instance_controller></node>\n"
    "</node></visual_scene></library_visual_scenes>\n"
    "<scene><instance_visual_scene url=\"#Scene\"/></scene>\n"
    "</COLLADA>\n";

/* R: Collada's world in skinview's scene (Assimp's root): scaled to metres, Z up turned to Y up. */
static M4 strip_root(void)
{
    return m4_mul(m4_scale(0.01), m4_rotate(0, -90.0));
}

/* Index of the authored vertex a stored one is (the importer may reorder and deduplicate). */
static int authored_vertex(const float p[3])
{
    for (int i = 0; i < 6; i++)
        if (fabs(strip[i][0] - p[0]) < 1e-6 && fabs(strip[i][1] - p[1]) < 1e-6 && fabs(strip[i][2] - p[2]) < 1e-6)
            return i;
    return -1;
}

static void check_written_file(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/strip.dae", dir);
    FILE *f = fopen(path, "w");
    CHECK(f && fputs(strip_dae, f) >= 0, "write %s", path);
    if (!f || fclose(f) != 0) return;

    Model model = {0};
    ImportOptions options = {.quiet = true};
    char error[512];
    bool ok = import_model(path, &options, &model, error, sizeof error);
    CHECK(ok, "import %s: %s", path, error);
    if (!ok) return;
    CHECK(model.mesh_count == 1 && model.meshes[0].skinned, "one skinned mesh (%d meshes)", model.mesh_count);
    int root_joint = joint_named(&model, "Root"), tip_joint = joint_named(&model, "Tip");
    int armature = joint_named(&model, "Armature");
    CHECK(root_joint >= 0 && tip_joint >= 0 && armature >= 0, "joints Root, Tip, Armature");
    Animator animator;
    if (test_failed || !animator_init(&animator, &model)) {
        CHECK(false, "animator_init");
        model_free(&model);
        return;
    }
    const Mesh *mesh = &model.meshes[0];
    M4 R = strip_root(), bsm = m4_rows(bind_shape_rows);
    M4 ibm[2] = {m4_rows(ibm_root_rows), m4_rows(ibm_tip_rows)};
    vec3 posed[16];
    CHECK(mesh->vertex_count <= 16, "%d vertices", mesh->vertex_count);
    if (mesh->vertex_count > 16) goto done;

    /* bind pose: R * BSM * v, the bones at R * inverse(IBM) */
    animator_evaluate(&animator, ANIMATOR_BIND_POSE, 0.0f);
    animator_skin_mesh(&animator, 0, posed, NULL);
    M4 placed = m4_mul(R, bsm);
    double worst = 0.0;
    for (int v = 0; v < mesh->vertex_count; v++) {
        int a = authored_vertex(mesh->positions[v]);
        CHECK(a >= 0, "stored vertex %d (%g %g %g) is not one the file wrote", v, (double)mesh->positions[v][0],
              (double)mesh->positions[v][1], (double)mesh->positions[v][2]);
        if (a < 0) continue;
        double want[3];
        m4_point(placed, strip[a], want);
        worst = fmax(worst, distance3(want, posed[v]));
    }
    /* the strip spans 2 x 1 cm: 0.022 m diagonal */
    CHECK(worst < 1e-7, "--clip bind: a vertex is %.3g m from R * BSM * v", worst);
    printf("written file, bind pose: vertices within %.2g m of R * BSM * v (the strip is 0.022 m long)\n", worst);
    const int joints[2] = {root_joint, tip_joint};
    for (int i = 0; i < 2; i++) {
        double origin[3] = {0, 0, 0}, want[3];
        m4_point(m4_mul(R, m4_rigid_inverse(ibm[i])), origin, want);
        double d = distance3(want, animator.joint_model[joints[i]][3]);
        CHECK(d < 1e-7, "bind pose: joint %s is %.3g m from R * inverse(IBM)", model.skeleton.names[joints[i]], d);
    }

    /* rest pose: sum_i w_i * R * J_i * IBM_i * BSM * v, J from the node transforms written */
    M4 j_root = m4_mul(m4_translate(5, 5, 5), m4_translate(0, 0, 2));
    M4 j_tip = m4_mul(j_root, m4_mul(m4_translate(1, 0, 0), m4_rotate(2, 90.0)));
    M4 skin[2] = {m4_mul(R, m4_mul(j_root, m4_mul(ibm[0], bsm))), m4_mul(R, m4_mul(j_tip, m4_mul(ibm[1], bsm)))};
    animator_evaluate(&animator, ANIMATOR_REST_POSE, 0.0f);
    animator_skin_mesh(&animator, 0, posed, NULL);
    worst = 0.0;
    for (int v = 0; v < mesh->vertex_count; v++) {
        int a = authored_vertex(mesh->positions[v]);
        if (a < 0) continue;
        double want[3] = {0, 0, 0};
        for (int i = 0; i < 2; i++) {
            double p[3];
            m4_point(skin[i], strip[a], p);
            for (int k = 0; k < 3; k++) want[k] += strip_weights[a][i] * p[k];
        }
        worst = fmax(worst, distance3(want, posed[v]));
    }
    CHECK(worst < 1e-6, "rest pose: a vertex is %.3g m from sum w R J IBM BSM v", worst);
    printf("written file, rest pose: vertices within %.2g m of the Collada formula\n", worst);

    /* what the bind pose was before: the stored strip placed by its node (R * Armature * StripNode) */
    M4 node = m4_mul(R, m4_mul(m4_translate(5, 5, 5), m4_mul(m4_translate(-7, 2, 0), m4_rotate(0, 30.0))));
    double p0[3], q0[3];
    m4_point(node, strip[0], p0);
    m4_point(placed, strip[0], q0);
    double apart = sqrt((p0[0] - q0[0]) * (p0[0] - q0[0]) + (p0[1] - q0[1]) * (p0[1] - q0[1]) +
                        (p0[2] - q0[2]) * (p0[2] - q0[2]));
    CHECK(apart > 0.05, "the node's placement differs from the skin's (%.3g m): the file does not test anything", apart);
done:
    animator_free(&animator);
    model_free(&model);
}

/* ---- 2. box_nested_animation.dae --------------------------------------------------- */

/* The n numbers after the first occurrence of `tag` (which ends just before them). */
static bool read_numbers_after(const char *text, const char *tag, double *out, int n)
{
    const char *p = strstr(text, tag);
    if (!p) return false;
    p += strlen(tag);
    for (int i = 0; i < n; i++) {
        char *next;
        out[i] = strtod(p, &next);
        if (next == p) return false;
        p = next;
    }
    return true;
}

static void check_box_nested(void)
{
    const char *path = SKINVIEW_TESTMODELS_DIR "/Collada/box_nested_animation.dae";
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "required test model missing: %s", path);
    if (!f) return;
    static char text[64 * 1024];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    double bsm_rows[16], ibm_rows[16], positions[24];
    bool parsed = read_numbers_after(text, "<bind_shape_matrix>", bsm_rows, 16) &&
                  read_numbers_after(text, "Armature_Cube-skin-bind_poses-array\" count=\"16\">", ibm_rows, 16) &&
                  read_numbers_after(text, "Cube-mesh-positions-array\" count=\"24\">", positions, 24) &&
                  strstr(text, "<up_axis>Z_UP</up_axis>") && strstr(text, "meter=\"1\"");
    CHECK(parsed, "%s: bind shape matrix, inverse bind matrix, positions, Z_UP and metres not found", path);
    if (!parsed) return;

    Model model = {0};
    ImportOptions options = {.quiet = true};
    char error[512];
    bool ok = import_model(path, &options, &model, error, sizeof error);
    CHECK(ok && model.mesh_count == 1 && model.meshes[0].skinned, "import %s: %s", path, error);
    Animator animator;
    if (!ok || test_failed || !animator_init(&animator, &model)) {
        if (ok) model_free(&model);
        return;
    }
    const Mesh *mesh = &model.meshes[0];
    M4 R = m4_rotate(0, -90.0), placed = m4_mul(R, m4_rows(bsm_rows));
    vec3 *bind = malloc(sizeof(vec3) * (size_t)mesh->vertex_count);
    vec3 *rest = malloc(sizeof(vec3) * (size_t)mesh->vertex_count);
    animator_evaluate(&animator, ANIMATOR_BIND_POSE, 0.0f);
    animator_skin_mesh(&animator, 0, bind, NULL);
    int bone = joint_named(&model, "Armature_Bone");
    CHECK(bone >= 0, "no joint Armature_Bone");
    double bone_bind[3] = {0, 0, 0}, origin[3] = {0, 0, 0};
    m4_point(m4_mul(R, m4_rigid_inverse(m4_rows(ibm_rows))), origin, bone_bind);
    if (bone >= 0)
        CHECK(distance3(bone_bind, animator.joint_model[bone][3]) < 1e-5, "bind pose: the bone is not at R * inverse(IBM)");
    animator_evaluate(&animator, ANIMATOR_REST_POSE, 0.0f);
    animator_skin_mesh(&animator, 0, rest, NULL);
    /* the file's IBM is the inverse of the bone's rest world matrix: bind = rest */
    if (bone >= 0)
        CHECK(distance3(bone_bind, animator.joint_model[bone][3]) < 1e-5,
              "the bone's rest place is not R * inverse(IBM): the file's bind pose is not its rest pose");
    double worst_bind = 0.0, worst_rest = 0.0;
    for (int v = 0; v < mesh->vertex_count; v++) {
        int a = -1;
        for (int k = 0; k < 8; k++)
            if (fabs(positions[3 * k] - mesh->positions[v][0]) < 1e-6 &&
                fabs(positions[3 * k + 1] - mesh->positions[v][1]) < 1e-6 &&
                fabs(positions[3 * k + 2] - mesh->positions[v][2]) < 1e-6)
                a = k;
        CHECK(a >= 0, "stored vertex %d is not one of the file's positions", v);
        if (a < 0) continue;
        double want[3];
        m4_point(placed, &positions[3 * a], want);
        worst_bind = fmax(worst_bind, distance3(want, bind[v]));
        double d[3] = {bind[v][0], bind[v][1], bind[v][2]};
        worst_rest = fmax(worst_rest, distance3(d, rest[v]));
    }
    /* the cube's diagonal is 2 * sqrt(3) */
    CHECK(worst_bind < 1e-5, "--clip bind: a vertex is %.3g from R * BSM * v", worst_bind);
    CHECK(worst_rest < 1e-5, "--clip bind and --clip rest differ by %.3g", worst_rest);
    printf("box_nested_animation.dae: bind pose within %.2g of R * BSM * v, %.2g from the rest pose "
           "(diagonal 3.46)\n", worst_bind, worst_rest);
    free(bind);
    free(rest);
    animator_free(&animator);
    model_free(&model);
}

int main(void)
{
    char dir[] = "/tmp/skinview-collada-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    check_written_file(dir);
    check_box_nested();
    char path[600];
    snprintf(path, sizeof path, "%s/strip.dae", dir);
    unlink(path);
    rmdir(dir);
    return test_finish();
}
