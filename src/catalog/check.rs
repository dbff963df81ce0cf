//! Plausibility rules over a loaded catalog (`armory catalog check`).
