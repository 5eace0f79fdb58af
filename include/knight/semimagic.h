/* SPDX-License-Identifier: MIT */
/**
 * @file semimagic.h
 * @brief Numbered knight's tours under line-sum constraints: semimagic,
 *        nested semimagic (the Knight Errant puzzle), magic, closed, fixed
 *        start and end cells, and completion of a partly numbered grid.
 *
 * A *numbering* of an n x n board (3 <= n <= 16) gives every cell a
 * distinct number 1..n^2 such that consecutive numbers are a knight's move
 * apart (an open tour; closed when n^2 and 1 are a move apart too).  Cell
 * indices are `y * n + x` as everywhere in libknight; a numbering is an
 * array of n^2 numbers indexed by cell.  Rectangles w x h (sides 1..16,
 * kt_semimagic_opts_new_rect()) work the same way with N = w * h cells,
 * cells `y * w + x`, and lines of k cells summing to k(N+1)/2 where that
 * is an integer (::KT_SEMIMAGIC_ROWS, ::KT_SEMIMAGIC_COLUMNS); where "n^2"
 * is written below, read N.
 *
 * A numbering is *semimagic* when every row and column sums to n(n^2+1)/2
 * and *magic* when both long diagonals do too.  Stertenbrink, Meyrignac,
 * Mackay and Jelliss enumerated the semimagic knight's tours of the 8x8
 * board in 2003: 140 classes, none of them magic.  The Knight Errant
 * puzzle, in G. P. Jelliss's collection of knight's tour problems, asks
 * for a nested one: an 8x8 semimagic tour whose four 4x4 quadrants are
 * semimagic as well (every half-row and half-column sums to 130), with 1
 * in the leftmost column and 64 in the rightmost; the nested search finds
 * 8 classes.
 *
 * The constraints live in an opaque options handle (::kt_semimagic_opts)
 * that the caller combines with setters:
 * - ::KT_SEMIMAGIC_LINES: every row and column sums to n(n^2+1)/2;
 * - ::KT_SEMIMAGIC_NESTED: in addition every quadrant is semimagic (every half-row
 *   and half-column sums to n(n^2+1)/4); needs n divisible by 4;
 * - ::KT_SEMIMAGIC_MAGIC: both long diagonals sum to n(n^2+1)/2 too;
 * - ::KT_SEMIMAGIC_CLOSED: n^2 is a knight's move from 1;
 * - the cells (or columns) allowed for 1 and for n^2
 *   (kt_semimagic_opts_set_puzzle_rule(): start in the leftmost column,
 *   end in the rightmost);
 * - a partial grid of given numbers (0 = free).
 * The settings of a run (threads, progress, shards, budget) are not part
 * of the handle: each search takes them as a ::kt_options (knight/options.h).
 *
 * kt_semimagic_search() enumerates every numbering satisfying all the
 * constraints.  By default it reports each *symmetry class* once: two
 * numberings are in one class when one of the 8 rotations and reflections
 * of the board maps one onto the other.  A class is reported when at
 * least one of its members satisfies the constraints, through its smallest
 * such member (compared as arrays of numbers in cell order); the
 * constraints need not be symmetric (see kt_semimagic_solution_satisfies()).
 * Reversal of the numbering (k -> n^2+1-k) is not merged: the class of the
 * reversed numbering is a separate class, reported right after, and the
 * two are linked (kt_semimagic_solution_reverse_class()).  Internally the
 * search explores only one (start, end) pair per orbit of the symmetries,
 * with and without reversal, that preserve the constraints.
 *
 * Determinism: the search splits its tree into independent work units
 * (the first moves from each (start, end) pair), in a fixed order.
 * Solutions are delivered in that order, and within a unit in depth-first
 * order, which is the order of a single-threaded search; the sequence of
 * callbacks (numbers, class indices, relations) is therefore the same for
 * every thread count.  With one thread a solution is delivered as soon as
 * it is found; with several, once its unit and every earlier unit are
 * finished (other threads keep their unit's solutions until then).
 *
 * Thread safety: an options handle must not be modified while a search
 * reads it, but any number of searches may share one handle concurrently.
 * Callbacks are always made from the thread that called the search, never
 * from its workers.  Solutions are only valid during the callback.
 */
#ifndef KNIGHT_SEMIMAGIC_H
#define KNIGHT_SEMIMAGIC_H

#include <knight/common.h>
#include <knight/options.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Opaque set of constraints and the reporting mode. */
typedef struct kt_semimagic_opts kt_semimagic_opts;

/** @brief Opaque view of one reported numbering; valid only during the callback. */
typedef struct kt_semimagic_solution kt_semimagic_solution;

/** @brief Constraint flags for kt_semimagic_opts_set_flags(); combine with `|`. */
enum {
    KT_SEMIMAGIC_LINES = 1u, /**< Every row and column sums to n(n^2+1)/2. */
    KT_SEMIMAGIC_NESTED = 2u,    /**< Every quadrant semimagic (implies ::KT_SEMIMAGIC_LINES; n divisible by 4). */
    KT_SEMIMAGIC_MAGIC = 4u,     /**< Both long diagonals sum to n(n^2+1)/2 (implies ::KT_SEMIMAGIC_LINES). */
    KT_SEMIMAGIC_CLOSED = 8u,    /**< The tour is closed: n^2 is a knight's move from 1. */
    KT_SEMIMAGIC_ROWS = 16u,     /**< Only the rows sum to width(N+1)/2 (N cells; rectangles). */
    KT_SEMIMAGIC_COLUMNS = 32u,  /**< Only the columns sum to height(N+1)/2 (N cells; rectangles). */
    /** The numbering is symmetric under the half-turn: the cell opposite the
     *  one of k through the centre holds k + N/2 (mod N).  Such a tour is
     *  closed (implies ::KT_SEMIMAGIC_CLOSED); the search places each number
     *  with its partner, so it decides half of them (every such 8x8
     *  semimagic tour in seconds).  None exists when N is odd, or when the
     *  half-turn changes a cell's colour but N/2 is even (or the reverse).
     *  Since 1.1. */
    KT_SEMIMAGIC_HALFTURN = 64u
};

/** @brief How kt_semimagic_search() treats the 8 symmetries of the board. */
typedef enum kt_semimagic_symmetry {
    KT_SEMIMAGIC_CLASSES = 0, /**< One callback per symmetry class (default). */
    KT_SEMIMAGIC_MEMBERS = 1, /**< Per class: its representative, then every other distinct image. */
    KT_SEMIMAGIC_ALL = 2      /**< Every numbering satisfying the constraints, no reduction. */
} kt_semimagic_symmetry;

/** @brief "No class": the relation is not known (yet) or does not exist. */
#define KT_SEMIMAGIC_NO_CLASS UINT64_MAX

/** @brief "Any column" for kt_semimagic_opts_set_start_column() and kt_semimagic_opts_set_end_column(). */
#define KT_SEMIMAGIC_ANY UINT32_MAX

/**
 * @brief Solution callback.
 * @param user The pointer given to kt_semimagic_search().
 * @param sol  The numbering and its class data; valid only during the call.
 * @return 0 to continue; non-zero stops the search, which then returns
 *         ::KT_ECANCELED (the same status as a cancelling progress callback).
 */
typedef int (*kt_semimagic_fn)(void *user, const kt_semimagic_solution *sol);

/**
 * @brief Create an options handle for an n x n board.
 *
 * Defaults: ::KT_SEMIMAGIC_LINES, any start and end, no given numbers,
 * ::KT_SEMIMAGIC_CLASSES.
 * @param[out] out Receives the handle; set to NULL on failure.
 * @param n        Board side, 3..16 (::KT_EUNSUPPORTED otherwise; boards
 *                 with sides up to 8 use a faster one-word search, larger
 *                 ones a four-word one, slower per node).
 * @param alloc    Memory hooks, or NULL for malloc/free; copied.  The
 *                 searches with this handle allocate through them too
 *                 (the allocator of their ::kt_options is not used).
 * @return ::KT_OK, ::KT_EINVAL, ::KT_EUNSUPPORTED or ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_semimagic_opts_new(kt_semimagic_opts **out, uint32_t n,
                                          const kt_allocator *alloc);

/**
 * @brief Create an options handle for a rectangular board, width x height.
 *
 * The cells are numbered y * width + x, a numbering has N = width * height
 * numbers, and a line of k cells sums to k(N+1)/2, the average number
 * times k.  That is an integer for the rows only when width * (N+1) is
 * even, and for the columns only when height * (N+1) is even: on a 4 x 7
 * board (width 7, height 4) the columns sum to 58 but a row would have to
 * sum to 101.5.  So a family of lines can be asked for
 * (::KT_SEMIMAGIC_ROWS, ::KT_SEMIMAGIC_COLUMNS, ::KT_SEMIMAGIC_LINES for
 * both) only when its sum is an integer.  ::KT_SEMIMAGIC_NESTED and
 * ::KT_SEMIMAGIC_MAGIC need a square.  On a rectangle that is not a square
 * the symmetries are the 4 reflections and rotations that keep its shape
 * (and reversal); a square handle made here is the same as one of
 * kt_semimagic_opts_new() except for the smaller sides it allows.  The
 * search needs distinct cells for 1 and N, so a 1 x 1 board reports
 * nothing.
 *
 * Defaults: every family of lines whose sum is an integer (both:
 * ::KT_SEMIMAGIC_LINES), any start and end, no given numbers,
 * ::KT_SEMIMAGIC_CLASSES.
 * @param[out] out Receives the handle; set to NULL on failure.
 * @param width    Columns, 1..16.
 * @param height   Rows, 1..16 (::KT_EUNSUPPORTED outside 1..16).
 * @param alloc    Memory hooks, or NULL for malloc/free; copied.
 * @return ::KT_OK, ::KT_EINVAL, ::KT_EUNSUPPORTED or ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_semimagic_opts_new_rect(kt_semimagic_opts **out, uint32_t width,
                                               uint32_t height, const kt_allocator *alloc);

/**
 * @brief The width (columns) of the board of a handle.
 * @param o The handle.
 * @return The width, or 0 when @p o is NULL.
 */
KT_EXPORT uint32_t kt_semimagic_opts_width(const kt_semimagic_opts *o);

/**
 * @brief The height (rows) of the board of a handle.
 * @param o The handle.
 * @return The height, or 0 when @p o is NULL.
 */
KT_EXPORT uint32_t kt_semimagic_opts_height(const kt_semimagic_opts *o);

/**
 * @brief Release an options handle.
 * @param o The handle, or NULL (then nothing happens).
 */
KT_EXPORT void kt_semimagic_opts_free(kt_semimagic_opts *o);

/**
 * @brief The board side given to kt_semimagic_opts_new().
 * @param o The handle.
 * @return n, or 0 when @p o is NULL or its board is not a square.
 */
KT_EXPORT uint32_t kt_semimagic_opts_size(const kt_semimagic_opts *o);

/**
 * @brief Set the constraint flags (replacing the previous ones).
 * @param o     The handle.
 * @param flags A combination of ::KT_SEMIMAGIC_LINES, ::KT_SEMIMAGIC_NESTED,
 *              ::KT_SEMIMAGIC_MAGIC, ::KT_SEMIMAGIC_CLOSED, ::KT_SEMIMAGIC_ROWS
 *              and ::KT_SEMIMAGIC_COLUMNS (both of these read as
 *              ::KT_SEMIMAGIC_LINES); 0 asks for plain numbered tours.
 * @return ::KT_OK; ::KT_EINVAL for unknown bits; ::KT_EUNSUPPORTED for
 *         ::KT_SEMIMAGIC_NESTED when n is not divisible by 4, for
 *         ::KT_SEMIMAGIC_NESTED or ::KT_SEMIMAGIC_MAGIC on a board that is not
 *         a square, and for lines whose sum is not an integer (see
 *         kt_semimagic_opts_new_rect()).
 */
KT_EXPORT kt_status kt_semimagic_opts_set_flags(kt_semimagic_opts *o, unsigned flags);

/**
 * @brief The current constraint flags.
 * @param o The handle.
 * @return The flags, 0 when @p o is NULL.
 */
KT_EXPORT unsigned kt_semimagic_opts_flags(const kt_semimagic_opts *o);

/**
 * @brief Restrict the cell of number 1 to a set of cells.
 * @param o     The handle.
 * @param cells Cell indices (y*n+x); may repeat.
 * @param count Number of cells; 0 means any cell.
 * @return ::KT_OK, or ::KT_EINVAL (NULL with count > 0, cell out of range).
 */
KT_EXPORT kt_status kt_semimagic_opts_set_start_cells(kt_semimagic_opts *o, const kt_cell *cells,
                                                      size_t count);

/**
 * @brief Restrict the cell of number n^2 to a set of cells.
 * @param o     The handle.
 * @param cells Cell indices (y*n+x); may repeat.
 * @param count Number of cells; 0 means any cell.
 * @return ::KT_OK, or ::KT_EINVAL (NULL with count > 0, cell out of range).
 */
KT_EXPORT kt_status kt_semimagic_opts_set_end_cells(kt_semimagic_opts *o, const kt_cell *cells,
                                                    size_t count);

/**
 * @brief Restrict number 1 to column @p x (replaces any start cell set).
 * @param o The handle.
 * @param x Column 0..n-1, or ::KT_SEMIMAGIC_ANY for any cell.
 * @return ::KT_OK or ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_semimagic_opts_set_start_column(kt_semimagic_opts *o, uint32_t x);

/**
 * @brief Restrict number n^2 to column @p x (replaces any end cell set).
 * @param o The handle.
 * @param x Column 0..n-1, or ::KT_SEMIMAGIC_ANY for any cell.
 * @return ::KT_OK or ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_semimagic_opts_set_end_column(kt_semimagic_opts *o, uint32_t x);

/**
 * @brief The Knight Errant rule: 1 in the leftmost column, n^2 in the rightmost.
 * @param o The handle.
 * @return ::KT_OK or ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_semimagic_opts_set_puzzle_rule(kt_semimagic_opts *o);

/**
 * @brief Give some numbers in advance (a puzzle to complete).
 * @param o       The handle.
 * @param numbers n^2 values indexed by cell: 1..n^2 fixes the cell's
 *                number, 0 leaves it free; NULL clears the grid.
 * @param count   Must be n^2 (or 0 with NULL).
 * @return ::KT_OK; ::KT_EINVAL for a wrong count, a value above n^2 or a
 *         number given twice (the handle is then unchanged).
 */
KT_EXPORT kt_status kt_semimagic_opts_set_grid(kt_semimagic_opts *o, const uint32_t *numbers,
                                               size_t count);

/**
 * @brief Choose how symmetric solutions are reported.
 * @param o    The handle.
 * @param mode ::KT_SEMIMAGIC_CLASSES, ::KT_SEMIMAGIC_MEMBERS or ::KT_SEMIMAGIC_ALL.
 * @return ::KT_OK or ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_semimagic_opts_set_symmetry(kt_semimagic_opts *o, kt_semimagic_symmetry mode);

/**
 * @brief Enumerate the numberings satisfying the constraints of @p o.
 *
 * Run settings used from @p run:
 * - threads: the work units are shared among them; the callbacks still
 *   run on the calling thread, in the same order for every count;
 * - progress: @p done and @p total count search nodes as estimated
 *   before the search (Knuth's estimator: random paths down each work
 *   unit of this shard, from a fixed seed, on the threads of @p run):
 *   while the estimate is made @p done and @p total are 0 (not known
 *   yet; the call can be cancelled then too), then @p total is the same
 *   in every call, @p done is the estimate of the units searched to the end, so
 *   done / total tracks the work and gives a usable time to go (the
 *   estimate is typically within a factor of 2 of the real count, and
 *   lower more often than higher); called on the calling thread, non-zero
 *   cancels;
 * - shards: shard i of N searches every N-th work unit from unit i on;
 *   the classes and solutions of the N shards add up to those of the
 *   whole search (each orbit is reported by exactly one shard; class
 *   indices are numbered within each call, and in ::KT_SEMIMAGIC_ALL mode
 *   a shard counts the classes whose representative it found);
 * - budget: in search nodes, summed over the threads; checked every few
 *   thousand nodes per thread, so the search may run slightly past it,
 *   and a search that spent more than the budget returns ::KT_ELIMIT even
 *   when it finished (so the status does not depend on the threads).
 * - trace: called on the calling thread as each work unit of this shard
 *   is delivered, with @p step the unit's index and @p size the search
 *   nodes spent in it (the sum over a complete search is the same for
 *   every thread count), for measurements.
 * - checkpoint (not in ::KT_SEMIMAGIC_ALL mode, whose class numbers a
 *   resume would lose): after a work unit, once the interval has passed,
 *   and after the last one, the number of units of this shard delivered
 *   and the counts so far are saved in the file (through FILE.tmp and a
 *   rename); a call with the same constraints, mode and shard resumes
 *   after them: its counts include the saved ones, and only numberings of
 *   later units are reported (those of the unit that was being searched
 *   when the first call stopped come again).  A finished file gives the
 *   counts at once.
 * The allocator of @p run is not used.
 * @param o             The constraints and the reporting mode.
 * @param run           Run settings, or NULL for the defaults (all cores).
 * @param fn            Called for each reported numbering (see ::kt_semimagic_symmetry); may be NULL.
 * @param user          Passed to @p fn.
 * @param[out] classes  If not NULL: symmetry classes reported (also when the
 *                      search stops early: those reported before the stop).
 * @param[out] solutions If not NULL: numberings satisfying the constraints in those
 *                      classes (in ::KT_SEMIMAGIC_ALL mode: numberings reported).
 * @return ::KT_OK when the search is complete; ::KT_ECANCELED when @p fn or
 *         the progress callback asked to stop; ::KT_ELIMIT when the budget
 *         ran out; ::KT_EINVAL for NULL @p o; ::KT_ENOMEM; ::KT_EIO when the
 *         checkpoint cannot be written or is damaged; ::KT_EMISMATCH when
 *         it belongs to another search (constraints, mode or shard).
 */
KT_EXPORT kt_status kt_semimagic_search(const kt_semimagic_opts *o, const kt_options *run,
                                        kt_semimagic_fn fn, void *user, uint64_t *classes,
                                        uint64_t *solutions);

/**
 * @brief Decide whether any numbering satisfies the constraints (stops at the first).
 *
 * With ::KT_SEMIMAGIC_MAGIC this is the magic-tour check: *exists == 0 after
 * ::KT_OK is a proof (by exhaustion) that none exists under the constraints.
 * Uses the threads, progress, shards and budget of @p run as
 * kt_semimagic_search() does (not its checkpoint: a resumed search would
 * skip the witnesses of the units it saved) (with shards, *exists == 0 speaks for this
 * shard's work units only); the symmetry mode of @p o is not used.  The
 * witness is the first solution in search order, the same for every
 * thread count.
 * @param o            The constraints.
 * @param run          Run settings, or NULL for the defaults (all cores).
 * @param[out] exists  1 if one was found, 0 if none exists.
 * @param[out] numbers If not NULL and one exists: n^2 numbers of a witness.
 * @return ::KT_OK (also when a witness was found just as the search was
 *         stopped), ::KT_ECANCELED, ::KT_ELIMIT, ::KT_EINVAL (NULL @p o or
 *         @p exists) or ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_semimagic_exists(const kt_semimagic_opts *o, const kt_options *run,
                                        int *exists, uint32_t *numbers);

/**
 * @brief Whether a complete numbering satisfies every constraint of @p o.
 *
 * Checks that it is a numbered knight's tour (each of 1..n^2 once,
 * consecutive numbers a move apart), the line sums the flags ask for,
 * closure, the start and end cells and the given numbers.
 * @param o        The constraints.
 * @param numbers  n^2 numbers indexed by cell.
 * @param count    Must be n^2.
 * @param[out] ok  1 if every constraint holds, else 0.
 * @return ::KT_OK, ::KT_EINVAL or ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_semimagic_check(const kt_semimagic_opts *o, const uint32_t *numbers,
                                       size_t count, int *ok);

/**
 * @brief Make a puzzle with a unique solution from a complete numbering.
 *
 * Starts from @p solution with every number given and removes given
 * numbers one at a time, in an order drawn from @p seed; a removal is kept
 * only when the completion search (kt_semimagic_search() in
 * ::KT_SEMIMAGIC_ALL mode on the smaller grid, counting up to two
 * completions) proves that @p solution is still the only numbering
 * satisfying the constraints of @p o that agrees with the grid.  The
 * result is minimal for that order: removing any one more given number
 * leaves a grid with a second completion, or one the search could not
 * settle within @p check_budget.  The same inputs give the same puzzle
 * for every thread count.
 *
 * The constraints are those of @p o (flags, cells of 1 and n^2); its own
 * grid and symmetry mode are not used.  The difficulty is the number of
 * search nodes the completion search spends on the final grid, i.e. the
 * work of a solver that proves its answer unique; it does not depend on
 * the thread count.
 *
 * Run settings used from @p run: threads (for each completion search
 * without a node budget; a check with a budget, from @p check_budget or
 * from @p run, runs on the calling thread, since where a budget runs out
 * among threads depends on their timing, and the puzzle must not),
 * progress (@p done and @p total count the given numbers tried; non-zero
 * cancels), budget (in search nodes over every completion search of the
 * call).  Shards, checkpoint and trace are not used.
 * @param[out] puzzle    n^2 numbers indexed by cell, 0 for an empty cell;
 *                       written only on ::KT_OK.
 * @param o              The constraints (@p solution must satisfy them).
 * @param solution       n^2 numbers indexed by cell: a complete numbering.
 * @param count          Must be n^2.
 * @param seed           Chooses the order in which numbers are removed.
 * @param check_budget   Most search nodes one uniqueness check may spend
 *                       (0 = unlimited); a check that runs out keeps its
 *                       number given.  Bounds the time of each step.
 * @param run            Run settings, or NULL for the defaults (all cores).
 * @param[out] givens    If not NULL: how many numbers the puzzle gives.
 * @param[out] difficulty If not NULL: search nodes to solve the puzzle.
 * @return ::KT_OK; ::KT_EINVAL for NULL pointers, a wrong @p count or a
 *         @p solution that is not a numbering satisfying @p o;
 *         ::KT_ECANCELED; ::KT_ELIMIT when the budget of @p run ran out;
 *         ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_semimagic_make_puzzle(uint32_t *puzzle, const kt_semimagic_opts *o,
                                             const uint32_t *solution, size_t count,
                                             uint64_t seed, uint64_t check_budget,
                                             const kt_options *run, uint32_t *givens,
                                             uint64_t *difficulty);

/**
 * @brief The numbers of a reported solution.
 * @param s The solution, or NULL.
 * @return n^2 numbers indexed by cell (y*n+x); NULL for NULL @p s.
 */
KT_EXPORT const uint32_t *kt_semimagic_solution_numbers(const kt_semimagic_solution *s);

/**
 * @brief Board side of a reported solution.
 * @param s The solution, or NULL.
 * @return n; 0 for NULL @p s or a board that is not a square.
 */
KT_EXPORT uint32_t kt_semimagic_solution_size(const kt_semimagic_solution *s);

/**
 * @brief Width (columns) of the board of a reported solution.
 * @param s The solution, or NULL.
 * @return The width; 0 for NULL @p s.
 */
KT_EXPORT uint32_t kt_semimagic_solution_width(const kt_semimagic_solution *s);

/**
 * @brief Height (rows) of the board of a reported solution.
 * @param s The solution, or NULL.
 * @return The height; 0 for NULL @p s.
 */
KT_EXPORT uint32_t kt_semimagic_solution_height(const kt_semimagic_solution *s);

/**
 * @brief Index of the solution's symmetry class, in order of first report (0, 1, ...).
 * @param s The solution, or NULL.
 * @return The class index; ::KT_SEMIMAGIC_NO_CLASS for NULL @p s.
 */
KT_EXPORT uint64_t kt_semimagic_solution_class(const kt_semimagic_solution *s);

/**
 * @brief Number of distinct numberings in the class (1, 2, 4 or 8).
 * @param s The solution, or NULL.
 * @return The class size; 0 for NULL @p s.
 */
KT_EXPORT uint32_t kt_semimagic_solution_class_size(const kt_semimagic_solution *s);

/**
 * @brief Member number within the class: 0 for the representative (always
 *        the one reported in ::KT_SEMIMAGIC_CLASSES mode), 1.. for the other
 *        images in ::KT_SEMIMAGIC_MEMBERS mode; in ::KT_SEMIMAGIC_ALL mode the order of report.
 * @param s The solution, or NULL.
 * @return The member number; 0 for NULL @p s.
 */
KT_EXPORT uint32_t kt_semimagic_solution_member(const kt_semimagic_solution *s);

/**
 * @brief Whether this numbering itself satisfies the constraints (always
 *        1 except for images reported in ::KT_SEMIMAGIC_MEMBERS mode).
 * @param s The solution, or NULL.
 * @return 1 or 0; 0 for NULL @p s.
 */
KT_EXPORT int kt_semimagic_solution_satisfies(const kt_semimagic_solution *s);

/**
 * @brief Number of members of the class that satisfy the constraints.
 * @param s The solution, or NULL.
 * @return 1..class size; 0 for NULL @p s.
 */
KT_EXPORT uint32_t kt_semimagic_solution_class_satisfying(const kt_semimagic_solution *s);

/**
 * @brief The class containing the reversed numbering (k -> n^2+1-k).
 *
 * In ::KT_SEMIMAGIC_CLASSES and ::KT_SEMIMAGIC_MEMBERS modes a class and the class of
 * its reversal are reported one right after the other, so the relation is
 * always complete: the result is this class's own index when reversal maps
 * the class onto itself, the index of the partner class when that class
 * has a member satisfying the constraints (it is reported by the same
 * search), and ::KT_SEMIMAGIC_NO_CLASS otherwise.  In ::KT_SEMIMAGIC_ALL mode it is only
 * known once the partner class has been reported before (else
 * ::KT_SEMIMAGIC_NO_CLASS).
 * @param s The solution, or NULL.
 * @return A class index or ::KT_SEMIMAGIC_NO_CLASS (also for NULL @p s).
 */
KT_EXPORT uint64_t kt_semimagic_solution_reverse_class(const kt_semimagic_solution *s);

/**
 * @brief Whether some member of the reversed numbering's class satisfies
 *        the constraints (so that class is reported by the same search).
 * @param s The solution, or NULL.
 * @return 1 or 0; 0 for NULL @p s.
 */
KT_EXPORT int kt_semimagic_solution_reverse_satisfies(const kt_semimagic_solution *s);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_SEMIMAGIC_H */
