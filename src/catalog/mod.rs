//! The catalog: its records, the files that hold them, and the one pipeline that changes them.

pub mod load;
pub mod model;
pub mod vocabulary;
pub mod check;
pub mod synth;
