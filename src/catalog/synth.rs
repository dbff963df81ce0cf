//! A deterministic synthetic catalog for scale tests (`armory catalog synth`).
