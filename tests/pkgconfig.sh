#!/bin/sh
# A separate C program finds and links libknight through pkg-config
# (the uninstalled .pc of this build tree) and runs.
set -eu
pcdir=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/use.c" <<'C'
#include <knight/knight.h>
#include <stdio.h>
int main(void)
{
    kt_graph *g = NULL;
    kt_tourney *t = NULL;
    if (kt_graph_new(&g, 6, 6) != KT_OK) return 1;
    kt_status st = kt_exhaustive_tour(&t, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, NULL);
    int ok = st == KT_OK && kt_tourney_is_closed_tour(t) && kt_version() == KT_VERSION_NUMBER;
    printf("libknight %s: %s\n", kt_version_string(), ok ? "closed tour of 6x6" : kt_strerror(st));
    kt_tourney_free(t);
    kt_graph_free(g);
    return ok ? 0 : 1;
}
C
flags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs knight)
${CC:-cc} -std=c11 -Wall -Werror "$tmp/use.c" -o "$tmp/use" $flags
libdir=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=libdir knight)
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$tmp/use"
