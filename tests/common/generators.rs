//! Seeded position generators for the chain tests.

use super::oracle::{OGrid, XY};
