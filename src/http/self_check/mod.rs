//! The service checking itself, live: it calls its own router in process (never over the network)
//! as the in-process caller (`http::access::in_process`), with arguments found in the live catalog
//! (`arguments`), and holds each answer to the description (`run`, `json_schema`). The contract run
//! (`contract`, operation 132 and `armory contract`) and the samples (`samples`, operation 131) are
//! made that way and kept (`Caches`).

pub mod arguments;
pub mod contract;
pub mod json_schema;
pub mod run;
pub mod samples;

/// What the node keeps of its self-checks: the latest contract run (5 minutes) and the samples
/// of the current catalog revision.
#[derive(Default)]
pub struct Caches {
    pub contract: contract::ContractCache,
    pub samples: samples::SamplesCache,
}
