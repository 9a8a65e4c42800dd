/* test_gl_debug.c — --gl-debug catches GL errors (src/gfx/gl_debug.c).
 *
 * On an offscreen context, with SKINVIEW_GL_DEBUG=1 (KHR_debug callback) and then
 * SKINVIEW_GL_DEBUG=poll (glGetError after each stage): a clean stage reports nothing; binding a
 * buffer name that was never generated (GL_INVALID_OPERATION in a core profile) is counted once
 * and printed as one "skinview: GL error: ..." line naming the stage. This test is the one place
 * that raises GL errors on purpose, so it is exempt from the suite-wide "GL error" check.
 */
#include "app/glcontext.h"
#include "gfx/gl.h"
#include "gfx/gl_debug.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void run(const char *mode)
{
    setenv("SKINVIEW_GL_DEBUG", mode, 1);
    /* capture stderr in a temporary file */
    FILE *capture = tmpfile();
    int saved = dup(2);
    dup2(fileno(capture), 2);

    GlContext context;
    char error[512];
    bool have = glcontext_create_offscreen(&context, error, sizeof error);
    int before = gl_debug_error_count();
    int clean_errors = -1, bad_errors = -1;
    if (have) {
        gl_debug_check("a clean stage");
        GLuint buffer = 0;
        glGenBuffers(1, &buffer);
        glBindBuffer(GL_ARRAY_BUFFER, buffer);
        glDeleteBuffers(1, &buffer);
        gl_debug_check("the faulty stage");
        clean_errors = gl_debug_error_count() - before;
        glBindBuffer(GL_ARRAY_BUFFER, 987654);   /* never generated: GL_INVALID_OPERATION */
        gl_debug_check("after the faulty stage");
        bad_errors = gl_debug_error_count() - before - clean_errors;
        glcontext_destroy(&context);
    }
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char text[4096];
    rewind(capture);
    size_t n = fread(text, 1, sizeof text - 1, capture);
    text[n] = '\0';
    fclose(capture);

    if (!have) {
        fprintf(stderr, "no offscreen GL context (%s): skipped\n", error);
        exit(TEST_SKIP_CODE);
    }
    CHECK(clean_errors == 0, "%s: clean stage reported %d errors: %s", mode, clean_errors, text);
    CHECK(bad_errors == 1, "%s: the invalid bind was reported %d times: %s", mode, bad_errors, text);
    const char *line = strstr(text, "skinview: GL error: ");
    CHECK(line != NULL, "%s: no 'skinview: GL error:' line in: %s", mode, text);
    CHECK(line && strstr(line, "the faulty stage") && strchr(line, '\n') == strrchr(text, '\n'),
          "%s: the line does not name the stage or is not one line: %s", mode, text);
    if (strcmp(mode, "poll") == 0)
        CHECK(line && strstr(line, "GL_INVALID_OPERATION"), "poll: error name missing: %s", text);
}

int main(int argc, char **argv)
{
    run(argc > 1 ? argv[1] : "1");
    return test_finish();
}
