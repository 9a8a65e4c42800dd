/* testpoints.h — point sets (posed vertices read back from skinview) and the distances between two:
 * shared by the ufbx-dcc check (util/dcc_common.c) and io_gltf_web (io/test_gltf_web.c). */
#ifndef SKINVIEW_TESTPOINTS_H
#define SKINVIEW_TESTPOINTS_H

typedef struct TestPoints {
    double *xyz;   /* x y z of each point */
    int     count, capacity;
} TestPoints;

void test_points_add(TestPoints *p, double x, double y, double z);
void test_points_free(TestPoints *p);

/* The diagonal of the set's bounding box (0 for an empty set). */
double test_points_diagonal(const TestPoints *p);

/* Max over the points of a of the distance to the nearest point of b; test_points_distance: the
 * symmetric one (max of both ways, the Hausdorff distance), infinite when either set is empty. */
double test_points_directed_distance(const TestPoints *a, const TestPoints *b);
double test_points_distance(const TestPoints *a, const TestPoints *b);

#endif
