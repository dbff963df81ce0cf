//! /v1/vendor: the shop's side of sellers (operations 116 to 120). Handlers take a `ShopCaller`
//! (the gate has answered a key no shop names); reads work for a shop under review, writes need
//! the shop approved. The offers themselves live in `sellers`.

pub mod offers;
pub mod shops;
