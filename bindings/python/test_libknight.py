# SPDX-License-Identifier: MIT
"""Tests of the Python bindings (stdlib unittest); KNIGHT_LIBRARY names the .so."""
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


if __name__ == "__main__":
    unittest.main()
