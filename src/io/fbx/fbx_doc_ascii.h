/* fbx_doc_ascii.h — the ASCII form of an FBX file into the record tree (fbx_doc_ascii.c). */
#ifndef SKINVIEW_FBX_DOC_ASCII_H
#define SKINVIEW_FBX_DOC_ASCII_H

#include "fbx_doc.h"
#include "fbx_doc_arena.h"

/* The ASCII document at r->bytes into doc; false with r's error set. */
bool fbx_doc_read_ascii(Reader *r, FbxDocument *doc);

#endif
