//! A solved board in use: the value of every move at any position, from
//! the result file's proof where the line stays inside it and from a live
//! search (within a budget) elsewhere ([`oracle`]); a probe of one
//! position ([`probe`]); a Go Text Protocol engine that plays by those
//! values ([`gtp`]); every line to a depth with its values ([`tree`]) as
//! SGF ([`sgf`]) and as a page to browse ([`html`]).

pub mod gtp;
pub mod html;
pub mod known;
pub mod oracle;
pub mod probe;
pub mod sgf;
pub mod tree;
