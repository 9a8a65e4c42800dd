/* test_cli.c — the command line (docs/skinview.1.md): parsing, defaults and bad usage. */
#include "app/cli.h"
#include "testutil.h"

#include <string.h>

static bool parse(Options *o, char *error, int argc, ...);

#include <stdarg.h>
static bool parse(Options *o, char *error, int argc, ...)
{
    char *argv[32] = {"skinview"};
    va_list ap;
    va_start(ap, argc);
    for (int i = 0; i < argc; i++) argv[i + 1] = va_arg(ap, char *);
    va_end(ap);
    return cli_parse(argc + 1, argv, o, error, 256);
}

int main(void)
{
    Options o;
    char error[256];

    CHECK(parse(&o, error, 0), "no arguments is valid");
    CHECK(o.model_path == NULL && o.speed == 1.0f && o.width == 1280 && o.height == 720 && !o.info,
          "defaults");

    CHECK(parse(&o, error, 6, "m.fbx", "--clip", "Walk", "--time", "0.5", "--info"), "%s", error);
    CHECK(strcmp(o.model_path, "m.fbx") == 0 && strcmp(o.clip, "Walk") == 0, "model and clip");
    CHECK(o.time_set && o.time == 0.5f && o.info, "time and info");

    CHECK(parse(&o, error, 5, "m.glb", "--screenshot", "a.png", "--size", "640x480"), "%s", error);
    CHECK(o.width == 640 && o.height == 480 && strcmp(o.screenshot_path, "a.png") == 0, "size");

    CHECK(parse(&o, error, 4, "m.glb", "--verify", "--max-bones", "16"), "%s", error);
    CHECK(o.verify && o.max_bones == 16, "verify, max bones");

    /* --skinning lbs is gpu (linear blend skinning): --export-gltf's plain LBS */
    CHECK(parse(&o, error, 5, "m.fbx", "--export-gltf", "o.glb", "--skinning", "lbs") && o.skinning_given &&
              o.aids.skinning == SKINNING_GPU_LBS, "--skinning lbs: %s", error);
    CHECK(parse(&o, error, 5, "m.fbx", "--export-gltf", "o.glb", "--skinning", "dq") && o.aids.skinning == SKINNING_GPU_DQ,
          "--skinning dq with --export-gltf: %s", error);
    /* --max-influences / --compress: with --export-gltf or the window (Ctrl+E), not with another mode */
    CHECK(parse(&o, error, 5, "m.fbx", "--max-influences", "8", "--compress", "meshopt") && o.max_influences == 8 &&
              o.compress_meshopt, "the window's export options: %s", error);
    CHECK(!parse(&o, error, 4, "m.fbx", "--info", "--max-influences", "8"), "--max-influences with --info accepted");

    CHECK(parse(&o, error, 2, "m.glb", "--verify") && !o.aids.reference, "the fast path by default");
    CHECK(parse(&o, error, 3, "m.glb", "--verify", "--reference") && o.aids.reference, "--reference: %s", error);

    CHECK(parse(&o, error, 3, "m.glb", "--speed", "0.25"), "%s", error);
    CHECK(o.speed == 0.25f, "speed");

    /* bad usage */
    CHECK(!parse(&o, error, 2, "m.fbx", "--bogus"), "unknown option rejected");
    CHECK(strstr(error, "--bogus") != NULL, "message names the option: %s", error);
    CHECK(!parse(&o, error, 2, "m.fbx", "--time"), "missing value rejected");
    CHECK(!parse(&o, error, 3, "m.fbx", "--time", "abc"), "non-number time rejected");
    CHECK(!parse(&o, error, 3, "m.fbx", "--time", "-1"), "negative time rejected");
    CHECK(!parse(&o, error, 3, "m.fbx", "--time", "nan"), "NaN time rejected");
    CHECK(!parse(&o, error, 3, "m.fbx", "--speed", "0"), "zero speed rejected");
    CHECK(!parse(&o, error, 3, "m.fbx", "--size", "640"), "size without x rejected");
    CHECK(!parse(&o, error, 3, "m.fbx", "--size", "0x480"), "zero width rejected");
    CHECK(!parse(&o, error, 3, "m.fbx", "--size", "640x480junk"), "trailing junk rejected");
    CHECK(!parse(&o, error, 3, "m.fbx", "--max-bones", "0"), "max bones 0 rejected");
    CHECK(!parse(&o, error, 2, "a.fbx", "b.fbx"), "two models rejected");
    CHECK(!parse(&o, error, 2, "m.fbx", "--json"), "--json without --info rejected");
    /* --against OTHER [--report [--tolerance X]] */
    CHECK(parse(&o, error, 3, "m.fbx", "--against", "m.glb"), "%s", error);
    CHECK(strcmp(o.against_path, "m.glb") == 0 && !o.against_report && o.tolerance == 1e-3f, "--against, default tolerance");
    CHECK(parse(&o, error, 6, "m.fbx", "--against", "m.glb", "--report", "--tolerance", "0.01"), "%s", error);
    CHECK(o.against_report && o.tolerance == 0.01f, "--report --tolerance 0.01");
    CHECK(parse(&o, error, 5, "m.fbx", "--against", "m.glb", "--screenshot", "a.png"), "%s", error);
    CHECK(!parse(&o, error, 2, "m.fbx", "--report") && strstr(error, "--against"), "--report alone: %s", error);
    CHECK(!parse(&o, error, 5, "m.fbx", "--against", "m.glb", "--tolerance", "0.1"), "--tolerance without --report");
    CHECK(!parse(&o, error, 6, "m.fbx", "--against", "m.glb", "--report", "--tolerance", "0"), "--tolerance 0 rejected");
    CHECK(!parse(&o, error, 5, "m.fbx", "--against", "m.glb", "--compare", "lbs,dq") && strstr(error, "--compare"),
          "--against with --compare: %s", error);
    CHECK(!parse(&o, error, 5, "m.fbx", "--against", "m.glb", "--export-pose", "a.obj") && strstr(error, "--export-pose"),
          "--against with --export-pose: %s", error);
    CHECK(!parse(&o, error, 6, "m.fbx", "--against", "m.glb", "--report", "--screenshot", "a.png"),
          "--report with --screenshot rejected");
    CHECK(parse(&o, error, 1, "--version") && o.version && !o.help, "--version");
    CHECK(parse(&o, error, 4, "--thumbnail", "in.fbx", "out.png", "256"), "%s", error);
    CHECK(strcmp(o.thumbnail_in, "in.fbx") == 0 && strcmp(o.thumbnail_out, "out.png") == 0 &&
          o.thumbnail_size == 256 && o.thumbnail_budget == 5.0f && o.model_path == NULL,
          "--thumbnail IN OUT SIZE, default budget 5 s");
    CHECK(parse(&o, error, 6, "--thumbnail", "in.fbx", "out.png", "128", "--thumbnail-budget", "0.5") &&
          o.thumbnail_budget == 0.5f, "--thumbnail-budget");
    CHECK(!parse(&o, error, 3, "--thumbnail", "in.fbx", "out.png"), "--thumbnail without SIZE rejected");
    CHECK(!parse(&o, error, 4, "--thumbnail", "in.fbx", "out.png", "0"), "--thumbnail SIZE 0 rejected");
    CHECK(!parse(&o, error, 4, "--thumbnail", "in.fbx", "out.png", "12x"), "--thumbnail SIZE junk rejected");
    CHECK(!parse(&o, error, 5, "m.fbx", "--thumbnail", "in.fbx", "out.png", "64"), "MODEL and --thumbnail rejected");
    CHECK(!parse(&o, error, 6, "--thumbnail", "i", "o", "64", "--thumbnail-budget", "0"), "zero budget rejected");
    CHECK(strncmp(cli_version(), "skinview ", 9) == 0, "version text: %s", cli_version());
    return test_finish();
}
