//! Access: credentials, plans, limits (raced and gamed), HEAD, and the operator's account commands.

mod accounts_cli;
mod gate;
mod head;
mod limits;
