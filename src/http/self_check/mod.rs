//! The service checking itself, live: it calls its own router in process (never over the network)
//! as the in-process caller (`http::access::in_process`), with arguments found in the live catalog
//! (`arguments`), and holds each answer to the description (`run`, `json_schema`). The contract run
//! (`contract`, operation 132 and `armory contract`), the examples run (`examples`, 133), the
//! client run (`sdk`, 134) and the samples (`samples`, 131) are made that way and kept (`Caches`).

pub mod agreement;
pub mod arguments;
pub mod contract;
pub mod examples;
pub mod json_schema;
pub mod kept;
pub mod run;
pub mod samples;
pub mod sdk;

/// What the node keeps of its self-checks: the latest contract, examples and client runs (5
/// minutes each) and the samples of the current catalog revision.
#[derive(Default)]
pub struct Caches {
    pub contract: kept::Kept<contract::SelfCheckRun>,
    pub examples: kept::Kept<contract::SelfCheckRun>,
    pub sdk: kept::Kept<sdk::SdkRun>,
    pub samples: samples::SamplesCache,
}
