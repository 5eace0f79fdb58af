//! The numbered open tours of 5x5, one per symmetry class, collected from a
//! search; prints the first and the totals (216 classes, 1728 tours).
use knight::{SemimagicFlags, SemimagicOptions, Symmetry};

fn main() -> Result<(), knight::Error> {
    let mut o = SemimagicOptions::new(5)?;
    o.set_flags(SemimagicFlags::default())?;
    o.set_symmetry(Symmetry::Classes)?;
    let classes = o.solutions(None)?;
    for row in classes[0].numbers.chunks(5) {
        println!("{}", row.iter().map(|n| format!("{:3}", n)).collect::<String>());
    }
    let tours: u64 = classes.iter().map(|c| c.class_size as u64).sum();
    println!("{} classes, {} numbered tours", classes.len(), tours);
    Ok(())
}
