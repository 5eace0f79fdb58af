# SPDX-License-Identifier: MIT
"""Tests of the Python bindings (stdlib unittest); KNIGHT_LIBRARY names the .so."""
import ctypes
import unittest

import libknight as kt


class GraphTests(unittest.TestCase):
    def test_board(self):
        g = kt.Graph(8, 8)
        self.assertEqual((g.width, g.height, g.edge_count), (8, 8, 168))
        self.assertEqual(g.neighbor(0, 7), g.cell(2, 1))
        self.assertIsNone(g.neighbor(0, 0))
        self.assertEqual(g.move(g.cell(2, 1), 0), 3)
        self.assertTrue(kt.has_closed_tour(6, 6))
        self.assertFalse(kt.has_closed_tour(4, 10))
        self.assertTrue(kt.has_open_tour(3, 4))

    def test_errors(self):
        with self.assertRaises(kt.KnightError) as e:
            kt.Graph(0, 3)
        self.assertEqual(e.exception.name, "KT_EINVAL")
        with self.assertRaises(kt.KnightError) as e:
            kt.Graph(70000, 70000)
        self.assertEqual(e.exception.name, "KT_ETOOBIG")

    def test_keypad(self):
        g = kt.Graph.from_mask_text("ABCDE\nFGHIJ\nKLMNO\n.123.\n")
        per, total = g.count_walks(10, marked=[0, 4, 8, 14], max_marked=2)
        self.assertEqual(total, 1013398)
        self.assertEqual(per[0], 30004)


class TourneyTests(unittest.TestCase):
    def test_round_trip(self):
        g = kt.Graph(6, 6)
        t = g.exhaustive_tour()
        self.assertTrue(t.is_closed_tour)
        order = t.order(0)
        self.assertEqual(len(order), 36)
        self.assertEqual(g.tour_from_order(order), t)
        for fmt in (kt.FORMAT_NUMBERS, kt.FORMAT_MOVES, kt.FORMAT_SVG):
            self.assertEqual(kt.Tourney.parse(t.to_text(fmt)), t)
        self.assertEqual(sum(t.move_counts()), 36)
        self.assertEqual(t.relative_move_counts()[4], 0)

    def test_bad_input(self):
        with self.assertRaises(kt.KnightError) as e:
            kt.Tourney.parse("1 2\n3 x\n")
        self.assertEqual(e.exception.name, "KT_EPARSE")
        self.assertIn("line 2, column 3", str(e.exception))
        g = kt.Graph(5, 5)
        with self.assertRaises(kt.KnightError) as e:
            g.exhaustive_tour()
        self.assertEqual(e.exception.name, "KT_ENOTOUR")
        t = g.exhaustive_tour(open=True, start=0)
        self.assertTrue(t.is_open_tour)
        with self.assertRaises(kt.KnightError) as e:
            g.tour_from_order(list(range(25)), closed=False)
        self.assertEqual(e.exception.name, "KT_EBADTOUR")

    def test_diag(self):
        # A parse error: its position, no rule.
        with self.assertRaises(kt.KnightError) as e:
            kt.Tourney.parse("1 2\n3 x\n")
        self.assertEqual((e.exception.line, e.exception.column), (2, 3))
        self.assertEqual((e.exception.rule, e.exception.cell), (kt.RULE_NONE, None))
        # A bad tour in a text: the rule, the cell and the cell's position.
        with self.assertRaises(kt.KnightError) as e:
            kt.Tourney.parse("1 2 3\n4 5 5\n7 8 9\n")
        self.assertEqual(e.exception.rule, kt.RULE_REPEATED)
        self.assertEqual((e.exception.cell, e.exception.line, e.exception.column), (5, 2, 5))
        self.assertIn("at cell 5", str(e.exception))
        # A validator: rule and cell (cells 0 and 1 are not a move apart), no position.
        g = kt.Graph(5, 5)
        with self.assertRaises(kt.KnightError) as e:
            g.tour_from_order(list(range(25)), closed=False)
        self.assertEqual((e.exception.rule, e.exception.cell), (kt.RULE_NOT_A_MOVE, 0))
        self.assertEqual((e.exception.line, e.exception.column), (0, 0))
        self.assertIsNotNone(e.exception.rule_name)
        # A board mask: a short row on line 4.
        with self.assertRaises(kt.KnightError) as e:
            kt.Graph.from_mask_text("ooo\nooo\nooo\noo\n")
        self.assertEqual(e.exception.name, "KT_EPARSE")
        self.assertEqual((e.exception.line, e.exception.column), (4, 3))
        # The 1x1 tour reads back from the moves format by auto-detection.
        t = kt.Graph(1, 1).tour_from_order([0])
        self.assertEqual(t.to_text(kt.FORMAT_MOVES), "-\n")
        self.assertEqual(kt.Tourney.parse(t.to_text(kt.FORMAT_MOVES)), t)



class GenerateTests(unittest.TestCase):
    def test_closed_tour(self):
        for w, h in ((8, 8), (10, 12)):
            g = kt.Graph(w, h)
            t = g.closed_tour(seed=7)
            self.assertTrue(t.is_closed_tour)
            self.assertEqual(t.size, 1)
            self.assertEqual(len(t.order(0)), w * h)
            self.assertEqual(t, g.closed_tour(seed=7))
        g = kt.Graph(8, 8)
        self.assertNotEqual(g.closed_tour(seed=1), g.closed_tour(seed=2))
        with self.assertRaises(kt.KnightError) as e:
            kt.Graph(5, 5).closed_tour()
        self.assertEqual(e.exception.status, kt.ENOTOUR)
        self.assertEqual(e.exception.name, "KT_ENOTOUR")

    def test_divide_tour(self):
        g = kt.Graph(10, 12)
        t = g.divide_tour()
        self.assertTrue(t.is_closed_tour)
        self.assertEqual(t, g.divide_tour(seed=0))
        blocks = g.tourney("divide")
        self.assertGreater(blocks.size, 1)
        self.assertFalse(blocks.is_closed_tour)

    def test_open_tour(self):
        g = kt.Graph(5, 5)
        self.assertFalse(kt.has_closed_tour(5, 5))
        for start in ((0, 0), 0):
            t = g.open_tour(start=start)
            self.assertTrue(t.is_open_tour)
            self.assertFalse(t.is_closed_tour)
            order = t.order(0)  # KT_EINVAL unless cell 0 is an end
            self.assertEqual(len(order), 25)
            self.assertEqual(order[0], 0)
        t = g.open_tour(start=(0, 0), end=(4, 4), seed=3)
        order = t.order(0)
        self.assertEqual((order[0], order[-1]), (0, g.cell(4, 4)))
        self.assertEqual(t, g.open_tour(start=(0, 0), end=(4, 4), seed=3))

    def test_warnsdorff(self):
        g = kt.Graph(8, 8)
        for tie in ("first", "random", "pohl", "roth"):
            with self.subTest(tie=tie):
                t = g.warnsdorff_tour(tie=tie, seed=5)
                self.assertTrue(t.is_closed_tour)
                self.assertEqual(t, g.warnsdorff_tour(tie=tie, seed=5))
                t = g.warnsdorff_tour(closed=False, start=(0, 0), tie=tie, seed=5)
                self.assertTrue(t.is_open_tour)
                self.assertEqual(t.order(0)[0], 0)
        self.assertEqual([kt.tiebreak_name(i) for i in range(4)],
                         ["first", "random", "pohl", "roth"])
        self.assertEqual(g.warnsdorff_tour(tie=kt.TIE_ROTH, seed=5),
                         g.warnsdorff_tour(tie="roth", seed=5))
        with self.assertRaises(kt.KnightError) as e:
            g.warnsdorff_tour(tie="nope")
        self.assertEqual(e.exception.status, kt.EINVAL)

    def test_budgets(self):
        # Warnsdorff's plain rule gets stuck on 64x64 from the corner, at every attempt
        g = kt.Graph(64, 64)
        for attempts in (0, 3):
            with self.assertRaises(kt.KnightError) as e:
                g.warnsdorff_tour(closed=False, tie="first", attempts=attempts)
            self.assertEqual(e.exception.status, kt.ELIMIT)
        # 4x4 has no open tour: 10 search nodes do not settle it, a full search does
        g = kt.Graph(4, 4)
        with self.assertRaises(kt.KnightError) as e:
            g.exhaustive_tour(open=True, max_nodes=10)
        self.assertEqual(e.exception.status, kt.ELIMIT)
        with self.assertRaises(kt.KnightError) as e:
            g.exhaustive_tour(open=True)
        self.assertEqual(e.exception.status, kt.ENOTOUR)
        with self.assertRaises(kt.KnightError) as e:
            kt.Graph(40, 40).tourney("neural", seed=1, budget=1)
        self.assertEqual(e.exception.status, kt.ELIMIT)

    def test_tourney_and_join(self):
        names = [kt.gen_method_name(m) for m in range(6)]
        self.assertEqual(names, ["blocks", "warnsdorff", "neural", "divide", "braid", "four-cover"])
        g = kt.Graph(8, 8)
        for name in ("braid", "four-cover"):
            with self.subTest(method=name):
                t = g.tourney(name)
                self.assertGreater(t.size, 1)
                self.assertFalse(t.is_closed_tour)
                self.assertEqual(t, g.tourney(names.index(name)))
                self.assertGreater(t.count_rails(), 0)
                self.assertIs(t.join(seed=1), t)
                self.assertTrue(t.is_closed_tour)
                self.assertEqual(t.size, 1)
        self.assertEqual(g.tourney("four-cover").size, 16)  # four 4-cycles per 4x4 block
        with self.assertRaises(kt.KnightError) as e:
            g.tourney("nope")
        self.assertEqual(e.exception.status, kt.EINVAL)
        with self.assertRaises(kt.KnightError) as e:
            kt.Graph(6, 8).tourney("braid")  # braid needs a square board
        self.assertEqual(e.exception.status, kt.EUNSUPPORTED)

    def test_shatter_obfuscate(self):
        g = kt.Graph(8, 8)
        t = g.closed_tour(seed=1)
        self.assertIs(t.shatter(seed=2), t)
        # a shatter may leave one cycle; take the first seed that splits it
        t = next(u for u in (g.closed_tour(seed=1).shatter(seed=s) for s in range(16))
                 if u.size > 1)
        self.assertGreater(t.size, 1)
        t.join(seed=3)
        self.assertTrue(t.is_closed_tour)
        t = g.closed_tour(seed=1)
        self.assertIs(t.obfuscate(seed=4), t)
        self.assertTrue(t.is_closed_tour)
        self.assertNotEqual(t, g.closed_tour(seed=1))
        self.assertEqual(t, g.closed_tour(seed=1).obfuscate(rounds=16, seed=4))
        with self.assertRaises(kt.KnightError) as e:
            kt.Graph(5, 5).open_tour().join()
        self.assertEqual(e.exception.status, kt.EUNSUPPORTED)

    def test_shatter_sequential(self):
        g = kt.Graph(16, 16)
        t = g.closed_tour(seed=5)
        self.assertIs(t.shatter_sequential(seed=1), t)
        self.assertGreater(t.size, 1)
        self.assertEqual(t, g.closed_tour(seed=5).shatter_sequential(seed=1))
        for r in range(15):
            t.shatter_sequential(seed=2 + r)
        self.assertTrue(t.join(seed=7).is_closed_tour)


class CountTests(unittest.TestCase):
    def test_u128_layout(self):
        # kt_u128 (common.h) is frozen: two uint64_t, low half first
        self.assertEqual(ctypes.sizeof(kt._CountValue), 16)
        self.assertEqual([kt._CountValue.lo.offset, kt._CountValue.hi.offset], [0, 8])

    def test_count_tours(self):
        self.assertEqual(kt.Graph(6, 6).count_tours(), 9862)
        self.assertEqual(kt.Graph(5, 5).count_tours(open=True), 864)
        self.assertEqual(kt.Graph(5, 5).count_tours(open=True, directed=True), 1728)
        self.assertEqual(kt.Graph(6, 6).count_tours(classes=True), 1245)
        # 8x8 symmetric (2432932) takes ~7 s; 78 is `knight count 6x6 --symmetric`
        self.assertEqual(kt.Graph(6, 6).count_tours(symmetric=True), 78)
        self.assertEqual(kt.Graph(6, 6).count_tours(symmetric=True, classes=True), 22)
        self.assertEqual(kt.Graph(6, 6).count_tours(threads=2), 9862)
        self.assertEqual(kt.Graph(6, 6).count_tours(threads=0), 9862)
        with self.assertRaises(kt.KnightError) as cm:
            kt.Graph(6, 6).count_tours(threads=100000)
        self.assertEqual(cm.exception.status, kt.EINVAL)
        self.assertEqual(kt.Graph(5, 5).count_tours(), 0)

    def test_halftours(self):
        self.assertEqual(kt.count_closed_by_halftours(6, 6), 9862)
        self.assertEqual(kt.count_closed_by_halftours(5, 8), 44202)
        self.assertEqual(kt.count_closed_by_halftours(6, 6, split=2), 9862)
        self.assertEqual(kt.count_closed_by_halftours(6, 6, threads=2), 9862)
        self.assertEqual(kt.count_closed_by_halftours(6, 6, threads=1), 9862)
        self.assertEqual(sum(kt.count_closed_by_halftours(6, 6, shard=(i, 3)) for i in range(3)),
                         9862)
        with self.assertRaises(kt.KnightError) as e:
            kt.count_closed_by_halftours(9, 8)
        self.assertEqual(e.exception.name, "KT_EUNSUPPORTED")
        with self.assertRaises(kt.KnightError) as e:
            kt.count_closed_by_halftours(6, 6, shard=(3, 3))
        self.assertEqual(e.exception.status, kt.EINVAL)
        self.assertEqual(kt.count_open_by_halftours(5, 5), 864)
        self.assertEqual(kt.count_open_by_halftours(5, 5, directed=True), 1728)


if __name__ == "__main__":
    unittest.main()
