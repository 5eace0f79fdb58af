//! Facts about the safe API: published counts, validity of generated tours,
//! round trips through every format, diagnostics, callbacks and panics.
use knight::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

fn tour_is_valid(g: &Graph, t: &Tourney) {
    let order: Vec<Cell> = t.cells().collect();
    assert_eq!(order.len(), g.vertex_count());
    let mut seen = vec![false; g.cell_count()];
    for &c in &order {
        assert!(g.is_cell(c) && !seen[c as usize], "cell {} repeated or off the board", c);
        seen[c as usize] = true;
    }
    for w in order.windows(2) {
        assert!(g.move_between(w[0], w[1]).is_some(), "{} -> {} is no move", w[0], w[1]);
    }
    if t.is_closed_tour() && order.len() > 1 {
        assert!(g.move_between(*order.last().unwrap(), order[0]).is_some());
    }
    // The library's own validator agrees.
    let shape = if t.is_closed_tour() { Shape::Cycles } else { Shape::Path };
    assert_eq!(&Tourney::from_order(g, &order, shape).unwrap(), t);
}

#[test]
fn published_counts() {
    let g6 = Graph::new(6, 6).unwrap();
    assert_eq!(g6.count_tours(CountFlags::default(), None).unwrap(), 9862);
    let one = Options::new().unwrap().threads(1).unwrap();
    assert_eq!(g6.count_tours(CountFlags::default(), Some(&one)).unwrap(), 9862);
    let directed = CountFlags { directed: true, ..Default::default() };
    assert_eq!(g6.count_tours(directed, None).unwrap(), 2 * 9862);
    let classes = CountFlags { classes: true, ..Default::default() };
    assert_eq!(g6.count_tours(classes, None).unwrap(), 1245);
    // 6x6 goes to the small-board search, which keeps no layers; a budget
    // sends the count to the frontier DP, which reports its layers
    let (n, st) = g6.count_tours_stats(CountFlags::default(), None).unwrap();
    assert_eq!(n, 9862);
    assert!(st.peak_states == 0 && st.frontier == 0);
    let budget = Options::new().unwrap().budget(1 << 40);
    let (n, st) = g6.count_tours_stats(CountFlags::default(), Some(&budget)).unwrap();
    assert_eq!(n, 9862);
    assert!(st.peak_states > 0 && st.frontier > 0);
    // 6x7 closed goes to half-tours by itself (no layers); the frontier
    // method alone gives the same number
    let g67 = Graph::new(6, 7).unwrap();
    let (n, st) = g67.count_tours_by(CountFlags::default(), CountMethod::Auto, None).unwrap();
    assert_eq!((n, st.peak_states), (1_067_638, 0));
    let (n, st) = g67.count_tours_by(CountFlags::default(), CountMethod::Frontier, None).unwrap();
    assert_eq!(n, 1_067_638);
    assert!(st.peak_states > 0);
    let g5 = Graph::new(5, 5).unwrap();
    let open = CountFlags { open: true, directed: true, ..Default::default() };
    assert_eq!(g5.count_tours(open, None).unwrap(), 1728);
    assert_eq!(g5.count_tours(CountFlags { open: true, ..Default::default() }, None).unwrap(), 864);
    assert_eq!(g5.count_tours(CountFlags::default(), None).unwrap(), 0);
    // open tours by their ends: from a corner, corner to opposite corner
    // (brute force in tests/test_count.c), and every start summing to all
    assert_eq!(g5.count_open_tours(Some(0), None, false, None).unwrap(), 304);
    assert_eq!(g5.count_open_tours(None, Some(24), true, None).unwrap(), 304);
    assert_eq!(g5.count_open_tours(Some(0), Some(24), false, None).unwrap(), 56);
    let all: u128 = (0..25).map(|c| g5.count_open_tours(Some(c), None, false, None).unwrap()).sum();
    assert_eq!(all, 1728);
    // the table by start cell: the same counts, one per cell, 0 on the
    // smaller colour, symmetric under the square's transpose
    let t = g5.count_open_by_start(Some(&Options::new().unwrap().threads(2).unwrap())).unwrap();
    assert_eq!(t.len(), 25);
    assert_eq!(t.iter().sum::<u128>(), 1728);
    for c in 0..25usize {
        assert_eq!(t[c], g5.count_open_tours(Some(c as u32), None, false, None).unwrap());
        assert_eq!(t[c], t[(c % 5) * 5 + c / 5]);
    }
    assert_eq!(t[1], 0);
    assert_eq!(g5.count_open_tours(Some(3), Some(3), false, None).unwrap_err().kind(),
               knight::ErrorKind::InvalidArgument);
    // symmetric closed tours of 6x6 are a proper, non-empty part of them
    let sym = g6.count_tours(CountFlags { symmetric: true, ..Default::default() }, None).unwrap();
    assert!(sym > 0 && sym < 9862);
    // shards sum to the whole
    let total: u128 = (0..3)
        .map(|i| {
            let run = Options::new().unwrap().shard(i, 3).unwrap();
            g6.count_tours(CountFlags::default(), Some(&run)).unwrap()
        })
        .sum();
    assert_eq!(total, 9862);
    assert_eq!(count_to_string(13_267_364_410_532), "13267364410532");
    assert_eq!(count_to_string(u128::MAX), u128::MAX.to_string());
    assert_eq!(count_to_u64(1 << 64).unwrap_err().kind(), ErrorKind::Overflow);
}

#[test]
fn mckay_halftours() {
    assert_eq!(HalfTours::count_closed(6, 6, None, None).unwrap(), 9862);
    assert_eq!(HalfTours::count_closed(5, 8, Some(3), None).unwrap(), 44202);
    // open tours, by half-tours with tour ends (OEIS A390833; 6x6 directed)
    assert_eq!(HalfTours::count_open(5, 5, None, None, None, false, None).unwrap(), 864);
    assert_eq!(HalfTours::count_open(6, 6, None, None, None, true, None).unwrap(), 6637920);
    assert_eq!(HalfTours::count_open(5, 5, Some(2), Some(0), Some(24), false, None).unwrap(), 56);
    assert_eq!(HalfTours::count_open(5, 5, None, Some(3), Some(3), false, None).unwrap_err().kind(),
               ErrorKind::InvalidArgument);
    let half = HalfTours::enumerate(6, 3, 3, None).unwrap();
    assert_eq!(half.geometry(), (6, 3, 3));
    assert_eq!(half.len(), 1658);
    let st = half.stats().unwrap();
    assert_eq!(st.structures, 1658);
    assert_eq!(half.iter().map(|s| s.count).sum::<u64>(), st.halftours);
    let mut seen = 0;
    half.for_each(|_| { seen += 1; true }).unwrap();
    assert_eq!(seen, 1658);
    assert_eq!(half.for_each(|_| false).unwrap_err().kind(), ErrorKind::Canceled);
    let s = half.get(7).unwrap();
    assert_eq!(half.find(&s.partner[..12]).unwrap(), Some((7, s.count)));
    assert_eq!(HalfTours::join(&half, &half, None).unwrap(), 9862);
    let shards: u128 = (0..2)
        .map(|i| HalfTours::join(&half, &half, Some(&Options::new().unwrap().shard(i, 2).unwrap())).unwrap())
        .sum();
    assert_eq!(shards, 9862);
    assert!(HalfTours::types_compatible(2, &[2, 2], &[0, 0]).unwrap());
    assert_eq!(HalfTours::enumerate(9, 3, 3, None).unwrap_err().kind(), ErrorKind::Unsupported);
    // Send + Sync: join from another thread
    let shared = Arc::new(half);
    let h2 = Arc::clone(&shared);
    let n = std::thread::spawn(move || HalfTours::join(&h2, &h2, None).unwrap()).join().unwrap();
    assert_eq!(n, 9862);
}

#[test]
fn generated_tours_validate() {
    for (w, h) in [(5, 6), (8, 8), (10, 12), (3, 10)] {
        let g = Graph::new(w, h).unwrap();
        for seed in 0..3 {
            let t = g.closed_tour(seed, None).unwrap();
            assert!(t.is_closed_tour() && t.size() == 1);
            tour_is_valid(&g, &t);
            assert_eq!(g.closed_tour(seed, None).unwrap(), t);
        }
    }
    let g8 = Graph::new(8, 8).unwrap();
    assert_ne!(g8.closed_tour(1, None).unwrap(), g8.closed_tour(2, None).unwrap());
    tour_is_valid(&g8, &g8.divide_tour(3, None).unwrap());
    // W+ (Squirrel and Cull) is deterministic: the seed plays no part
    assert_eq!(
        g8.warnsdorff_tour(Shape::Path, None, TieBreak::WPlus, 1, None).unwrap(),
        g8.warnsdorff_tour(Shape::Path, None, TieBreak::WPlus, 2, None).unwrap()
    );
    assert_eq!(TieBreak::W2.name(), "w2");
    for tie in TieBreak::ALL {
        let t = g8.warnsdorff_tour(Shape::Path, Some(0), tie, 5, None).unwrap();
        tour_is_valid(&g8, &t);
        assert_eq!(t.cells().next(), Some(0).filter(|_| t.ends().unwrap().0 == 0).or(t.cells().next()));
    }
    let g5 = Graph::new(5, 5).unwrap();
    assert_eq!(g5.closed_tour(0, None).unwrap_err().kind(), ErrorKind::NoTour);
    let t = g5.open_tour(Some(0), None, 1, None).unwrap();
    assert!(t.is_open_tour());
    tour_is_valid(&g5, &t);
    assert_eq!(t.ends().unwrap().0, 0);
    assert_eq!(t.moves().count(), 24);
    assert_eq!(g5.open_tour(Some(1), None, 1, None).unwrap_err().kind(), ErrorKind::NoTour);
    let ex = g5.exhaustive_tour(Shape::Path, Some(0), None, None).unwrap();
    tour_is_valid(&g5, &ex);
    let g4 = Graph::new(4, 4).unwrap();
    let small = Options::new().unwrap().budget(10);
    assert_eq!(g4.exhaustive_tour(Shape::Path, None, None, Some(&small)).unwrap_err().kind(), ErrorKind::Limit);
    assert_eq!(g4.exhaustive_tour(Shape::Path, None, None, None).unwrap_err().kind(), ErrorKind::NoTour);
    assert!(board_has_closed_tour(6, 6) && !board_has_closed_tour(3, 8) && board_has_open_tour(3, 4));
}

#[test]
fn tourneys_rails_and_stats() {
    let g = Graph::new(8, 8).unwrap();
    for method in GenMethod::ALL {
        assert_eq!(method.name().parse::<GenMethod>().unwrap(), method);
    }
    assert_eq!("no-such".parse::<GenMethod>().unwrap_err().kind(), ErrorKind::InvalidArgument);
    for method in [GenMethod::Blocks, GenMethod::Divide, GenMethod::Braid, GenMethod::FourCover, GenMethod::Warnsdorff] {
        let mut t = g.tourney(method, 1, None).unwrap();
        assert_eq!(t.cells().count(), 64, "{:?}", method);
        assert_eq!(t.moves().count(), 64, "{:?}", method);
        let labels = t.cycle_labels();
        assert_eq!(*labels.iter().max().unwrap() as usize + 1, t.size());
        t.join(11, None).unwrap();
        assert!(t.is_closed_tour(), "{:?}", method);
        tour_is_valid(&g, &t);
    }
    let mut four = g.tourney(GenMethod::FourCover, 0, None).unwrap();
    assert_eq!(four.size(), 16);
    let rails_total = four.count_rails().unwrap();
    {
        let mut rails = four.rails().unwrap();
        assert_eq!(rails.len() as u64, rails_total);
        let counts = rails.counts();
        assert_eq!(counts.iter().flatten().sum::<u64>(), rails_total);
        let (edges, comps) = rails.graph_summary().unwrap();
        assert!(edges > 0 && (1..=16).contains(&comps), "{} {}", edges, comps);
        let rail = rails.iter().find(|r| rails.joins(*r).unwrap().0).unwrap();
        assert_eq!(g.rail_cells(rail).unwrap()[0], rail.top);
        assert_eq!(rails.switch(rail).unwrap(), Effect::Merge);
        assert_eq!(rails.tourney_size(), 15);
        let back = Rail { top: rail.top, primary: rail.cross, cross: rail.primary };
        assert_eq!(rails.switch(back).unwrap(), Effect::Split);
        assert_eq!(rails.switch(back).unwrap_err().kind(), ErrorKind::InvalidArgument);
    }
    assert_eq!(four, g.tourney(GenMethod::FourCover, 0, None).unwrap());
    let before = g.closed_tour(3, None).unwrap();
    let mut t = before.clone();
    t.shatter(4).unwrap();
    assert!(t.size() > 1);
    t.shatter_sequential(5).unwrap();
    t.join(4, None).unwrap();
    assert!(t.is_closed_tour());
    let mut t = before.clone();
    t.obfuscate(0, 9, None).unwrap();
    assert!(t.is_closed_tour() && t != before);
    let mut open = Graph::new(5, 5).unwrap().open_tour(None, None, 0, None).unwrap();
    assert_eq!(open.join(0, None).unwrap_err().kind(), ErrorKind::Unsupported);
    // stats
    let mut stats = Stats::new().unwrap();
    for seed in 0..5 {
        stats.add(&g.closed_tour(seed, None).unwrap()).unwrap();
    }
    assert_eq!(stats.count(), 5);
    let m = stats.moves().unwrap();
    assert!((m.mean.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    let r = stats.relative().unwrap();
    assert_eq!(r.mean[4], 0.0);
    let d = before.move_distribution();
    let c = before.move_counts();
    assert_eq!(c.iter().sum::<u64>(), 64);
    assert!((d[0] - c[0] as f64 / 64.0).abs() < 1e-12);
    assert_eq!(before.relative_move_counts()[4], 0);
    assert!((before.relative_move_distribution().iter().sum::<f64>() - 1.0).abs() < 1e-9);
}

#[test]
fn io_every_format_and_diagnostics() {
    let g = Graph::new(6, 6).unwrap();
    let t = g.closed_tour(5, None).unwrap();
    for f in [Format::Numbers, Format::Moves, Format::Svg] {
        let text = t.to_text(f).unwrap();
        assert_eq!(Tourney::parse(&text, f).unwrap(), t, "{:?}", f);
        assert_eq!(Tourney::parse(&text, Format::Auto).unwrap(), t, "{:?} auto", f);
        assert_eq!(Tourney::parse_with(Some(&g), &text, f, false).unwrap(), t);
        let mut out = Vec::new();
        t.write_to(f, &WriteOptions::default(), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), text);
    }
    let opts = WriteOptions { start: Some(7), svg_numbers: true, svg_no_board: true, reverse: true };
    let numbered = t.to_text_with(Format::Numbers, &WriteOptions { start: Some(7), ..Default::default() }).unwrap();
    assert_eq!(numbered.split_whitespace().nth(7), Some("1"));
    assert!(t.to_text_with(Format::Svg, &opts).unwrap().starts_with('<'));
    assert_eq!(t.to_string(), t.to_text(Format::Numbers).unwrap());
    // a reader told the numbers are an open tour
    let open = Tourney::parse_with(None, &t.to_text(Format::Numbers).unwrap(), Format::Numbers, true).unwrap();
    assert!(open.is_open_tour());
    // parse errors carry line and column
    let e = Tourney::parse("1 2\n3 x\n", Format::Numbers).unwrap_err();
    assert_eq!((e.kind(), e.position(), e.line(), e.column()), (ErrorKind::Parse, Some((2, 3)), Some(2), Some(3)));
    assert_eq!((e.rule(), e.cell()), (None, None));
    let e = Tourney::parse("1 2 3\n4 5 5\n7 8 9\n", Format::Numbers).unwrap_err();
    assert_eq!((e.kind(), e.rule(), e.cell(), e.position()), (ErrorKind::BadTour, Some(Rule::Repeated), Some(5), Some((2, 5))));
    assert!(e.to_string().contains("at cell 5") && e.to_string().contains("line 2, column 5"));
    let order: Vec<Cell> = (0..25).collect();
    let e = Tourney::from_order(&Graph::new(5, 5).unwrap(), &order, Shape::Path).unwrap_err();
    assert_eq!((e.rule(), e.cell(), e.position()), (Some(Rule::NotAMove), Some(0), None));
    let e = Graph::from_mask_text("ooo\nooo\nooo\noo\n", (2, 1)).unwrap_err();
    assert_eq!((e.kind(), e.position()), (ErrorKind::Parse, Some((4, 3))));
    let e = t.to_text(Format::Auto).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument);
    // a failing writer
    struct Broken;
    impl std::io::Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> { Err(std::io::Error::new(std::io::ErrorKind::Other, "full")) }
        fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
    }
    assert_eq!(t.write_to(Format::Svg, &WriteOptions::default(), &mut Broken).unwrap_err().to_string(), "full");
    // successors and move pairs round trip; the validator names rule and cell
    let succ: Vec<Cell> = t.successors().into_iter().map(|s| s.unwrap()).collect();
    g.validate_successors(&succ).unwrap();
    assert_eq!(Tourney::from_successors(&g, &succ).unwrap(), t);
    assert_eq!(Tourney::from_move_pairs(&g, &t.move_pairs()).unwrap(), t);
    let mut bad = succ.clone();
    bad[0] = bad[1];
    assert_eq!(g.validate_successors(&bad).unwrap_err().kind(), ErrorKind::BadTour);
    assert!(g.validate_successors(&bad).unwrap_err().rule().is_some());
}

#[test]
fn graph_queries_and_walks() {
    let g = Graph::new(8, 8).unwrap();
    assert_eq!((g.vertex_count(), g.cell_count(), g.leaper(), g.has_holes()), (64, 64, (2, 1), false));
    assert_eq!(g.cell(3, 2), Some(19));
    assert_eq!(g.coords(19), Some((3, 2)));
    assert_eq!(g.cell(8, 0), None);
    assert_eq!(g.move_delta(0), (2, -1));
    assert_eq!((g.degree(0), g.move_mask(0).count_ones()), (2, 2));
    assert_eq!(g, Graph::new(8, 8).unwrap());
    assert_ne!(g, Graph::new(8, 7).unwrap());
    assert_eq!(Graph::new(0, 1).unwrap_err().kind(), ErrorKind::InvalidArgument);
    assert_eq!(Graph::new(0, 1).unwrap_err().name(), "KT_EINVAL");
    let mut mask = vec![true; 20];
    mask[15] = false;
    mask[19] = false;
    let k = Graph::custom(5, 4, (2, 1), Some(&mask)).unwrap();
    assert!(k.has_holes() && k.vertex_count() == 18);
    let mut marked = vec![false; 20];
    for c in [0, 4, 8, 14] { marked[c] = true; }
    let (per, total) = k.count_walks(10, Some(&marked), 2, None).unwrap();
    assert_eq!(total, 1_013_398);
    assert_eq!(per[0], 30_004);
    let t = Graph::new(1, 1).unwrap().exhaustive_tour(Shape::Cycles, None, None, None).unwrap();
    assert_eq!(t.to_text(Format::Moves).unwrap(), "-\n");
    let (maj, _, _) = version();
    assert_eq!(maj, 1);
    assert!(version_string().starts_with("1."));
    assert!(is_error(6) && !is_error(0));
    assert_eq!(ErrorKind::from_status(99), ErrorKind::Unknown(99));
    assert_eq!(ErrorKind::Limit.name(), "KT_ELIMIT");
}

#[test]
fn progress_cancel_trace_and_panics() {
    // Progress is throttled (a few reports a second), so only the generators'
    // documented last report (done == total, before they return) is certain.
    let g = Graph::new(6, 6).unwrap();
    let g8 = Graph::new(8, 8).unwrap();
    let calls = AtomicU64::new(0);
    let mut last = (0, 0);
    let mut steps = 0u64;
    {
        let run = Options::new().unwrap()
            .progress(|d, t| {
                calls.fetch_add(1, Ordering::Relaxed);
                assert!(t == 0 || d <= t);
                last = (d, t);
                true
            })
            .trace(|_, _| steps += 1);
        assert_eq!(g.count_tours(CountFlags::default(), Some(&run)).unwrap(), 9862);
        assert!(g8.closed_tour(3, Some(&run)).unwrap().is_closed_tour());
        assert!(format!("{:?}", run).contains("progress: true"));
    }
    assert!(calls.load(Ordering::Relaxed) >= 1);
    assert!(last.1 > 0 && last.0 == last.1, "last report {:?}", last);
    assert!(steps >= 36, "{} trace steps", steps); // one per cell at least
    // a progress closure that says stop
    let stop = Options::new().unwrap().progress(|_, _| false);
    assert_eq!(g8.closed_tour(1, Some(&stop)).unwrap_err().kind(), ErrorKind::Canceled);
    assert_eq!(g8.divide_tour(1, Some(&stop)).unwrap_err().kind(), ErrorKind::Canceled);
    let mut t = g8.tourney(GenMethod::FourCover, 0, None).unwrap();
    assert_eq!(t.join(1, Some(&stop)).unwrap_err().kind(), ErrorKind::Canceled);
    assert_eq!(t.size(), 16); // unchanged
    // a cancel flag shared with another owner
    let flag = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let f2 = Arc::clone(&flag);
    let cancel = Options::new().unwrap().cancel(move || f2.load(Ordering::Relaxed));
    assert_eq!(g8.closed_tour(2, Some(&cancel)).unwrap_err().kind(), ErrorKind::Canceled);
    flag.store(false, Ordering::Relaxed);
    assert!(g8.closed_tour(2, Some(&cancel)).unwrap().is_closed_tour());
    // a panicking closure cancels the C call and the panic comes back out
    let boom = Options::new().unwrap().progress(|_, _| panic!("boom"));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = g8.closed_tour(5, Some(&boom));
    }));
    let msg = r.unwrap_err();
    assert_eq!(msg.downcast_ref::<&str>(), Some(&"boom"));
    // and a panic in a semimagic solution closure too
    let o = SemimagicOptions::new(5).unwrap();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut o = SemimagicOptions::new(5).unwrap();
        o.set_flags(SemimagicFlags::default()).unwrap();
        let _ = o.search(None, |_| panic!("solution"));
    }));
    assert_eq!(r.unwrap_err().downcast_ref::<&str>(), Some(&"solution"));
    drop(o);
    // the library is still fine afterwards
    let ok = Options::new().unwrap().threads(1).unwrap();
    assert_eq!(g.count_tours(CountFlags::default(), Some(&ok)).unwrap(), 9862);
    // settings read back
    let o = Options::new().unwrap().threads(3).unwrap().shard(1, 4).unwrap().budget(77)
        .checkpoint("/tmp/knight-rust-never-written", -1.0).unwrap();
    assert_eq!((o.thread_setting(), o.thread_count(), o.shard_setting(), o.budget_setting()), (3, 3, (1, 4), 77));
    assert_eq!(o.checkpoint_path().as_deref(), Some("/tmp/knight-rust-never-written"));
    let c = o.copy_settings().unwrap();
    assert_eq!((c.thread_setting(), c.budget_setting()), (3, 77));
    assert_eq!(Options::new().unwrap().threads(100_000).unwrap_err().kind(), ErrorKind::InvalidArgument);
    // Options is Send: move it to a thread
    let run = Options::new().unwrap().threads(1).unwrap();
    let n = std::thread::spawn(move || Graph::new(6, 6).unwrap().count_tours(CountFlags::default(), Some(&run)).unwrap())
        .join().unwrap();
    assert_eq!(n, 9862);
}

#[test]
fn semimagic() {
    let mut o = SemimagicOptions::new(5).unwrap();
    o.set_flags(SemimagicFlags::default()).unwrap();
    o.set_symmetry(Symmetry::All).unwrap();
    let s = o.search(None, |_| true).unwrap();
    assert_eq!((s.classes, s.solutions), (216, 1728));
    o.set_symmetry(Symmetry::Classes).unwrap();
    let all = o.solutions(None).unwrap();
    assert_eq!(all.len(), 216);
    for (k, sol) in all.iter().enumerate() {
        assert_eq!((sol.class, sol.class_size, sol.size), (k as u64, 8, 5));
        assert!(sol.satisfies && sol.numbers.len() == 25);
        assert!(o.check(&sol.numbers).unwrap());
        let rev = sol.reverse_class.unwrap() as usize;
        assert_eq!(all[rev].reverse_class, Some(k as u64));
    }
    // a numbered tour from the solutions is a real open tour of 5x5
    let g = Graph::new(5, 5).unwrap();
    let mut order = vec![0; 25];
    for (cell, &num) in all[0].numbers.iter().enumerate() { order[num as usize - 1] = cell as Cell; }
    assert!(Tourney::from_order(&g, &order, Shape::Path).unwrap().is_open_tour());
    // stopping from the closure
    let mut n = 0;
    let e = o.search(None, |_| { n += 1; n < 3 }).unwrap_err();
    assert_eq!((e.kind(), n), (ErrorKind::Canceled, 3));
    // start cells, grid, exists
    o.set_start_cells(&[0]).unwrap();
    let w = o.exists(None).unwrap().expect("a tour from the corner");
    assert_eq!(w[0], 1);
    o.set_start_cells(&[1]).unwrap();
    assert_eq!(o.exists(None).unwrap(), None); // 5x5: no open tour starts next to the corner
    o.set_start_cells(&[]).unwrap();
    let mut grid = vec![0u32; 25];
    grid[12] = 1;
    o.set_grid(Some(&grid)).unwrap();
    assert!(o.exists(None).unwrap().map(|w| w[12] == 1).unwrap_or(false));
    o.set_grid(None).unwrap();
    o.set_start_column(Some(0)).unwrap();
    o.set_end_column(None).unwrap();
    o.set_puzzle_rule().unwrap();
    o.set_end_cells(&[]).unwrap();
    let mut m = SemimagicOptions::new(8).unwrap();
    assert_eq!(m.flags(), SemimagicFlags { lines: true, ..Default::default() });
    assert_eq!(m.set_flags(SemimagicFlags { nested: true, ..Default::default() }), Ok(()));
    assert_eq!(SemimagicOptions::new(6).unwrap().set_flags(SemimagicFlags { nested: true, ..Default::default() })
        .unwrap_err().kind(), ErrorKind::Unsupported);
    assert_eq!(SemimagicOptions::new(17).unwrap_err().kind(), ErrorKind::Unsupported);
}

#[test]
fn semimagic_puzzle() {
    // seed solution #1 of the nested semimagic 8x8 tours (tests/semimagic_data.h)
    let sol: Vec<u32> = vec![
        47, 2, 49, 32, 15, 34, 17, 64, 30, 51, 46, 3, 62, 19, 14, 35, 1, 48, 31, 50, 33, 16, 63, 18,
        52, 29, 4, 45, 20, 61, 36, 13, 43, 6, 53, 28, 37, 12, 59, 22, 54, 27, 44, 5, 60, 21, 38, 11,
        7, 42, 25, 56, 9, 40, 23, 58, 26, 55, 8, 41, 24, 57, 10, 39];
    let mut o = SemimagicOptions::new(8).unwrap();
    o.set_flags(SemimagicFlags { nested: true, ..Default::default() }).unwrap();
    o.set_puzzle_rule().unwrap();
    let run = Options::new().unwrap().threads(2).unwrap();
    let p = o.make_puzzle(&sol, 5, 200_000, Some(&run)).unwrap();
    assert_eq!(p.givens as usize, p.grid.iter().filter(|&&g| g != 0).count());
    assert!(p.grid.iter().zip(&sol).all(|(&g, &s)| g == 0 || g == s));
    assert!(p.difficulty > 0);
    // the completion search, every numbering counted, finds only sol
    o.set_grid(Some(&p.grid)).unwrap();
    o.set_symmetry(Symmetry::All).unwrap();
    let all = o.solutions(None).unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].numbers, sol);
    assert_eq!(o.make_puzzle(&sol[..63], 5, 0, None).unwrap_err().kind(), ErrorKind::InvalidArgument);
}

#[test]
fn semimagic_rectangles() {
    // OEIS A309273: semimagic tours of 4 x n whose columns add up (9, 16, 38
    // for n = 7, 8, 9; 4 x 9 is past the 8 x 8 layout)
    for &(n, want) in &[(6u32, 0u64), (7, 9), (8, 16), (9, 38)] {
        let mut o = SemimagicOptions::new_rect(n, 4).unwrap();
        assert_eq!((o.width(), o.height(), o.size()), (n, 4, 0));
        o.set_flag_bits(sys::KT_SEMIMAGIC_COLUMNS).unwrap();
        assert_eq!(o.flag_bits(), sys::KT_SEMIMAGIC_COLUMNS);
        let mut dims = Vec::new();
        let s = o.search(None, |sol| { dims.push((sol.width(), sol.height(), sol.numbers().len())); true }).unwrap();
        assert_eq!((s.classes, s.solutions), (want, 4 * want));
        assert!(dims.iter().all(|&d| d == (n, 4, 4 * n as usize)));
        for sol in o.solutions(None).unwrap() {
            assert!(o.check(&sol.numbers).unwrap());
            for x in 0..n as usize {
                assert_eq!((0..4).map(|y| sol.numbers[y * n as usize + x]).sum::<u32>(), 2 * (4 * n + 1));
            }
        }
    }
    let mut o = SemimagicOptions::new_rect(7, 4).unwrap();
    assert_eq!(o.set_flag_bits(sys::KT_SEMIMAGIC_ROWS).unwrap_err().kind(), ErrorKind::Unsupported);
    assert_eq!(SemimagicOptions::new_rect(17, 4).unwrap_err().kind(), ErrorKind::Unsupported);
}

#[test]
fn semimagic_halfturn() {
    // Centrally symmetric closed 6x6 tours from a corner (k and k + 18 on
    // opposite cells): 78 tours, both ways
    let mut o = SemimagicOptions::new(6).unwrap();
    o.set_flag_bits(sys::KT_SEMIMAGIC_HALFTURN).unwrap();
    assert_eq!(o.flag_bits(), sys::KT_SEMIMAGIC_HALFTURN | sys::KT_SEMIMAGIC_CLOSED);
    o.set_start_cells(&[0]).unwrap();
    o.set_symmetry(Symmetry::All).unwrap();
    let sols = o.solutions(None).unwrap();
    assert_eq!(sols.len(), 156);
    for sol in &sols {
        let n = &sol.numbers;
        assert!((0..36).all(|p| n[35 - p] == if n[p] <= 18 { n[p] + 18 } else { n[p] - 18 }));
    }
}

#[test]
fn semimagic_big_boards() {
    // 12x12 magic tours (Kumar 2003): a bounded search stops on its node
    // budget, and a progress closure cancels it
    let mut o = SemimagicOptions::new(12).unwrap();
    o.set_flags(SemimagicFlags { magic: true, ..Default::default() }).unwrap();
    assert_eq!((o.size(), o.width(), o.height()), (12, 12, 12));
    let run = Options::new().unwrap().threads(1).unwrap().budget(100_000);
    assert_eq!(o.exists(Some(&run)).unwrap_err().kind(), ErrorKind::Limit);
    let mut calls = 0u32;
    let run = Options::new().unwrap().threads(1).unwrap().progress(|_, _| { calls += 1; false });
    assert_eq!(o.exists(Some(&run)).unwrap_err().kind(), ErrorKind::Canceled);
    drop(run);
    assert!(calls > 0);
    // numbers up to 256: 1..256 along the rows is no knight's tour
    let mut p = SemimagicOptions::new(16).unwrap();
    p.set_flags(SemimagicFlags::default()).unwrap();
    assert!(!p.check(&(1..=256).collect::<Vec<u32>>()).unwrap());
}

// Compile-time checks of the thread markers.
#[allow(dead_code)]
fn markers() {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    send_sync::<Graph>();
    send_sync::<HalfTours>();
    send_sync::<SemimagicOptions>();
    send::<Tourney>();
    send::<Stats>();
    send::<Options<'static>>();
    send::<Rails<'static>>();
}

#[test]
fn uniform_sampler() {
    let g6 = Graph::new(6, 6).unwrap();
    let s = Sampler::new(&g6, Shape::Cycles, None, None, None).unwrap();
    // two methods agree: the sampler's stored counts and the frontier count
    assert_eq!(s.total().unwrap(), g6.count_tours(CountFlags::default(), None).unwrap());
    let st = s.stats().unwrap();
    assert!(st.states > 0 && st.bytes == 24 * st.states && st.peak_bytes > 0);
    let mut ranks = std::collections::BTreeSet::new();
    for i in 0..100 {
        let t = s.draw(3, i).unwrap();
        tour_is_valid(&g6, &t);
        assert!(t.is_closed_tour());
        let r = s.rank(&t).unwrap();
        assert_eq!(s.unrank(r).unwrap(), t);
        ranks.insert(r);
    }
    // 100 uniform draws among 9862 tours: a repeat has probability about 0.4
    assert!(ranks.len() >= 98);
    assert_eq!(s.draw(3, 5).unwrap(), s.draw(3, 5).unwrap());
    assert!(s.unrank(9862).is_err());
    // open tours from a corner of 5x5: every rank round-trips
    let g5 = Graph::new(5, 5).unwrap();
    let o = Sampler::new(&g5, Shape::Path, Some(0), None, None).unwrap();
    for r in 0..o.total().unwrap() {
        let t = o.unrank(r).unwrap();
        assert!(t.is_open_tour());
        let (a, b) = t.ends().unwrap();
        assert!(a == 0 || b == 0);
        assert_eq!(o.rank(&t).unwrap(), r);
    }
    let open = CountFlags { open: true, ..Default::default() };
    let all = Sampler::new(&g5, Shape::Path, None, None, None).unwrap();
    assert_eq!(all.total().unwrap(), g5.count_tours(open, None).unwrap());
    // draws from the sampler of every open tour, kept when they end at the
    // corner: every one of its 304 tours comes out of 3,000
    let mut seen = std::collections::HashSet::new();
    for i in 0..3000 {
        let t = all.draw_from(0, 2, i, None).unwrap();
        let (a, b) = t.ends().unwrap();
        assert!(t.is_open_tour() && (a == 0 || b == 0));
        seen.insert(o.rank(&t).unwrap());
    }
    assert_eq!(seen.len() as u128, o.total().unwrap());
    assert_eq!(all.draw_from(1, 2, 0, None).err().unwrap().kind(), ErrorKind::NoTour);
    assert_eq!(s.draw_from(0, 2, 0, None).err().unwrap().kind(), ErrorKind::InvalidArgument);
    assert_eq!(Sampler::new(&g5, Shape::Cycles, None, None, None).err().unwrap().kind(),
               ErrorKind::NoTour);
    // open tours of 8x9: too tall for the half-tours' path (closed
    // 8-column boards and open 8x8 take it), too wide for the frontier
    let g89 = Graph::new(8, 9).unwrap();
    assert_eq!(Sampler::new(&g89, Shape::Path, Some(0), None, None).err().unwrap().kind(),
               ErrorKind::Unsupported);
    let tight = Options::new().unwrap().budget(10);
    assert_eq!(Sampler::new(&g6, Shape::Cycles, None, None, Some(&tight)).err().unwrap().kind(),
               ErrorKind::Limit);
}
