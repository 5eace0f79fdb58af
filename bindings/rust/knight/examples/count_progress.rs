//! Count the closed tours of a board exactly, with a progress line and a
//! time limit that cancels the count.
//!
//! Usage: cargo run --release --example count_progress -- [WIDTH HEIGHT [SECONDS]]
//! (default 6 6, no limit).  6x6 has 9862 closed tours, 6x8 34,071,328.
use knight::{CountFlags, ErrorKind, Graph, Options};
use std::env;
use std::io::Write;
use std::time::{Duration, Instant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<u64> = env::args().skip(1).map(|s| s.parse()).collect::<Result<_, _>>()?;
    let (w, h) = (*args.first().unwrap_or(&6) as u32, *args.get(1).unwrap_or(&6) as u32);
    let limit = args.get(2).map(|s| Duration::from_secs(*s));
    let g = Graph::new(w, h)?;
    let start = Instant::now();
    let run = Options::new()?
        .progress(|done, total| {
            if total > 0 {
                eprint!("\r{:5.1}%", 100.0 * done as f64 / total as f64);
                let _ = std::io::stderr().flush();
            }
            true
        })
        .cancel(|| limit.map(|l| start.elapsed() > l).unwrap_or(false));
    let result = g.count_tours(CountFlags::default(), Some(&run));
    eprintln!();
    match result {
        Ok(n) => println!("{}x{}: {} closed tours ({:.2?})", w, h, n, start.elapsed()),
        Err(e) if e.kind() == ErrorKind::Canceled => println!("{}x{}: stopped after {:.2?}", w, h, start.elapsed()),
        Err(e) => return Err(e.into()),
    }
    Ok(())
}
