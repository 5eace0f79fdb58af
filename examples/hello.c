#include <knight/knight.h>
#include <stdio.h>

static int to_file(void *user, const char *data, size_t len)
{
    return fwrite(data, 1, len, user) == len ? 0 : 1;
}

int main(void)
{
    kt_graph *g = NULL;
    kt_tourney *t = NULL;
    kt_status st = kt_graph_new(&g, 6, 6);
    if (st == KT_OK)
        st = kt_exhaustive_tour(&t, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, NULL);
    if (st == KT_OK)
        st = kt_io_write(t, KT_IO_NUMBERS, 0, KT_CELL_NONE, to_file, stdout);
    if (st != KT_OK)
        fprintf(stderr, "libknight: %s\n", kt_strerror(st));
    kt_tourney_free(t);
    kt_graph_free(g);
    return st == KT_OK ? 0 : 1;
}
