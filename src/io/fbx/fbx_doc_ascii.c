/* fbx_doc_ascii.c — the ASCII FBX form into the record tree of fbx_doc.h.
 *
 * Rules of this step (ASCII layout):
 *   `Name: value, value, … {` children `}`; values are numbers, "strings" (no escapes) and bare
 *   letters (FBX 6 key lists: U, s, a …); a list continues on the next line after a trailing comma
 *   or when that line begins with one; `;` starts a comment; 7.x arrays are `*N { a: v, v, … }`.
 *   A plain list of more than FBX_PLAIN_LIST_TO_ARRAY numbers (FBX 6 Vertices, PolygonVertexIndex …)
 *   is stored as one array value, so that its memory is 8 bytes a number (fbx_record_reals reads
 *   both forms).
 *   Nesting at most FBX_MAX_DEPTH; a line number in every error.
 */
#include "fbx_doc_ascii.h"

/* ---------------------------------------------------------------- ASCII */

static int peek(const Reader *r)
{
    return r->at < r->size ? r->bytes[r->at] : -1;
}

/* Skips spaces, tabs and comments; newlines too when `newlines`. Returns true if a newline was passed. */
static bool skip_space(Reader *r, bool newlines)
{
    bool passed = false;
    while (r->at < r->size) {
        int c = r->bytes[r->at];
        if (c == ';') {
            while (r->at < r->size && r->bytes[r->at] != '\n') r->at++;
        } else if (c == '\n') {
            if (!newlines) return passed;
            passed = true;
            r->line++;
            r->at++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\0') {
            r->at++;
        } else {
            break;
        }
    }
    return passed;
}

static bool is_word_char(int c)
{
    return isalnum(c) || c == '_' || c == '-' || c == '|' || c == '.' || c == '#';
}

/* A word at r->at; its length (0 if none). */
static size_t word_length(const Reader *r)
{
    size_t n = 0;
    if (r->at < r->size && (isalpha(r->bytes[r->at]) || r->bytes[r->at] == '_')) {
        while (r->at + n < r->size && is_word_char(r->bytes[r->at + n])) n++;
    }
    return n;
}

/* Parses a number token at r->at into *v. False (no error) if there is none. */
static bool ascii_number(Reader *r, FbxValue *v)
{
    size_t end = r->at;
    while (end < r->size && (isalnum(r->bytes[end]) || strchr("+-.#", r->bytes[end]))) end++;
    size_t length = end - r->at;
    if (length == 0 || length > 350) return false;
    char text[352];
    memcpy(text, r->bytes + r->at, length);
    text[length] = '\0';
    bool integer = true;
    for (size_t i = 0; i < length; i++)
        if (!(isdigit((unsigned char)text[i]) || (i == 0 && (text[i] == '-' || text[i] == '+')))) integer = false;
    memset(v, 0, sizeof *v);
    char *stop;
    if (integer) {
        errno = 0;
        long long n = strtoll(text, &stop, 10);
        if (errno == 0 && stop != text && *stop == '\0') {
            v->type = FBX_VALUE_INTEGER;
            v->integer = n;
            v->real = (double)n;
            r->at = end;
            return true;
        }
    }
    double d = strtod(text, &stop);
    if (stop == text) return false;
    if (*stop == '#') {   /* 1.#INF, -1.#IND, 1.#QNAN as old Windows writers spell them */
        d = strstr(stop, "INF") ? (text[0] == '-' ? -HUGE_VAL : HUGE_VAL) : 0.0;
    } else if (*stop != '\0') {
        return false;
    }
    v->type = FBX_VALUE_REAL;
    v->real = d;
    v->integer = fbx_real_to_integer(d);
    r->at = end;
    return true;
}

/* A number list as one array value: integers while every number is one, else reals. */
static bool numbers_to_array(Reader *r, const Vec *numbers, FbxValue *v)
{
    const FbxValue *n = numbers->items;
    bool real = false;
    for (size_t i = 0; i < numbers->count; i++)
        if (n[i].type == FBX_VALUE_REAL) real = true;
    if (!fbx_doc_take_array_bytes(r, (uint64_t)numbers->count * 8)) return false;
    memset(v, 0, sizeof *v);
    v->length = numbers->count;
    if (real) {
        double *reals = numbers->count ? fbx_doc_arena_alloc(r->arena, numbers->count * 8) : NULL;
        if (numbers->count && !reals) return fbx_doc_out_of_memory(r);
        for (size_t i = 0; i < numbers->count; i++) reals[i] = n[i].real;
        v->type = FBX_VALUE_REAL_ARRAY;
        v->reals = reals;
    } else {
        int64_t *integers = numbers->count ? fbx_doc_arena_alloc(r->arena, numbers->count * 8) : NULL;
        if (numbers->count && !integers) return fbx_doc_out_of_memory(r);
        for (size_t i = 0; i < numbers->count; i++) integers[i] = n[i].integer;
        v->type = FBX_VALUE_INTEGER_ARRAY;
        v->integers = integers;
    }
    return true;
}

/* `*N { a: v, v, … }` after the '*'. */
static bool ascii_array(Reader *r, FbxValue *v)
{
    r->at++;   /* '*' */
    FbxValue count;
    if (!ascii_number(r, &count) || count.type != FBX_VALUE_INTEGER || count.integer < 0)
        return fbx_doc_fail(r, "FBX: line %d: '*' not followed by an element count", r->line);
    skip_space(r, true);
    if (peek(r) != '{') return fbx_doc_fail(r, "FBX: line %d: array without '{'", r->line);
    r->at++;
    skip_space(r, true);
    Vec numbers = {.item_size = sizeof(FbxValue)};
    size_t w = word_length(r);
    if (w > 0) {   /* a: */
        r->at += w;
        skip_space(r, true);
        if (peek(r) != ':') return fbx_doc_fail(r, "FBX: line %d: array without 'a:'", r->line);
        r->at++;
    }
    bool ok = true;
    for (;;) {
        skip_space(r, true);
        int c = peek(r);
        if (c == '}') {
            r->at++;
            break;
        }
        if (c == ',') {
            r->at++;
            continue;
        }
        FbxValue *n = fbx_doc_vec_push(r, &numbers);
        if (!n) {
            ok = false;
            break;
        }
        if (c < 0 || !ascii_number(r, n)) {
            ok = fbx_doc_fail(r, c < 0 ? "FBX: line %d: file ends inside an array" : "FBX: line %d: array element is not a number", r->line);
            break;
        }
        if (numbers.count > (size_t)1 << 31) {
            ok = fbx_doc_fail(r, "FBX: line %d: array too long", r->line);
            break;
        }
    }
    if (ok) ok = numbers_to_array(r, &numbers, v);
    free(numbers.items);
    return ok;
}

static bool ascii_list(Reader *r, int depth, bool in_braces, FbxRecord *parent);

/* Whether a `Name:` starts at r->at. */
static bool at_record_name(const Reader *r)
{
    size_t w = word_length(r), after = r->at + w;
    while (after < r->size && (r->bytes[after] == ' ' || r->bytes[after] == '\t')) after++;
    return w > 0 && after < r->size && r->bytes[after] == ':';
}

/* The values of a record after its `Name:`, then its children if a '{' follows. */
static bool ascii_record_body(Reader *r, int depth, FbxRecord *record)
{
    Vec values = {.item_size = sizeof(FbxValue)};
    bool expect_value = true, ok = true, braces = false;
    for (;;) {
        bool newline = skip_space(r, false);
        (void)newline;
        int c = peek(r);
        if (c == '\n' || c < 0) {
            /* the list goes on after a trailing comma, or on a line that begins with one */
            size_t save_at = r->at;
            int save_line = r->line;
            skip_space(r, true);
            int next = peek(r);
            if (next == ',' || (expect_value && next >= 0 && next != '}' && next != '{' && !at_record_name(r))) continue;
            if (next == '{') continue;   /* the children's brace on the next line */
            r->at = save_at;
            r->line = save_line;
            break;
        }
        if (c == '{') {
            r->at++;
            braces = true;
            break;
        }
        if (c == '}') break;
        if (c == ',') {
            r->at++;
            expect_value = true;
            continue;
        }
        FbxValue *v = fbx_doc_vec_push(r, &values);   /* zeroed */
        if (!v) {
            ok = false;
            break;
        }
        if (c == '"') {
            size_t start = ++r->at;
            while (r->at < r->size && r->bytes[r->at] != '"') {
                if (r->bytes[r->at] == '\n') r->line++;
                r->at++;
            }
            if (r->at >= r->size) {
                ok = fbx_doc_fail(r, "FBX: line %d: string not closed", r->line);
                break;
            }
            v->type = FBX_VALUE_STRING;
            v->length = r->at - start;
            v->string = fbx_doc_arena_string(r->arena, (const char *)r->bytes + start, v->length);
            r->at++;
            if (!v->string) {
                ok = fbx_doc_out_of_memory(r);
                break;
            }
        } else if (c == '*') {
            if (!ascii_array(r, v)) {
                ok = false;
                break;
            }
        } else if (ascii_number(r, v)) {
            /* a number */
        } else {
            size_t w = word_length(r);
            size_t after = r->at + w;
            while (after < r->size && (r->bytes[after] == ' ' || r->bytes[after] == '\t')) after++;
            if (w == 0) {
                ok = fbx_doc_fail(r, "FBX: line %d: unexpected character '%c'", r->line, isprint(c) ? c : '?');
                break;
            }
            if (after < r->size && r->bytes[after] == ':') {   /* the next record's name on this line */
                values.count--;
                break;
            }
            v->type = FBX_VALUE_STRING;
            v->length = w;
            v->string = fbx_doc_arena_string(r->arena, (const char *)r->bytes + r->at, w);
            r->at += w;
            if (!v->string) {
                ok = fbx_doc_out_of_memory(r);
                break;
            }
        }
        expect_value = false;
    }
    if (ok && values.count > FBX_PLAIN_LIST_TO_ARRAY) {   /* a long plain number list: one array */
        bool numbers = true;
        const FbxValue *items = values.items;
        for (size_t i = 0; i < values.count && numbers; i++)
            numbers = items[i].type == FBX_VALUE_INTEGER || items[i].type == FBX_VALUE_REAL;
        if (numbers) {
            FbxValue array;
            ok = numbers_to_array(r, &values, &array);
            values.count = 1;
            ((FbxValue *)values.items)[0] = array;
        }
    }
    if (ok && values.count > (size_t)INT32_MAX) ok = fbx_doc_fail(r, "FBX: line %d: too many values", r->line);
    if (ok) {
        record->values = fbx_doc_vec_to_arena(r, &values);
        record->value_count = (int)values.count;
        ok = !r->failed;
    }
    free(values.items);
    if (ok && braces) {
        if (depth + 1 > FBX_MAX_DEPTH) return fbx_doc_fail(r, "FBX: line %d: records nested deeper than %d", r->line, FBX_MAX_DEPTH);
        ok = ascii_list(r, depth + 1, true, record);
    }
    return ok;
}

/* Records until the closing '}' (in_braces) or the end of the file. */
static bool ascii_list(Reader *r, int depth, bool in_braces, FbxRecord *parent)
{
    Vec children = {.item_size = sizeof(FbxRecord)};
    bool ok = true;
    for (;;) {
        skip_space(r, true);
        int c = peek(r);
        if (c < 0) {
            if (in_braces) ok = fbx_doc_fail(r, "FBX: line %d: file ends before a '}'", r->line);
            break;
        }
        if (c == '}') {
            if (!in_braces) {
                ok = fbx_doc_fail(r, "FBX: line %d: '}' without a '{'", r->line);
                break;
            }
            r->at++;
            break;
        }
        size_t w = word_length(r);
        if (w == 0 && c == '"') {   /* a quoted record name (seen in a few writers) */
            size_t end = r->at + 1;
            while (end < r->size && r->bytes[end] != '"' && r->bytes[end] != '\n') end++;
            w = end < r->size && r->bytes[end] == '"' ? end + 1 - r->at : 0;
        }
        size_t after = r->at + w;
        while (after < r->size && (r->bytes[after] == ' ' || r->bytes[after] == '\t')) after++;
        if (w == 0 || after >= r->size || r->bytes[after] != ':') {
            ok = fbx_doc_fail(r, "FBX: line %d: expected a record name and ':'", r->line);
            break;
        }
        FbxRecord *record = fbx_doc_vec_push(r, &children);   /* zeroed */
        if (!record) {
            ok = false;
            break;
        }
        const char *name = (const char *)r->bytes + r->at;
        size_t name_length = w;
        if (name[0] == '"') {
            name++;
            name_length -= 2;
        }
        record->name = fbx_doc_arena_string(r->arena, name, name_length);
        if (!record->name) {
            ok = fbx_doc_out_of_memory(r);
            break;
        }
        r->at = after + 1;
        if (!ascii_record_body(r, depth, record)) {
            ok = false;
            break;
        }
        if (children.count > (size_t)INT32_MAX) {
            ok = fbx_doc_fail(r, "FBX: too many records");
            break;
        }
    }
    if (ok) {
        parent->children = fbx_doc_vec_to_arena(r, &children);
        parent->child_count = (int)children.count;
        ok = !r->failed;
    }
    free(children.items);
    return ok;
}

bool fbx_doc_read_ascii(Reader *r, FbxDocument *doc)
{
    r->line = 1;
    doc->binary = false;
    if (!ascii_list(r, 0, false, &doc->root)) return false;
    const FbxRecord *header = fbx_record_child(&doc->root, "FBXHeaderExtension");
    const FbxRecord *version = header ? fbx_record_child(header, "FBXVersion") : NULL;
    if (version && version->value_count > 0 && version->values[0].type == FBX_VALUE_INTEGER)
        doc->version = (int)version->values[0].integer;
    else {   /* "; FBX 6.1.0 project file" */
        int major = 0, minor = 0, patch = 0;
        const char *text = (const char *)r->bytes;
        size_t n = r->size < 200 ? r->size : 200;
        char first[201];
        memcpy(first, text, n);
        first[n] = '\0';
        const char *at = strstr(first, "FBX ");
        if (at && sscanf(at, "FBX %d.%d.%d", &major, &minor, &patch) >= 2) doc->version = major * 1000 + minor * 100 + patch * 10;
    }
    if (doc->root.child_count == 0) return fbx_doc_fail(r, "FBX: no records (not an FBX file)");
    return true;
}
