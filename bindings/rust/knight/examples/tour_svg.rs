//! Draw a seeded closed knight's tour as SVG.
//!
//! Usage: cargo run --example tour_svg -- [WIDTH HEIGHT [SEED [OUT.svg]]]
//! (default 8 8 1, written to standard output).
use knight::{Format, Graph, WriteOptions};
use std::env;
use std::fs::File;
use std::io::{self, Write};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = env::args().skip(1).collect();
    let arg = |i: usize, default: u64| -> Result<u64, Box<dyn std::error::Error>> {
        Ok(match args.get(i) { Some(s) => s.parse()?, None => default })
    };
    let (w, h, seed) = (arg(0, 8)? as u32, arg(1, 8)? as u32, arg(2, 1)?);
    let g = Graph::new(w, h)?;
    let tour = g.closed_tour(seed, None)?;
    let opts = WriteOptions { svg_numbers: true, ..WriteOptions::default() };
    match args.get(3) {
        Some(path) => {
            tour.write_to(Format::Svg, &opts, &mut File::create(path)?)?;
            eprintln!("{}x{} closed tour (seed {}) written to {}", w, h, seed, path);
        }
        None => {
            let stdout = io::stdout();
            let mut out = stdout.lock();
            tour.write_to(Format::Svg, &opts, &mut out)?;
            out.flush()?;
        }
    }
    Ok(())
}
