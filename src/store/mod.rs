//! Result files in use: a finished solve turned into one ([`save`]), reading
//! one back into the engine's types ([`inspect`]), and the resume file of an
//! interrupted solve ([`resume`]) with its table checkpoint ([`table`]).

pub mod inspect;
pub mod resume;
pub mod save;
pub mod table;
