/* test_layers.c — the rooms of src/ keep the rules README.md states in its room list (quoted below,
 * and checked to be there word for word):
 *   - each #include of the project goes down the order base → anim → io / gfx → platform → view →
 *     teach → app, or stays in its own room (io and gfx do not include each other; so src/anim includes
 *     nothing of the project but itself and src/base);
 *   - Assimp's headers are reached (directly or through the project's headers) from src/io alone; GL's
 *     (glad, EGL) from src/gfx and src/platform alone, GLFW's from the window-facing rooms
 *     (src/platform, src/view, src/app); no file outside src/gfx and src/platform calls a GL or EGL
 *     function (`gl` or `egl`, a capital, a name, `(`);
 *   - no circle inside a room: rooms of a file are a source and its header of the same name (as
 *     `farm-studio look` draws them); A → B when A includes B's header or calls (uses inside a body or a
 *     table, not in a prototype) a function that B alone defines (not static); no set of rooms of one folder tree (src/io with io/gltf and io/fbx)
 *     reaches itself (src/io/fbx included: its circles are broken, issue 31).
 * First the checker runs on a made-up tree that breaks each rule once, and must find each, so the
 * test can fail. The build enforces part of it as well: each library sees only the rooms it may
 * include (cmake/rooms.cmake) and glad is linked to skinview_gfx alone. */
#include "layers_tree.h"
#include "testutil.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The rules as README.md's room list words them: each must occur there verbatim. */
static const char *const readme_rules[] = {
    "Includes go down the order base → anim → io / gfx → platform → view → teach → app, or stay in their room",
    "`src/anim/` includes nothing of the project but itself and `src/base/`",
    "Assimp only in `src/io/`",
    "GL (glad, EGL, any `gl…(` or `egl…(` call) only in `src/gfx/` and `src/platform/`;",
    "GLFW only in the window-facing rooms `src/platform/`, `src/view/`, `src/app/`",
    "No circle inside a folder: no file includes or calls a file that includes or calls it back",
};

/* rank in the order; io and gfx share one (neither includes the other) */
static const struct { const char *room; int rank; } order[] = {
    {"base", 0}, {"anim", 1}, {"io", 2}, {"gfx", 2}, {"platform", 3}, {"view", 4}, {"teach", 5}, {"app", 6},
};

/* third-party headers (an #include <PREFIX...>) and the rooms that may reach them */
static const struct { const char *prefix, *what, *rooms[4]; } third_party[] = {
    {"assimp/", "Assimp", {"io"}},
    {"glad/", "GL (glad)", {"gfx", "platform"}},
    {"GL/", "GL", {"gfx", "platform"}},
    {"EGL/", "EGL", {"gfx", "platform"}},
    {"GLFW/", "GLFW", {"platform", "view", "app"}},
};

static int rank_of(const char *room)
{
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (strcmp(order[i].room, room) == 0) return order[i].rank;
    return -1;
}

/* ---- rule 1: includes go down ------------------------------------------------------------ */

static int check_order(const Tree *tree)
{
    int wrong = 0;
    for (int i = 0; i < tree->count; i++) {
        const SourceFile *f = &tree->files[i];
        char room[64], target_room[64];
        room_of(f->path, room, sizeof room);
        int rank = rank_of(room);
        if (rank < 0) {
            fprintf(stderr, "layers: src/%s: room '%s' is not in the order of README's room list\n", f->path, room);
            wrong++;
            continue;
        }
        for (int k = 0; k < f->include_count; k++) {
            if (f->resolved[k] < 0) continue;
            room_of(tree->files[f->resolved[k]].path, target_room, sizeof target_room);
            if (strcmp(room, target_room) == 0) continue;
            int target_rank = rank_of(target_room);
            if (target_rank < 0 || target_rank >= rank) {
                fprintf(stderr, "layers: src/%s includes \"%s\" (src/%s): src/%s is not below src/%s\n", f->path,
                        f->includes[k], tree->files[f->resolved[k]].path, target_room, room);
                wrong++;
            }
        }
    }
    return wrong;
}

/* ---- rule 2: third-party headers and GL calls -------------------------------------------- */

static bool room_allowed(const char *room, const char *const *rooms)
{
    for (int r = 0; r < 4 && rooms[r]; r++)
        if (strcmp(rooms[r], room) == 0) return true;
    return false;
}

/* Depth-first through the project includes from `file`: the first file that includes <prefix...>,
 * with the chain that leads there written into `chain`. */
static bool reaches(const Tree *tree, int file, const char *prefix, bool *seen, char *chain, size_t chain_size)
{
    if (seen[file]) return false;
    seen[file] = true;
    const SourceFile *f = &tree->files[file];
    for (int k = 0; k < f->include_count; k++)
        if (f->system[k] && strncmp(f->includes[k], prefix, strlen(prefix)) == 0) {
            snprintf(chain, chain_size, "src/%s includes <%s>", f->path, f->includes[k]);
            return true;
        }
    for (int k = 0; k < f->include_count; k++)
        if (f->resolved[k] >= 0 && reaches(tree, f->resolved[k], prefix, seen, chain, chain_size)) return true;
    return false;
}

static int check_third_party(const Tree *tree)
{
    int wrong = 0;
    bool *seen = malloc((size_t)tree->count);
    for (int i = 0; i < tree->count; i++) {
        char room[64], chain[512];
        room_of(tree->files[i].path, room, sizeof room);
        for (size_t t = 0; t < sizeof third_party / sizeof third_party[0]; t++) {
            if (room_allowed(room, third_party[t].rooms)) continue;
            memset(seen, 0, (size_t)tree->count);
            if (reaches(tree, i, third_party[t].prefix, seen, chain, sizeof chain)) {
                fprintf(stderr, "layers: src/%s reaches %s, which src/%s may not: %s\n", tree->files[i].path,
                        third_party[t].what, room, chain);
                wrong++;
            }
        }
    }
    free(seen);
    return wrong;
}

/* `gl` or `egl` at the start of a name, a capital, more name, `(`: the stop hook's pattern. */
static int check_gl_calls(const Tree *tree)
{
    int wrong = 0;
    for (int i = 0; i < tree->count; i++) {
        const SourceFile *f = &tree->files[i];
        char room[64];
        room_of(f->path, room, sizeof room);
        if (strcmp(room, "gfx") == 0 || strcmp(room, "platform") == 0) continue;
        int calls = 0, line = 1;
        const char *first = NULL;
        int first_line = 0;
        for (const char *p = f->raw; *p; p++) {
            if (*p == '\n') line++;
            if (p > f->raw && word_char(p[-1])) continue;
            const char *q = strncmp(p, "gl", 2) == 0 ? p + 2 : strncmp(p, "egl", 3) == 0 ? p + 3 : NULL;
            if (!q || !isupper((unsigned char)*q)) continue;
            q++;
            if (!isalnum((unsigned char)*q)) continue;
            while (isalnum((unsigned char)*q)) q++;
            if (*q != '(') continue;
            if (!first) first = p, first_line = line;
            calls++;
        }
        if (calls) {
            fprintf(stderr, "layers: src/%s:%d calls GL outside src/gfx and src/platform (%.*s..., %d call(s))\n", f->path,
                    first_line, 24, first, calls);
            wrong++;
        }
    }
    return wrong;
}

/* ---- rule 3: no circle inside a folder ---------------------------------------------------- */

typedef struct Definition {
    char name[96];
    int  unit;
    int  count;      /* how many units define it (a name two define ties no one) */
    bool function;   /* a function: used by a call (inside braces); a type, macro or constant: anywhere */
} Definition;

static void add_definition(Definition **defs, int *count, int *capacity, const char *name, size_t length, int unit,
                           bool function)
{
    if (length == 0 || length >= sizeof (*defs)->name || isdigit((unsigned char)name[0])) return;
    if (*count == *capacity) {
        *capacity = *capacity ? 2 * *capacity : 1024;
        *defs = realloc(*defs, (size_t)*capacity * sizeof **defs);
        if (!*defs) abort();
    }
    Definition *d = &(*defs)[(*count)++];
    snprintf(d->name, sizeof d->name, "%.*s", (int)length, name);
    d->unit = unit;
    d->count = 1;
    d->function = function;
}

/* The names a header defines: its macros, typedef names, struct / enum tags and enum constants. */
static void collect_header_names(const SourceFile *f, Definition **defs, int *count, int *capacity)
{
    for (const char *line = f->raw; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p++ != '#') continue;
        while (*p == ' ' || *p == '\t') p++;
        if (strncmp(p, "define", 6) != 0 || word_char(p[6])) continue;
        p += 6;
        while (*p == ' ' || *p == '\t') p++;
        const char *end = p;
        while (word_char(*end)) end++;
        add_definition(defs, count, capacity, p, (size_t)(end - p), f->unit, false);
    }
    const char *statement = f->code;
    int depth = 0;
    for (const char *p = f->code; *p; p++) {
        if (*p == '{') {
            if (depth == 0) {   /* `struct Tag {`, `enum Tag {`: the tag; an enum's constants */
                const char *end = p;
                while (end > statement && isspace((unsigned char)end[-1])) end--;
                const char *start = end;
                while (start > statement && word_char(start[-1])) start--;
                const char *kind_end = start;   /* the word before the tag */
                while (kind_end > statement && isspace((unsigned char)kind_end[-1])) kind_end--;
                const char *kind = kind_end;
                while (kind > statement && word_char(kind[-1])) kind--;
                size_t kind_length = (size_t)(kind_end - kind);
                bool tagged = (kind_length == 4 && strncmp(kind, "enum", 4) == 0) ||
                              (kind_length == 6 && strncmp(kind, "struct", 6) == 0) ||
                              (kind_length == 5 && strncmp(kind, "union", 5) == 0);
                if (tagged && start < end)
                    add_definition(defs, count, capacity, start, (size_t)(end - start), f->unit, false);
                const char *e = strstr(statement, "enum");
                if (e && e < p && (e == statement || !word_char(e[-1])) && !word_char(e[4])) {
                    bool item_start = true;
                    for (const char *q = p + 1; *q && *q != '}'; q++) {
                        if (*q == ',') item_start = true;
                        else if (item_start && word_char(*q)) {
                            const char *name_end = q;
                            while (word_char(*name_end)) name_end++;
                            add_definition(defs, count, capacity, q, (size_t)(name_end - q), f->unit, false);
                            item_start = false;
                            q = name_end - 1;
                        }
                    }
                }
            }
            depth++;
        } else if (*p == '}') {
            if (depth > 0) depth--;
        } else if (*p == ';' && depth == 0) {   /* `typedef ... Name;`, `typedef R (*Name)(...);` */
            const char *t = statement;
            while (isspace((unsigned char)*t)) t++;
            if (strncmp(t, "typedef", 7) == 0 && !word_char(t[7])) {
                const char *star = strstr(t, "(*");
                const char *start, *end;
                if (star && star < p) {
                    start = star + 2;
                    while (isspace((unsigned char)*start)) start++;
                    end = start;
                    while (word_char(*end)) end++;
                } else {
                    end = p;
                    while (end > t && !word_char(end[-1])) end--;
                    start = end;
                    while (start > t && word_char(start[-1])) start--;
                }
                add_definition(defs, count, capacity, start, (size_t)(end - start), f->unit, false);
            }
            statement = p + 1;
        }
        if (*p == '}' && depth == 0) statement = p + 1;
    }
}

/* The non-static functions a file defines: at brace depth 0, `... name ( ... ) {` without `static`,
 * `typedef` or `=` in the declaration. */
static int collect_definitions(const SourceFile *f, Definition **defs, int *count, int *capacity)
{
    const char *p = f->code, *declaration = f->code;
    int depth = 0, found = 0;
    for (; *p; p++) {
        if (*p == '{') {
            if (depth++ == 0) {
                char text[2048];
                size_t n = (size_t)(p - declaration) < sizeof text - 1 ? (size_t)(p - declaration) : sizeof text - 1;
                memcpy(text, declaration, n);
                text[n] = '\0';
                char *paren = strchr(text, '(');
                char *close = strrchr(text, ')');
                bool is_static = false, other = strchr(text, '=') != NULL;
                for (char *w = text; *w; w++)
                    if ((w == text || !word_char(w[-1])) && (strncmp(w, "static", 6) == 0 || strncmp(w, "typedef", 7) == 0) &&
                        !word_char(w[strncmp(w, "static", 6) == 0 ? 6 : 7]))
                        is_static = true;
                if (paren && close && close > paren && !is_static && !other) {
                    for (char *after = close + 1; *after; after++)
                        if (!isspace((unsigned char)*after)) other = true;   /* `) const {`, attributes: not plain C */
                    char *end = paren;
                    while (end > text && isspace((unsigned char)end[-1])) end--;
                    char *start = end;
                    while (start > text && word_char(start[-1])) start--;
                    if (!other && end > start && !isdigit((unsigned char)*start)) {
                        add_definition(defs, count, capacity, start, (size_t)(end - start), f->unit, true);
                        found++;
                    }
                }
            }
        } else if (*p == '}') {
            if (depth > 0 && --depth == 0) declaration = p + 1;
        } else if (*p == ';' && depth == 0) {
            declaration = p + 1;
        }
    }
    return found;
}

static int compare_definitions(const void *a, const void *b)
{
    return strcmp(((const Definition *)a)->name, ((const Definition *)b)->name);
}

typedef struct Graph {
    int   units;        /* nodes are file indices that are their unit's first file */
    bool *edge;         /* edge[a * count + b]: unit a -> unit b (file indices) */
    char (*why)[40];    /* the first name that ties them */
    int   count;        /* the tree's file count */
} Graph;

static void add_edge(Graph *g, const Tree *tree, int from_file, int to_file, const char *name)
{
    int a = tree->files[from_file].unit, b = tree->files[to_file].unit;
    char room_a[64], room_b[64];
    room_of(tree->files[a].path, room_a, sizeof room_a);
    room_of(tree->files[b].path, room_b, sizeof room_b);
    size_t at = (size_t)a * (size_t)g->count + (size_t)b;
    if (a == b || strcmp(room_a, room_b) != 0 || g->edge[at]) return;
    g->edge[at] = true;
    snprintf(g->why[at], sizeof g->why[at], "%.39s", name);
}

static void build_graph(const Tree *tree, Graph *g)
{
    g->count = tree->count;
    g->edge = calloc((size_t)tree->count * (size_t)tree->count, 1);
    g->why = calloc((size_t)tree->count * (size_t)tree->count, sizeof *g->why);

    Definition *defs = NULL;
    int def_count = 0, def_capacity = 0;
    for (int i = 0; i < tree->count; i++) {
        const char *dot = strrchr(tree->files[i].path, '.');
        if (strcmp(dot, ".h") != 0) collect_definitions(&tree->files[i], &defs, &def_count, &def_capacity);
        else collect_header_names(&tree->files[i], &defs, &def_count, &def_capacity);
    }
    if (def_count == 0) return;
    qsort(defs, (size_t)def_count, sizeof *defs, compare_definitions);
    int unique = 0;   /* merge the names several units define */
    for (int i = 0; i < def_count; i++) {
        if (unique > 0 && strcmp(defs[unique - 1].name, defs[i].name) == 0) {
            if (defs[unique - 1].unit != defs[i].unit) defs[unique - 1].count++;
            continue;
        }
        defs[unique++] = defs[i];
    }
    for (int i = 0; i < tree->count; i++) {   /* uses inside braces (bodies, tables), not prototypes */
        const char *code = tree->files[i].code;
        int depth = 0;
        for (const char *p = code; *p;) {
            if (*p == '{') depth++;
            else if (*p == '}' && depth > 0) depth--;
            if (!word_char(*p) || (p > code && word_char(p[-1]))) { p++; continue; }
            const char *end = p;
            while (word_char(*end)) end++;
            Definition key = {0};
            snprintf(key.name, sizeof key.name, "%.*s", (int)(end - p), p);
            const Definition *d = bsearch(&key, defs, (size_t)unique, sizeof *defs, compare_definitions);
            if (d && d->count == 1 && (!d->function || depth > 0)) add_edge(g, tree, i, d->unit, d->name);
            p = end;
        }
    }
    free(defs);
}

/* Tarjan's strongly connected components over the units; each component of two or more units is a
 * circle. */
typedef struct Tarjan {
    const Tree  *tree;
    const Graph *g;
    int *index, *low, *stack;
    bool *on_stack;
    int next, top, circles;
} Tarjan;

static void strong_connect(Tarjan *t, int v)
{
    t->index[v] = t->low[v] = t->next++;
    t->stack[t->top++] = v;
    t->on_stack[v] = true;
    for (int w = 0; w < t->g->count; w++) {
        if (!t->g->edge[(size_t)v * (size_t)t->g->count + (size_t)w]) continue;
        if (t->index[w] < 0) {
            strong_connect(t, w);
            if (t->low[w] < t->low[v]) t->low[v] = t->low[w];
        } else if (t->on_stack[w] && t->index[w] < t->low[v]) {
            t->low[v] = t->index[w];
        }
    }
    if (t->low[v] != t->index[v]) return;
    int members[512], n = 0;
    int w;
    do {
        w = t->stack[--t->top];
        t->on_stack[w] = false;
        if (n < 512) members[n++] = w;
    } while (w != v);
    if (n < 2) return;
    t->circles++;   /* every circle fails: none is tolerated any more (issue 31) */
    fprintf(stderr, "layers: circle: a circle of %d files:", n);
    for (int m = n - 1; m >= 0; m--) fprintf(stderr, " src/%s", t->tree->files[members[m]].path);
    fputc('\n', stderr);
    for (int a = n - 1; a >= 0; a--)   /* what ties it: each arrow inside the circle */
        for (int b = n - 1; b >= 0; b--)
            if (t->g->edge[(size_t)members[a] * (size_t)t->g->count + (size_t)members[b]])
                fprintf(stderr, "        src/%s -> src/%s (%s, ...)\n", t->tree->files[members[a]].path,
                        t->tree->files[members[b]].path, t->g->why[(size_t)members[a] * (size_t)t->g->count + (size_t)members[b]]);
}

static int check_circles(const Tree *tree)
{
    Graph g = {0};
    build_graph(tree, &g);
    Tarjan t = {.tree = tree, .g = &g};
    t.index = malloc((size_t)tree->count * sizeof(int));
    t.low = malloc((size_t)tree->count * sizeof(int));
    t.stack = malloc((size_t)tree->count * sizeof(int));
    t.on_stack = calloc((size_t)tree->count, 1);
    for (int i = 0; i < tree->count; i++) t.index[i] = -1;
    for (int i = 0; i < tree->count; i++)
        if (tree->files[i].unit == i && t.index[i] < 0) strong_connect(&t, i);
    free(t.index);
    free(t.low);
    free(t.stack);
    free(t.on_stack);
    free(g.edge);
    free(g.why);
    return t.circles;
}

/* ---- the self-check and the real tree ------------------------------------------------------ */

typedef struct Findings {
    int order, third_party, gl_calls, circles;   /* findings of each rule */
} Findings;

static Findings check_tree(Tree *tree)
{
    resolve_all(tree);
    Findings found = {0};
    found.order = check_order(tree);
    found.third_party = check_third_party(tree);
    found.gl_calls = check_gl_calls(tree);
    found.circles = check_circles(tree);
    return found;
}

int main(void)
{
    /* the checker itself: a made-up tree breaking each rule once */
    fprintf(stderr, "self-check, a made-up tree that breaks each rule (6 findings expected):\n");
    Tree made_up = {0};
    tree_add(&made_up, "anim/pose.c", "#include \"anim/pose.h\"\n#include \"io/import.h\"\nvoid pose_run(void) { }\n");
    tree_add(&made_up, "anim/pose.h", "void pose_run(void);\n");
    tree_add(&made_up, "io/import.h", "#include \"../anim/pose.h\"\n");
    tree_add(&made_up, "io/import.c", "#include \"import.h\"\n#include \"import_mesh.h\"\n"
                                      "int import_warn(int x) { return x; }\nvoid import_run(void) { import_mesh(); }\n");
    tree_add(&made_up, "io/import_mesh.h", "void import_mesh(void);\n");
    tree_add(&made_up, "io/import_mesh.c", "#include \"import_mesh.h\"\n/* import_run() is not a call here */\n"
                                           "void import_mesh(void) { import_warn(1); }\n");
    tree_add(&made_up, "view/player.h", "#include \"gfx/gl.h\"\n");
    tree_add(&made_up, "view/player.c", "#include \"player.h\"\nstatic void draw(void) { gl" "Clear(0); }\n");
    tree_add(&made_up, "gfx/gl.h", "#include <glad/gl.h>\n");
    tree_add(&made_up, "gfx/mesh.c", "#include <assimp/scene.h>\n#include \"gl.h\"\nvoid mesh(void) { gl" "DrawArrays(0, 0, 3); }\n");
    tree_add(&made_up, "io/fbx/a.c", "void fbx_a(void) { fbx_b(); }\n");
    tree_add(&made_up, "io/fbx/b.c", "void fbx_b(void) { fbx_a(); }\n");
    Findings self = check_tree(&made_up);
    CHECK(self.order == 1, "an include up the order (anim -> io) is found: %d", self.order);
    CHECK(self.third_party == 3, "GL reached from view/player.c and view/player.h, Assimp from gfx/mesh.c: %d", self.third_party);
    CHECK(self.gl_calls == 1, "a GL call in src/view is found (src/gfx's is allowed): %d", self.gl_calls);
    CHECK(self.circles == 2, "the circles import.c <-> import_mesh.c and io/fbx/a.c <-> b.c are found: %d", self.circles);
    tree_free(&made_up);
    fprintf(stderr, "self-check done; the tree:\n");

    /* README's room list states the rules this test checks */
    char path[1024];
    snprintf(path, sizeof path, "%s/README.md", SKINVIEW_SOURCE_DIR);
    char *readme = test_read_file(path, NULL);
    CHECK(readme != NULL, "README.md can be read");
    for (size_t r = 0; readme && r < sizeof readme_rules / sizeof readme_rules[0]; r++)
        CHECK(strstr(readme, readme_rules[r]) != NULL, "README.md states the rule \"%s\"", readme_rules[r]);
    free(readme);

    Tree tree = {0};
    snprintf(path, sizeof path, "%s/src", SKINVIEW_SOURCE_DIR);
    read_tree(&tree, path, "");
    int files = tree.count;
    CHECK(files > 100, "src/ has %d source files (the scan is broken?)", files);
    Findings found = check_tree(&tree);
    CHECK(found.order == 0, "%d include(s) go up the order or sideways (listed above)", found.order);
    CHECK(found.third_party == 0, "%d file(s) reach a library their room may not use (listed above)", found.third_party);
    CHECK(found.gl_calls == 0, "%d file(s) outside src/gfx and src/platform call GL (listed above)", found.gl_calls);
    CHECK(found.circles == 0, "%d circle(s) inside a folder (listed above)", found.circles);
    printf("layers: %d files of src/: %d includes up the order, %d library reaches, %d files calling GL outside gfx, "
           "%d circles\n",
           files, found.order, found.third_party, found.gl_calls, found.circles);
    tree_free(&tree);
    return test_finish();
}
