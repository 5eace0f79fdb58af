/* SPDX-License-Identifier: MIT */
/*
 * Exact tour counts on small knight boards by a depth-first search over
 * 64-bit cell sets, the second counting method beside the frontier DP
 * (frontier.c).  On boards of a few dozen cells the frontier count pays
 * more for its set-up and lookahead than the whole search costs here.
 *
 * The search extends a path from its head through the set R of unvisited
 * cells.  At every node the number of neighbours each cell has in R plus
 * the head is computed for all cells at once (eight shifts of the set and
 * a saturating bit-sliced counter to 3), and the node is dropped when
 *  - a cell of R has no such neighbour;
 *  - two cells have one only (each must be the last cell), or the one
 *    such cell may not end the path (wrong colour, symmetry class, or not
 *    the given end), or its only neighbour is the head while other cells
 *    remain;
 *  - cells next to the head with two such neighbours (each must come next
 *    unless it ends the path) are more than the ends left allow; when one
 *    of them must come next, it is the only move tried;
 *  - (boards of more than 30 cells) a cell is next to three cells of two
 *    such neighbours that cannot end the path, each of which needs its
 *    edge to it;
 *  - no cell of R may end the path; when one only may, it is not entered
 *    before the last step.
 * Open tours with free ends: one search per start class under the board's
 * symmetries, weighted by the class size, each undirected tour counted
 * once by letting a start of class k end only on classes >= k (a tour
 * between two classes is found from the lower one with weight 2, one
 * within a class from both ends with weight 1).  Closed tours: a corner's
 * two neighbours a, b; a cycle is a path from a to b through the rest.
 * The counts of nodes near the end of the path are remembered in a small
 * direct-mapped table (see MEMO_FROM).
 */
#include "count_internal.h"

typedef uint64_t u64;

/* The board as bit sets: bit y * w + x is cell (x, y). */
typedef struct sboard {
    unsigned w, h, n;
    u64 full;
    u64 l1, l2, r1, r2;       /* cells with at least 1 or 2 columns to their left / right */
    u64 nb[64];               /* the neighbours of each cell */
    u64 black;                /* cells with x + y even */
} sboard;

/* A remembered count: the weighted paths from a head through a set of
 * cells (key: the set, the head at bit 40, the search's generation at 46). */
typedef struct memo_entry {
    u64 key, count;
} memo_entry;

typedef struct search {
    const sboard *b;
    u64 e1, e2;               /* cells that may end the path, with weight 1 and 2 */
    memo_entry *memo;         /* NULL, or 2^memo_bits entries, direct-mapped */
    unsigned memo_bits;       /* 0: no memo wanted */
    bool forced;              /* forced_fail() is worth its time */
    const kt_allocator *al;
    u64 gen;                  /* one per choice of e1, e2 (entries of another are stale) */
    uint64_t nodes, next;     /* nodes visited; when to look at the clock next */
    kti_progress pr;
    uint64_t done, total;     /* progress to report */
    bool cancelled;
} search;

/* Progress checks: the clock is read every this many nodes (about 50 us). */
#define SMALL_CHECK_NODES 4096u
/* The memo: for boards of more than MEMO_FROM cells, the counts of the
 * nodes with MEMO_MIN to MEMO_MAX cells left; the same tail of a path is
 * met again after many different beginnings (6x6 open: 0.08 s instead of
 * 0.26 s).  Below MEMO_MIN a node's subtree costs less than the entry's
 * cache miss; above MEMO_MAX the entries are rarely met again and evict
 * those that are.  2^16 entries (1 MiB) up to 30 cells, 2^17 above: bigger
 * tables lose more to cache misses than they gain (measured on 5x6, 5x7,
 * 6x6 and 5x8).  Taken only once a search has visited MEMO_AFTER nodes, so
 * that the short ones (3x10 closed: 10 us) do not pay for clearing it. */
#define MEMO_FROM 25u
#define MEMO_MIN 5u
#define MEMO_MAX 24u
#define MEMO_AFTER 4096u
/* forced_fail() for boards of more than this many cells: on smaller ones
 * it costs more than the nodes it saves (5x5 open 52 us against 75 us
 * with it, 4x8 open 3.1 ms against 2.3 ms). */
#define FORCED_FROM 30u

/* The eight images of the set a under the knight's moves. */
static inline void moves_of(const sboard *b, u64 a, u64 m[8])
{
    unsigned w = b->w;
    m[0] = (a & b->r1) << (2 * w + 1);
    m[1] = (a & b->l1) << (2 * w - 1);
    m[2] = (a & b->r2) << (w + 2);
    m[3] = (a & b->l2) << (w - 2);
    m[4] = (a & b->r1) >> (2 * w - 1);
    m[5] = (a & b->l1) >> (2 * w + 1);
    m[6] = (a & b->r2) >> (w - 2);
    m[7] = (a & b->l2) >> (w + 2);
}

/* The cells with at least 1, 2, 3 neighbours in a (the board's cells and
 * beyond; the caller masks). */
static inline void degrees(const sboard *b, u64 a, u64 *c1, u64 *c2, u64 *c3)
{
    u64 m[8], x1 = 0, x2 = 0, x3 = 0;
    moves_of(b, a, m);
    for (int i = 0; i < 8; i++) {
        x3 |= x2 & m[i];
        x2 |= x1 & m[i];
        x1 |= m[i];
    }
    *c1 = x1;
    *c2 = x2;
    *c3 = x3;
}

static inline bool several(u64 x)
{
    return (x & (x - 1)) != 0;
}

/*
 * Whether the cells of R with exactly two neighbours (deg2, counted in R
 * plus the head) that cannot end the path (not in ends) ask too much: each
 * uses both its edges, so a cell next to three of them cannot be had.
 * One more set of shifts per node, and 5x8 open visits 29 million nodes
 * instead of 41 million: the plain degree test sees most of these dead
 * ends only a few moves later.  (Also making the cells next to two of them
 * unavailable to their other neighbours, and testing those again, took
 * the nodes to 19 million but cost more time than it saved.)
 */
static inline bool forced_fail(const sboard *b, u64 R, u64 deg2, u64 ends)
{
    u64 a1, a2, a3;
    degrees(b, R & deg2 & ~ends, &a1, &a2, &a3);
    return (a3 & R) != 0;
}

/*
 * The moves worth trying from head h with the unvisited cells R (not
 * empty), or 0 when the path cannot be finished (see the top comment).
 */
static inline __attribute__((always_inline)) u64 moves_from(const search *s, unsigned h, u64 R, bool forced)
{
    const sboard *b = s->b;
    u64 hb = (u64)1 << h, E = s->e1 | s->e2;
    u64 moves = b->nb[h] & R, ends = R & E;
    if (moves == 0 || ends == 0) return 0;
    if (!several(ends) && R != ends) moves &= ~ends;    /* the end waits for the last step */
    u64 c1, c2, c3;
    degrees(b, R | hb, &c1, &c2, &c3);
    if (R & ~c1) return 0;
    u64 low = R & ~c2, d2 = c2 & ~c3 & moves;
    if (low != 0 && (several(low) || (low & ~E))) return 0;
    /* the cells that may still end the path: the one of degree 1, else
     * the one end left, else those the search allows */
    if (forced && forced_fail(b, R, c2 & ~c3, low != 0 ? low : several(ends) ? E : ends)) return 0;
    if (low != 0) {
        /* the last cell is known: every other cell of degree 2 next to the
         * head must come next */
        if (R != low) {
            if (low & moves) return 0;
            moves &= ~low;
        }
        d2 &= ~low;
        if (several(d2)) return 0;
        return d2 != 0 ? d2 : moves;
    }
    u64 must = d2 & ~E;       /* cannot end the path: comes next */
    if (must != 0) return several(must) ? 0 : must;
    if (d2 != 0 && several(d2)) {
        /* one of them comes next, the other ends the path */
        if (several(d2 & (d2 - 1))) return 0;
        return d2;
    }
    return moves;
}

/* Weighted paths from head h through all of R, of left cells (counted by
 * the caller: the library is built for CPUs without a popcount
 * instruction); 0 once cancelled. */
static u64 dfs_plain(search *s, unsigned h, u64 R, unsigned left);
static u64 dfs_forced(search *s, unsigned h, u64 R, unsigned left);

static inline __attribute__((always_inline)) u64 dfs_node(search *s, unsigned h, u64 R, unsigned left,
                                                          bool forced)
{
    if (R == 0) {
        u64 hb = (u64)1 << h;
        return (hb & s->e2) ? 2u : (hb & s->e1) ? 1u : 0u;
    }
    if (!several(R)) {
        /* the last cell: a move to it that may end the path */
        if (!(s->b->nb[h] & R)) return 0;
        return (R & s->e2) ? 2u : (R & s->e1) ? 1u : 0u;
    }
    if (++s->nodes >= s->next) {
        s->next = s->nodes + SMALL_CHECK_NODES;
        /* a failed allocation leaves the search without the memo */
        if (s->memo == NULL && s->memo_bits != 0 && s->nodes >= MEMO_AFTER)
            if ((s->memo = kti_calloc(s->al, (size_t)1 << s->memo_bits, sizeof *s->memo)) == NULL)
                s->memo_bits = 0;
        if (s->pr.fn != NULL && kti_progress_tick(&s->pr, s->done, s->total)) s->cancelled = true;
    }
    if (s->cancelled) return 0;
    u64 key = 0, t = 0;
    memo_entry *m = NULL;
    if (s->memo != NULL && left >= MEMO_MIN && left <= MEMO_MAX) {
        key = R | (u64)h << 40 | s->gen << 46;
        m = &s->memo[(key * 0x9E3779B97F4A7C15u) >> (64 - s->memo_bits)];   /* Fibonacci hashing */
        __builtin_prefetch(m);    /* the entry is fetched while the moves are worked out */
    }
    u64 moves = moves_from(s, h, R, forced);
    if (!several(moves)) m = NULL;    /* one move or none: cheaper than an entry */
    if (m != NULL && m->key == key) return m->count;
    while (moves != 0) {
        unsigned v = (unsigned)__builtin_ctzll(moves);
        moves &= moves - 1;
        t += forced ? dfs_forced(s, v, R & ~((u64)1 << v), left - 1) : dfs_plain(s, v, R & ~((u64)1 << v), left - 1);
    }
    /* a cancelled search's partial counts are never returned */
    if (m != NULL) {
        m->key = key;
        m->count = t;
    }
    return t;
}

/* dfs_node() compiled with and without forced_fail(), so that the small
 * boards, which do better without it, do not pay for the test either. */
static u64 dfs_plain(search *s, unsigned h, u64 R, unsigned left)
{
    return dfs_node(s, h, R, left, false);
}

static u64 dfs_forced(search *s, unsigned h, u64 R, unsigned left)
{
    return dfs_node(s, h, R, left, true);
}

static u64 dfs(search *s, unsigned h, u64 R, unsigned left)
{
    return s->forced ? dfs_forced(s, h, R, left) : dfs_plain(s, h, R, left);
}

bool kti_small_suits(const kt_graph *g, bool open)
{
    if (g->mask != NULL || g->a != 2 || g->b != 1) return false;
    uint32_t m = g->width < g->height ? g->width : g->height;
    size_t n = g->ncells;
    /* Measured against the frontier count (release builds, one thread;
     * BENCHMARKS.md, issue 15): the search wins up to 32 cells (4x8 open
     * 3.1 ms against 7.4 ms), and up to 36 on boards at least 5 wide (6x6
     * open 0.08 s against 1.3 s), 40 for closed tours (5x8: 10 ms against
     * 15 ms); the frontier wins on 3x12 and 4x9 (open 5.2 ms against 1.7
     * ms, 14 ms against 12 ms), 4x10 open (89 ms against 16 ms) and 5x8
     * open (0.56 s against 0.48 s with forced_fail(), 0.66 s before).  The
     * memo's key holds at most 40 cells. */
    return m >= 3 && (n <= 32 || (m >= 5 && n <= (open ? 36u : 40u)));
}

static void board_init(sboard *b, const kt_graph *g)
{
    memset(b, 0, sizeof *b);
    b->w = g->width;
    b->h = g->height;
    b->n = (unsigned)g->ncells;
    b->full = b->n == 64 ? ~(u64)0 : ((u64)1 << b->n) - 1;
    for (unsigned i = 0; i < b->n; i++) {
        unsigned x = i % b->w, y = i / b->w;
        u64 bit = (u64)1 << i;
        if (x >= 1) b->l1 |= bit;
        if (x >= 2) b->l2 |= bit;
        if (x + 2 <= b->w) b->r1 |= bit;
        if (x + 3 <= b->w) b->r2 |= bit;
        if (((x + y) & 1u) == 0) b->black |= bit;
    }
    for (unsigned i = 0; i < b->n; i++) {
        u64 m[8], all = 0;
        moves_of(b, (u64)1 << i, m);
        for (int k = 0; k < 8; k++) all |= m[k];
        b->nb[i] = all & b->full;
    }
}

/* The cells a path from cell a may end on by colour: a knight's path
 * alternates colours, so its last cell has a's colour when it has an odd
 * number of cells; 0 when the colours cannot balance. */
static u64 colour_ends(const sboard *b, unsigned a)
{
    u64 same = (b->black >> a) & 1u ? b->black : b->full & ~b->black;
    unsigned ns = (unsigned)__builtin_popcountll(same);
    if (ns != (b->n + 1) / 2) return 0;
    return b->n & 1u ? same : b->full & ~same;
}

/* Image of cell c under symmetry k of the board (count_internal.h). */
static unsigned sym_image(const sboard *b, unsigned c, unsigned k)
{
    return kti_cell_image(b->w, b->h, c, k);
}

/* Undirected open tours: one search per start class (see the top). */
static void count_free(search *s, kti_u128 *out)
{
    const sboard *b = s->b;
    unsigned n = b->n, nsym = b->w == b->h ? 8u : 4u;
    unsigned rep[64], size[64] = {0};
    uint32_t rank[64];
    for (unsigned c = 0; c < n; c++) {
        unsigned r = c;
        for (unsigned k = 1; k < nsym; k++) {
            unsigned d = sym_image(b, c, k);
            if (d < r) r = d;
        }
        rep[c] = r;
        size[r]++;
    }
    /* Classes in order of degree first: a start of low class may end
     * anywhere, the others only on classes at least theirs, and paths
     * mostly end on cells of low degree, which the search soon sees. */
    for (unsigned c = 0; c < n; c++) rank[c] = (uint32_t)__builtin_popcountll(b->nb[rep[c]]) << 8 | rep[c];
    kti_u128 total = 0;
    for (unsigned a = 0; a < n && !s->cancelled; a++) {
        s->done = (uint64_t)a * KTI_FRONTIER_UNITS;
        if (rep[a] != a) continue;
        u64 col = colour_ends(b, a);
        s->e1 = s->e2 = 0;
        s->gen++;
        for (unsigned c = 0; c < n; c++) {
            u64 bit = (u64)1 << c;
            if (!(col & bit) || c == a) continue;
            if (rank[c] > rank[a]) s->e2 |= bit;
            else if (rank[c] == rank[a]) s->e1 |= bit;
        }
        if (col != 0) total += (kti_u128)dfs(s, a, b->full & ~((u64)1 << a), n - 1) * size[a];
    }
    *out = total / 2;
}

/* Undirected closed tours: paths between the two neighbours of a corner. */
static u64 count_closed(search *s)
{
    const sboard *b = s->b;
    u64 nbs = b->nb[0];
    if (__builtin_popcountll(nbs) != 2) return 0;
    unsigned a = (unsigned)__builtin_ctzll(nbs), z = 63u - (unsigned)__builtin_clzll(nbs);
    /* the colours balance: the caller ruled out the boards where they
     * cannot (kti_colour_excludes, graph.c) */
    s->e1 = (u64)1 << z;
    s->e2 = 0;
    return dfs(s, a, b->full & ~((u64)1 | (u64)1 << a), b->n - 2);
}

kt_status kti_small_count(const kt_graph *g, bool open, kt_cell start, kt_cell end, const kti_run *run,
                          kti_u128 *out)
{
    sboard b;
    search s;
    board_init(&b, g);
    memset(&s, 0, sizeof s);
    s.b = &b;
    s.next = SMALL_CHECK_NODES;
    s.total = (uint64_t)b.n * KTI_FRONTIER_UNITS;
    kti_progress_init(&s.pr, run->progress, run->progress_user);
    s.al = &g->alloc;
    if (b.n > MEMO_FROM) s.memo_bits = b.n > 30 ? 17u : 16u;
    s.forced = b.n > FORCED_FROM;
    kti_u128 r = 0;
    if (!open) {
        r = count_closed(&s);
    } else if (start == KT_CELL_NONE && end == KT_CELL_NONE) {
        count_free(&s, &r);
    } else {
        /* Directed tours from the given start (to the given end), or, with
         * the end alone, the same tours reversed: from the end. */
        unsigned a = (unsigned)(start != KT_CELL_NONE ? start : end);
        s.e1 = colour_ends(&b, a);
        if (start != KT_CELL_NONE && end != KT_CELL_NONE) s.e1 &= (u64)1 << end;
        if (s.e1 != 0) r = dfs(&s, a, b.full & ~((u64)1 << a), b.n - 1);
    }
    /* the last report, done = total, as the frontier count makes it
     * (the callback may still cancel) */
    if (!s.cancelled && s.pr.fn != NULL && kti_progress_tick(&s.pr, s.total, s.total)) s.cancelled = true;
    kti_free(s.al, s.memo);
    if (s.cancelled) return KT_ECANCELED;
    *out = r;
    return KT_OK;
}
