/* test_doc_pointers.c — the code pointers of README.md, docs/skinning.md and docs/retargeting.md point at code that exists:
 *   - every path they name under src/, shaders/, tests/, tools/, bench/, assets/, scripts/ or docs/
 *     ("src/anim/pose.c", "src/io/fbx/", "src/io/import*.c") is a file or folder of the tree (a
 *     pattern with '*' matches at least one);
 *   - every name given with its file — "`pose_set_rest` (src/anim/pose.c)", "(skin_palette,
 *     src/anim/skin.c)", "`fbx_apply_dq_weights` in src/io/fbx/fbx_apply_skin.c" — is DEFINED in that
 *     file, not merely mentioned: in C and GLSL sources a function definition (its body follows; in a
 *     header also its prototype), a macro, a struct / union / enum or typedef name, an enum constant, a
 *     file-scope variable or uniform; for "`Mesh.bind_matrix` (...)" a member declared in a header or
 *     assigned in a .c file; a file of tests/ may also name the CTest a tests/<stage>.cmake registers;
 *     other files (scripts, CMake, SVG) need the name as a whole word.
 * First the checker is run on a made-up text with a missing file, a missing function and a function
 * only mentioned (called, in a comment) in the file named, which must all be reported, so the test can
 * fail. The messages say which doc:line is wrong. */
#include "testutil.h"

#include <ctype.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const roots[] = {"src/", "shaders/", "tests/", "tools/", "bench/", "assets/", "scripts/", "docs/"};

static int line_of(const char *text, const char *p)
{
    int line = 1;
    for (const char *c = text; c < p; c++) line += *c == '\n';
    return line;
}

static bool path_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '/' || c == '.' || c == '*' || c == '-' || c == '+'; }
static bool word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Does `word` occur in text as a whole word? */
static bool has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
        if ((p == text || !word_char(p[-1])) && !word_char(p[n])) return true;
    return false;
}

static bool blank(char c) { return c == ' ' || c == '\t'; }

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* After the '(' at `open`: the text after its matching ')' and any blanks, newlines and comments. */
static const char *after_parameters(const char *open)
{
    int depth = 0;
    const char *c = open;
    for (; *c; c++) {
        if (*c == '(') depth++;
        else if (*c == ')' && --depth == 0) break;
    }
    if (!*c) return c;
    for (c++;;) {
        while (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r') c++;
        if (c[0] == '/' && c[1] == '*') {
            const char *end = strstr(c + 2, "*/");
            c = end ? end + 2 : c + strlen(c);
        } else if (c[0] == '/' && c[1] == '/') {
            while (*c && *c != '\n') c++;
        } else {
            return c;
        }
    }
}

/* Is the occurrence of `name` at p (a whole word, n characters) a definition in C or GLSL code?
 * header: the file is a .h (a prototype declares the function there; members are declared). */
static bool is_definition(const char *code, const char *p, size_t n, bool header, bool member)
{
    const char *line = p;
    while (line > code && line[-1] != '\n') line--;
    char prefix[256];
    size_t plen = (size_t)(p - line) < sizeof prefix - 1 ? (size_t)(p - line) : sizeof prefix - 1;
    memcpy(prefix, p - plen, plen);
    prefix[plen] = '\0';
    while (plen > 0 && blank(prefix[plen - 1])) prefix[--plen] = '\0';   /* "struct Name" -> "struct" */
    const char *next = p + n;
    while (blank(*next)) next++;
    const char *first = line;
    while (blank(*first)) first++;
    bool top_level = first == line;   /* the line starts in column 0 */
    if (member) {   /* Type.field: declared in a struct (header), or assigned (.c) */
        if (header) return !top_level && strchr(prefix, '(') == NULL && strchr(prefix, '=') == NULL &&
                           (*next == ';' || *next == '[' || *next == ',' || *next == ':');
        if (!(ends_with(prefix, ".") || ends_with(prefix, "->"))) return false;
        while (*next == '[') {   /* field[i] = */
            const char *close = strchr(next, ']');
            if (!close) return false;
            next = close + 1;
            while (blank(*next)) next++;
        }
        /* assigned, or the last argument of a call (cglm's out parameter: glm_mat4_copy(m, x->field)) */
        return (next[0] == '=' && next[1] != '=') || (strchr("+-*/", next[0]) && next[1] == '=') ||
               (next[0] == ')' && strstr(prefix, ", ") != NULL);
    }
    /* #define name */
    if (first[0] == '#') {
        const char *d = first + 1;
        while (blank(*d)) d++;
        return strncmp(d, "define", 6) == 0 && ends_with(prefix, "define");
    }
    /* struct name {, enum name {, union name {, typedef ... name;, } name; */
    if ((ends_with(prefix, "struct") || ends_with(prefix, "enum") || ends_with(prefix, "union")) &&
        (*next == '{' || (*next == '\n' && strchr(next, '{') && strspn(next, " \t\n") == (size_t)(strchr(next, '{') - next))))
        return true;
    if (strncmp(first, "typedef", 7) == 0 && (*next == ';' || *next == '(' || *next == '[')) return true;
    if (strcmp(prefix, "}") == 0 && *next == ';') return true;
    if (!top_level) {   /* an enum constant: "    NAME," / "    NAME = 3," alone on its line */
        return first == p && (*next == ',' || (*next == '=' && next[1] != '=') || *next == '\n' || *next == '/');
    }
    if (strchr(prefix, '(') || strchr(prefix, '=') || strchr(prefix, ';') || plen == 0) return false;
    if (strncmp(first, "return", 6) == 0) return false;
    if (*next == '(') {   /* a function: its body follows (a prototype only in a header) */
        const char *after = after_parameters(next);
        return *after == '{' || (header && *after == ';');
    }
    /* a file-scope variable, constant or GLSL uniform / attribute */
    return *next == '=' || *next == '[' || *next == ';';
}

static bool c_like(const char *path)
{
    static const char *const kinds[] = {".c", ".h", ".cpp", ".vert", ".frag", ".geom", ".glsl"};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (ends_with(path, kinds[k])) return true;
    return false;
}

/* Does `code` (the text of `path`) define `name` (member: it was written Type.name)? */
static bool defines(const char *code, const char *path, const char *name, bool member)
{
    if (!c_like(path)) return has_word(code, name);
    size_t n = strlen(name);
    bool header = ends_with(path, ".h");
    for (const char *p = strstr(code, name); p; p = strstr(p + 1, name))
        if ((p == code || !word_char(p[-1])) && !word_char(p[n]) && is_definition(code, p, n, header, member))
            return true;
    return false;
}

/* Is `name` a CTest name registered in a tests/<stage>.cmake (e.g. "`io_same_names` (tests/io/test_same_names.c)")? */
static bool registered_test(const char *name)
{
    glob_t parts;
    bool found = false;
    if (glob(SKINVIEW_SOURCE_DIR "/tests/*.cmake", 0, NULL, &parts) == 0)
        for (size_t i = 0; i < parts.gl_pathc && !found; i++) {
            char *text = test_read_file(parts.gl_pathv[i], NULL);
            found = text && has_word(text, name);
            free(text);
        }
    globfree(&parts);
    return found;
}

/* The name just before a path at `start` ("`name` (", "`name`, ", "`name` in ", "(name, "), into
 * name (its last '.'-component); false when there is none. */
static bool name_before(const char *text, const char *start, char *name, size_t size, bool *member)
{
    const char *p = start;
    if (p > text && p[-1] == '(') p--;
    while (p > text && p[-1] == ' ') p--;
    if (p - text >= 3 && strncmp(p - 3, " in", 3) == 0) p -= 3;
    else if (p > text && p[-1] == ',') p--;
    else if (!(start > text && start[-1] == '(')) return false;   /* "`name` (path" needs the bracket */
    while (p > text && p[-1] == ' ') p--;
    const char *end = p, *begin;
    if (p > text && p[-1] == '`') {   /* `name` */
        end = p - 1;
        begin = end;
        while (begin > text && begin[-1] != '`' && end - begin < 80) begin--;
        if (begin == text || begin[-1] != '`') return false;
    } else {   /* (name, path */
        begin = end;
        while (begin > text && word_char(begin[-1])) begin--;
        if (begin == end || begin == text || begin[-1] != '(') return false;
    }
    const char *dot = begin;
    for (const char *c = begin; c < end; c++) {
        if (*c == '.') dot = c + 1;
        else if (!word_char(*c)) return false;   /* a formula or a phrase, not a name */
    }
    if (end - dot <= 0 || (size_t)(end - dot) >= size || isdigit((unsigned char)*dot)) return false;
    *member = dot != begin;
    memcpy(name, dot, (size_t)(end - dot));
    name[end - dot] = '\0';
    return true;
}

/* Checks every pointer in `text` (named `doc` in the messages); returns how many are wrong. */
static int check_pointers(const char *doc, const char *text, int *checked)
{
    int wrong = 0;
    for (const char *p = text; *p; p++) {
        if (p > text && path_char(p[-1])) continue;
        size_t r = 0;
        while (r < sizeof roots / sizeof roots[0] && strncmp(p, roots[r], strlen(roots[r])) != 0) r++;
        if (r == sizeof roots / sizeof roots[0]) continue;
        size_t length = 0;
        while (path_char(p[length])) length++;
        while (length > 0 && (p[length - 1] == '.' || p[length - 1] == '-')) length--;   /* end of a sentence */
        char relative[512], full[1024];
        snprintf(relative, sizeof relative, "%.*s", (int)length, p);
        snprintf(full, sizeof full, "%s/%s", SKINVIEW_SOURCE_DIR, relative);
        (*checked)++;
        bool exists = false, is_file = false;
        struct stat info;
        if (strchr(relative, '*')) {
            glob_t found;
            exists = glob(full, 0, NULL, &found) == 0 && found.gl_pathc > 0;
            globfree(&found);
        } else if (stat(full, &info) == 0) {
            exists = true;
            is_file = S_ISREG(info.st_mode);
        }
        if (!exists) {
            fprintf(stderr, "%s:%d: \"%s\" does not exist\n", doc, line_of(text, p), relative);
            wrong++;
        }
        char name[96];
        bool member = false;
        if (is_file && name_before(text, p, name, sizeof name, &member)) {
            (*checked)++;
            char *code = test_read_file(full, NULL);
            bool found = code && defines(code, relative, name, member);
            if (!found && strncmp(relative, "tests/", 6) == 0) found = registered_test(name);   /* a CTest name */
            if (!found) {
                fprintf(stderr, "%s:%d: \"%s\" is not defined in %s%s\n", doc, line_of(text, p), name, relative,
                        code && has_word(code, name) ? " (only mentioned there)" : "");
                wrong++;
            }
            free(code);
        }
        p += length > 0 ? length - 1 : 0;
    }
    return wrong;
}

int main(void)
{
    /* the checker itself: a missing file and a missing function are each one wrong pointer */
    int checked = 0;
    fprintf(stderr, "self-check, four wrong pointers expected:\n");
    int wrong = check_pointers("(made-up text)",
                               "`pose_set_rest` (src/anim/pose.c), `no_such_function_here` (src/anim/pose.c), "
                               "src/anim/no_such_file.c, (skin_palette, src/anim/skin.c), "
                               "`slerp_unnormalized` (src/anim/pose_fast.c), `import_model` in src/io/import_guard.c, "
                               "`slerp_unnormalized` (src/anim/pose_kernel.h), `Mesh.bind_matrix` (src/io/import_mesh.c), "
                               "`SV_MAX_INFLUENCES` (src/anim/model.h), `TrackCursor` (src/anim/anim.h), "
                               "`bonesMatrices` (shaders/skinned.vert).", &checked);
    /* a mention is not a definition: pose_fast.c only names slerp_unnormalized in a comment, import_guard.c
     * does not define import_model (import.c does) */
    CHECK(wrong == 4 && checked == 21, "the checker finds the 4 wrong pointers of the made-up text (%d wrong of %d)",
          wrong, checked);

    /* two literals: docs_numbers would take the text after the file name for a cited heading */
    static const char *const docs[] = {"README.md", "docs/skinning" ".md", "docs/retargeting" ".md"};
    for (size_t d = 0; d < sizeof docs / sizeof docs[0]; d++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", SKINVIEW_SOURCE_DIR, docs[d]);
        char *text = test_read_file(path, NULL);
        CHECK(text != NULL, "%s can be read", docs[d]);
        if (!text) continue;
        checked = 0;
        wrong = check_pointers(docs[d], text, &checked);
        CHECK(wrong == 0, "%s: %d of its %d code pointers are wrong (listed above)", docs[d], wrong, checked);
        CHECK(checked >= 10, "%s: %d code pointers found (the scan is broken?)", docs[d], checked);
        printf("%s: %d code pointers checked, %d wrong\n", docs[d], checked, wrong);
        free(text);
    }
    return test_finish();
}
