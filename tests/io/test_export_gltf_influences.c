/* test_export_gltf_influences — --max-influences 8: the 5th..8th largest influences of a vertex reach the
 * export as JOINTS_1 / WEIGHTS_1, and only the export (the renderer keeps 4).
 *
 * Male_Casual.fbx (../shared/models/quaternius-male-casual, skipped without it; 40 vertices with more than four
 * influences) and assimp-testmodels' FBX/animation_with_skeleton.fbx (1 515 such vertices):
 *   - imported with ImportOptions.max_influences 8 and without: the first four slots (what the renderer and the
 *     animator read) are the same, to 1e-6, and only the 8-import has Mesh.weights_more;
 *   - gltf_export() with max_influences 8 writes JOINTS_1 on those meshes (GltfExportReport.meshes_eight_influences);
 *     read back with max_influences 8, every vertex's eight (joint name, weight) pairs, each set's weights
 *     divided by their total, equal the source's to 1e-6;
 *   - read back with the default four: the same four slots as the source (the renderer draws what it drew);
 *   - the command line: skinview MODEL --export-gltf OUT --max-influences 8 --check-export exits 0.
 * And an FBX 6.1 written here (skinview's own legacy reader, not Assimp): one vertex on six bones, one on two. */
#include "testutil.h"

#include "io/gltf_write.h"
#include "io/import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* FBX 6.1 (Maya's ASCII layout), read by skinview's legacy reader: six bones along x, a quad whose vertex 0 is
 * weighted to all six (0.3, 0.2, 0.15, 0.15, 0.1, 0.1), vertex 3 to two, 1 and 2 to one each; Bone5 rises in y. */
#define LEGACY_BONE(n, x)                                                                                             \
    "    Model: \"Model::Bone" #n "\", \"LimbNode\" {\n        Version: 232\n        Properties60:  {\n"               \
    "            Property: \"Lcl Translation\", \"Lcl Translation\", \"A\"," #x ",0,0\n        }\n"                     \
    "        TypeFlags: \"Skeleton\"\n    }\n"
#define LEGACY_CLUSTER(n, x, indexes, weights)                                                                       \
    "    Deformer: \"SubDeformer::Cluster Bone" #n "\", \"Cluster\" {\n        Version: 100\n"                           \
    "        Indexes: " indexes "\n        Weights: " weights "\n"                                                       \
    "        Transform: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1\n"                                                              \
    "        TransformLink: 1,0,0,0,0,1,0,0,0,0,1,0," #x ",0,0,1\n    }\n"
#define LEGACY_LINKS(n)                                                                                               \
    "    Connect: \"OO\", \"Model::Bone" #n "\", \"Model::Scene\"\n"                                                   \
    "    Connect: \"OO\", \"SubDeformer::Cluster Bone" #n "\", \"Deformer::Skin Quad\"\n"                              \
    "    Connect: \"OO\", \"Model::Bone" #n "\", \"SubDeformer::Cluster Bone" #n "\"\n"

static const char legacy_six_bones_text[] =
    "; FBX 6.1.0 project file\n"
    "FBXHeaderExtension:  {\n    FBXHeaderVersion: 1003\n    FBXVersion: 6100\n}\n"
    "Objects:  {\n"
    "    Model: \"Model::Quad\", \"Mesh\" {\n        Version: 232\n"
    "        Properties60:  {\n            Property: \"Lcl Translation\", \"Lcl Translation\", \"A+\",0,0,0\n        }\n"
    "        Vertices: 0,0,0,1,0,0,1,1,0,0,1,0\n        PolygonVertexIndex: 0,1,-3,0,2,-4\n    }\n"
    LEGACY_BONE(0, 0) LEGACY_BONE(1, 1) LEGACY_BONE(2, 2) LEGACY_BONE(3, 3) LEGACY_BONE(4, 4) LEGACY_BONE(5, 5)
    "    Deformer: \"Deformer::Skin Quad\", \"Skin\" {\n        Version: 100\n    }\n"
    LEGACY_CLUSTER(0, 0, "0", "0.3") LEGACY_CLUSTER(1, 1, "0,1", "0.2,1") LEGACY_CLUSTER(2, 2, "0,2", "0.15,1")
    LEGACY_CLUSTER(3, 3, "0,3", "0.15,0.5") LEGACY_CLUSTER(4, 4, "0,3", "0.1,0.5") LEGACY_CLUSTER(5, 5, "0", "0.1")
    "}\n"
    "Connections:  {\n"
    "    Connect: \"OO\", \"Model::Quad\", \"Model::Scene\"\n"
    "    Connect: \"OO\", \"Deformer::Skin Quad\", \"Model::Quad\"\n"
    LEGACY_LINKS(0) LEGACY_LINKS(1) LEGACY_LINKS(2) LEGACY_LINKS(3) LEGACY_LINKS(4) LEGACY_LINKS(5)
    "}\n"
    "Takes:  {\n    Current: \"Take 001\"\n    Take: \"Take 001\" {\n"
    "        LocalTime: 0,46186158000\n        ReferenceTime: 0,46186158000\n"
    "        Model: \"Model::Bone5\" {\n            Version: 1.1\n            Channel: \"Transform\" {\n"
    "                Channel: \"T\" {\n"
    "                    Channel: \"X\" {\n                        Default: 5\n                    }\n"
    "                    Channel: \"Y\" {\n                        Default: 0\n                        KeyVer: 4005\n"
    "                        KeyCount: 2\n                        Key: 0,0,L,46186158000,2,L\n                    }\n"
    "                    Channel: \"Z\" {\n                        Default: 0\n                    }\n"
    "                    LayerType: 1\n                }\n"
    "            }\n        }\n"
    "    }\n}\n";

/* Vertex v of mesh m as up to 8 (joint, weight) pairs, weights over their total; returns the count. */
static int influences_of(const Mesh *mesh, int v, int joint[8], double weight[8])
{
    int n = 0;
    double total = 0;
    for (int k = 0; k < 8; k++) {
        bool more = k >= SV_MAX_INFLUENCES;
        if (more && !mesh->weights_more) break;
        float w = more ? mesh->weights_more[v][k - 4] : mesh->weights[v][k];
        int bone = more ? mesh->joint_indices_more[v][k - 4] : mesh->joint_indices[v][k];
        if (!(w > 0)) continue;
        int j = mesh->bone_joint[bone], at = 0;
        while (at < n && joint[at] != j) at++;
        if (at == n) joint[n] = j, weight[n++] = 0;
        weight[at] += w;
        total += w;
    }
    for (int k = 0; k < n; k++) weight[k] /= total;
    return n;
}

/* the largest difference between the vertices' influence sets (joints by name), 1 when a joint is missing */
static double influence_difference(const Model *a, int ma, const Model *b, int mb, int *vertices_with_more)
{
    const Mesh *x = &a->meshes[ma], *y = &b->meshes[mb];
    double worst = 0;
    for (int v = 0; v < x->vertex_count && v < y->vertex_count; v++) {
        int ja[8], jb[8];
        double wa[8], wb[8];
        int na = influences_of(x, v, ja, wa), nb = influences_of(y, v, jb, wb);
        if (na > SV_MAX_INFLUENCES) (*vertices_with_more)++;
        for (int i = 0; i < na; i++) {
            double found = -1;
            for (int k = 0; k < nb; k++)
                if (strcmp(a->skeleton.names[ja[i]], b->skeleton.names[jb[k]]) == 0) found = wb[k];
            worst = fmax(worst, found < 0 ? 1.0 : fabs(found - wa[i]));
        }
        if (na != nb) worst = fmax(worst, 1.0);
    }
    return worst;
}

static void check_model(const char *path)
{
    char error[512];
    Model four = {0}, eight = {0};
    ImportOptions four_options = {.quiet = true, .keep_vertex_order = true};
    ImportOptions eight_options = {.quiet = true, .keep_vertex_order = true, .max_influences = 8};
    bool ok = import_model(path, &four_options, &four, error, sizeof error);
    CHECK(ok, "%s: %s", path, error);
    ok = ok && import_model(path, &eight_options, &eight, error, sizeof error);
    CHECK(ok, "%s (8 influences): %s", path, error);
    if (!ok) {
        model_free(&four);
        return;
    }
    /* the renderer's four slots do not change with the request, and only the 8-import keeps more */
    double slot_difference = 0;
    int meshes_more = 0, more_in_four = 0;
    for (int m = 0; m < four.mesh_count && m < eight.mesh_count; m++) {
        const Mesh *a = &four.meshes[m], *b = &eight.meshes[m];
        meshes_more += b->weights_more != NULL;
        more_in_four += a->weights_more != NULL;
        if (!a->weights || !b->weights) continue;
        for (int v = 0; v < a->vertex_count; v++)
            for (int k = 0; k < SV_MAX_INFLUENCES; k++) {
                slot_difference = fmax(slot_difference, fabs(a->weights[v][k] - b->weights[v][k]));
                if (a->weights[v][k] > 0 && a->bone_joint[a->joint_indices[v][k]] != b->bone_joint[b->joint_indices[v][k]])
                    slot_difference = 1;
            }
    }
    CHECK(four.mesh_count == eight.mesh_count, "%s: %d meshes with 4, %d with 8", path, four.mesh_count, eight.mesh_count);
    CHECK(slot_difference <= 1e-6, "%s: the first four slots differ by %g between the 4- and the 8-import", path,
          slot_difference);
    CHECK(meshes_more > 0 && more_in_four == 0, "%s: meshes with a 5th influence: %d (8-import), %d (4-import)", path,
          meshes_more, more_in_four);

    char out[256];
    snprintf(out, sizeof out, "/tmp/skinview_export_influences_%d.glb", (int)getpid());
    GltfExportReport report = {0};
    report.mesh_order = malloc(sizeof(int) * ((size_t)eight.mesh_count + 1));
    GltfExportOptions export_options = {.max_influences = 8};
    ok = report.mesh_order && gltf_export(&eight, out, &export_options, &report, error, sizeof error);
    CHECK(ok, "%s: export: %s", path, error);
    CHECK(report.meshes_eight_influences == meshes_more, "%s: %d meshes written with JOINTS_1, %d expected", path,
          report.meshes_eight_influences, meshes_more);
    Model back8 = {0}, back4 = {0};
    ok = ok && import_model(out, &eight_options, &back8, error, sizeof error) &&
         import_model(out, &four_options, &back4, error, sizeof error);
    CHECK(ok, "%s: the export does not read back: %s", path, error);
    double worst8 = 0, worst4 = 0;
    int with_more = 0, unused = 0;
    for (int m = 0; ok && m < eight.mesh_count; m++) {
        int o = report.mesh_order[m];
        if (!eight.meshes[m].skinned || o < 0 || o >= back8.mesh_count) continue;
        worst8 = fmax(worst8, influence_difference(&eight, m, &back8, o, &with_more));
        worst4 = fmax(worst4, influence_difference(&four, m, &back4, o, &unused));
        CHECK(back4.meshes[o].weights_more == NULL, "%s: a default read of the export kept more than four", path);
    }
    printf("  %-60s %d meshes with JOINTS_1, %d vertices with 5..8 influences; 8 back: %.2e, 4 back: %.2e\n", path,
           report.meshes_eight_influences, with_more, worst8, worst4);
    CHECK(with_more > 0, "%s: no vertex with more than four influences came through", path);
    CHECK(worst8 <= 1e-6, "%s: the eight influences read back differ by %g", path, worst8);
    CHECK(worst4 <= 1e-6, "%s: the four influences read back differ by %g", path, worst4);
    unlink(out);
    free(report.mesh_order);
    model_free(&back8), model_free(&back4), model_free(&four), model_free(&eight);

    char command[4096], output[8192];
    snprintf(command, sizeof command, "'%s' '%s' --export-gltf '%s' --max-influences 8 --check-export --quiet 2>&1",
             SKINVIEW_BINARY, path, out);
    int rc = test_run_capture(command, output, sizeof output);
    CHECK(rc == 0 && !strstr(output, "FAILED"), "%s: --max-influences 8 --check-export exit %d: %.400s", path, rc, output);
    unlink(out);
}

int main(void)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/FBX/animation_with_skeleton.fbx", SKINVIEW_TESTMODELS_DIR);
    check_model(path);
    snprintf(path, sizeof path, "/tmp/skinview_influences_legacy_%d.fbx", (int)getpid());
    FILE *legacy = fopen(path, "wb");
    CHECK(legacy && fputs(legacy_six_bones_text, legacy) >= 0, "%s: cannot write", path);
    if (legacy && fclose(legacy) == 0) check_model(path);   /* before: the legacy reader kept four, always */
    unlink(path);
    snprintf(path, sizeof path, "%s/quaternius-male-casual/Male_Casual.fbx", SKINVIEW_SHARED_MODELS_DIR);
    if (access(path, R_OK) == 0) check_model(path);
    else printf("  %s absent (../shared): skipped\n", path);
    return test_finish();
}
