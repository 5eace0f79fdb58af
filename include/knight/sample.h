/* SPDX-License-Identifier: MIT */
/**
 * @file sample.h
 * @brief Exactly uniform random tours, and the rank of a tour, through the
 *        stored counts of a frontier dynamic programme.
 *
 * A ::kt_sampler is prepared once for a board and a kind of tour: the
 * frontier (transfer-matrix) programme of count.h runs forward over the
 * cells to find the reachable states after every cell, then backward to
 * count, for each state, the ways the rest of the board completes it; the
 * states no tour passes through are dropped, the others are kept with
 * their exact 128-bit counts.  Then every tour of that kind has a rank in
 * 0 .. total - 1 (the order in which the programme's choices enumerate
 * them), and the tour of a rank is found by walking forward through the
 * stored counts, one binary search per choice.  A draw picks a rank
 * uniformly (a 128-bit number below the total, by rejection: no modulo
 * bias) from a seeded generator and returns that tour, so every tour comes
 * out with probability exactly 1 / total.
 *
 * What is sampled: undirected tours.  Closed tours; open tours with any
 * ends; open tours with a given start (the undirected tours having that
 * cell as an end, which are exactly the directed tours starting there);
 * with a given end (the same); with both (the tours between the two
 * cells).  For directed closed tours or directed open tours without a
 * given end, draw an undirected tour and pick its direction with a fair
 * coin: each undirected tour is two directed ones, so that is uniform too.
 *
 * Limits: the frontier must fit 15 cells, which means every knight board
 * whose narrow side is at most 7 (any other side, as long as the counts
 * fit 128 bits and the tables fit memory), any leaper and holes allowed.
 * Memory: 24 bytes per stored state (kt_sampler_stats()); preparation
 * needs about 8 bytes per reachable state of all layers at once plus two
 * hash tables.  Preparation of 6x6 closed: 0.3 s CPU; 7x8 closed: 4 min
 * CPU and 2.3 GiB, then about 7,000 tours a second (BENCHMARKS.md).
 *
 * Closed tours of wider boards, 8x8 above all: a knight's board without
 * holes of 8 columns and at least 8 rows is sampled by McKay's half-tours
 * instead (halftour.h), cut across the middle (below row height / 2).
 * Every closed tour is exactly one upper half-tour, one set of steps
 * across the cut and one lower half-tour; preparation lists every
 * half-tour of the halves grouped by path structure (70,433,448 for 8x8,
 * 16 bytes each) and runs McKay's join once, keeping for each upper path
 * structure the number of tours it takes part in (the halves of 8x8 are
 * alike: the join takes one of each two type pairs that the board's
 * up-down flip swaps, and such a partner stands for its tour and that
 * tour's flip image).  The rank of a tour then
 * orders by upper structure, then by its partner across the cut (in the
 * join's search order; a partner standing for two tours holds the tour,
 * then its flip image), then by the two half-tours; the tour of a rank is
 * a binary search, the join's search for one upper type, and two lookups.
 * See BENCHMARKS.md for the preparation time, memory and tours per second
 * of 8x8.  Other boards of 8 columns (8x9, 8x10, ...) take this path too,
 * but their preparation grows quickly with the height.
 *
 * Open tours of knight's boards without holes of 7 columns and at least
 * 7 rows (7x7 above all, whose frontier layers would pass 20 GiB)
 * go by open half-tours (kt_halftours_count_open()) the same way, cut
 * with the larger half above (below row height - height / 2): a half holds
 * zero, one or two of the tour's ends, each half-tour is listed with its
 * tour ends marked, and the join keeps for each upper structure the lower
 * partners whose tour ends make two in all.  Given ends are honoured (the
 * left-right mirror is then not used).  A draw of an open tour picks its
 * upper structure by its rank as above, then its partner across the cut
 * by rejection: the join keeps, for each upper type, blocks of its search
 * with their weights (40 bytes per some 65,000 step-set and lower-structure
 * pairs), a try draws one of the type's partners by weight from one
 * block, and the first that completes the drawn structure is kept (a
 * structure with few partners among its type's falls back to the search
 * after 64 tries).  Each draw is still exactly uniform and a pure function
 * of its seed and index, but it is no longer the tour of a rank drawn
 * with them; kt_sampler_unrank() still walks the search from the type's
 * start, and costs more than a draw.  Preparation of 7x7: 7 minutes and
 * 2.6 GiB, then about 2,000 tours a second; 7x8: 21 minutes and 7.3 GiB,
 * then about 200 tours a second (BENCHMARKS.md).  Taller boards of 7
 * columns take the same path; a half whose lists would pass 8 GiB (the
 * 7 x 5 half of 7x9) is not listed: a draw counts and unranks the
 * half-tours of its drawn structure alone, by a frontier programme started
 * from that structure at the cut (tens of milliseconds for a 7 x 5 one),
 * and ranking does the same.  7x9 open (2,903,212,163,753,000 tours): 12
 * minutes and 8.4 GiB, then about 19 tours a second on one thread.  The preparation grows
 * quickly with the height: give a progress callback to follow or cancel
 * it.  7x10 (70 cells: an open tour's ends lie on both colours, so a
 * half's tour ends may be anywhere, as on 8x8; its halves are not listed,
 * as 7x9's): 21 minutes and 18 GiB at the peak on
 * two cores, then about 4 tours a second on one thread and 10 on two
 * (BENCHMARKS.md); in practice open tours of 7 columns with an end free
 * are sampled up to 7x10; between two given cells longer boards too
 * (7x10 from (0,0) to (6,9): 13 minutes and 2.1 GiB, then about 57 tours
 * a second).  Open tours of 8x8 between two given cells take this path too: each
 * half's tour ends can then only be the given cells, which keeps its
 * half-tours to a few hundred million (from a corner to a cell of the far
 * side, 52,777,208,157,959 tours: 20 minutes and 5.0 GiB, then about 100
 * tours a second on one thread; BENCHMARKS.md).  Open tours of 8x8 with
 * both ends free take it as well, at a far higher price: with a tour end
 * anywhere an 8x4 half has billions of half-tours, so its structures are
 * enumerated as the count enumerates them (in shards, one structure per
 * pairing of the cut's path ends) and a draw splits its structure back
 * and counts each part.  The two halves are then one set, so the join
 * takes one of each two (upper, lower) type pairs that the board's
 * up-down flip swaps, and a draw flips half the tours of the pairs it
 * took.  Measured: 16 GiB at the peak, a preparation of 27 to 32 minutes
 * on two cores by the machine's speed (the halves about a fifth, the join
 * the rest), then about
 * 140 tours a second on one thread and 260 on two; give a
 * progress callback.  Open 8x8 tours with exactly one
 * given end take it too, at a higher price still: the two halves differ, so
 * both are enumerated, and the join has no up-down flip (it keeps the
 * left-right mirror of the half without the given end).  Measured from a
 * corner: a preparation of about an hour (60 min 21 s), 19.3 GiB at the
 * peak, then about 290 tours a second on one thread and 560 on two.  One
 * sampler of every open tour serves every given end instead, at the price of tries:
 * kt_sampler_draw_from() keeps the first of its draws with an end that a
 * symmetry of the board takes to the cell, mapped there, exactly uniform
 * among those tours too.
 *
 * Thread safety: a prepared sampler is immutable; any number of threads
 * may draw from it, rank and unrank at once.
 */
#ifndef KNIGHT_SAMPLE_H
#define KNIGHT_SAMPLE_H

#include <knight/common.h>
#include <knight/graph.h>
#include <knight/options.h>
#include <knight/tourney.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Opaque prepared sampler: the stored counts of one board and kind of tour. */
typedef struct kt_sampler kt_sampler;

/**
 * @brief Sizes of a prepared sampler.  The layout is frozen: later
 *        versions add functions, never fields.
 */
typedef struct kt_sample_stats {
    uint64_t states;        /**< States kept, over all layers. */
    uint64_t bytes;         /**< Bytes of the kept tables. */
    uint64_t peak_states;   /**< Most reachable states of one layer during preparation. */
    uint64_t peak_bytes;    /**< Most bytes of tables held at once during preparation. */
} kt_sample_stats;

/**
 * @brief Prepare a sampler for the tours of a board.
 *
 * Run settings used (options.h; NULL @p run = the defaults): progress
 * (called on the calling thread; done and total in units of 1/1024 of a
 * cell over both passes; non-zero cancels with ::KT_ECANCELED), budget (the
 * most reachable states one layer may hold: more gives ::KT_ELIMIT; 0 = no
 * bound) and the allocator (the sampler's tables; drawn tours use the
 * graph's).  Threads, shards and checkpoints are not used: preparation
 * runs on the calling thread.  Closed tours by half-tours (8 columns, at
 * least 8 rows; see above) read the settings as
 * kt_halftours_count_closed() does, without shards (and so do open tours
 * by half-tours, as kt_halftours_count_open()): threads (the
 * enumeration and the join), progress (one step per cell of each half
 * enumerated, then the join), budget (states of one layer of the
 * enumeration, pairings of one upper type in the join) and the allocator.
 * @param[out] out  Receives the sampler; unchanged on failure.
 * @param g         The board (any leaper, holes allowed); the sampler keeps a reference.
 * @param shape     ::KT_SHAPE_CYCLES for closed tours, ::KT_SHAPE_PATH for open ones.
 * @param start     Open tours: a cell every drawn tour starts at, or ::KT_CELL_NONE.
 * @param end       Open tours: a cell every drawn tour ends at, or ::KT_CELL_NONE.
 * @param run       Run settings, or NULL.
 * @return ::KT_OK; ::KT_EINVAL for NULL @p out or @p g, an unknown shape,
 *         an end given for closed tours, an end that is not a vertex, or
 *         equal start and end; ::KT_EUNSUPPORTED when the frontier is wider
 *         than 15 cells and the board is not one the half-tours cover; ::KT_ENOTOUR when the board has no such tour
 *         (proved); ::KT_EOVERFLOW when a count needs more than 128 bits;
 *         ::KT_ELIMIT; ::KT_ECANCELED; ::KT_ETOOBIG; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_sampler_new(kt_sampler **out, const kt_graph *g, kt_shape shape,
                                   kt_cell start, kt_cell end, const kt_options *run);

/**
 * @brief Release a sampler.  NULL is harmless.
 * @param s The sampler.
 */
KT_EXPORT void kt_sampler_free(kt_sampler *s);

/**
 * @brief The number of tours the sampler draws from (undirected; see the
 *        file comment), equal to kt_count_tours() for the same kind.
 * @param s          The sampler.
 * @param[out] total Receives the count.
 * @return ::KT_OK or ::KT_EINVAL for a NULL argument.
 */
KT_EXPORT kt_status kt_sampler_total(const kt_sampler *s, kt_u128 *total);

/**
 * @brief Sizes of the sampler's tables.
 *
 * A sampler by half-tours (8x8) keeps no layers: its states and peaks are
 * 0, and its bytes are those of the half-tour lists and the weights of
 * the upper path structures.
 * @param s          The sampler.
 * @param[out] stats Receives the sizes.
 * @return ::KT_OK or ::KT_EINVAL for a NULL argument.
 */
KT_EXPORT kt_status kt_sampler_stats(const kt_sampler *s, kt_sample_stats *stats);

/**
 * @brief Draw a tour uniformly at random.
 *
 * The draw is a pure function of (@p seed, @p index): draws 0, 1, 2, ... of
 * one seed are independent tours (each uniform), and the same pair always
 * gives the same tour, on any machine and in any thread.
 * @param[out] out Receives the tour (on the sampler's graph); NULL on failure.
 * @param s        The sampler.
 * @param seed     The seed.
 * @param index    Which draw of the seed's stream.
 * @return ::KT_OK; ::KT_EINVAL for a NULL argument; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_sampler_draw(kt_tourney **out, const kt_sampler *s, uint64_t seed,
                                    uint64_t index);

/**
 * @brief Draw an open tour uniformly at random among the sampler's tours
 *        that have a given cell as an end.
 *
 * For a sampler of open tours (any, or with given ends): draws its tours
 * in turn from one stream of (@p seed, @p index), whose first is
 * kt_sampler_draw()'s, until one has an end in the orbit of @p cell under
 * the board's symmetries that map the sampler's tours onto themselves
 * (the rotations and reflections that keep the board's holes and the
 * given ends), and returns it mapped by one of those symmetries so that
 * it ends at @p cell.  A try with one end in the orbit is kept with
 * probability 1/2 when two cells of the orbit could both be ends of a
 * tour, and the end and the symmetry are chosen uniformly; so the tour
 * returned is exactly uniform among the tours with an end at @p cell:
 * the directed tours that start there.  One preparation then serves every
 * cell, where kt_sampler_new() with a given end prepares for that cell
 * alone; the price is the tries, kmax / (|O| p) expected, where p is the
 * share of the sampler's tours with an end at @p cell, |O| the size of its
 * orbit, and kmax 2 when two cells of the orbit can end one tour, else 1
 * (open 8x8: about 4 from a corner, 6 to 46 from the other cells, so 3
 * to 45 tours a second on one thread; BENCHMARKS.md).  On the half-tours'
 * path (open 8x8) a try whose first half shows it cannot serve is not
 * built further.  A pure function of (@p cell, @p seed, @p index).
 *
 * Run settings used (NULL @p run = the defaults): budget (the most tries;
 * more gives ::KT_ELIMIT; 0 = no bound) and progress (done = tries so
 * far, total = the budget or 0; non-zero cancels with ::KT_ECANCELED).
 * @param[out] out Receives the tour (on the sampler's graph); NULL on failure.
 * @param s        A sampler of open tours.
 * @param cell     The cell the tour must end at.
 * @param seed     The seed.
 * @param index    Which draw of the seed's stream.
 * @param run      Run settings, or NULL.
 * @return ::KT_OK; ::KT_EINVAL for a NULL argument, a sampler of closed
 *         tours or a cell that is not a vertex; ::KT_ENOTOUR when no open
 *         tour of the board can end at @p cell (the board's colours forbid
 *         it); ::KT_ELIMIT; ::KT_ECANCELED; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_sampler_draw_from(kt_tourney **out, const kt_sampler *s, kt_cell cell,
                                         uint64_t seed, uint64_t index, const kt_options *run);

/**
 * @brief The tour of a given rank (0 .. total - 1).
 * @param[out] out Receives the tour; NULL on failure.
 * @param s        The sampler.
 * @param rank     The rank.
 * @return ::KT_OK; ::KT_EINVAL for a NULL argument; ::KT_ERANGE when
 *         @p rank is not below the total; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_sampler_unrank(kt_tourney **out, const kt_sampler *s, const kt_u128 *rank);

/**
 * @brief The rank of a tour among the sampler's tours; the inverse of
 *        kt_sampler_unrank().
 * @param s         The sampler.
 * @param t         A tour on a board equal to the sampler's (same size, leaper and holes).
 * @param[out] rank Receives the rank; unchanged on failure.
 * @return ::KT_OK; ::KT_EINVAL for a NULL argument; ::KT_EMISMATCH for a
 *         tour of another board; ::KT_EBADTOUR when @p t is not one of the
 *         sampler's tours (not a tour, the wrong kind, or other ends).
 */
KT_EXPORT kt_status kt_sampler_rank(const kt_sampler *s, const kt_tourney *t, kt_u128 *rank);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_SAMPLE_H */
